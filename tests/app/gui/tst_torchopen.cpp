// The workbench opens a PyTorch problem file (KernelBench's format) directly: File → Open and drag and drop of a
// .py offer the import (TorchImportDialog, default folder beside the file), the import runs the same discovery as
// kforge-cli import without blocking, writes the task folder and opens it (reference.py highlighted as Python, the
// Task panel listing its inputs, parameters and outputs); a broken problem gives the file, the step and the cause
// and writes nothing. Needs a python3 with torch (Debian's python3-torch): SKIP without. Screenshots of the dialog
// and the imported task go to docs/screenshots when KFORGE_DOC_SHOTS is set, else to the test artefacts (README's
// torch-task-opened.png is tst_docshots', which needs no torch).
#include "app/gui/mainwindow.h"
#include "app/gui/torchimportdialog.h"
#include "core/log/loghub.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/task/torchimport.h"
#include "core/workbench/readinesswatch.h"
#include "guitesthelpers.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/varianttabbinding.h"
#include "views/task/taskinfomodel.h"
#include "views/task/taskpanel.h"

#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>

#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTreeView>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

const QString kGood = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/torch_problems");
const QString kBad = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/torch_problems_bad");

QString shotDir()
{
    return qEnvironmentVariableIsSet("KFORGE_DOC_SHOTS") ? QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/screenshots")
                                                         : QStringLiteral(KFORGE_TEST_ARTIFACT_DIR);
}

// The problem copied into `dir`, so the task folder the import writes beside it is the test's.
QString copyProblem(const QString &from, const QString &dir)
{
    const QString to = QDir(dir).filePath(QFileInfo(from).fileName());
    QFile::remove(to);
    return QFile::copy(from, to) ? to : QString();
}

} // namespace

class TestTorchOpen : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        const QString missing = test::guiTestSetUp(m_dir, {kGood, kBad, torchimport::discoverScript()});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        QString version, why;
        if (torchimport::findPython(torchimport::defaultPythons(), version, why).isEmpty())
            QSKIP(qPrintable(u"no python3 with torch (%1); install python3-torch to run this test"_s.arg(why)));
    }

    // File → Open of a .py (openPath, what the dialog's choice is handed to) offers the import; the default folder
    // is <stem>/ beside the file; the import writes it and opens the task as a working session.
    void openingAProblemImportsAndOpensIt()
    {
        Settings settings(m_dir.filePath(u"open.ini"_s));
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, QSize(1400, 860)));
        const QString work = m_dir.filePath(u"open"_s);
        QVERIFY(QDir().mkpath(work));
        const QString problem = copyProblem(kGood + u"/level1_03_linear_huge.py"_s, work);
        QVERIFY(!problem.isEmpty());

        QSignalSpy offered(&w, &MainWindow::torchImportOffered);
        w.openPath(problem);
        QCOMPARE(offered.size(), 1);
        auto *dialog = offered.first().first().value<TorchImportDialog *>();
        QVERIFY(dialog);
        QCOMPARE(dialog->outDir(), work);
        QCOMPARE(dialog->taskFolder(), QDir(work).filePath(u"level1_03_linear_huge"_s));
        QVERIFY(dialog->findChild<QLabel *>(u"target"_s)->text().contains(u"reference.py"_s));
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        test::saveShot(dialog, shotDir(), u"torch-import-dialog"_s);

        QSignalSpy opened(&w, &MainWindow::taskOpened);
        QSignalSpy failed(dialog, &TorchImportDialog::importFailed);
        QTest::mouseClick(dialog->importButton(), Qt::LeftButton);
        // Discovery runs in a python process: the GUI thread is free meanwhile (the spy's wait spins the loop).
        QVERIFY(dialog->isImporting());
        QVERIFY2(QTest::qWaitFor([&] { return !opened.isEmpty() || !failed.isEmpty(); }, 180000), "no result");
        QVERIFY2(failed.isEmpty(),
                 qPrintable(failed.isEmpty() ? QString() : failed.first().first().value<TorchImportError>().message()));
        const QString folder = QDir(work).filePath(u"level1_03_linear_huge"_s);
        QCOMPARE(QDir::cleanPath(opened.first().first().toString()), QDir::cleanPath(folder));
        QVERIFY(QFileInfo::exists(folder + u"/reference.py"_s));
        QFile json(folder + u"/task.json"_s);
        QVERIFY(json.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(json.readAll()).object().value(u"kind"_s).toString(), u"torch"_s);

        // The working session holds the torch task; the reference is Python, highlighted as Python.
        QVERIFY(w.session()->isOpen());
        QCOMPARE(w.session()->task().name, u"level1_03_linear_huge"_s);
        QTRY_VERIFY(w.editor()->count() >= 1);
        QsciScintilla *reference = w.editor()->editor(0);
        QVERIFY(reference->text().contains(u"class Model(nn.Module)"_s));
        QVERIFY(qobject_cast<QsciLexerPython *>(reference->lexer()));

        // The Task panel lists the forward's input, the Linear's parameters and the output, shapes substituted.
        TaskPanel *panel = w.taskPanel();
        QTRY_VERIFY(panel->model()->summary().has_value());
        const QString dump = panel->model()->dump();
        QVERIFY2(dump.contains(u"  x | f32 | (batch_size, in_features) = (64, 32768)"_s), qPrintable(dump));
        QVERIFY2(dump.contains(u"  fc.weight | f32 | (out_features, in_features) = (32768, 32768)"_s), qPrintable(dump));
        QVERIFY2(dump.contains(u"  out | f32 | (batch_size, out_features) = (64, 32768)"_s), qPrintable(dump));
        QVERIFY(panel->problem().isEmpty());
        QCOMPARE(panel->findChild<QTabWidget *>(u"taskPages"_s)->currentWidget(), panel->tree());
        if (QDockWidget *dock = w.dockOf(panel)) {
            dock->show();
            dock->raise();
            w.resizeDocks({dock}, {760}, Qt::Horizontal); // wide enough for the shapes and details in the shot
        }
        QTest::qWait(200);
        test::saveShot(&w, shotDir(), u"torch-task-imported"_s);

        // No worker can evaluate it here: Ctrl+Enter on a ModelNew tab checks its Python syntax (python3), it is not
        // handed to nvcc (which marked correct Python with C++ errors), and nothing enters the session.
        settings.setWorkers({});
        QVERIFY(w.readiness()->readiness().isUnusable());
        const qint64 ref = w.session()->population().reference()->id;
        const int fork = w.tabs()->fork(ref);
        QVERIFY(fork >= 0);
        QsciScintilla *module = w.editor()->editor(fork);
        QVERIFY(qobject_cast<QsciLexerPython *>(module->lexer()));
        module->setText(module->text().replace(u"class Model(nn.Module)"_s, u"class ModelNew(nn.Module)"_s));
        const qsizetype variants = w.session()->population().size();
        module->setFocus();
        QTest::keyClick(module, Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(w.editor()->status(fork).startsWith(u"Python syntax checked: no errors"_s), 20000);
        QVERIFY(w.editor()->diagnostics(fork).isEmpty());
        QCOMPARE(w.session()->population().size(), variants);
        module->setText(module->text().replace(u"def forward(self, x"_s, u"def forward(self x"_s));
        QTest::keyClick(module, Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(w.editor()->status(fork).startsWith(u"Python syntax error on line"_s), 20000);
        QCOMPARE(w.editor()->diagnostics(fork).size(), 1);
        QCOMPARE(w.editor()->diagnostics(fork).constFirst().tool, u"python3"_s);
        test::saveShot(&w, shotDir(), u"torch-modelnew-without-worker"_s);
    }

    // A problem whose forward raises: the dialog names the file, the step and the cause, stays open, and nothing
    // is written; the open session is not touched.
    void aBrokenProblemSaysWhy()
    {
        Settings settings(m_dir.filePath(u"bad.ini"_s));
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, QSize(1280, 800)));
        const QString work = m_dir.filePath(u"bad"_s);
        QVERIFY(QDir().mkpath(work));
        const QString problem = copyProblem(kBad + u"/raises_in_forward.py"_s, work);
        QSignalSpy offered(&w, &MainWindow::torchImportOffered);
        w.openPath(problem);
        QCOMPARE(offered.size(), 1);
        auto *dialog = offered.first().first().value<TorchImportDialog *>();
        QSignalSpy failed(dialog, &TorchImportDialog::importFailed);
        QSignalSpy opened(&w, &MainWindow::taskOpened);
        dialog->startImport();
        QVERIFY(failed.wait(180000));
        const TorchImportError e = failed.first().first().value<TorchImportError>();
        QCOMPARE(e.step, u"forward"_s);
        QVERIFY2(e.cause.contains(u"Error"_s), qPrintable(e.cause));
        const QString shown = dialog->errorText();
        QVERIFY2(shown.contains(u"raises_in_forward.py"_s) && shown.contains(u"forward"_s) && shown.contains(e.cause),
                 qPrintable(shown));
        QVERIFY(dialog->isVisible());
        QVERIFY(!QFileInfo::exists(QDir(work).filePath(u"raises_in_forward"_s)));
        QVERIFY(opened.isEmpty());
        QVERIFY(!w.session()->isOpen());
        dialog->reject();
    }

    // Drag and drop of a .py onto the window is accepted and offers the import; the folder can be another one.
    void droppingAProblemOffersTheImport()
    {
        Settings settings(m_dir.filePath(u"drop.ini"_s));
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, QSize(1280, 800)));
        const QString work = m_dir.filePath(u"drop"_s);
        const QString elsewhere = m_dir.filePath(u"drop-tasks"_s);
        QVERIFY(QDir().mkpath(work) && QDir().mkpath(elsewhere));
        const QString problem = copyProblem(kGood + u"/level1_09_scale_scalar.py"_s, work);

        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(problem)});
        QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        enter.setAccepted(false);
        QCoreApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QSignalSpy offered(&w, &MainWindow::torchImportOffered);
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &drop);
        QCOMPARE(offered.size(), 1);
        auto *dialog = offered.first().first().value<TorchImportDialog *>();
        QCOMPARE(dialog->problemFile(), QFileInfo(problem).absoluteFilePath());

        dialog->setOutDir(elsewhere);
        QCOMPARE(dialog->taskFolder(), QDir(elsewhere).filePath(u"level1_09_scale_scalar"_s));
        QSignalSpy opened(&w, &MainWindow::taskOpened);
        dialog->startImport();
        QVERIFY(opened.wait(180000));
        QVERIFY(QFileInfo::exists(elsewhere + u"/level1_09_scale_scalar/task.json"_s));
        QVERIFY(!QFileInfo::exists(work + u"/level1_09_scale_scalar"_s));
        // The scalar forward argument is listed with its value.
        QTRY_VERIFY(w.taskPanel()->model()->summary().has_value());
        QVERIFY2(w.taskPanel()->model()->dump().contains(u" | scalar | value "_s),
                 qPrintable(w.taskPanel()->model()->dump()));

        // A file that is neither a task, a session, a kernel nor a problem is not accepted.
        QMimeData other;
        const QString text = QDir(work).filePath(u"notes.txt"_s);
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        other.setUrls({QUrl::fromLocalFile(text)});
        QDragEnterEvent refused(QPoint(50, 50), Qt::CopyAction, &other, Qt::LeftButton, Qt::NoModifier);
        refused.setAccepted(false);
        QCoreApplication::sendEvent(&w, &refused);
        QVERIFY(!refused.isAccepted());
    }
};

QTEST_MAIN(TestTorchOpen)
#include "tst_torchopen.moc"
