// The workbench's File menu exports and its no-GPU path, on the real H200 session in docs/: Export Variant…
// (File menu and the Variants context menu) opens the export dialog for the selected or best variant and
// writes a project; Save Report… and Export Training Data… write off the GUI thread and show the result with a
// way to open it, or say specifically what failed. Without a usable worker (none configured, none that
// starts, no GPU) the window says so in one wording with a button to the Workers page, Start Round stays
// disabled with the reason, and Ctrl+Enter compiles only: no variant and no round enter the session.
// Help → Getting Started opens the guide and a copy of the installed example session.
#include "app/gui/exportactions.h"
#include "app/gui/gettingstarted.h"
#include "app/gui/mainactions.h"
#include "app/gui/mainwindow.h"
#include "app/gui/noticebar.h"
#include "core/compile/cudatoolkit.h"
#include "core/export/sessionexportsource.h"
#include "core/log/loghub.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/settings/translations.h"
#include "core/workbench/workbench.h"
#include "core/workerpool/workerconfig.h"
#include "guitesthelpers.h"
#include "views/editor/compileonly.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/varianttabbinding.h"
#include "views/export/exportdialog.h"
#include "views/export/exportplanmodel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/settings/settingsdialog.h"
#include "views/settings/settingspage.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <Qsci/qsciscintilla.h>

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

using namespace kforge;

Q_DECLARE_METATYPE(kforge::WorkerReadiness::State)

namespace {

const QString docsSession = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge");

QMenu *menuNamed(QMainWindow &w, const QString &title)
{
    for (QAction *a : w.menuBar()->actions())
        if (a->menu() && a->text() == title)
            return a->menu();
    return nullptr;
}

QByteArray sha(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

void shot(QWidget *w, const QString &name)
{
    test::saveShot(w, QStringLiteral(KFORGE_TEST_ARTIFACT_DIR), name);
}

QString scriptedWorker(const QString &mode)
{
    return QStringLiteral("\"" KFORGE_TEST_SOURCE_DIR "/tests/fixtures/workers/scripted-worker.sh\" ") + mode;
}

WorkerConfig worker(const QString &name, const QString &command)
{
    WorkerConfig c;
    c.name = name;
    c.command = command;
    return c;
}

QString noticeButtonText(MainWindow &w)
{
    for (QToolButton *b : w.notice()->findChildren<QToolButton *>())
        if (b->defaultAction())
            return b->defaultAction()->text();
    return {};
}

} // namespace

class TestMainMenus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        const QString missing = test::guiTestSetUp(m_dir, {docsSession});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // A fresh copy of the H200 session for each test: sessions are opened for writing.
    QString sessionCopy(const QString &name)
    {
        const QString copy = m_dir.filePath(name + QStringLiteral(".kforge"));
        QFile::remove(copy);
        if (!QFile::copy(docsSession, copy))
            return {};
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
        return copy;
    }

    void fileMenuActions()
    {
        Settings settings(m_dir.filePath(QStringLiteral("menus.ini")));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QMenu *file = menuNamed(w, QStringLiteral("&File"));
        QVERIFY(file);
        for (QAction *a : {w.actions()->exportVariant, w.actions()->saveReport, w.actions()->exportTrainingData}) {
            QVERIFY2(file->actions().contains(a), qPrintable(a->text()));
            QVERIFY2(!a->isEnabled(), qPrintable(a->text())); // nothing open
        }
        QVERIFY(menuNamed(w, QStringLiteral("&Help"))->actions().contains(w.actions()->gettingStarted));
        QVERIFY(menuNamed(w, QStringLiteral("&Tools"))->actions().contains(w.actions()->configureWorkers));
        QCOMPARE(w.actions()->exportVariant->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));

        const QString copy = sessionCopy(QStringLiteral("menus"));
        QVERIFY(w.openSession(copy));
        for (QAction *a : {w.actions()->exportVariant, w.actions()->saveReport, w.actions()->exportTrainingData})
            QVERIFY2(a->isEnabled(), qPrintable(a->text()));
        // Nothing selected: the best variant, as kforge-cli export --variant best chooses it.
        QString error;
        const qint64 best = SessionExportSource::resolveVariant(*w.session(), QStringLiteral("best"), &error);
        QVERIFY2(best > 0, qPrintable(error));
        QCOMPARE(w.exports()->exportTarget(), best);
        QVERIFY(w.actions()->exportVariant->statusTip().contains(QStringLiteral("#%1").arg(best)));
        // A selected correct variant is the one exported; a failed one is not, the best stays.
        const Population &population = w.session()->population();
        const Variant *otherCorrect = nullptr;
        const Variant *failed = nullptr;
        for (const Variant &v : population.variants()) {
            if (v.origin != VariantOrigin::Reference && v.isCorrect() && v.id != best && !otherCorrect)
                otherCorrect = &v;
            if (v.status == VariantStatus::Failed && !failed)
                failed = &v;
        }
        QVERIFY(otherCorrect && failed);
        w.selection()->setCurrent(otherCorrect->id);
        QCOMPARE(w.exports()->exportTarget(), otherCorrect->id);
        QTRY_COMPARE(w.variantsPanel()->selectedIds(), QList<qint64>{otherCorrect->id});
        std::unique_ptr<QMenu> menu(w.variantsPanel()->createContextMenu(nullptr));
        auto *exportOne = menu->findChild<QAction *>(QStringLiteral("export"));
        QVERIFY(exportOne);
        QVERIFY(exportOne->isEnabled());
        QSignalSpy requested(w.variantsPanel(), &VariantsPanel::exportRequested);
        exportOne->trigger();
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.first().first().toLongLong(), otherCorrect->id);
        auto *dialog = w.findChild<ExportDialog *>();
        QVERIFY(dialog); // the window opened it for that variant
        QVERIFY(dialog->windowTitle().contains(QStringLiteral("#%1").arg(otherCorrect->id)));
        dialog->close();

        w.selection()->setCurrent(failed->id);
        QCOMPARE(w.exports()->exportTarget(), best);
        QTRY_COMPARE(w.variantsPanel()->selectedIds(), QList<qint64>{failed->id});
        menu.reset(w.variantsPanel()->createContextMenu(nullptr));
        QVERIFY(!menu->findChild<QAction *>(QStringLiteral("export"))->isEnabled());

        w.session()->close();
        QVERIFY(!w.actions()->saveReport->isEnabled());
        QVERIFY(!w.actions()->exportVariant->isEnabled());
    }

    void exportVariantWritesAProject()
    {
        Settings settings(m_dir.filePath(QStringLiteral("export.ini")));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1280, 800}));
        QVERIFY(w.openSession(sessionCopy(QStringLiteral("export"))));
        const qint64 target = w.exports()->exportTarget();
        w.actions()->exportVariant->trigger();
        auto *dialog = w.findChild<ExportDialog *>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->windowTitle().contains(QStringLiteral("#%1").arg(target)));
        const QString out = m_dir.filePath(QStringLiteral("exported"));
        dialog->setOutputFolder(out);
        dialog->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(dialog->planModel()->plan().outDir() == out && dialog->exportButton()->isEnabled(), 20000);
        // Every mnemonic label has its field, so no literal "&" shows.
        for (const QLabel *l : dialog->findChildren<QLabel *>())
            if (l->textFormat() != Qt::RichText && l->text().contains(u'&'))
                QVERIFY2(l->buddy(), qPrintable(l->text()));
        shot(dialog, QStringLiteral("menus-export-dialog"));
        QSignalSpy finished(w.exports(), &ExportActions::finished);
        dialog->exportNow();
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.first().at(0).toString(), out);
        QVERIFY(finished.first().at(2).toString().isEmpty());
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/CMakeLists.txt")));
        QMessageBox *box = w.exports()->resultBox();
        QVERIFY(box && box->isVisible());
        QVERIFY2(box->text().contains(QDir::toNativeSeparators(out)), qPrintable(box->text()));
        QVERIFY(box->findChild<QPushButton *>(QStringLiteral("folder")));
        shot(box, QStringLiteral("menus-export-result"));

        // A variant that was never measured correct: why, not a dialog.
        const Variant *failed = nullptr;
        for (const Variant &v : w.session()->population().variants())
            if (v.status == VariantStatus::Failed)
                failed = &v;
        QVERIFY(failed);
        QSignalSpy refused(w.exports(), &ExportActions::finished);
        QVERIFY(!w.exports()->exportVariant(failed->id));
        QCOMPARE(refused.count(), 1);
        const QString why = refused.first().at(2).toString();
        QVERIFY2(why.contains(QStringLiteral("#%1 cannot be exported").arg(failed->id)), qPrintable(why));
        QVERIFY(w.exports()->resultBox()->isVisible());
        QCOMPARE(w.exports()->resultBox()->icon(), QMessageBox::Warning);
    }

    void saveReport()
    {
        Settings settings(m_dir.filePath(QStringLiteral("report.ini")));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1280, 800}));
        QVERIFY(w.openSession(sessionCopy(QStringLiteral("report"))));
        const QString file = m_dir.filePath(QStringLiteral("report.html"));
        QSignalSpy finished(w.exports(), &ExportActions::finished);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(w.exports()->saveReport(file));
        const qint64 onGuiThread = clock.elapsed();
        qInfo("report: %lld ms on the GUI thread (reading the session)", onGuiThread);
        QVERIFY(w.exports()->isBusy()); // rendering and writing go on elsewhere
        QVERIFY(!w.actions()->saveReport->isEnabled());
        QVERIFY(!w.exports()->saveReport(file)); // one at a time
        QVERIFY(finished.wait(20000));
        QVERIFY2(finished.first().at(2).toString().isEmpty(), qPrintable(finished.first().at(2).toString()));
        QVERIFY(w.actions()->saveReport->isEnabled());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(f.readAll());
        QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
        QVERIFY(html.contains(QStringLiteral("diag_matmul")));
        QVERIFY(html.contains(QStringLiteral("<div class=\"md\"><p>"))); // the model's analysis, rendered
        QVERIFY(!html.contains(QStringLiteral("<script"), Qt::CaseInsensitive));
        QMessageBox *box = w.exports()->resultBox();
        QVERIFY(box && box->isVisible());
        QCOMPARE(box->icon(), QMessageBox::Information);
        QVERIFY(box->text().contains(QDir::toNativeSeparators(file)));
        QVERIFY2(box->informativeText().contains(QStringLiteral("variant")), qPrintable(box->informativeText()));
        QVERIFY(box->findChild<QPushButton *>(QStringLiteral("open")));
        QVERIFY(box->findChild<QPushButton *>(QStringLiteral("folder")));
        shot(box, QStringLiteral("menus-report-result"));

        // A folder that does not exist: the message names the file and the reason.
        const QString bad = m_dir.filePath(QStringLiteral("no/such/folder/report.html"));
        QSignalSpy failed(w.exports(), &ExportActions::finished);
        QVERIFY(w.exports()->saveReport(bad));
        QVERIFY(failed.wait(20000));
        const QString error = failed.first().at(2).toString();
        QVERIFY2(error.contains(QDir::toNativeSeparators(bad)), qPrintable(error));
        QCOMPARE(w.exports()->resultBox()->icon(), QMessageBox::Warning);
        QCOMPARE(w.exports()->resultBox()->text(), error);
        shot(w.exports()->resultBox(), QStringLiteral("menus-report-error"));
    }

    void exportTrainingData()
    {
        Settings settings(m_dir.filePath(QStringLiteral("dataset.ini")));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(w.openSession(sessionCopy(QStringLiteral("dataset"))));
        const QString all = m_dir.filePath(QStringLiteral("all.jsonl"));
        QSignalSpy finished(w.exports(), &ExportActions::finished);
        QVERIFY(w.exports()->exportTrainingData(all));
        QVERIFY(finished.wait(20000));
        QVERIFY(finished.first().at(2).toString().isEmpty());
        QFile f(all);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const int lines = int(f.readAll().count('\n'));
        QVERIFY(lines > 0);
        const QString summary = finished.first().at(1).toString();
        QVERIFY2(summary.startsWith(QStringLiteral("%1 of ").arg(lines)), qPrintable(summary));
        QVERIFY(w.exports()->resultBox()->informativeText() == summary);

        DatasetFilter correct;
        correct.correctOnly = true;
        const QString some = m_dir.filePath(QStringLiteral("correct.jsonl"));
        QSignalSpy again(w.exports(), &ExportActions::finished);
        QVERIFY(w.exports()->exportTrainingData(some, correct));
        QVERIFY(again.wait(20000));
        QFile g(some);
        QVERIFY(g.open(QIODevice::ReadOnly));
        const int correctLines = int(g.readAll().count('\n'));
        QVERIFY2(correctLines < lines, qPrintable(again.first().at(1).toString()));
        QVERIFY(again.first().at(1).toString().contains(QStringLiteral("not correct")));
    }

    void noUsableWorker_data()
    {
        QTest::addColumn<QList<WorkerConfig>>("workers");
        QTest::addColumn<WorkerReadiness::State>("state");
        QTest::addRow("none configured") << QList<WorkerConfig>{} << WorkerReadiness::State::NoWorker;
        QTest::addRow("cannot start") << QList<WorkerConfig>{worker(QStringLiteral("gpu-box"),
                                                                    QStringLiteral("/nonexistent/kforge-worker"))}
                                      << WorkerReadiness::State::CannotStart;
        // What kforge-worker answers on a machine without a usable GPU (here: a stand-in at the pool's interface).
        QTest::addRow("no GPU") << QList<WorkerConfig>{worker(QStringLiteral("local"),
                                                              scriptedWorker(QStringLiteral("nodevice")))}
                                << WorkerReadiness::State::NoGpu;
    }

    void noUsableWorker()
    {
        QFETCH(QList<WorkerConfig>, workers);
        QFETCH(WorkerReadiness::State, state);
        Settings settings(m_dir.filePath(QStringLiteral("noworker.ini")));
        settings.setWorkers(workers);
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1280, 800}));
        QTRY_COMPARE_WITH_TIMEOUT(w.workbench()->readiness().state(), state, 20000);
        const WorkerReadiness readiness = w.workbench()->readiness();
        QVERIFY(readiness.isUnusable());
        QVERIFY(w.openSession(sessionCopy(QStringLiteral("noworker"))));

        // One wording: the notice bar, Round Control's Start and the status bar say the same thing.
        QTRY_VERIFY_WITH_TIMEOUT(w.notice()->isVisible(), 30000); // after the nvcc probe
        const QString notice = w.notice()->text();
        if (!CudaToolkit::locateNvcc().isEmpty()) {
            QCOMPARE(notice, readiness.explanation());
            QVERIFY2(notice.contains(QStringLiteral("Settings → Workers")), qPrintable(notice));
            // The example command only while none is configured; after one failed it could be exactly that one
            // (issue 37).
            QCOMPARE(notice.contains(QStringLiteral("ssh gpu-box kforge-worker")),
                     state == WorkerReadiness::State::NoWorker);
            QVERIFY2(!notice.contains(QStringLiteral("driver"), Qt::CaseInsensitive), qPrintable(notice));
        }
        QCOMPARE(noticeButtonText(w), w.actions()->configureWorkers->text());
        RoundControlPanel *rounds = w.roundControlPanel();
        QVERIFY(!rounds->startButton()->isEnabled());
        QCOMPARE(rounds->startButton()->toolTip(), readiness.explanation());
        QVERIFY2(rounds->noticeText().contains(readiness.summary() + QStringLiteral(" — Settings → Workers")),
                 qPrintable(rounds->noticeText()));
        const QList<QLabel *> status = w.statusBar()->findChildren<QLabel *>();
        const bool statusSays = std::any_of(status.begin(), status.end(),
                                            [&](const QLabel *l) { return l->text() == readiness.summary(); });
        QVERIFY(statusSays);
        if (state == WorkerReadiness::State::NoGpu) { // what the worker said is kept for the curious
            QVERIFY(readiness.details().join(u' ').contains(QStringLiteral("CUDA driver version is insufficient")));
            // A machine without a GPU is no error: the Log explains it calmly, nothing in it is red (issue 37).
            bool explained = false;
            for (const LogEntry &e : log.entries()) {
                QVERIFY2(e.source != LogSource::Worker || e.level != LogLevel::Error, qPrintable(e.message));
                explained = explained
                            || (e.level == LogLevel::Info && e.message.contains(QStringLiteral("no usable NVIDIA GPU"))
                                && e.message.contains(QStringLiteral("CUDA driver version is insufficient")));
            }
            QVERIFY(explained);
        }
        shot(&w, QStringLiteral("menus-noworker-%1").arg(QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-')));

        // Ctrl+Enter on an edited fork: compiled only; nothing enters the session.
        const qsizetype variants = w.session()->population().size();
        const int rounds0 = int(w.session()->rounds().all().size());
        const int fork = w.tabs()->fork(w.session()->population().reference()->id);
        QsciScintilla *e = w.editor()->editor(fork);
        e->setText(QStringLiteral("#include \"kforge/kernel.h\"\n\nKF_ENTRY(in, nin, out, nout, params, stream)\n{\n"
                                  "    int x = undeclared_name_here;\n    return cudaSuccess;\n}\n"));
        QSignalSpy added(w.session(), &SessionStore::variantAdded);
        QVERIFY(!w.tabs()->evaluate(fork));
        QCOMPARE(added.count(), 0);
        QCOMPARE(w.session()->population().size(), variants);
        QVERIFY(!w.editor()->isReadOnly(fork));
        QVERIFY2(w.editor()->status(fork).contains(readiness.summary()), qPrintable(w.editor()->status(fork)));
        if (!CudaToolkit::locateNvcc().isEmpty()) {
            auto *compileOnly = w.findChild<CompileOnly *>();
            QSignalSpy compiled(compileOnly, &CompileOnly::compiled);
            QVERIFY(compiled.wait(180000));
            QCOMPARE(compiled.first().at(1).toBool(), false);
            bool onLine5 = false;
            for (const Diagnostic &d : w.editor()->diagnostics(fork))
                onLine5 = onLine5 || (d.line == 5 && d.message.contains(QStringLiteral("undeclared_name_here")));
            QVERIFY2(onLine5, qPrintable(w.editor()->status(fork)));
            QVERIFY2(w.editor()->status(fork).contains(QStringLiteral("not added to the session")),
                     qPrintable(w.editor()->status(fork)));
        }
        // Start Round: refused with the same reason, and no round is made.
        rounds->start();
        QCOMPARE(int(w.session()->rounds().all().size()), rounds0);
        QCOMPARE(rounds->statusText(), readiness.explanation());
        QCOMPARE(w.session()->population().size(), variants);
        // A dropped kernel file opens as an editable tab, not as a variant that can only fail.
        const QString dropped = m_dir.filePath(QStringLiteral("mine.cu"));
        {
            QFile f(dropped);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("#include \"kforge/kernel.h\"\n// mine\n");
        }
        const int tabs = w.editor()->count();
        QCOMPARE(w.tabs()->addFile(dropped), 0);
        QCOMPARE(w.editor()->count(), tabs + 1);
        QCOMPARE(w.session()->population().size(), variants);

        // The button goes to Settings → Workers.
        w.actions()->configureWorkers->trigger();
        auto *settingsDialog = w.findChild<SettingsDialog *>();
        QVERIFY(settingsDialog && settingsDialog->isVisible());
        QVERIFY(settingsDialog->page(SettingsDialog::Workers)->isVisible());
        settingsDialog->close();
    }

    void gettingStarted()
    {
        Settings settings(m_dir.filePath(QStringLiteral("start.ini")));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1280, 800}));
        const QString example = GettingStarted::exampleSession();
        QVERIFY2(!example.isEmpty(), "the example session is found (installed, or in the source tree)");
        const QByteArray before = sha(example);
        const QDateTime modified = QFileInfo(example).lastModified();

        w.actions()->gettingStarted->trigger();
        auto *dialog = w.findChild<GettingStarted *>();
        QVERIFY(dialog && dialog->isVisible());
        const QString guide = dialog->guide()->toPlainText();
        for (const QString &part : {QStringLiteral("Open a task"), QStringLiteral("ssh gpu-box kforge-worker"),
                                    QStringLiteral("File → Export Variant…"), QStringLiteral("example session")})
            QVERIFY2(guide.contains(part), qPrintable(part));
        QVERIFY(dialog->openExampleButton()->isEnabled());
        shot(dialog, QStringLiteral("menus-getting-started"));

        QSignalSpy opened(&w, &MainWindow::sessionOpened);
        QTest::mouseClick(dialog->openExampleButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        const QString copy = w.session()->path();
        QVERIFY(copy != example);
        QVERIFY2(copy.startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
                                 + QStringLiteral("/examples/")),
                 qPrintable(copy));
        QVERIFY(QFileInfo(copy).isWritable());
        // Populated panels, before owning a GPU.
        QTRY_VERIFY(w.variantsPanel()->model()->rowCount() > 5);
        QVERIFY(w.actions()->saveReport->isEnabled());
        QVERIFY(w.actions()->exportVariant->isEnabled());
        shot(&w, QStringLiteral("menus-example-session"));
        // The installed example is untouched, and a second opening makes a second copy.
        w.session()->close();
        QCOMPARE(sha(example), before);
        QCOMPARE(QFileInfo(example).lastModified(), modified);
        QString error;
        const QString second = GettingStarted::copyExample(&error);
        QVERIFY2(!second.isEmpty(), qPrintable(error));
        QVERIFY(second != copy);
    }

    // The window with the example session and no worker, at the sizes the issue names, in English and Chinese.
    void screenshots_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QSize>("size");
        for (const QString &language : {QStringLiteral("en"), QStringLiteral("zh_CN")})
            for (const QSize &size : {QSize(1280, 800), QSize(1920, 1080)})
                QTest::addRow("%s-%dx%d", qPrintable(language), size.width(), size.height()) << language << size;
    }

    void screenshots()
    {
        QFETCH(QString, language);
        QFETCH(QSize, size);
        Translations::install(language);
        {
            Settings settings(m_dir.filePath(QStringLiteral("shots.ini")));
            settings.setWorkers({});
            LogHub log;
            MainWindow w(settings, log);
            QVERIFY(test::showAt(w, size));
            QVERIFY(w.openSession(sessionCopy(QStringLiteral("shots"))));
            QTRY_VERIFY_WITH_TIMEOUT(w.notice()->isVisible(), 30000);
            if (language == QLatin1String("zh_CN")) // the one wording is translated too
                QVERIFY2(w.notice()->text() != QLatin1String("")
                             && !w.notice()->text().contains(QStringLiteral("kernels are compiled")),
                         qPrintable(w.notice()->text()));
            const QString tag = QString::fromLatin1(QTest::currentDataTag());
            shot(&w, QStringLiteral("menus-window-") + tag);
            QMenu *file = w.menuBar()->actions().first()->menu();
            file->resize(file->sizeHint());
            shot(file, QStringLiteral("menus-file-") + tag);
            auto *dialog = new GettingStarted(&w);
            dialog->show();
            QVERIFY(QTest::qWaitForWindowExposed(dialog));
            shot(dialog, QStringLiteral("menus-getting-started-") + tag);
            delete dialog;
        }
        Translations::install(QStringLiteral("en"));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestMainMenus)
#include "tst_mainmenus.moc"
