// A torch task in the real window tells the truth about its worker and its numbers (issue 37, items 4 and 6):
// - the notice bar names what kforge-worker lacks for a torch task and the fix: a worker whose device_info says its
//   python for torch tasks cannot import torch (the scripted worker's notorch mode, as kforge-worker's probe reports
//   it) says "no torch" with that python, KFORGE_TORCH_PYTHON and --torch-python, not "check its command"; without a
//   worker it speaks of PyTorch candidates, not of kernels compiled here;
// - the Task panel's overview shows how the FLOPs were counted (torch_matmul: 2*M*K*N, a compute floor), what an
//   unknown count means for the floors, and the tolerance with where it came from and KernelBench's 1e-2; its
//   inputs and outputs in tables as a CUDA task's (issue 37, smaller item).
// Screenshots: test-artifacts/torch-task-no-torch.png, torch-task-unknown-flops.png.
#include "app/gui/mainwindow.h"
#include "app/gui/noticebar.h"
#include "core/log/loghub.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/workbench/readinesswatch.h"
#include "guitesthelpers.h"
#include "tests/core/workerpool/workertesthelpers.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/varianttabbinding.h"
#include "views/task/taskinfomodel.h"
#include "views/task/taskpanel.h"

#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>

#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTextBrowser>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

const QString kMatmul = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/torch_matmul");
const QString kGemm = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/torch_gemm_bias_gelu");

bool copyFolder(const QString &from, const QString &to)
{
    QDir().mkpath(to);
    for (const QString &name : QDir(from).entryList(QDir::Files))
        if (!QFile::copy(from + u'/' + name, to + u'/' + name))
            return false;
    return true;
}

// Shows the panel's overview (the Work, floors and tolerance), wide enough to read in the shot.
void showOverview(MainWindow &w)
{
    TaskPanel *panel = w.taskPanel();
    panel->findChild<QTabWidget *>(u"taskPages"_s)->setCurrentWidget(panel->view());
    if (QDockWidget *dock = w.dockOf(panel)) {
        dock->show();
        dock->raise();
        w.resizeDocks({dock}, {760}, Qt::Horizontal);
    }
    QTest::qWait(200);
}

} // namespace

class TestTorchTaskReady : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        const QString missing = test::guiTestSetUp(m_dir, {kMatmul + u"/task.json"_s});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    void aWorkerWithoutTorchSaysSo()
    {
        Settings settings(m_dir.filePath(u"notorch.ini"_s));
        WorkerConfig worker;
        worker.command = kforge::test::scriptedWorker(u"notorch"_s);
        settings.setWorkers({worker});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, QSize(1400, 860)));
        QSignalSpy opened(&w, &MainWindow::taskOpened);
        w.openTaskFolder(kMatmul);
        QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 30000); // the load may finish before a wait() would start
        QCOMPARE(w.session()->task().name, u"torch_matmul"_s);

        QTRY_COMPARE_WITH_TIMEOUT(w.readiness()->readiness().state(), WorkerReadiness::State::NoTorch, 60000);
        QTRY_VERIFY(w.notice()->isVisible());
        const QString banner = w.notice()->text();
        QVERIFY2(banner.contains(u"kforge-worker's Python has no torch"_s), qPrintable(banner));
        QVERIFY2(banner.contains(u"/usr/bin/python3: ModuleNotFoundError: No module named 'torch'"_s), qPrintable(banner));
        QVERIFY2(banner.contains(u"KFORGE_TORCH_PYTHON"_s) && banner.contains(u"--torch-python"_s), qPrintable(banner));
        QVERIFY2(!banner.contains(u"Check its command"_s) && !banner.contains(u"compiled here"_s), qPrintable(banner));
        QVERIFY2(!banner.contains(u"kforge-torch-worker"_s), qPrintable(banner));

        // The overview: the GEMM's FLOPs counted without torch.utils.flop_counter, and the tolerance's origin.
        TaskPanel *panel = w.taskPanel();
        QTRY_VERIFY(panel->model()->summary().has_value());
        const QString text = panel->view()->toPlainText();
        QVERIFY2(text.contains(u"2*M*K*N"_s), qPrintable(text));
        QVERIFY2(text.contains(u"How discovery found the FLOPs: counted on the meta forward"_s), qPrintable(text));
        QVERIFY2(text.contains(u"f32: atol 0.0001, rtol 0.0001 (from task.json)"_s), qPrintable(text));
        QVERIFY2(text.contains(u"Where it came from: the import's default per output dtype"_s), qPrintable(text));
        QVERIFY2(text.contains(u"Stricter than KernelBench"_s) && text.contains(u"1e-2"_s), qPrintable(text));
        QVERIFY2(!text.contains(u"FLOPs unknown"_s), qPrintable(text));
        // Its inputs and outputs in tables, as a CUDA task's: name, dtype, shape, elements, size, initial values.
        qsizetype at = 0;
        for (const QString &cell : {u"Parameters"_s,
                                    u"M"_s,
                                    QLocale().toString(4096.0, 'g', 12),
                                    u"Inputs"_s,
                                    u"Name"_s,
                                    u"dtype"_s,
                                    u"Shape"_s,
                                    u"Elements"_s,
                                    u"Size"_s,
                                    u"Initial values"_s,
                                    u"A"_s,
                                    u"f32"_s,
                                    u"(M, K) = (4096, 4096)"_s,
                                    QLocale().toString(4096 * 4096),
                                    u"67.1 MB"_s,
                                    u"uniform in [0, 1)"_s,
                                    u"B"_s,
                                    u"(K, N) = (4096, 4096)"_s,
                                    u"Outputs"_s,
                                    u"out"_s,
                                    u"(M, N) = (4096, 4096)"_s,
                                    u"Work"_s}) {
            const qsizetype next = text.indexOf(cell, at);
            QVERIFY2(next >= 0, qPrintable(u"no \""_s + cell + u"\" after "_s + text.left(at)));
            at = next + cell.size();
        }
        QVERIFY(panel->view()->document()->toHtml().contains(u"<table"_s));
        showOverview(w);
        test::saveShot(&w, QStringLiteral(KFORGE_TEST_ARTIFACT_DIR), u"torch-task-no-torch"_s);

        // No worker at all: the torch wording, which speaks of candidates and kforge-worker, not of nvcc.
        settings.setWorkers({});
        QTRY_COMPARE(w.readiness()->readiness().state(), WorkerReadiness::State::NoWorker);
        QTRY_VERIFY(w.notice()->text().contains(u"PyTorch task"_s));
        QVERIFY2(!w.notice()->text().contains(u"kernels are compiled here"_s), qPrintable(w.notice()->text()));
        test::saveShot(&w, QStringLiteral(KFORGE_TEST_ARTIFACT_DIR), u"torch-task-no-worker"_s);
    }

    // A module with weights: the overview lists its parameters beside the forward's inputs, and how it is built.
    void aModulesTensorsInTheOverview()
    {
        Settings settings(m_dir.filePath(u"gemm.ini"_s));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, QSize(1400, 860)));
        QSignalSpy opened(&w, &MainWindow::taskOpened);
        w.openTaskFolder(kGemm);
        QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 30000);
        TaskPanel *panel = w.taskPanel();
        QTRY_VERIFY(panel->model()->summary().has_value());
        const QString text = panel->view()->toPlainText();
        qsizetype at = 0;
        for (const QString &cell :
             {u"Parameters"_s, u"batch_size"_s, u"in_features"_s, u"out_features"_s, u"Inputs"_s, u"x"_s,
              u"(batch_size, in_features) = (4096, 1024)"_s, u"normal, mean 0, std 1"_s,
              u"The module is built as Model(1024, 4096)."_s, u"The module's parameters and buffers"_s,
              u"linear.weight"_s, u"(out_features, in_features) = (4096, 1024)"_s, u"16.8 MB"_s, u"linear.bias"_s,
              u"(out_features) = (4096)"_s, u"Outputs"_s, u"out"_s, u"(batch_size, out_features) = (4096, 4096)"_s}) {
            const qsizetype next = text.indexOf(cell, at);
            QVERIFY2(next >= 0, qPrintable(u"no \""_s + cell + u"\" after "_s + text.left(at)));
            at = next + cell.size();
        }
        showOverview(w);
        test::saveShot(&w, QStringLiteral(KFORGE_TEST_ARTIFACT_DIR), u"torch-task-module-overview"_s);
    }

    // Item 3 on a machine without torch and without a worker (where it happens): Ctrl+Enter on a ModelNew tab has
    // python3 check its syntax, never nvcc (which marked correct Python with C++ errors), and adds nothing.
    void ctrlEnterOnAModelNewWithoutAWorker()
    {
        Settings settings(m_dir.filePath(u"modelnew.ini"_s));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, QSize(1280, 800)));
        QSignalSpy opened(&w, &MainWindow::taskOpened);
        w.openTaskFolder(kMatmul);
        QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 30000);
        QTRY_VERIFY(w.readiness()->readiness().isUnusable());
        const int fork = w.tabs()->fork(w.session()->population().reference()->id);
        QVERIFY(fork >= 0);
        QsciScintilla *module = w.editor()->editor(fork);
        QVERIFY(qobject_cast<QsciLexerPython *>(module->lexer()));
        module->setText(module->text().replace(u"class Model(nn.Module)"_s, u"class ModelNew(nn.Module)"_s));
        const qsizetype variants = w.session()->population().size();
        module->setFocus();
        QTest::keyClick(module, Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(w.editor()->status(fork).startsWith(u"Python syntax checked: no errors"_s), 20000);
        QVERIFY(w.editor()->diagnostics(fork).isEmpty());
        module->setText(module->text().replace(u"def forward(self, A, B)"_s, u"def forward(self A, B)"_s));
        QTest::keyClick(module, Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(w.editor()->status(fork).startsWith(u"Python syntax error on line"_s), 20000);
        QCOMPARE(w.editor()->diagnostics(fork).size(), 1);
        QCOMPARE(w.editor()->diagnostics(fork).constFirst().tool, u"python3"_s);
        QCOMPARE(w.session()->population().size(), variants);
        for (const LogEntry &e : log.entries())
            QVERIFY2(!e.message.contains(u"identifier"_s), qPrintable(e.message)); // nvcc never saw it
        test::saveShot(&w, QStringLiteral(KFORGE_TEST_ARTIFACT_DIR), u"torch-modelnew-no-worker"_s);
    }

    // A task whose FLOP count is unknown (what the import writes when the forward calls an op it cannot count)
    // says what that means for the floors, in the page, not in a tooltip.
    void anUnknownCountSaysWhatItMeans()
    {
        const QString folder = m_dir.filePath(u"unknown_flops"_s);
        QVERIFY(copyFolder(kMatmul, folder));
        QFile file(folder + u"/task.json"_s);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject task = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        task.insert(u"flops"_s, QJsonValue::Null);
        QJsonObject derived = task.value(u"derived"_s).toObject();
        derived.insert(u"flops"_s, u"unknown: the forward calls aten._fft_r2c, which the count does not cover"_s);
        task.insert(u"derived"_s, derived);
        task.remove(u"variants"_s);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QJsonDocument(task).toJson());
        file.close();

        Settings settings(m_dir.filePath(u"unknown.ini"_s));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, QSize(1400, 860)));
        QSignalSpy opened(&w, &MainWindow::taskOpened);
        w.openTaskFolder(folder);
        QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 30000);
        TaskPanel *panel = w.taskPanel();
        QTRY_VERIFY(panel->model()->summary().has_value());
        const QString text = panel->view()->toPlainText();
        QVERIFY2(text.contains(u"FLOPs unknown. Without a FLOP count the task has no compute floor"_s), qPrintable(text));
        QVERIFY2(text.contains(u"aten._fft_r2c"_s), qPrintable(text));
        showOverview(w);
        test::saveShot(&w, QStringLiteral(KFORGE_TEST_ARTIFACT_DIR), u"torch-task-unknown-flops"_s);
    }
};

QTEST_MAIN(TestTorchTaskReady)
#include "tst_torchtaskready.moc"
