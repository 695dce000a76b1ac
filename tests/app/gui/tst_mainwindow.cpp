// The main window on the example task: the editor shows the reference and the variants highlighted, the
// layout survives a restart, recent files and Save Session As work, and a screenshot is kept as an artefact.
// The workbench's docks are all there and wired: a task gets a working session, a fork edited in the editor
// and evaluated with Ctrl+Enter is compiled by the real nvcc and its errors come back as editor markers, a
// dropped .cu file becomes a variant, and comparing two variants fills Compare and Diff.
#include "app/gui/mainactions.h"
#include "app/gui/mainwindow.h"
#include "app/gui/noticebar.h"
#include "core/compile/cudatoolkit.h"
#include "core/log/loghub.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/workbench/workbench.h"
#include "core/workerpool/workerconfig.h"
#include "views/compare/comparepanel.h"
#include "views/diff/diffmodel.h"
#include "views/diff/diffview.h"
#include "views/editor/cudalexer.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/kerneltab.h"
#include "views/editor/readonlybar.h"
#include "views/editor/varianttabbinding.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <Qsci/qsciscintilla.h>

#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
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

// A worker that is ready (it reports a GPU) but measures nothing: the stand-in at the worker pool's interface,
// for what needs an evaluation to be accepted without needing a GPU result (no usable worker: tst_mainmenus).
WorkerConfig readyStandInWorker()
{
    WorkerConfig c;
    c.name = QStringLiteral("stand-in");
    c.command = QStringLiteral("\"" KFORGE_TEST_SOURCE_DIR "/tests/fixtures/workers/scripted-worker.sh\" normal");
    return c;
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
        QVERIFY(!w.actions()->undo->isEnabled());
        QVERIFY(!w.actions()->find->isEnabled());

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

    void compareWithReference()
    {
        Settings settings(m_dir.filePath(QStringLiteral("diff.ini")));
        LogHub log;
        MainWindow w(settings, log);
        w.resize(1280, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.actions()->compareWithReference->isEnabled());
        QString error;
        QVERIFY2(openAndWait(w, m_task, &error), qPrintable(error));
        if (w.editor()->count() < 2)
            QSKIP("the example task has no variants to compare");
        QVERIFY(w.actions()->compareWithReference->isEnabled());
        auto *dock = w.findChild<QDockWidget *>(QStringLiteral("diffDock"));
        QVERIFY(dock);
        w.editor()->setCurrentIndex(w.editor()->count() - 1);
        w.actions()->compareWithReference->trigger();
        QVERIFY(dock->isVisible());
        QVERIFY(!w.diffView()->model().identical());
        QCOMPARE(w.diffView()->leftEditor()->lines(), w.diffView()->model().rowCount());
        // Editing the current tab re-diffs after a pause.
        QsciScintilla *e = w.editor()->currentEditor();
        e->setReadOnly(false);
        e->insertAt(QStringLiteral("// edited\n"), 0, 0);
        auto showsEdit = [&w] {
            const auto &rows = w.diffView()->model().rows();
            return std::any_of(rows.begin(), rows.end(),
                               [](const DiffRow &r) { return r.right == QLatin1String("// edited"); });
        };
        QVERIFY(!showsEdit());
        QTRY_VERIFY(showsEdit());
        QVERIFY(w.grab().save(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/mainwindow-diff.png")));
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
        QVERIFY(menuNamed(w, QStringLiteral("&View"))
                    ->actions()
                    .contains(w.findChild<QDockWidget *>(QStringLiteral("logDock"))->toggleViewAction()));
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
        QCOMPARE(sessions.count(), 0); // loaded off the GUI thread
        QTRY_COMPARE_WITH_TIMEOUT(sessions.count(), 1, 20000);
        QCOMPARE(again.editor()->count(), tabs);

        // A broken file: a clear message, and nothing open.
        const QString junk = m_dir.filePath(QStringLiteral("junk.kforge"));
        {
            QFile f(junk);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("this is not an SQLite file, just bytes\n");
        }
        QSignalSpy failed(&again, &MainWindow::openFailed);
        again.openPath(junk);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
        QVERIFY2(failed.first().first().toString().contains(QLatin1String("junk.kforge")),
                 qPrintable(failed.first().first().toString()));
        QVERIFY(!again.session()->isOpen());
    }

    void workbenchDocks()
    {
        Settings settings(m_dir.filePath(QStringLiteral("docks.ini")));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QMenu *view = menuNamed(w, QStringLiteral("&View"));
        QVERIFY(view);
        const QStringList names{QStringLiteral("roundDock"),     QStringLiteral("variantsDock"),
                                QStringLiteral("reasoningDock"), QStringLiteral("chartsDock"),
                                QStringLiteral("compareDock"),   QStringLiteral("diffDock"),
                                QStringLiteral("logDock"),       QStringLiteral("taskDock")};
        for (const QString &name : names) {
            auto *dock = w.findChild<QDockWidget *>(name);
            QVERIFY2(dock, qPrintable(name));
            QVERIFY2(dock->widget(), qPrintable(name));
            QVERIFY2(view->actions().contains(dock->toggleViewAction()), qPrintable(name));
        }
        QCOMPARE(w.dockOf(w.variantsPanel())->objectName(), QStringLiteral("variantsDock"));
        QCOMPARE(w.dockOf(w.comparePanel())->objectName(), QStringLiteral("compareDock"));
        // Keyboard: Compile & Evaluate and the problem navigation are in the Edit menu with their shortcuts.
        QMenu *edit = menuNamed(w, QStringLiteral("&Edit"));
        QVERIFY(edit->actions().contains(w.editor()->evaluateAction()));
        QVERIFY(edit->actions().contains(w.editor()->nextDiagnosticAction()));
        QVERIFY(w.editor()->evaluateAction()->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Return)));
    }

    void taskOpensAWorkingSession()
    {
        Settings settings(m_dir.filePath(QStringLiteral("working.ini")));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QString error;
        QVERIFY2(openAndWait(w, m_task, &error), qPrintable(error));
        QVERIFY(w.session()->isOpen());
        QVERIFY(w.session()->hasTask());
        const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        QVERIFY2(w.session()->path().startsWith(dataDir + QStringLiteral("/sessions/")), qPrintable(w.session()->path()));
        QCOMPARE(w.taskFolder(), QDir::cleanPath(m_task));
        // The panels observe it: the reference and the task's variants are rows of the Variants table.
        QCOMPARE(w.variantsPanel()->model()->rowCount(), int(w.session()->population().size()));
        QVERIFY(w.session()->population().reference());
        QCOMPARE(w.editor()->referenceIndex(), 0);
        QCOMPARE(w.editor()->variantId(0), w.session()->population().reference()->id);
        QCOMPARE(w.editor()->count(), int(w.session()->population().size()));
        QCOMPARE(settings.recentFiles().value(0), QDir::cleanPath(m_task)); // the folder, not the working file
    }

    void forkEditEvaluateShowsCompilerErrors()
    {
        if (CudaToolkit::locateNvcc().isEmpty())
            QSKIP("no nvcc here: the compile step of an evaluation cannot run");
        Settings settings(m_dir.filePath(QStringLiteral("fork.ini")));
        settings.setWorkers({readyStandInWorker()}); // the compiler's answer is what this checks; no GPU is needed for it
        LogHub log;
        MainWindow w(settings, log);
        w.show();
        QTRY_VERIFY_WITH_TIMEOUT(w.workbench()->readiness().canEvaluate(), 20000);
        QString error;
        QVERIFY2(openAndWait(w, m_task, &error), qPrintable(error));
        const qint64 referenceId = w.session()->population().reference()->id;

        // Fork to edit, from the reference tab's bar.
        QSignalSpy forked(w.editor(), &KernelEditor::forkRequested);
        QVERIFY(w.editor()->evaluateAction()->isEnabled()); // the reference is current: Ctrl+Enter measures it
        const int tabsBefore = w.editor()->count();
        Q_EMIT w.editor()->forkRequested(0);
        QCOMPARE(w.editor()->count(), tabsBefore + 1);
        const int fork = w.editor()->currentIndex();
        QCOMPARE(fork, tabsBefore);
        QVERIFY(!w.editor()->isReadOnly(fork));
        QCOMPARE(w.editor()->variantId(fork), 0);

        // A compile error on a known line, then Ctrl+Enter in the editor.
        QsciScintilla *e = w.editor()->editor(fork);
        const QString broken = QStringLiteral("#include \"kforge/kernel.h\"\n\n"
                                              "KF_ENTRY(in, nin, out, nout, params, stream)\n{\n"
                                              "    int x = undeclared_name_here;\n"
                                              "    return cudaSuccess;\n}\n");
        e->setText(broken);
        e->setFocus();
        QSignalSpy added(w.session(), &SessionStore::variantAdded);
        QTest::keyClick(e, Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(added.count(), 1);
        const qint64 id = added.first().first().toLongLong();
        QCOMPARE(w.editor()->variantId(fork), id);
        QVERIFY(!w.editor()->isReadOnly(fork)); // only a finished evaluation makes a source read-only
        QCOMPARE(w.session()->population().find(id)->parentIds, QList<qint64>{referenceId});
        QCOMPARE(w.session()->variants().source(id), broken);

        // nvcc's answer comes back as the variant's status and as markers in the tab.
        QTRY_VERIFY_WITH_TIMEOUT(w.session()->population().find(id)->status == VariantStatus::Failed, 180000);
        QTRY_VERIFY2_WITH_TIMEOUT(!w.editor()->diagnostics(fork).isEmpty(),
                                  qPrintable(w.session()->population().find(id)->statusMessage), 10000);
        bool onLine5 = false;
        for (const Diagnostic &d : w.editor()->diagnostics(fork))
            onLine5 = onLine5
                      || (d.severity == Diagnostic::Severity::Error && d.line == 5
                          && d.message.contains(QLatin1String("undeclared_name_here")));
        QVERIFY2(onLine5, qPrintable(w.editor()->status(fork)));
        QVERIFY(e->markersAtLine(4) != 0); // QScintilla lines are 0-based
        QVERIFY(!e->annotation(4).isEmpty());
        QVERIFY2(w.editor()->status(fork).contains(QLatin1String("ompil")), qPrintable(w.editor()->status(fork)));
        QVERIFY(w.grab().save(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/mainwindow-compile-error.png")));
        // A compile error leaves the text editable: the typo is fixed in place, not in a fork of a fork.
        QVERIFY(!w.editor()->isReadOnly(fork));
        QVERIFY(!w.editor()->tab(fork)->readOnlyBar()->isVisible());
        const int tabsNow = w.editor()->count();
        QString fixed = broken;
        fixed.replace(QStringLiteral("undeclared_name_here"), QStringLiteral("0"));
        e->setText(fixed);
        e->setFocus();
        QTest::keyClick(e, Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(added.count(), 2);
        const qint64 again = added.last().first().toLongLong();
        QCOMPARE(w.editor()->count(), tabsNow);
        QCOMPARE(w.editor()->variantId(fork), again);
        QCOMPARE(w.editor()->title(fork), w.session()->population().find(again)->label);
        // The new attempt descends from what the fork was made of, not from the text that did not compile.
        QCOMPARE(w.session()->population().find(again)->parentIds, QList<qint64>{referenceId});
        QCOMPARE(w.session()->variants().source(again), fixed);

        // The failed variant stays in the session, and a fork of it (from the Variants panel) starts from its text.
        Q_EMIT w.variantsPanel()->forkRequested(id);
        const int second = w.editor()->currentIndex();
        QVERIFY(second != fork);
        QCOMPARE(w.editor()->source(second), broken);
    }

    void sessionTabsFollowTheReadOnlyRules()
    {
        // The real H200 session: the reference, two bundled variants never evaluated, model variants measured
        // (#6) and failed to compile (#4).
        Settings settings(m_dir.filePath(QStringLiteral("rules.ini")));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        w.resize(1280, 800);
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        const QString file = m_dir.filePath(QStringLiteral("rules.kforge"));
        QVERIFY(QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge"), file));
        QFile(file).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QVERIFY2(w.openSession(file), qPrintable(w.session()->errorString()));
        KernelEditor *ed = w.editor();
        QCOMPARE(ed->count(), 3); // reference, naive, good
        QVERIFY(ed->isReadOnly(ed->indexOfVariant(1)));
        QCOMPARE(ed->tab(ed->indexOfVariant(1))->readOnlyBar()->text(),
                 QStringLiteral("The reference defines what is correct and is read-only."));
        for (qint64 bundled : {2, 3}) {
            const int index = ed->indexOfVariant(bundled);
            QVERIFY(index >= 0);
            QVERIFY2(!ed->isReadOnly(index), "never evaluated: nothing to keep as measured");
            ed->setCurrentIndex(index);
            QVERIFY(!ed->tab(index)->readOnlyBar()->isVisible());
        }
        const int measured = w.tabs()->showVariant(6);
        QVERIFY(ed->isReadOnly(measured));
        QVERIFY(ed->tab(measured)->readOnlyBar()->isVisible());
        QCOMPARE(ed->tab(measured)->readOnlyBar()->text(),
                 QStringLiteral("This variant has been evaluated and is read-only."));
        const int compileError = w.tabs()->showVariant(4);
        QVERIFY2(!ed->isReadOnly(compileError), "a compile error leaves the source editable");

        // Ctrl+Enter and the toolbar button: one action, one behaviour, also with focus in the Variants table.
        QSignalSpy evaluate(ed, &KernelEditor::evaluateRequested);
        ed->setCurrentIndex(ed->indexOfVariant(2));
        w.variantsPanel()->view()->setFocus();
        QTRY_VERIFY(w.variantsPanel()->view()->hasFocus());
        QTest::keyClick(w.variantsPanel()->view(), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(evaluate.size(), 1);
        QCOMPARE(evaluate.last().first().toInt(), ed->indexOfVariant(2));
        const QString afterKey = ed->status(ed->indexOfVariant(2));
        ed->setCurrentIndex(ed->indexOfVariant(3));
        QToolBar *toolBar = w.findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        QVERIFY(toolBar->actions().contains(ed->evaluateAction()));
        ed->evaluateAction()->trigger();
        QCOMPARE(evaluate.size(), 2);
        QCOMPARE(evaluate.last().first().toInt(), ed->indexOfVariant(3));
        QCOMPARE(ed->status(ed->indexOfVariant(3)), afterKey);

        // Tabs close, and the Variants panel opens them again.
        const int before = ed->count();
        ed->closeTab(ed->indexOfVariant(6));
        QCOMPARE(ed->count(), before - 1);
        QCOMPARE(ed->indexOfVariant(6), -1);
        w.selection()->setCurrent(6);
        Q_EMIT w.variantsPanel()->view()->doubleClicked(w.variantsPanel()->view()->currentIndex());
        QVERIFY(ed->indexOfVariant(6) >= 0);
        QVERIFY(ed->isReadOnly(ed->indexOfVariant(6)));
        QCOMPARE(ed->currentIndex(), ed->indexOfVariant(6));
        QTest::qWait(100);
        QVERIFY(w.grab().save(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/mainwindow-editor-tabs.png")));
    }

    void droppedKernelBecomesAVariant()
    {
        Settings settings(m_dir.filePath(QStringLiteral("drop.ini")));
        settings.setWorkers({readyStandInWorker()});
        LogHub log;
        MainWindow w(settings, log);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY_WITH_TIMEOUT(w.workbench()->readiness().canEvaluate(), 20000);
        QString error;
        QVERIFY2(openAndWait(w, m_task, &error), qPrintable(error));
        const QString file = m_dir.filePath(QStringLiteral("dropped_kernel.cu"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("#include \"kforge/kernel.h\"\n// dropped onto the window\n");
        }
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(file)});
        QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QMimeData text;
        text.setUrls({QUrl::fromLocalFile(m_dir.filePath(QStringLiteral("notes.txt")))});
        QDragEnterEvent refused(QPoint(50, 50), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &refused);
        QVERIFY(!refused.isAccepted());

        const qsizetype before = w.session()->population().size();
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QCOMPARE(w.session()->population().size(), before + 1);
        const Variant &v = w.session()->population().variants().back();
        QVERIFY(v.origin == VariantOrigin::Manual);
        QCOMPARE(v.label, QStringLiteral("dropped_kernel"));
        QVERIFY(w.session()->variants().source(v.id).contains(QLatin1String("dropped onto the window")));
        const int tab = w.editor()->indexOfVariant(v.id);
        QVERIFY(tab >= 0);
        QCOMPARE(w.editor()->currentIndex(), tab);
    }

    void compareTwoVariantsFillsCompareAndDiff()
    {
        Settings settings(m_dir.filePath(QStringLiteral("compare.ini")));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        w.show();
        QString error;
        QVERIFY2(openAndWait(w, m_task, &error), qPrintable(error));
        QList<qint64> ids;
        for (const Variant &v : w.session()->population().variants())
            if (v.origin == VariantOrigin::Imported)
                ids << v.id;
        QVERIFY2(ids.size() >= 2, "the example task has at least two hand-written variants");
        w.selection()->setComparePair(ids[0], ids[1]);
        Q_EMIT w.variantsPanel()->compareRequested(ids[0], ids[1]);
        QCOMPARE(w.comparePanel()->variantA(), ids[0]);
        QCOMPARE(w.comparePanel()->variantB(), ids[1]);
        QVERIFY(w.dockOf(w.comparePanel())->isVisible());
        // The Diff dock shows the pair, titled by the variants (slower on the left).
        QStringList titles;
        for (const QLabel *l : w.diffView()->findChildren<QLabel *>())
            titles << l->text();
        for (qint64 id : {ids[0], ids[1]})
            QVERIFY2(titles.join(u' ').contains(QStringLiteral("#%1 ").arg(id)),
                     qPrintable(titles.join(QStringLiteral(" | "))));
        QVERIFY(!w.diffView()->model().identical());
    }

private:
    QTemporaryDir m_dir;
    QString m_task;
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
