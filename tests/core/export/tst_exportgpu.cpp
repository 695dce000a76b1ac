// On a GPU (label gpu): the `cmake` export of diag_matmul's good variant builds, its test passes, and its
// benchmark measures the speedup the task expects of that variant; the `torch` export builds and its test
// passes where PyTorch is installed. SKIPs with the reason elsewhere.
#include "exportfixture.h"

#include "core/compile/cudatoolkit.h"
#include "core/export/exporter.h"
#include "core/export/exportplan.h"
#include "core/task/task.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

using Run = test::ProcessRun;

// With CUDACXX at the nvcc KForge finds, so the exported projects build with the toolkit the app uses.
Run run(const QString &program, const QStringList &args, const QString &workDir, int timeoutMs)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (const QString nvcc = CudaToolkit::locateNvcc(); !nvcc.isEmpty())
        env.insert(u"CUDACXX"_s, nvcc);
    return test::runProcess(program, args, workDir, timeoutMs, env);
}

bool hasGpu(QString *why)
{
    const QString smi = QStandardPaths::findExecutable(u"nvidia-smi"_s);
    if (smi.isEmpty()) {
        *why = u"no nvidia-smi: no NVIDIA driver here"_s;
        return false;
    }
    const Run r = run(smi, {u"-L"_s}, QDir::currentPath(), 30000);
    if (r.exitCode != 0 || !r.output.contains(u"GPU"_s)) {
        *why = u"nvidia-smi lists no GPU: "_s + r.output.trimmed();
        return false;
    }
    return true;
}

} // namespace

class TestExportGpu : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cmakeExportRuns();
    void torchExportRuns();

private:
    QTemporaryDir m_dir;
    std::optional<ExportInput> m_input;
    double m_minSpeedup = 0;
};

void TestExportGpu::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QString why;
    if (!hasGpu(&why))
        QSKIP(qPrintable(why));
    if (CudaToolkit::locateNvcc().isEmpty())
        QSKIP("no CUDA toolkit (nvcc) found");
    const TaskLoadResult task = Task::load(test::builtinTaskFolder(u"diag_matmul"_s));
    QVERIFY(task.ok());
    for (const auto &v : task.task->spec().variants)
        if (v.label == "good" && v.expect && v.expect->minSpeedup)
            m_minSpeedup = *v.expect->minSpeedup;
    QVERIFY(m_minSpeedup > 1);
    QString error;
    // No KForge measurement to compare with here (the bench prints one only when given): the task's own
    // expectation is the bar.
    m_input = test::inputFromTask(u"diag_matmul"_s, u"good"_s, m_minSpeedup, &error);
    QVERIFY2(m_input, qPrintable(error));
    m_input->provenance.speedup.reset();
}

void TestExportGpu::cmakeExportRuns()
{
    const QString src = m_dir.filePath(u"cmake"_s), build = m_dir.filePath(u"cmake-build"_s);
    QString error;
    QVERIFY(ExportPlan::make(src, Exporter::generate(*m_input, {})).write(false, &error));
    const QString cmake = QStandardPaths::findExecutable(u"cmake"_s);
    Run r = run(cmake, {u"-S"_s, src, u"-B"_s, build, u"-DCMAKE_BUILD_TYPE=Release"_s}, src, 300000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    r = run(cmake, {u"--build"_s, build, u"-j4"_s}, src, 900000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    r = run(build + u"/test_diag_matmul"_s, {}, build, 300000);
    qInfo().noquote() << r.output;
    QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    QVERIFY(r.output.contains(u"PASS"_s));
    r = run(build + u"/bench_diag_matmul"_s, {}, build, 300000);
    qInfo().noquote() << r.output;
    QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    const auto m = QRegularExpression(u"^speedup\\s+([0-9.]+)x$"_s, QRegularExpression::MultilineOption).match(r.output);
    QVERIFY2(m.hasMatch(), qPrintable(r.output));
    QVERIFY2(m.captured(1).toDouble() >= m_minSpeedup,
             qPrintable(u"speedup %1x, expected at least %2x"_s.arg(m.captured(1)).arg(m_minSpeedup)));
}

void TestExportGpu::torchExportRuns()
{
    const QString python = QStandardPaths::findExecutable(u"python3"_s);
    if (python.isEmpty())
        QSKIP("no python3");
    if (run(python, {u"-c"_s, u"import torch; assert torch.cuda.is_available()"_s}, QDir::currentPath(), 120000).exitCode
        != 0)
        QSKIP("PyTorch with CUDA is not installed for python3");
    const QString src = m_dir.filePath(u"torch"_s);
    ExportOptions options;
    options.format = ExportFormat::Torch;
    QString error;
    QVERIFY(ExportPlan::make(src, Exporter::generate(*m_input, options)).write(false, &error));
    Run r = run(python, {u"setup.py"_s, u"build_ext"_s, u"--inplace"_s}, src, 900000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    r = run(python, {u"test_diag_matmul.py"_s}, src, 300000);
    qInfo().noquote() << r.output;
    QVERIFY2(r.exitCode == 0, qPrintable(r.output));
}

QTEST_GUILESS_MAIN(TestExportGpu)
#include "tst_exportgpu.moc"
