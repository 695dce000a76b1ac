// The `torch` export of a torch task's ModelNew variant (core/export/modelnewexporter.*): the files and their
// content, the formats that refuse it, every built-in ModelNew variant generating; and, where a python3 with torch
// is, the exported test and benchmark run on a built-in task scaled down (a wrong module fails with its message).
#include "exportfixture.h"

#include "core/eval/evaloptions.h"
#include "core/eval/timingdefaults.h"
#include "core/export/exporter.h"
#include "core/export/exportplan.h"
#include "core/task/task.h"
#include "core/task/torchimport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QVariantMap>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

QString text(const ExportBundle &b, const QString &path)
{
    const ExportFile *f = b.find(path);
    return f ? QString::fromUtf8(f->content) : QString();
}

// A KernelBench problem at other sizes: its module-level size constants ("batch_size = 8192") replaced, as
// tests/resources/tasks/torch_tasks_check.py's scaled_copy does.
QString scaledReference(QString source, const QVariantMap &sizes)
{
    for (auto it = sizes.cbegin(); it != sizes.cend(); ++it) {
        const QRegularExpression line(u"^%1[ \\t]*=[ \\t]*\\d+[ \\t]*$"_s.arg(it.key()),
                                      QRegularExpression::MultilineOption);
        source.replace(line, u"%1 = %2"_s.arg(it.key()).arg(it.value().toLongLong()));
    }
    return source;
}

} // namespace

class TestExportModelNew : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void modelNewFiles();
    void modelNewRefusals();
    void everyBuiltinModelNewGenerates();
    void modelNewScriptsRun_data();
    void modelNewScriptsRun();

private:
    QTemporaryDir m_dir;
};

// A torch task's ModelNew variant exports as `torch`: the module as stored, the reference as given, a test and a
// benchmark over both, task.json and the README with the provenance; nothing to build.
void TestExportModelNew::modelNewFiles()
{
    QString error;
    auto in = test::inputFromTask(u"torch_gemm_bias_gelu"_s, u"addmm_tanh"_s, 2.5, &error);
    QVERIFY2(in, qPrintable(error));
    in->provenance.seed = 4242;
    ExportOptions options;
    options.format = ExportFormat::Torch;
    options.licenseText = u"SPDX-License-Identifier: MIT"_s;
    const ExportBundle b = Exporter::generate(*in, options);
    QVERIFY2(b.ok(), qPrintable(b.error));
    ExportPlan::make(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/export-modelnew-gemm_bias_gelu"), b).write(true, nullptr);
    QStringList paths;
    for (const auto &f : b.files) {
        paths << f.path;
        QVERIFY2(!f.content.contains("{{"), qPrintable(u"placeholder left in "_s + f.path));
    }
    QCOMPARE(paths, (QStringList{u"model_new.py"_s, u"reference.py"_s, u"test_model_new.py"_s, u"bench_model_new.py"_s,
                                 u"task.json"_s, u"README.md"_s}));
    // The module carries the user's license header above its source as stored; the reference and task.json are verbatim.
    QCOMPARE(text(b, u"model_new.py"_s), u"# SPDX-License-Identifier: MIT\n\n"_s + in->variantSource);
    QCOMPARE(text(b, u"reference.py"_s), in->referenceSource);
    QCOMPARE(text(b, u"task.json"_s), in->taskJson);

    const QString test = text(b, u"test_model_new.py"_s);
    QVERIFY(test.startsWith(u"# SPDX-License-Identifier: MIT\n"_s));
    for (const QString &needle :
         {u"TASK = \"torch_gemm_bias_gelu\""_s, u"ARGUMENTS = [\"x\"]"_s, u"OUTPUTS = [\"out\"]"_s,
          u"    torch.float32: (0.0001, 0.0001),\n"_s, u"    torch.float64: (1e-08, 1e-08),\n"_s,
          u"model = model_class(*init).to(device).eval()"_s, u"model_new.load_state_dict(model.state_dict(), strict=True)"_s,
          u"return reference, model, model_new.to(device).eval()"_s, u"reference.get_inputs()"_s,
          u"torch.manual_seed(seed)"_s, u"diff <= atol + rtol * e.abs()"_s, u"torch.cuda.is_available()"_s,
          u"default=%1, help=\"input sets"_s.arg(TimingDefaults::trials), u"return 1"_s})
        QVERIFY2(test.contains(needle), qPrintable(needle));
    const QString bench = text(b, u"bench_model_new.py"_s);
    const EvalOptions defaults;
    for (const QString &needle :
         {u"torch.cuda.Event(enable_timing=True)"_s, u"torch.cuda.synchronize(device)"_s, u"flush.zero_()"_s,
          u"time.perf_counter()"_s, u"\"--runs\", type=int, default=%1"_s.arg(defaults.minRuns),
          u"\"--warmup\", type=int, default=%1"_s.arg(defaults.warmup),
          u"ref, new = median(reference_ms), median(model_new_ms)"_s, u"MEASURED = \"2.50x on NVIDIA H200\""_s})
        QVERIFY2(bench.contains(needle), qPrintable(needle));

    const QString readme = text(b, u"README.md"_s);
    for (const QString &needle :
         {u"The PyTorch module `ModelNew` of variant #7 of the KForge task `torch_gemm_bias_gelu`, measured 2.50x faster"_s,
          u"python3 test_model_new.py "_s, u"python3 bench_model_new.py "_s, u"from model_new import ModelNew"_s,
          u"out = model(x)"_s, u"| Variant | #7 `addmm_tanh` |"_s,
          u"| Device | NVIDIA H200, compute capability 9.0 (sm_90) |"_s, u"| ModelNew time | 1.200 ms (median) |"_s,
          u"| Speedup | 2.50x |"_s, u"| Seed | `4242` (`kforge-cli eval --seed 4242`"_s,
          u"| `x` | forward argument | f32 | `(batch_size, in_features) = (4096, 1024)` | from `get_inputs()` |"_s,
          u"| `linear.weight` | parameter | f32 | `(out_features, in_features) = (4096, 1024)` |"_s,
          u"| `out` | output | f32 | `(batch_size, out_features) = (4096, 4096)` | tolerance atol 0.0001, rtol 0.0001 |"_s,
          u"- `test_model_new.py`: "_s, u"- `bench_model_new.py`: "_s, u"Oldest first; the last is this module."_s})
        QVERIFY2(readme.contains(needle), qPrintable(needle + u"\n\n"_s + readme));
    QVERIFY(!readme.contains(u"| nvcc"_s));
    QVERIFY(!readme.contains(u"kernel ABI"_s));

    // The tolerance is the task's, per dtype.
    QJsonObject json = QJsonDocument::fromJson(in->taskJson.toUtf8()).object();
    json[u"tolerance"_s] = QJsonObject{{u"f32"_s, QJsonObject{{u"atol"_s, 0.5}, {u"rtol"_s, 0.25}}}};
    in->taskJson = QString::fromUtf8(QJsonDocument(json).toJson());
    const ExportBundle loose = Exporter::generate(*in, options);
    QVERIFY2(loose.ok(), qPrintable(loose.error));
    QVERIFY(text(loose, u"test_model_new.py"_s).contains(u"    torch.float32: (0.5, 0.25),\n"_s));
    QVERIFY(text(loose, u"README.md"_s).contains(u"tolerance atol 0.5, rtol 0.25"_s));
}

void TestExportModelNew::modelNewRefusals()
{
    QString error;
    const auto in = test::inputFromTask(u"torch_row_sum"_s, u"blocked"_s, 3.0, &error);
    QVERIFY2(in, qPrintable(error));
    // cmake and into build a .cu kernel: a ModelNew module is told it exports as torch.
    for (const auto format : {ExportFormat::CMake, ExportFormat::Into}) {
        ExportOptions options;
        options.format = format;
        options.intoSubdir = u"k"_s;
        const ExportBundle b = Exporter::generate(*in, options);
        QVERIFY(!b.ok());
        QVERIFY(b.files.isEmpty());
        QVERIFY2(b.error.contains(u"ModelNew"_s) && b.error.contains(u"'torch'"_s), qPrintable(b.error));
    }
    // A .cu variant of a torch task is refused with that reason, not exported as a CUDA task's would be.
    const auto cu = test::inputFromTask(u"torch_row_sum"_s, u"warp_per_row"_s, 5.0, &error);
    QVERIFY2(cu, qPrintable(error));
    for (const auto format : {ExportFormat::CMake, ExportFormat::Torch}) {
        ExportOptions options;
        options.format = format;
        const ExportBundle b = Exporter::generate(*cu, options);
        QVERIFY(!b.ok());
        QVERIFY2(b.error.contains(u".cu kernel of a PyTorch task"_s), qPrintable(b.error));
    }
    // A Python module on a task that is not a torch task has no reference Model to test against.
    auto odd = *in;
    odd.taskJson = test::inputFromTask(u"diag_matmul"_s, u"good"_s, 2.0, &error)->taskJson;
    ExportOptions torch;
    torch.format = ExportFormat::Torch;
    const ExportBundle b = Exporter::generate(odd, torch);
    QVERIFY2(!b.ok() && b.error.contains(u"not a PyTorch task"_s), qPrintable(b.error));
}

void TestExportModelNew::everyBuiltinModelNewGenerates()
{
    // Every ModelNew variant of every built-in torch task: all six files, no placeholder left, the scripts compile.
    const QString python = QStandardPaths::findExecutable(u"python3"_s);
    int variants = 0;
    for (const QString &folder : Task::builtinTorchTaskFolders()) {
        const TaskLoadResult loaded = Task::load(folder);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error.message()));
        for (const TaskVariant &variant : loaded.task->variants()) {
            if (!variant.file.endsWith(u".py"_s))
                continue;
            QString error;
            const auto in = test::inputFromTask(loaded.task->name(), variant.label, 2.0, &error);
            QVERIFY2(in, qPrintable(error));
            ExportOptions options;
            options.format = ExportFormat::Torch;
            const ExportBundle b = Exporter::generate(*in, options);
            QVERIFY2(b.ok(), qPrintable(loaded.task->name() + u": "_s + b.error));
            QCOMPARE(b.files.size(), 6);
            for (const auto &f : b.files)
                if (f.path.endsWith(u"_model_new.py"_s) || f.path == u"README.md"_s)
                    QVERIFY2(!f.content.contains("{{"),
                             qPrintable(loaded.task->name() + u": placeholder left in "_s + f.path));
            ++variants;
            if (python.isEmpty() || variants > 1)
                continue;
            const QString out = m_dir.filePath(u"modelnew-compile"_s);
            QVERIFY(ExportPlan::make(out, b).write(true, &error));
            for (const QString &script : {u"test_model_new.py"_s, u"bench_model_new.py"_s}) {
                const test::ProcessRun r = test::runProcess(python, {u"-m"_s, u"py_compile"_s, script}, out, 60000,
                                                            QProcessEnvironment::systemEnvironment());
                QVERIFY2(r.ok(), qPrintable(script + u": "_s + r.output));
            }
        }
    }
    QVERIFY(variants >= 8);
}

void TestExportModelNew::modelNewScriptsRun_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QVariantMap>("sizes");
    QTest::addColumn<bool>("matches");
    QTest::addColumn<QString>("message"); // a regular expression the failing test's output matches
    const QVariantMap rowSum{{u"batch_size"_s, 64}, {u"dim"_s, 1024}};
    // No parameters: the module's own code decides.
    QTest::newRow("row_sum blocked") << u"torch_row_sum"_s << u"blocked"_s << rowSum << true << QString();
    QTest::newRow("row_sum skip_last_column (wrong)")
        << u"torch_row_sum"_s << u"skip_last_column"_s << rowSum << false
        << uR"(trial 1 \(seed 1\): FAIL: out: \d+ of 64 elements differ beyond atol 0\.0001 \+ rtol 0\.0001 \* \|expected\|; first at \[0\]: got \d)"_s;
    // nn.Linear: equal only once the reference's weights are loaded into ModelNew.
    QTest::newRow("gemm_bias_gelu addmm_tanh")
        << u"torch_gemm_bias_gelu"_s << u"addmm_tanh"_s
        << QVariantMap{{u"batch_size"_s, 64}, {u"in_features"_s, 128}, {u"out_features"_s, 256}} << true << QString();
}

// The exported test and benchmark, run with a python that has torch (Debian's python3-torch on the CPU; CUDA where
// torch sees a GPU) on a built-in task scaled down: a correct ModelNew passes, a wrong one fails with its message.
void TestExportModelNew::modelNewScriptsRun()
{
    QFETCH(QString, task);
    QFETCH(QString, variant);
    QFETCH(QVariantMap, sizes);
    QFETCH(bool, matches);
    QFETCH(QString, message);
    QString version, why;
    const QString python = torchimport::findPython(torchimport::defaultPythons(), version, why);
    if (python.isEmpty())
        QSKIP(qPrintable(u"no python3 with torch (%1)"_s.arg(why)));
    QString error;
    auto in = test::inputFromTask(task, variant, 2.0, &error);
    QVERIFY2(in, qPrintable(error));
    in->referenceSource = scaledReference(in->referenceSource, sizes);
    for (auto it = sizes.cbegin(); it != sizes.cend(); ++it)
        QVERIFY2(in->referenceSource.contains(u"\n%1 = %2\n"_s.arg(it.key()).arg(it.value().toLongLong())),
                 qPrintable(it.key()));
    ExportOptions options;
    options.format = ExportFormat::Torch;
    const ExportBundle b = Exporter::generate(*in, options);
    QVERIFY2(b.ok(), qPrintable(b.error));
    const QString out = m_dir.filePath(u"modelnew-"_s + task + u'-' + variant);
    QVERIFY(ExportPlan::make(out, b).write(true, &error));

    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const test::ProcessRun checked = test::runProcess(python, {u"test_model_new.py"_s, u"--trials"_s, u"3"_s}, out,
                                                      120000, env);
    if (matches) {
        QVERIFY2(checked.ok(), qPrintable(checked.output));
        QVERIFY2(checked.output.contains(u"PASS: ModelNew matches the reference in 3 of 3 trials"_s),
                 qPrintable(checked.output));
        QVERIFY2(checked.output.contains(u"trial 3 (seed 3): out ok"_s), qPrintable(checked.output));
    } else {
        QVERIFY2(checked.exitCode == 1, qPrintable(checked.output));
        QVERIFY2(checked.output.contains(QRegularExpression(message)), qPrintable(checked.output));
        QVERIFY2(checked.output.contains(u"FAIL: ModelNew does not match the reference in 3 of 3 trials"_s),
                 qPrintable(checked.output));
        return; // a wrong module's timing says nothing
    }

    const test::ProcessRun timed = test::runProcess(
        python, {u"bench_model_new.py"_s, u"--runs"_s, u"5"_s, u"--min-time-ms"_s, u"0"_s, u"--warmup"_s, u"1"_s}, out,
        120000, env);
    QVERIFY2(timed.ok(), qPrintable(timed.output));
    QVERIFY2(timed.output.contains(u": 5 timed runs of each after 1 warm-up pairs"_s), qPrintable(timed.output));
    static const QRegularExpression medians(
        u"reference \\(Model\\)  median (\\d+\\.\\d+) ms\nModelNew           median "
        "(\\d+\\.\\d+) ms\nspeedup (\\d+\\.\\d+)x  \\(KForge measured 2.00x on NVIDIA H200\\)"_s);
    const QRegularExpressionMatch m = medians.match(timed.output);
    QVERIFY2(m.hasMatch(), qPrintable(timed.output));
    QVERIFY(m.captured(1).toDouble() > 0 && m.captured(2).toDouble() > 0 && m.captured(3).toDouble() > 0);
}

QTEST_GUILESS_MAIN(TestExportModelNew)
#include "tst_exportmodelnew.moc"
