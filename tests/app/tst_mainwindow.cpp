// The main window on the example task: the editor shows the reference and the variants highlighted, the
// layout survives a restart, recent files and Save Session As work, and a screenshot is kept as an artefact.
#include "app/gui/mainactions.h"
#include "app/gui/mainwindow.h"
#include "app/gui/noticebar.h"
#include "core/log/loghub.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "views/editor/cudalexer.h"
#include "views/editor/kerneleditor.h"

#include <Qsci/qsciscintilla.h>

#include <QDir>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

using namespace kforge;

namespace {
QString exampleTask()
{
    const QDir tasks(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks"));
    if (tasks.exists(QStringLiteral("diag_matmul/task.json")))
        return tasks.filePath(QStringLiteral("diag_matmul"));
    for (const QString &name : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (tasks.exists(name + QStringLiteral("/task.json")))
            return tasks.filePath(name);
    return {};
}

int styleAt(QsciScintilla *e, const QString &word)
{
    e->SendScintilla(QsciScintilla::SCI_COLOURISE, 0L, -1L);
    const qsizetype pos = e->text().toUtf8().indexOf(word.toUtf8());
    return pos < 0 ? -1 : int(e->SendScintilla(QsciScintilla::SCI_GETSTYLEAT, static_cast<unsigned long>(pos)));
}

// Opens a task folder and waits for it, failing with the window's own message when it cannot.
bool openAndWait(MainWindow &w, const QString &folder, QString *error)
{
    QSignalSpy opened(&w, &MainWindow::taskOpened);
    QSignalSpy failed(&w, &MainWindow::openFailed);
    w.openTaskFolder(folder);
    if (!QTest::qWaitFor([&] { return !opened.isEmpty() || !failed.isEmpty(); }, 20000)) {
        *error = QStringLiteral("timed out");
        return false;
    }
    if (!failed.isEmpty())
        *error = failed.first().first().toString();
    return !opened.isEmpty();
}

QMenu *menuNamed(QMainWindow &w, const QString &title)
{
    for (QAction *a : w.menuBar()->actions())
        if (a->menu() && a->text() == title)
            return a->menu();
    return nullptr;
}
} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_task = exampleTask();
        QVERIFY2(!m_task.isEmpty(), "no task folder under resources/tasks");
    }

    void opensExampleTask()
    {
        Settings settings(m_dir.filePath(QStringLiteral("smoke.ini")));
        LogHub log;
        MainWindow w(settings, log);
        w.resize(1280, 820);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.editor()->count(), 0); // empty state until something is opened
        QVERIFY(!w.actions()->saveSessionAs->isEnabled());

        QSignalSpy toolchain(&w, &MainWindow::toolchainChecked);
        QString error;
        QVERIFY2(openAndWait(w, m_task, &error), qPrintable(error));
        QVERIFY(w.editor()->count() >= 1);
        QCOMPARE(w.editor()->title(0), QStringLiteral("reference"));
        QVERIFY(w.editor()->editor(0)->isReadOnly());
        QVERIFY(w.editor()->editor(0)->text().contains(QLatin1String("KF_ENTRY")));
        QVERIFY(w.windowTitle().contains(QFileInfo(m_task).fileName()));
        QVERIFY(w.actions()->saveSessionAs->isEnabled());
        QCOMPARE(settings.recentFiles().value(0), QDir::cleanPath(m_task));
        QCOMPARE(w.recentMenu()->actions().first()->toolTip(), QDir::cleanPath(m_task));

        // Every tab is CUDA-highlighted: find one with a __global__ kernel.
        bool sawKernel = false;
        for (int i = 0; i < w.editor()->count(); ++i) {
            QsciScintilla *e = w.editor()->editor(i);
            QVERIFY(qobject_cast<CudaLexer *>(e->lexer()));
            if (e->text().contains(QLatin1String("__global__"))) {
                QCOMPARE(styleAt(e, QStringLiteral("__global__")), CudaLexer::cudaKeywordStyle);
                sawKernel = true;
            }
        }
        QVERIFY(sawKernel);
        w.editor()->setCurrentIndex(w.editor()->count() - 1);

        if (toolchain.isEmpty())
            QVERIFY(toolchain.wait(30000));
        const auto info = toolchain.first().first().value<ToolchainInfo>();
        // The banner tells the truth about what is missing.
        if (!info.found)
            QVERIFY(w.notice()->isVisible() && w.notice()->text().contains(QLatin1String("nvcc")));
        QTRY_VERIFY(!log.entries().isEmpty());

        QTest::qWait(100); // let the log hub deliver its last batch
        QDir().mkpath(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR));
        const QString shot = QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/mainwindow.png");
        QVERIFY(w.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));
    }

    void badFolderIsReported()
    {
        Settings settings(m_dir.filePath(QStringLiteral("bad.ini")));
        LogHub log;
        MainWindow w(settings, log);
        QString error;
        QVERIFY(!openAndWait(w, m_dir.path(), &error)); // no task.json here
        QVERIFY2(error.contains(QLatin1String("task.json")), qPrintable(error));
        QCOMPARE(w.editor()->count(), 0);
        QVERIFY(settings.recentFiles().isEmpty());
    }

    void layoutIsRestored()
    {
        const QString ini = m_dir.filePath(QStringLiteral("layout.ini"));
        {
            Settings settings(ini);
            LogHub log;
            MainWindow w(settings, log);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            auto *dock = w.findChild<QDockWidget *>(QStringLiteral("logDock"));
            QVERIFY(dock);
            QVERIFY(dock->isVisible());
            dock->hide();
            w.findChild<QToolBar *>(QStringLiteral("mainToolBar"))->hide();
            w.close();
        }
        Settings settings(ini);
        QVERIFY(!settings.windowState().isEmpty());
        QVERIFY(!settings.windowGeometry().isEmpty());
        LogHub log;
        MainWindow w(settings, log);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.findChild<QDockWidget *>(QStringLiteral("logDock"))->isVisible());
        QVERIFY(!w.findChild<QToolBar *>(QStringLiteral("mainToolBar"))->isVisible());
    }

    void menusAndShortcuts()
    {
        Settings settings(m_dir.filePath(QStringLiteral("menus.ini")));
        LogHub log;
        MainWindow w(settings, log);
        for (const QString &title : {QStringLiteral("&File"), QStringLiteral("&Edit"), QStringLiteral("&View"),
                                     QStringLiteral("&Tools"), QStringLiteral("&Help")})
            QVERIFY2(menuNamed(w, title), qPrintable(title));
        QCOMPARE(w.actions()->openTaskFolder->shortcut(), QKeySequence(QKeySequence::Open));
        QCOMPARE(w.actions()->quit->shortcut(), QKeySequence(QKeySequence::Quit));
        QCOMPARE(w.actions()->undo->shortcut(), QKeySequence(QKeySequence::Undo));
        QCOMPARE(w.actions()->find->shortcut(), QKeySequence(QKeySequence::Find));
        QVERIFY(!w.actions()->settings->shortcut().isEmpty());
        QVERIFY(menuNamed(w, QStringLiteral("&View"))->actions().contains(
            w.findChild<QDockWidget *>(QStringLiteral("logDock"))->toggleViewAction()));
    }

    void saveSessionAsAndReopen()
    {
        Settings settings(m_dir.filePath(QStringLiteral("session.ini")));
        LogHub log;
        MainWindow w(settings, log);
        QString error;
        QVERIFY2(openAndWait(w, m_task, &error), qPrintable(error));
        const int tabs = w.editor()->count();

        const QString file = m_dir.filePath(QStringLiteral("example.kforge"));
        QVERIFY(w.saveSessionAs(file));
        QVERIFY(w.session()->isOpen());
        QCOMPARE(w.session()->path(), file);
        QVERIFY(w.taskFolder().isEmpty());
        QCOMPARE(w.editor()->count(), tabs); // the reference and the task's variants, now from the session
        QCOMPARE(settings.recentFiles().value(0), file);

        // Save As of an open session copies it and continues in the copy.
        const QString copy = m_dir.filePath(QStringLiteral("copy.kforge"));
        QVERIFY(w.saveSessionAs(copy));
        QCOMPARE(w.session()->path(), copy);
        QCOMPARE(w.editor()->count(), tabs);
        QCOMPARE(w.session()->population().size(), tabs);

        // Reopen through the path dispatcher, as the recent-files menu does.
        MainWindow again(settings, log);
        QSignalSpy sessions(&again, &MainWindow::sessionOpened);
        again.openPath(file);
        QCOMPARE(sessions.count(), 1);
        QCOMPARE(again.editor()->count(), tabs);
    }

private:
    QTemporaryDir m_dir;
    QString m_task;
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
