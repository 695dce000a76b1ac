// Issue 14's fresh user session, end to end on the real MainWindow, driven as a user drives it: the first start
// without settings fits the screen; a task folder opens, its reference is forked, a typo typed and Ctrl+Enter
// pressed: with no worker the real nvcc's error shows on its line and the tab stays editable, nothing enters
// the session; the H200 session opens; two variants are compared; File → Export Variant… writes the best as
// a CMake project; File → Save Report… writes the report; Chinese and the dark theme are chosen in Settings,
// the window moved and closed. A second process (this binary with --second-start) then starts from the same
// settings file and reports what came back: the language, the theme, the recent files, the session open when the
// first closed (reopened as main() does) and the geometry.
#include "app/gui/exportactions.h"
#include "app/gui/mainactions.h"
#include "app/gui/mainwindow.h"
#include "core/compile/cudatoolkit.h"
#include "core/export/sessionexportsource.h"
#include "core/log/loghub.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/settings/translations.h"
#include "guitesthelpers.h"
#include "views/compare/comparepanel.h"
#include "views/diff/diffview.h"
#include "views/editor/compileonly.h"
#include "views/editor/kerneleditor.h"
#include "views/export/exportdialog.h"
#include "views/export/exportplanmodel.h"
#include "views/settings/generalpage.h"
#include "views/settings/settingsdialog.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <Qsci/qsciscintilla.h>

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cstdio>

using namespace kforge;

namespace {

const QString docsSession = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge");
const QString taskFolder = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/diag_matmul");

QString shotDir()
{
    return QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/firstrun");
}

void shot(QWidget *w, const QString &name)
{
    test::saveShot(w, shotDir(), name);
}

// Answers the next file dialog with `path`, as a user typing it and pressing Enter would. The File menu's
// dialogs are modal and block in exec(): the answer has to come from the event loop they run. The dialog may
// refuse an answer while it still reads the folder, so it is asked again until it takes one; after 15 s it is
// cancelled, and `answered` stays false.
void answerFileDialog(const QString &path, bool *answered)
{
    auto *poll = new QTimer(qApp);
    poll->setInterval(100);
    auto *clock = new QElapsedTimer;
    clock->start();
    QObject::connect(poll, &QObject::destroyed, qApp, [clock] { delete clock; });
    QObject::connect(poll, &QTimer::timeout, poll, [poll, clock, path, answered] {
        for (QWidget *w : QApplication::topLevelWidgets()) {
            auto *dialog = qobject_cast<QFileDialog *>(w);
            if (!dialog || !dialog->isVisible())
                continue;
            if (clock->elapsed() > 15000) {
                qWarning("the file dialog did not take %s (it shows %s)", qPrintable(path),
                         qPrintable(dialog->directory().absolutePath()));
                dialog->reject();
                break;
            }
            // A folder is chosen from inside it (double-click into it, then Choose); a file by typing its path
            // into the name field and pressing Enter.
            if (dialog->fileMode() == QFileDialog::Directory) {
                dialog->setDirectory(path);
                static_cast<QDialog *>(dialog)->accept(); // QFileDialog::accept(), as the Choose button
            } else if (auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"))) {
                name->setFocus();
                name->selectAll();
                QTest::keyClicks(name, path);
                QTest::keyClick(name, Qt::Key_Return);
            }
            if (dialog->result() != QDialog::Accepted) {
                QStringList visible;
                for (QWidget *t : QApplication::topLevelWidgets())
                    if (t->isVisible())
                        visible << QString::fromLatin1(t->metaObject()->className()) + u':' + t->windowTitle();
                qInfo("the file dialog (%s) did not take %s yet: %s; %s", qPrintable(dialog->directory().absolutePath()),
                      qPrintable(path), qPrintable(dialog->selectedFiles().join(u',')), qPrintable(visible.join(u',')));
                return;
            }
            *answered = true;
            break;
        }
        if (*answered || clock->elapsed() > 15000) {
            poll->stop();
            poll->deleteLater();
        }
    });
    poll->start();
}

QString menuTitles(QMainWindow &w)
{
    QStringList titles;
    for (QAction *a : w.menuBar()->actions())
        titles << a->text();
    return titles.join(u'|');
}

QString rectText(const QRect &r)
{
    return QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

// The second start: a MainWindow from `settingsFile` as kforge's main() makes it (translations first), and
// what it restored, one `key=value` a line on stdout.
int secondStart(const QString &settingsFile)
{
    QStandardPaths::setTestModeEnabled(true);
    Settings settings(settingsFile);
    Translations::install(settings.language());
    LogHub log;
    MainWindow w(settings, log);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return 2;
    // As main() does without a path: the session the first start had open comes back.
    QSignalSpy reopened(&w, &MainWindow::sessionOpened);
    if (w.reopenLastSession() && !QTest::qWaitFor([&] { return reopened.count() > 0; }, 20000))
        return 3;
    QTest::qWait(200);
    QStringList recent;
    for (QAction *a : w.recentMenu()->actions())
        if (!a->isSeparator() && !a->toolTip().isEmpty() && a != w.actions()->clearRecent)
            recent << a->toolTip();
    const QScreen *screen = w.screen();
    QStringList out;
    out << QStringLiteral("language=") + settings.language() << QStringLiteral("menus=") + menuTitles(w)
        << QStringLiteral("theme=") + Settings::themeName(settings.theme())
        << QStringLiteral("windowLightness=%1").arg(w.palette().color(QPalette::Window).lightness())
        << QStringLiteral("recent=") + recent.join(u'|') << QStringLiteral("session=") + w.session()->path()
        << QStringLiteral("geometry=") + rectText(w.geometry())
        << QStringLiteral("frame=") + rectText(w.frameGeometry())
        << QStringLiteral("available=") + (screen ? rectText(screen->availableGeometry()) : QString());
    shot(&w, QStringLiteral("8-second-start"));
    std::fputs((out.join(u'\n') + u'\n').toUtf8().constData(), stdout);
    std::fflush(stdout);
    return 0;
}

QRect parseRect(const QString &text)
{
    const QStringList parts = QString(text).replace(u'x', u',').replace(u' ', u',').split(u',');
    if (parts.size() != 4)
        return {};
    return QRect(parts[0].toInt(), parts[1].toInt(), parts[2].toInt(), parts[3].toInt());
}

} // namespace

class TestFirstRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        const QString missing = test::guiTestSetUp(m_dir, {docsSession, taskFolder});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        QVERIFY2(QFileInfo(taskFolder).isDir(), qPrintable(taskFolder));
    }

    void freshUserSession()
    {
        const QString settingsFile = m_dir.filePath(QStringLiteral("kforge.ini"));
        QVERIFY(!QFileInfo::exists(settingsFile));
        QRect left;
        QString sessionCopy;
        qint64 best = 0;
        {
            Settings settings(settingsFile);
            settings.setWorkers({}); // no GPU worker here: Ctrl+Enter compiles only
            LogHub log;
            MainWindow w(settings, log);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));

            // 1. The first start fits the screen.
            const QRect available = w.screen()->availableGeometry();
            QVERIFY2(available.contains(w.frameGeometry()),
                     qPrintable(rectText(w.frameGeometry()) + QStringLiteral(" in ") + rectText(available)));
            shot(&w, QStringLiteral("1-first-start"));

            // 2. File → Open Task Folder…, fork the reference, type a typo, Ctrl+Enter.
            QSignalSpy taskOpened(&w, &MainWindow::taskOpened);
            bool answered = false;
            answerFileDialog(taskFolder, &answered);
            w.actions()->openTaskFolder->trigger();
            QVERIFY(answered);
            QVERIFY(taskOpened.wait(20000) || taskOpened.count() == 1);
            QCOMPARE(QFileInfo(taskOpened.first().first().toString()).canonicalFilePath(),
                     QFileInfo(taskFolder).canonicalFilePath());
            QVERIFY(w.session()->isOpen());
            const qsizetype variants = w.session()->population().size();
            const qint64 reference = w.session()->population().reference()->id;
            const int referenceTab = w.editor()->indexOfVariant(reference);
            QVERIFY(referenceTab >= 0);
            QVERIFY(w.editor()->isReadOnly(referenceTab));
            w.editor()->setCurrentIndex(referenceTab);
            QVERIFY(w.editor()->forkAction()->isEnabled());
            const int tabs = w.editor()->count();
            w.editor()->forkAction()->trigger(); // the read-only tab's "Fork to Edit"
            QCOMPARE(w.editor()->count(), tabs + 1);
            const int fork = w.editor()->currentIndex();
            QVERIFY(!w.editor()->isReadOnly(fork));
            QsciScintilla *e = w.editor()->editor(fork);
            const QStringList lines = e->text().split(u'\n');
            const QString call = QStringLiteral("cublas_handle();");
            int line = -1;
            for (int i = 0; i < lines.size() && line < 0; ++i)
                if (lines[i].contains(QStringLiteral("= ") + call))
                    line = i;
            QVERIFY(line >= 0);
            e->setFocus();
            e->setCursorPosition(line, int(lines[line].indexOf(call) + call.size() - 3)); // before "();"
            QTest::keyClicks(e, QStringLiteral("_typo"));
            QVERIFY2(e->text().contains(QStringLiteral("cublas_handle_typo();")),
                     qPrintable(e->text().split(u'\n').value(line)));
            shot(&w, QStringLiteral("2-fork-with-typo"));
            QSignalSpy added(w.session(), &SessionStore::variantAdded);
            auto *compileOnly = w.findChild<CompileOnly *>();
            QVERIFY(compileOnly);
            QSignalSpy compiled(compileOnly, &CompileOnly::compiled);
            QTest::keyClick(e, Qt::Key_Return, Qt::ControlModifier);
            QVERIFY(e->text().contains(QStringLiteral("cublas_handle_typo();"))); // no line break typed
            QVERIFY(!w.editor()->isReadOnly(fork));
            // The real nvcc's error on the typo's line; without one (a machine with no CUDA) the rest still runs.
            if (!CudaToolkit::locateNvcc().isEmpty()) {
                QVERIFY(compiled.wait(180000));
                QCOMPARE(compiled.first().at(1).toBool(), false);
                bool onItsLine = false;
                for (const Diagnostic &d : w.editor()->diagnostics(fork))
                    onItsLine = onItsLine
                                || (d.line == line + 1 && d.message.contains(QStringLiteral("cublas_handle_typo")));
                QVERIFY2(onItsLine, qPrintable(w.editor()->status(fork)));
                QVERIFY(!w.editor()->isReadOnly(fork)); // stays editable
                QVERIFY2(w.editor()->status(fork).contains(QStringLiteral("not added to the session")),
                         qPrintable(w.editor()->status(fork)));
            } else {
                qWarning("no nvcc found: the typo's diagnostic is not checked");
            }
            QCOMPARE(added.count(), 0);
            QCOMPARE(w.session()->population().size(), variants);
            shot(&w, QStringLiteral("2-typo-diagnostic"));

            // 3. File → Open Session… on a copy of the H200 session.
            sessionCopy = m_dir.filePath(QStringLiteral("h200-diag_matmul-gui.kforge"));
            QVERIFY(QFile::copy(docsSession, sessionCopy));
            QFile::setPermissions(sessionCopy, QFile::ReadOwner | QFile::WriteOwner);
            QSignalSpy sessionOpened(&w, &MainWindow::sessionOpened);
            answered = false;
            answerFileDialog(sessionCopy, &answered);
            w.actions()->openSession->trigger();
            QVERIFY(answered);
            QVERIFY(sessionOpened.wait(20000) || sessionOpened.count() == 1);
            QCOMPARE(w.session()->path(), sessionCopy);
            QTRY_VERIFY(w.variantsPanel()->model()->rowCount() > 5);
            shot(&w, QStringLiteral("3-h200-session"));

            // 4. Two variants selected in the Variants table, then "Compare the Two Selected".
            QString error;
            best = SessionExportSource::resolveVariant(*w.session(), QStringLiteral("best"), &error);
            QVERIFY2(best > 0, qPrintable(error));
            qint64 other = 0;
            for (const Variant &v : w.session()->population().variants())
                if (v.origin != VariantOrigin::Reference && v.isCorrect() && v.id != best && !other)
                    other = v.id;
            QVERIFY(other);
            QDockWidget *variantsDock = w.dockOf(w.variantsPanel());
            variantsDock->raise();
            QTableView *table = w.variantsPanel()->view();
            QItemSelection pair;
            for (int row = 0; row < table->model()->rowCount(); ++row) {
                const QModelIndex i = table->model()->index(row, 0);
                const qint64 id = i.data(VariantsModel::IdRole).toLongLong();
                if (id == best || id == other)
                    pair.select(i, i);
            }
            table->selectionModel()->select(pair, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            QTRY_COMPARE(w.variantsPanel()->selectedIds().size(), 2);
            std::unique_ptr<QMenu> menu(w.variantsPanel()->createContextMenu(nullptr));
            QAction *compare = menu->findChild<QAction *>(QStringLiteral("compare"));
            QVERIFY(compare && compare->isEnabled());
            compare->trigger();
            QCOMPARE(w.comparePanel()->variantA(), best); // the faster first
            QCOMPARE(w.comparePanel()->variantB(), other);
            QTRY_VERIFY(w.dockOf(w.comparePanel())->isVisible());
            QVERIFY2(w.comparePanel()->headlineText().startsWith(QStringLiteral("#%1 is").arg(best)),
                     qPrintable(w.comparePanel()->headlineText()));
            QVERIFY(w.dockOf(w.diffView())->isVisible());
            QVERIFY2(w.diffView()->leftTitle().contains(QStringLiteral("#%1").arg(best)),
                     qPrintable(w.diffView()->leftTitle()));
            QVERIFY2(w.diffView()->rightTitle().contains(QStringLiteral("#%1").arg(other)),
                     qPrintable(w.diffView()->rightTitle()));
            shot(&w, QStringLiteral("4-compare"));

            // 5. The best selected alone in the table, then File → Export Variant…, as a CMake project.
            QModelIndex bestRow;
            for (int row = 0; row < table->model()->rowCount() && !bestRow.isValid(); ++row)
                if (table->model()->index(row, 0).data(VariantsModel::IdRole).toLongLong() == best)
                    bestRow = table->model()->index(row, 0);
            table->selectionModel()->setCurrentIndex(bestRow,
                                                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            QTRY_COMPARE(w.variantsPanel()->selectedIds(), QList<qint64>{best});
            QTRY_COMPARE(w.exports()->exportTarget(), best);
            w.actions()->exportVariant->trigger();
            auto *dialog = w.findChild<ExportDialog *>();
            QVERIFY(dialog && dialog->isVisible());
            QVERIFY(dialog->windowTitle().contains(QStringLiteral("#%1").arg(best)));
            dialog->setFormat(ExportFormat::CMake);
            const QString out = m_dir.filePath(QStringLiteral("exported"));
            dialog->setOutputFolder(out);
            dialog->refresh();
            QTRY_VERIFY_WITH_TIMEOUT(dialog->planModel()->plan().outDir() == out && dialog->exportButton()->isEnabled(),
                                     20000);
            QCOMPARE(dialog->options().format, ExportFormat::CMake);
            shot(dialog, QStringLiteral("5-export-dialog"));
            QSignalSpy exported(w.exports(), &ExportActions::finished);
            QTest::mouseClick(dialog->exportButton(), Qt::LeftButton);
            QVERIFY(exported.wait(20000));
            QVERIFY2(exported.first().at(2).toString().isEmpty(), qPrintable(exported.first().at(2).toString()));
            QVERIFY(QFileInfo::exists(out + QStringLiteral("/CMakeLists.txt")));
            bool kernelThere = false;
            const QString entry = QStringLiteral("KF_ENTRY");
            for (QDirIterator it(out, {QStringLiteral("*.cu")}, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
                QFile f(it.next());
                QVERIFY(f.open(QIODevice::ReadOnly));
                kernelThere = kernelThere || QString::fromUtf8(f.readAll()).contains(entry);
            }
            QVERIFY2(kernelThere, "the exported project holds the kernel");
            if (w.exports()->resultBox())
                w.exports()->resultBox()->close();

            // 6. File → Save Report….
            const QString report = m_dir.filePath(QStringLiteral("report.html"));
            QSignalSpy saved(w.exports(), &ExportActions::finished);
            answered = false;
            answerFileDialog(report, &answered);
            w.actions()->saveReport->trigger();
            QVERIFY(answered);
            QVERIFY(saved.wait(20000));
            QVERIFY2(saved.first().at(2).toString().isEmpty(), qPrintable(saved.first().at(2).toString()));
            QFile f(report);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString html = QString::fromUtf8(f.readAll());
            QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
            QVERIFY2(html.contains(QStringLiteral("#%1").arg(best)), "the report names the best variant");
            shot(w.exports()->resultBox(), QStringLiteral("6-report-saved"));
            w.exports()->resultBox()->close();

            // 7. Settings: 简体中文 and the dark theme; the window moved and resized, then closed.
            w.actions()->settings->trigger();
            auto *settingsDialog = w.findChild<SettingsDialog *>();
            QVERIFY(settingsDialog && settingsDialog->isVisible());
            auto *general = qobject_cast<GeneralPage *>(settingsDialog->page(SettingsDialog::General));
            QVERIFY(general);
            general->languageBox()->setCurrentIndex(general->languageBox()->findText(QStringLiteral("简体中文")));
            general->themeBox()->setCurrentIndex(general->themeBox()->findData(int(Theme::Dark)));
            QVERIFY(general->languageBox()->currentData().toString() == QLatin1String("zh_CN"));
            shot(settingsDialog, QStringLiteral("7-settings"));
            QTest::mouseClick(settingsDialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
            QCOMPARE(settings.language(), QStringLiteral("zh_CN"));
            QCOMPARE(settings.theme(), Theme::Dark);
            QTRY_VERIFY(w.palette().color(QPalette::Window).lightness() < 128); // dark at once

            const QRect target(available.left() + 40, available.top() + 30, available.width() * 4 / 5,
                               available.height() * 4 / 5);
            w.setGeometry(target);
            QTRY_COMPARE(w.geometry().size(), target.size());
            QTest::qWait(200); // the window manager, where there is one, settles the position
            left = w.geometry();
            QVERIFY2(available.contains(w.frameGeometry()), qPrintable(rectText(w.frameGeometry())));
            shot(&w, QStringLiteral("7-dark-moved"));
            QVERIFY(w.close());
        }
        QVERIFY(QFileInfo::exists(settingsFile));

        // 8. The restart, in a separate process from the same settings file.
        QProcess child;
        child.setProcessChannelMode(QProcess::SeparateChannels);
        child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--second-start"), settingsFile});
        QVERIFY2(child.waitForFinished(60000), qPrintable(child.errorString()));
        const QString err = QString::fromLocal8Bit(child.readAllStandardError());
        QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, qPrintable(err));
        QHash<QString, QString> restored;
        for (const QString &l : QString::fromUtf8(child.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts))
            if (const qsizetype eq = l.indexOf(u'='); eq > 0)
                restored.insert(l.left(eq), l.mid(eq + 1));
        qInfo("second start: %s", qPrintable(QStringList(restored.keys()).join(u' ')));
        for (auto it = restored.cbegin(); it != restored.cend(); ++it)
            qInfo("  %s = %s", qPrintable(it.key()), qPrintable(it.value()));
        QCOMPARE(restored.value(QStringLiteral("language")), QStringLiteral("zh_CN"));
        const QString menus = restored.value(QStringLiteral("menus"));
        QVERIFY2(menus.startsWith(QStringLiteral("文件")), qPrintable(menus)); // File, in Chinese
        QVERIFY2(!menus.contains(QStringLiteral("&File")), qPrintable(menus));
        QCOMPARE(restored.value(QStringLiteral("theme")), Settings::themeName(Theme::Dark));
        QVERIFY2(restored.value(QStringLiteral("windowLightness")).toInt() < 128,
                 qPrintable(restored.value(QStringLiteral("windowLightness"))));
        const QStringList recent = restored.value(QStringLiteral("recent")).split(u'|');
        QVERIFY2(recent.size() >= 2, qPrintable(restored.value(QStringLiteral("recent"))));
        QCOMPARE(QFileInfo(recent[0]).canonicalFilePath(), QFileInfo(sessionCopy).canonicalFilePath()); // most recent first
        QCOMPARE(QFileInfo(recent[1]).canonicalFilePath(), QFileInfo(taskFolder).canonicalFilePath());
        // The session open when the first start closed is open again.
        QCOMPARE(QFileInfo(restored.value(QStringLiteral("session"))).canonicalFilePath(),
                 QFileInfo(sessionCopy).canonicalFilePath());
        const QRect geometry = parseRect(restored.value(QStringLiteral("geometry")));
        const QRect available = parseRect(restored.value(QStringLiteral("available")));
        QCOMPARE(geometry, left);
        QVERIFY2(available.contains(parseRect(restored.value(QStringLiteral("frame")))),
                 qPrintable(restored.value(QStringLiteral("frame")) + QStringLiteral(" in ") + rectText(available)));
    }

private:
    QTemporaryDir m_dir;
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    // The Qt file dialog, never the platform's: the test answers it from inside its event loop.
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    if (argc == 3 && qstrcmp(argv[1], "--second-start") == 0)
        return secondStart(QString::fromLocal8Bit(argv[2]));
    TestFirstRun test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_firstrun_e2e.moc"
