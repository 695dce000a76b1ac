// On a GPU with PyTorch (label gpu): the `torch` export of built-in torch tasks' .cu variants builds as a PyTorch
// extension (setup.py, or torch.utils.cpp_extension.load() when model_new.py is imported with nothing built), and the
// exported test_model_new.py passes against reference.py; the benchmark runs. Exit status 77 (SKIP) with the reason
// where there is no GPU, no python3 whose torch sees one, or no CUDA toolkit.
//
//     ctest --test-dir build/ci -R tst_exporttorchgpu --output-on-failure
//     KFORGE_TORCH_PYTHON=/path/to/python3 build/ci/tests/core/export/tst_exporttorchgpu [function[:row]]
#include "exportfixture.h"

#include "core/compile/cudatoolkit.h"
#include "core/export/exporter.h"
#include "core/export/exportplan.h"
#include "core/task/torchimport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QVariantMap>

#include <cstdio>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

using Run = test::ProcessRun;

struct Host {
    QString python;          // a python3 whose torch sees a GPU
    QProcessEnvironment env; // CUDA_HOME and PATH at the toolkit KForge finds
    bool ninja = false;      // torch.utils.cpp_extension.load() can build
};

Host g_host;

// Why this host cannot run the test; empty when it can (g_host filled).
QString missing()
{
    const QString smi = QStandardPaths::findExecutable(u"nvidia-smi"_s);
    if (smi.isEmpty())
        return u"no nvidia-smi: no NVIDIA driver here"_s;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const Run listed = test::runProcess(smi, {u"-L"_s}, QDir::currentPath(), 30000, env);
    if (listed.exitCode != 0 || !listed.output.contains(u"GPU"_s))
        return u"nvidia-smi lists no GPU: "_s + listed.output.trimmed();
    const QString nvcc = CudaToolkit::locateNvcc();
    if (nvcc.isEmpty())
        return u"no CUDA toolkit (nvcc) found"_s;
    // PyTorch's extension builder finds the toolkit by CUDA_HOME, then nvcc on PATH: the one KForge uses.
    const QString cudaHome = QFileInfo(QFileInfo(nvcc).absolutePath()).absolutePath();
    if (!env.contains(u"CUDA_HOME"_s))
        env.insert(u"CUDA_HOME"_s, cudaHome);
    env.insert(u"PATH"_s, QFileInfo(nvcc).absolutePath() + u':' + env.value(u"PATH"_s));
    QStringList pythons = torchimport::defaultPythons();
    if (const QString chosen = env.value(u"KFORGE_TORCH_PYTHON"_s); !chosen.isEmpty())
        pythons.prepend(chosen);
    QStringList tried;
    for (const QString &python : std::as_const(pythons)) {
        const Run r = test::runProcess(
            python, {u"-c"_s, u"import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())"_s},
            QDir::currentPath(), 120000, env);
        tried << python + u": "_s
                     + (r.output.trimmed().isEmpty() ? u"does not run"_s : r.output.trimmed().split(u'\n').last());
        if (r.ok() && r.output.trimmed().endsWith(u"True"_s)) {
            g_host.python = python;
            break;
        }
    }
    if (g_host.python.isEmpty())
        return u"no python3 whose torch sees a CUDA device (KFORGE_TORCH_PYTHON names one): "_s + tried.join(u"; "_s);
    g_host.env = env;
    g_host.ninja = test::runProcess(g_host.python,
                                    {u"-c"_s, u"import torch.utils.cpp_extension as c; c.verify_ninja_availability()"_s},
                                    QDir::currentPath(), 60000, env)
                       .ok();
    return {};
}

Run python(const QStringList &args, const QString &dir, int timeoutMs)
{
    return test::runProcess(g_host.python, args, dir, timeoutMs, g_host.env);
}

} // namespace

class TestExportTorchGpu : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void kernelExportRuns_data();
    void kernelExportRuns();

private:
    QTemporaryDir m_dir;
};

void TestExportTorchGpu::kernelExportRuns_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QVariantMap>("sizes"); // reference.py's size constants changed: the binding reads them off
    QTest::addColumn<bool>("jit");          // built by importing model_new.py (cpp_extension.load), not setup.py
    QTest::addColumn<double>("minSpeedup"); // of the benchmark; 0: only that it runs
    QTest::newRow("diag_matmul rowscale") << u"torch_diag_matmul"_s << u"rowscale"_s << QVariantMap() << false << 5.0;
    QTest::newRow("softmax online_warp (jit)") << u"torch_softmax"_s << u"online_warp"_s << QVariantMap() << true << 0.0;
    QTest::newRow("gemm_bias_gelu fused_regblock")
        << u"torch_gemm_bias_gelu"_s << u"fused_regblock"_s << QVariantMap() << false << 0.0;
    QTest::newRow("embedding gather_vec4") << u"torch_embedding"_s << u"gather_vec4"_s << QVariantMap() << false << 0.0;
    QTest::newRow("row_sum warp_per_row (1000 x 3001)")
        << u"torch_row_sum"_s << u"warp_per_row"_s << QVariantMap{{u"batch_size"_s, 1000}, {u"dim"_s, 3001}} << false
        << 0.0;
}

void TestExportTorchGpu::kernelExportRuns()
{
    QFETCH(QString, task);
    QFETCH(QString, variant);
    QFETCH(QVariantMap, sizes);
    QFETCH(bool, jit);
    QFETCH(double, minSpeedup);
    QString error;
    auto in = test::inputFromTask(task, variant, 2.0, &error);
    QVERIFY2(in, qPrintable(error));
    in->referenceSource = test::scaledReference(in->referenceSource, sizes);
    ExportOptions options;
    options.format = ExportFormat::Torch;
    const ExportBundle b = Exporter::generate(*in, options);
    QVERIFY2(b.ok(), qPrintable(b.error));
    const QString out = m_dir.filePath(task + u'-' + variant);
    QVERIFY(ExportPlan::make(out, b).write(false, &error));

    if (jit && !g_host.ninja) {
        qInfo("no ninja for torch.utils.cpp_extension.load(): building with setup.py instead");
        jit = false;
    }
    if (!jit) {
        const Run built = python({u"setup.py"_s, u"build_ext"_s, u"--inplace"_s}, out, 900000);
        QVERIFY2(built.ok(), qPrintable(built.output));
    }
    const Run checked = python({u"test_model_new.py"_s}, out, 900000);
    qInfo().noquote() << checked.output;
    QVERIFY2(checked.ok(), qPrintable(checked.output));
    QVERIFY2(checked.output.contains(u"PASS: ModelNew matches the reference in"_s), qPrintable(checked.output));
    if (jit)
        QVERIFY2(checked.output.contains(u"no %1_ext built here; torch.utils.cpp_extension.load() builds it"_s.arg(task)),
                 qPrintable(checked.output));
    else
        QVERIFY2(!checked.output.contains(u"cpp_extension.load()"_s), qPrintable(checked.output));

    const Run timed = python({u"bench_model_new.py"_s, u"--runs"_s, u"30"_s, u"--min-time-ms"_s, u"200"_s}, out, 600000);
    qInfo().noquote() << timed.output;
    QVERIFY2(timed.ok(), qPrintable(timed.output));
    const QRegularExpressionMatch m =
        QRegularExpression(u"^speedup (\\d+\\.\\d+)x"_s, QRegularExpression::MultilineOption).match(timed.output);
    QVERIFY2(m.hasMatch(), qPrintable(timed.output));
    QVERIFY2(m.captured(1).toDouble() > 0 && m.captured(1).toDouble() >= minSpeedup,
             qPrintable(u"speedup %1x, expected at least %2x"_s.arg(m.captured(1)).arg(minSpeedup)));
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    if (const QString why = missing(); !why.isEmpty()) {
        std::printf("SKIP: tst_exporttorchgpu: %s\n", qPrintable(why));
        return 77;
    }
    std::printf("tst_exporttorchgpu: %s, ninja %s\n", qPrintable(g_host.python), g_host.ninja ? "yes" : "no");
    TestExportTorchGpu t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_exporttorchgpu.moc"
