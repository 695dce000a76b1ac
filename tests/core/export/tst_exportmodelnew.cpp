// The `torch` export of a torch task's ModelNew variant (core/export/modelnewexporter.*) and of its .cu variant
// (core/export/torchkernelexporter.*): the files and their content, the formats that refuse them, every built-in
// variant generating; and, where a python3 with torch is, the exported test and benchmark run on a built-in task
// scaled down (a wrong module fails with its message; a .cu variant's ModelNew with a Python stand-in for the
// extension), and the binding compiling against PyTorch's headers. tst_exporttorchgpu runs the real extension.
#include "exportfixture.h"

#include "core/eval/evaloptions.h"
#include "core/eval/timingdefaults.h"
#include "core/export/exporter.h"
#include "core/export/exportplan.h"
#include "core/export/sessionexportsource.h"
#include "core/export/torchkernelexporter.h"
#include "core/task/task.h"
#include "core/task/torchimport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QVariantMap>

#include <functional>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

QString text(const ExportBundle &b, const QString &path)
{
    const ExportFile *f = b.find(path);
    return f ? QString::fromUtf8(f->content) : QString();
}

} // namespace

class TestExportModelNew : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void modelNewFiles();
    void modelNewRefusals();
    void modelNewFromASession();
    void everyBuiltinModelNewGenerates();
    void modelNewScriptsRun_data();
    void modelNewScriptsRun();
    void kernelFiles();
    void kernelShapesAndParams();
    void kernelExpressions_data();
    void kernelExpressions();
    void kernelRefusals();
    void everyBuiltinKernelGenerates();
    void kernelWrapperRuns_data();
    void kernelWrapperRuns();
    void kernelBindingCompiles();

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
          u"| Device | NVIDIA H200, compute capability 9.0 (sm_90) |"_s, u"| Event time (median), ModelNew | 1.20 ms |"_s,
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
    // A Python module on a task that is not a torch task has no reference Model to test against.
    const auto cuda = test::inputFromTask(u"diag_matmul"_s, u"good"_s, 2.0, &error);
    QVERIFY2(cuda, qPrintable(error));
    QCOMPARE(cuda->taskKind, TaskKind::Cuda);
    auto odd = *in;
    odd.taskJson = cuda->taskJson;
    odd.taskKind = cuda->taskKind;
    ExportOptions torch;
    torch.format = ExportFormat::Torch;
    const ExportBundle b = Exporter::generate(odd, torch);
    QVERIFY2(!b.ok() && b.error.contains(u"not a PyTorch task"_s), qPrintable(b.error));
}

// From a session of a torch task: the input carries the kind the session read once (TaskRecord::kind), which picks
// the ModelNew export; the session's task names its reference.py as the file the reference came from.
void TestExportModelNew::modelNewFromASession()
{
    QString error;
    SessionStore store;
    QVERIFY2(test::makeSession(store, m_dir.filePath(u"torch_row_sum.kforge"_s), u"torch_row_sum"_s,
                               {{u"blocked"_s, 3.0}}, &error),
             qPrintable(error));
    QCOMPARE(store.task().kind, TaskKind::Torch);
    QCOMPARE(store.task().referenceFile, u"reference.py"_s);
    const auto in = SessionExportSource::build(store, test::variantByLabel(store, u"blocked"_s), &error);
    QVERIFY2(in, qPrintable(error));
    QCOMPARE(in->taskKind, TaskKind::Torch);
    ExportOptions torch;
    torch.format = ExportFormat::Torch;
    const ExportBundle b = Exporter::generate(*in, torch);
    QVERIFY2(b.ok(), qPrintable(b.error));
    QCOMPARE(text(b, u"model_new.py"_s), in->variantSource);
    QCOMPARE(text(b, u"reference.py"_s), in->referenceSource);
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
    in->referenceSource = test::scaledReference(in->referenceSource, sizes);
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

// A torch task's .cu variant exports as `torch`: the kernel as stored with a binding that builds it as a PyTorch
// extension, model_new.py (the reference Model with forward() calling it), the ModelNew export's test and benchmark,
// reference.py, task.json, the kernel ABI header and the README.
void TestExportModelNew::kernelFiles()
{
    QString error;
    auto in = test::inputFromTask(u"torch_gemm_bias_gelu"_s, u"fused_regblock"_s, 4.0, &error);
    QVERIFY2(in, qPrintable(error));
    ExportOptions options;
    options.format = ExportFormat::Torch;
    options.licenseText = u"SPDX-License-Identifier: MIT"_s;
    const ExportBundle b = Exporter::generate(*in, options);
    QVERIFY2(b.ok(), qPrintable(b.error));
    ExportPlan::make(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/export-torchkernel-gemm_bias_gelu"), b).write(true, nullptr);
    QStringList paths;
    for (const auto &f : b.files) {
        paths << f.path;
        QVERIFY2(!f.content.contains("{{"), qPrintable(u"placeholder left in "_s + f.path));
    }
    const QString ns = u"torch_gemm_bias_gelu"_s;
    QCOMPARE(paths, (QStringList{u"model_new.py"_s, u"reference.py"_s, u"setup.py"_s, ns + u"_binding.cpp"_s,
                                 ns + u"_kernel.cu"_s, u"include/kforge/kernel.h"_s, u"test_model_new.py"_s,
                                 u"bench_model_new.py"_s, u"task.json"_s, u"README.md"_s}));
    QCOMPARE(text(b, ns + u"_kernel.cu"_s), u"// SPDX-License-Identifier: MIT\n\n"_s + in->variantSource);
    QCOMPARE(text(b, u"reference.py"_s), in->referenceSource);
    QCOMPARE(text(b, u"task.json"_s), in->taskJson);
    QVERIFY(text(b, u"include/kforge/kernel.h"_s).contains(u"#define KF_ABI_VERSION 1"_s));

    // The same test and benchmark as a ModelNew module's: they build ModelNew from model_new.py whatever it holds.
    const auto modelNew = test::inputFromTask(u"torch_gemm_bias_gelu"_s, u"addmm_tanh"_s, 4.0, &error);
    QVERIFY2(modelNew, qPrintable(error));
    auto same = *modelNew;
    same.variantLabel = in->variantLabel;
    const ExportBundle m = Exporter::generate(same, options);
    QVERIFY2(m.ok(), qPrintable(m.error));
    for (const QString &script : {u"test_model_new.py"_s, u"bench_model_new.py"_s})
        QCOMPARE(text(b, script), text(m, script));

    const QString module = text(b, u"model_new.py"_s);
    for (const QString &needle :
         {u"# SPDX-License-Identifier: MIT\n"_s, u"EXTENSION = \"torch_gemm_bias_gelu_ext\""_s,
          u"NVCC_FLAGS = [\"-O3\", \"-Dkf_entry=torch_gemm_bias_gelu_entry\"] + []"_s,
          u"importlib.machinery.PathFinder.find_spec(EXTENSION, [HERE])"_s, u"from torch.utils.cpp_extension import load"_s,
          u"os.path.join(HERE, \"torch_gemm_bias_gelu_binding.cpp\"),\n                         os.path.join(HERE, "
          "\"torch_gemm_bias_gelu_kernel.cu\")"_s,
          u"build = os.path.join(HERE, \"build\", \"jit\")"_s, u"Model = _reference().Model\n"_s, u"class ModelNew(Model):\n"_s,
          u"    def forward(self, x):\n"_s, u"        return _ext.forward(x, self.linear.weight, self.linear.bias)\n"_s,
          u"    torch_gemm_bias_gelu_ext.forward(x, linear.weight, linear.bias).\"\"\"\n"_s})
        QVERIFY2(module.contains(needle), qPrintable(needle + u"\n\n"_s + module));

    const QString setup = text(b, u"setup.py"_s);
    for (const QString &needle :
         {u"#   python3 setup.py build_ext --inplace && python3 test_model_new.py\n"_s,
          u"# model_new.py wraps it as ModelNew; test_model_new.py compares that with reference.py's Model.\n"_s,
          u"os.environ.setdefault(\"TORCH_CUDA_ARCH_LIST\", \"9.0+PTX\")"_s,
          u"modules = [extension(\"torch_gemm_bias_gelu_ext\", \"torch_gemm_bias_gelu_binding.cpp\", "
          "\"torch_gemm_bias_gelu_kernel.cu\", \"torch_gemm_bias_gelu_entry\", [])]"_s,
          u"cmdclass={\"build_ext\": BuildExtension}"_s})
        QVERIFY2(setup.contains(needle), qPrintable(needle + u"\n\n"_s + setup));
    QVERIFY(!setup.contains(u"_reference_ext"_s));

    const QString binding = text(b, ns + u"_binding.cpp"_s);
    for (const QString &needle :
         {u"extern \"C\" int torch_gemm_bias_gelu_entry(const kf_tensor *inputs"_s,
          u"torch::Tensor forward(torch::Tensor x, torch::Tensor linear_weight, torch::Tensor linear_bias)\n"_s,
          u"    check(x, \"x\", torch::kFloat32, 2);\n    check(linear_weight, \"linear.weight\", torch::kFloat32, 2);\n"
          "    check(linear_bias, \"linear.bias\", torch::kFloat32, 1);\n"_s,
          u"    Param p_batch_size{\"batch_size\", 4096};\n    Param p_in_features{\"in_features\", 1024};\n"
          "    Param p_out_features{\"out_features\", 4096};\n"_s,
          u"    p_batch_size.read(x, 0, \"x\");\n    p_in_features.read(x, 1, \"x\");\n"
          "    p_out_features.read(linear_weight, 0, \"linear.weight\");\n    p_in_features.read(linear_weight, 1, "
          "\"linear.weight\");\n    p_out_features.read(linear_bias, 0, \"linear.bias\");\n"_s,
          u"    const c10::cuda::CUDAGuard guard(x.device());\n"_s, u"    linear_weight = linear_weight.contiguous();\n"_s,
          u"    torch::Tensor out = torch::empty({size(p_batch_size.value, \"batch_size\"),\n"
          "        size(p_out_features.value, \"out_features\")}, options.dtype(torch::kFloat32));\n"_s,
          u"    kf_tensor inputs[] = {describe(x, KF_F32, \"x\"),\n                          describe(linear_weight, KF_F32, "
          "\"linear.weight\"),\n                          describe(linear_bias, KF_F32, \"linear.bias\")};\n"_s,
          u"        {\"batch_size\", p_batch_size.value},\n        {\"in_features\", p_in_features.value},\n"
          "        {\"out_features\", p_out_features.value},\n    };\n    const kf_params params = {items, 3};\n"_s,
          u"torch_gemm_bias_gelu_entry(inputs, 3, outputs, 1, &params,"_s, u"    return out;\n"_s,
          u"py::arg(\"x\"), py::arg(\"linear_weight\"), py::arg(\"linear_bias\")"_s})
        QVERIFY2(binding.contains(needle), qPrintable(needle + u"\n\n"_s + binding));
    QVERIFY(!binding.contains(u"expect("_s.prepend(u"    "_s))); // every dimension is a param

    const QString readme = text(b, u"README.md"_s);
    for (const QString &needle :
         {u"The CUDA kernel of variant #7 of the KForge PyTorch task `torch_gemm_bias_gelu`, built as a PyTorch extension "
          "that the `ModelNew` module here calls, measured 4.00x faster"_s,
          u"python3 setup.py build_ext --inplace"_s, u"python3 test_model_new.py "_s, u"python3 bench_model_new.py "_s,
          u"`torch.utils.cpp_extension.load()`"_s, u"from model_new import ModelNew"_s, u"    out = model(x)\n"_s,
          u"out = torch_gemm_bias_gelu_ext.forward(x, model.linear.weight, model.linear.bias)"_s,
          u"| GPU | NVIDIA H200, compute capability 9.0 (sm_90) |"_s, u"| nvcc | 13.0.88 |"_s,
          u"| Event time (median), this kernel | 750 µs |"_s, u"| Speedup | 4.00x |"_s,
          u"| `linear.weight` | parameter | f32 | `(out_features, in_features) = (4096, 1024)` |"_s,
          u"| `out` | output | f32 | `(batch_size, out_features) = (4096, 4096)` | tolerance atol 0.0001, rtol 0.0001 |"_s,
          u"- `setup.py`: builds the extension module `torch_gemm_bias_gelu_ext`"_s, u"- `test_model_new.py`: "_s,
          u"(`kf_entry` -> `torch_gemm_bias_gelu_entry`)"_s, u"Oldest first; the last is this kernel."_s})
        QVERIFY2(readme.contains(needle), qPrintable(needle + u"\n\n"_s + readme));
    QVERIFY(!readme.contains(u"| ModelNew time"_s));
}

// Dimensions the task writes as expressions are checked and computed over the params read off the tensors; the
// params that no dimension states (a constructor's groups, min_value) go to the kernel with the task's values.
void TestExportModelNew::kernelShapesAndParams()
{
    QString error;
    const auto in = test::inputFromTask(u"torch_conv3d_groupnorm_min_clamp"_s, u"fused"_s, 1.5, &error);
    QVERIFY2(in, qPrintable(error));
    ExportOptions options;
    options.format = ExportFormat::Torch;
    const ExportBundle b = Exporter::generate(*in, options);
    QVERIFY2(b.ok(), qPrintable(b.error));
    ExportPlan::make(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/export-torchkernel-conv3d"), b).write(true, nullptr);
    const QString binding = text(b, u"torch_conv3d_groupnorm_min_clamp_binding.cpp"_s);
    for (const QString &needle :
         {u"torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,\n"
          "    torch::Tensor norm_weight, torch::Tensor norm_bias)\n{\n"_s,
          u"    check(x, \"x\", torch::kFloat32, 5);\n"_s, u"    Param p_min_value{\"min_value\", 0};\n"_s,
          u"    Param p_groups{\"groups\", 8};\n"_s, u"    p_depth.read(x, 2, \"x\");\n"_s,
          u"    p_out_channels.read(conv_weight, 0, \"conv.weight\");\n"_s, u"    expect(x, 1, 3.0, \"x\", \"3\");\n"_s,
          u"    expect(conv_weight, 4, 3.0, \"conv.weight\", \"3\");\n"_s,
          u"size(p_depth.value - 2.0, \"depth - 2\"),"_s, u"size(p_height.value - 2.0, \"height - 2\"),"_s,
          u"        {\"groups\", p_groups.value},\n        {\"min_value\", p_min_value.value},\n"_s,
          u"const kf_params params = {items, 10};"_s})
        QVERIFY2(binding.contains(needle), qPrintable(needle + u"\n\n"_s + binding));
    QVERIFY(text(b, u"model_new.py"_s)
                .contains(u"return _ext.forward(x, self.conv.weight, self.conv.bias, self.norm.weight, self.norm.bias)"_s));
    // A degenerate task says so, as every export does.
    QVERIFY(text(b, u"README.md"_s).contains(u"**Warning:** the task's output does not depend on its inputs"_s));

    // A scalar forward argument is an argument of forward() and a kf_param of its name; a buffer follows the
    // parameters; a state-dict name that is no Python name is reached with getattr(); several outputs are a tuple.
    QJsonObject json = QJsonDocument::fromJson(in->taskJson.toUtf8()).object();
    QJsonArray inputs = json[u"inputs"_s].toArray();
    inputs.append(QJsonObject{{u"name"_s, u"scale"_s}, {u"scalar"_s, u"float"_s}, {u"value"_s, 0.5}});
    inputs.append(QJsonObject{{u"name"_s, u"groups"_s}, {u"scalar"_s, u"int"_s}, {u"value"_s, 4}});
    json[u"inputs"_s] = inputs;
    json[u"buffers"_s] = QJsonArray{QJsonObject{
        {u"name"_s, u"blocks.0.running_mean"_s}, {u"dtype"_s, u"f32"_s}, {u"shape"_s, QJsonArray{u"out_channels"_s}}}};
    QJsonArray outputs = json[u"outputs"_s].toArray();
    outputs.append(QJsonObject{{u"name"_s, u"count"_s}, {u"dtype"_s, u"i64"_s}, {u"shape"_s, QJsonArray{}}});
    json[u"outputs"_s] = outputs;
    auto more = *in;
    more.taskJson = QString::fromUtf8(QJsonDocument(json).toJson());
    const ExportBundle m = Exporter::generate(more, options);
    QVERIFY2(m.ok(), qPrintable(m.error));
    ExportPlan::make(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/export-torchkernel-scalars"), m).write(true, nullptr);

    const QString b2 = text(m, u"torch_conv3d_groupnorm_min_clamp_binding.cpp"_s);
    for (const QString &needle :
         {u"std::vector<torch::Tensor> forward(torch::Tensor x, double scale, int64_t groups, torch::Tensor conv_weight,"_s,
          u"torch::Tensor blocks_0_running_mean)\n{\n"_s,
          u"    p_out_channels.read(blocks_0_running_mean, 0, \"blocks.0.running_mean\");\n"_s,
          u"torch::Tensor count = torch::empty(std::vector<int64_t>{}, options.dtype(torch::kInt64));"_s,
          u"        {\"width\", p_width.value},\n        {\"scale\", static_cast<double>(scale)},\n"
          "        {\"groups\", static_cast<double>(groups)},\n    };\n    const kf_params params = {items, 11};"_s,
          u"describe(blocks_0_running_mean, KF_F32, \"blocks.0.running_mean\")};"_s, u"    return {out, count};\n"_s})
        QVERIFY2(b2.contains(needle), qPrintable(needle + u"\n\n"_s + b2));
    QVERIFY(!b2.contains(u"{\"groups\", p_groups.value}"_s)); // the forward argument's value, not the param's
    QVERIFY(b2.contains(u"    [[maybe_unused]] Param p_groups{\"groups\", 8};\n"_s));
    QVERIFY2(text(m, u"model_new.py"_s)
                 .contains(u"    def forward(self, x, scale, groups):\n        return tuple(_ext.forward(x, scale, groups, "
                           "self.conv.weight, self.conv.bias, self.norm.weight,\n"
                           "            self.norm.bias, getattr(self.blocks, \"0\").running_mean))\n"_s),
             qPrintable(text(m, u"model_new.py"_s)));
}

void TestExportModelNew::kernelExpressions_data()
{
    QTest::addColumn<QString>("dimension");
    QTest::addColumn<QString>("cpp"); // empty: refused
    QTest::newRow("number") << u"64"_s << u"64.0"_s;
    QTest::newRow("param") << u"N"_s << u"p_N.value"_s;
    QTest::newRow("pooling") << u"(H + 1)/2"_s << u"(p_H.value + 1.0) / 2.0"_s;
    QTest::newRow("functions") << u"floor(max(N, 2*H, 1e1) / 3)"_s
                               << u"std::floor(std::max({p_N.value, 2.0 * p_H.value, 1e1}) / 3.0)"_s;
    QTest::newRow("unary minus") << u"-N + 2.5*H"_s << u"- p_N.value + 2.5 * p_H.value"_s;
    QTest::newRow("unknown param") << u"N*K"_s << QString();
    QTest::newRow("python floor division") << u"N // 2"_s << QString();
}

void TestExportModelNew::kernelExpressions()
{
    QFETCH(QString, dimension);
    QFETCH(QString, cpp);
    const QHash<QString, QString> variables{{u"N"_s, u"p_N.value"_s}, {u"H"_s, u"p_H.value"_s}};
    const std::map<std::string, double, std::less<>> values{{"N", 64}, {"H", 33}};
    QString error;
    QCOMPARE(TorchKernelExporter::cppExpression(dimension, variables, values, &error), cpp);
    QCOMPARE(error.isEmpty(), !cpp.isEmpty());
}

void TestExportModelNew::kernelRefusals()
{
    QString error;
    const auto in = test::inputFromTask(u"torch_row_sum"_s, u"warp_per_row"_s, 5.0, &error);
    QVERIFY2(in, qPrintable(error));
    // cmake and into test against a CUDA task's reference kernel, which a torch task does not have.
    for (const auto format : {ExportFormat::CMake, ExportFormat::Into}) {
        ExportOptions options;
        options.format = format;
        options.intoSubdir = u"k"_s;
        const ExportBundle b = Exporter::generate(*in, options);
        QVERIFY(!b.ok());
        QVERIFY(b.files.isEmpty());
        QVERIFY2(b.error.contains(u".cu kernel of a PyTorch task: it exports as 'torch'"_s)
                     && b.error.contains(u"'%1'"_s.arg(exportFormatName(format))),
                 qPrintable(b.error));
    }
    ExportOptions torch;
    torch.format = ExportFormat::Torch;
    const auto refused = [&](const std::function<void(QJsonObject &)> &edit, const QString &message) {
        QJsonObject json = QJsonDocument::fromJson(in->taskJson.toUtf8()).object();
        edit(json);
        auto odd = *in;
        odd.taskJson = QString::fromUtf8(QJsonDocument(json).toJson());
        const ExportBundle b = Exporter::generate(odd, torch);
        return !b.ok() && b.files.isEmpty() && b.error.contains(message) ? QString() : b.error + u" (no "_s + message + u')';
    };
    // A dtype the kernel ABI has no name for, an output dimension over no param, no outputs, no reference.
    QString problem = refused(
        [](QJsonObject &j) {
            j[u"inputs"_s] = QJsonArray{
                QJsonObject{{u"name"_s, u"mask"_s}, {u"dtype"_s, u"bool"_s}, {u"shape"_s, QJsonArray{u"batch_size"_s}}}};
        },
        u"tensor mask has dtype bool, which the kernel ABI has no name for"_s);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    problem = refused(
        [](QJsonObject &j) {
            j[u"outputs"_s] = QJsonArray{
                QJsonObject{{u"name"_s, u"out"_s}, {u"dtype"_s, u"f32"_s}, {u"shape"_s, QJsonArray{u"rows"_s}}}};
        },
        u"dimension 0 of out (rows) does not evaluate over the task's params: unknown identifier 'rows'"_s);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    problem = refused(
        [](QJsonObject &j) {
            j[u"inputs"_s] = QJsonArray{QJsonObject{{u"name"_s, u"mode"_s}, {u"scalar"_s, u"str"_s}, {u"value"_s, u"x"_s}}};
        },
        u"the forward argument mode is a Python str: the kernel's kf_params take int, float and bool"_s);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    problem = refused([](QJsonObject &j) { j[u"outputs"_s] = QJsonArray{}; }, u"the task torch_row_sum has no outputs"_s);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    auto noReference = *in;
    noReference.referenceSource.clear();
    const ExportBundle b = Exporter::generate(noReference, torch);
    QVERIFY2(!b.ok() && b.error.contains(u"has no reference source"_s), qPrintable(b.error));
}

void TestExportModelNew::everyBuiltinKernelGenerates()
{
    // Every .cu variant of every built-in torch task: all ten files, no placeholder left, the Python files compile.
    const QString python = QStandardPaths::findExecutable(u"python3"_s);
    int variants = 0;
    for (const QString &folder : Task::builtinTorchTaskFolders()) {
        const TaskLoadResult loaded = Task::load(folder);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error.message()));
        for (const TaskVariant &variant : loaded.task->variants()) {
            if (!variant.file.endsWith(u".cu"_s))
                continue;
            const QString name = loaded.task->name();
            QString error;
            const auto in = test::inputFromTask(name, variant.label, 2.0, &error);
            QVERIFY2(in, qPrintable(error));
            ExportOptions options;
            options.format = ExportFormat::Torch;
            const ExportBundle b = Exporter::generate(*in, options);
            QVERIFY2(b.ok(), qPrintable(name + u": "_s + b.error));
            QCOMPARE(b.files.size(), 10);
            QVERIFY(b.find(name + u"_binding.cpp"_s) && b.find(name + u"_kernel.cu"_s));
            for (const auto &f : b.files)
                QVERIFY2(!f.content.contains("{{"), qPrintable(name + u": placeholder left in "_s + f.path));
            ++variants;
            if (python.isEmpty())
                continue;
            const QString out = QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/export-torchkernel-") + name;
            QVERIFY(ExportPlan::make(out, b).write(true, &error));
            const test::ProcessRun r = test::runProcess(python,
                                                        {u"-m"_s, u"py_compile"_s, u"model_new.py"_s, u"setup.py"_s},
                                                        out, 60000, QProcessEnvironment::systemEnvironment());
            QVERIFY2(r.ok(), qPrintable(name + u": "_s + r.output));
        }
    }
    QVERIFY(variants >= 8);
}

void TestExportModelNew::kernelWrapperRuns_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QVariantMap>("sizes");
    QTest::addColumn<QString>("stub"); // the extension's forward() in PyTorch, standing in for the kernel
    QTest::newRow("diag_matmul rowscale")
        << u"torch_diag_matmul"_s << u"rowscale"_s << QVariantMap{{u"N"_s, 64}, {u"M"_s, 48}}
        << u"def forward(A, B):\n    assert A.shape == (64,) and B.shape == (64, 48), (A.shape, B.shape)\n"
           "    return A.unsqueeze(1) * B\n"_s;
    QTest::newRow("gemm_bias_gelu fused_regblock")
        << u"torch_gemm_bias_gelu"_s << u"fused_regblock"_s
        << QVariantMap{{u"batch_size"_s, 32}, {u"in_features"_s, 64}, {u"out_features"_s, 96}}
        << u"def forward(x, weight, bias):\n    assert weight.shape == (96, 64) and bias.shape == (96,)\n"
           "    return torch.nn.functional.gelu(x @ weight.t() + bias, approximate='tanh')\n"_s;
}

// On the CPU, with an extension module in Python standing in for the kernel (model_new.py takes a <ns>_ext beside it
// as it takes the built one): ModelNew has the reference's constructor and state dict and hands forward() the
// arguments, then the reference's parameters, so the ModelNew export's test passes and its benchmark runs.
void TestExportModelNew::kernelWrapperRuns()
{
    QFETCH(QString, task);
    QFETCH(QString, variant);
    QFETCH(QVariantMap, sizes);
    QFETCH(QString, stub);
    QString version, why;
    const QString python = torchimport::findPython(torchimport::defaultPythons(), version, why);
    if (python.isEmpty())
        QSKIP(qPrintable(u"no python3 with torch (%1)"_s.arg(why)));
    QString error;
    auto in = test::inputFromTask(task, variant, 2.0, &error);
    QVERIFY2(in, qPrintable(error));
    in->referenceSource = test::scaledReference(in->referenceSource, sizes);
    ExportOptions options;
    options.format = ExportFormat::Torch;
    ExportBundle b = Exporter::generate(*in, options);
    QVERIFY2(b.ok(), qPrintable(b.error));
    b.files << ExportFile{task + u"_ext.py"_s, (u"import torch\n\n\n"_s + stub).toUtf8()};
    const QString out = m_dir.filePath(u"kernel-stub-"_s + task);
    QVERIFY(ExportPlan::make(out, b).write(true, &error));
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const test::ProcessRun checked = test::runProcess(
        python, {u"test_model_new.py"_s, u"--trials"_s, u"2"_s, u"--device"_s, u"cpu"_s}, out, 120000, env);
    QVERIFY2(checked.ok(), qPrintable(checked.output));
    QVERIFY2(checked.output.contains(u"PASS: ModelNew matches the reference in 2 of 2 trials"_s),
             qPrintable(checked.output));
    const test::ProcessRun timed = test::runProcess(python,
                                                    {u"bench_model_new.py"_s, u"--runs"_s, u"3"_s, u"--min-time-ms"_s,
                                                     u"0"_s, u"--warmup"_s, u"1"_s, u"--device"_s, u"cpu"_s},
                                                    out, 120000, env);
    QVERIFY2(timed.ok(), qPrintable(timed.output));
    QVERIFY2(timed.output.contains(u": 3 timed runs of each after 1 warm-up pairs"_s), qPrintable(timed.output));
}

// The binding compiles against PyTorch's headers (syntax only: no CUDA device or nvcc needed) where they are, with the
// CUDA toolkit's; SKIP without them. Built-in tasks with parameters, expressions and an int64 input.
void TestExportModelNew::kernelBindingCompiles()
{
    QString version, why;
    const QString python = torchimport::findPython(torchimport::defaultPythons(), version, why);
    if (python.isEmpty())
        QSKIP(qPrintable(u"no python3 with torch (%1)"_s.arg(why)));
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const test::ProcessRun paths =
        test::runProcess(python,
                         {u"-c"_s, u"import sysconfig, torch.utils.cpp_extension as c; print('\\n'.join(c.include_paths() + "
                                   "[sysconfig.get_paths()['include']]))"_s},
                         QDir::currentPath(), 120000, env);
    QStringList includes; // the folders, without what torch says on stderr ("No CUDA runtime is found")
    for (const QString &line : paths.output.split(u'\n', Qt::SkipEmptyParts))
        if (line.startsWith(u'/'))
            includes << line;
    if (!paths.ok() || includes.isEmpty() || !QFileInfo::exists(includes.front() + u"/torch/extension.h"_s))
        QSKIP(qPrintable(u"no PyTorch C++ headers: "_s + paths.output.trimmed()));
    const QString torchInclude = includes.front();
    const QString cuda = QFileInfo::exists(u"/usr/local/cuda/include/cuda_runtime.h"_s) ? u"/usr/local/cuda/include"_s
                                                                                        : QString();
    if (cuda.isEmpty() && !QFileInfo::exists(u"/usr/include/cuda_runtime.h"_s))
        QSKIP("no CUDA headers (cuda_runtime.h)");
    if (!QFileInfo::exists(torchInclude + u"/ATen/cuda/CUDAContext.h"_s))
        QSKIP("this PyTorch has no CUDA headers (ATen/cuda/CUDAContext.h)");
    const QString cxx = QStandardPaths::findExecutable(u"g++"_s);
    if (cxx.isEmpty())
        QSKIP("no g++");
    if (!cuda.isEmpty())
        includes << cuda;
    // Debian's libtorch-dev (a CPU build) has c10/cuda's headers but not the one CMake generates for them: its line.
    if (!QFileInfo::exists(torchInclude + u"/c10/cuda/impl/cuda_cmake_macros.h"_s)) {
        const QString stub = m_dir.filePath(u"torch-stub/c10/cuda/impl"_s);
        QVERIFY(QDir().mkpath(stub));
        QFile f(stub + u"/cuda_cmake_macros.h"_s);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#pragma once\n#define C10_CUDA_BUILD_SHARED_LIBS\n");
        includes.prepend(m_dir.filePath(u"torch-stub"_s));
    }
    for (const auto &[task, variant] : {std::pair{u"torch_gemm_bias_gelu"_s, u"fused_regblock"_s},
                                        std::pair{u"torch_conv3d_groupnorm_min_clamp"_s, u"fused"_s},
                                        std::pair{u"torch_embedding"_s, u"gather_vec4"_s}}) {
        QString error;
        const auto in = test::inputFromTask(task, variant, 2.0, &error);
        QVERIFY2(in, qPrintable(error));
        ExportOptions options;
        options.format = ExportFormat::Torch;
        const ExportBundle b = Exporter::generate(*in, options);
        QVERIFY2(b.ok(), qPrintable(b.error));
        const QString out = m_dir.filePath(u"kernel-binding-"_s + task);
        QVERIFY(ExportPlan::make(out, b).write(true, &error));
        QStringList args{u"-std=c++17"_s, u"-fsyntax-only"_s,
                         u"-Wall"_s,      u"-Wno-unused-function"_s,
                         u"-Iinclude"_s,  u"-DTORCH_EXTENSION_NAME="_s + task + u"_ext"_s};
        for (const QString &dir : std::as_const(includes))
            args << u"-isystem"_s << dir;
        args << task + u"_binding.cpp"_s;
        const test::ProcessRun r = test::runProcess(cxx, args, out, 300000, env);
        QVERIFY2(r.ok(), qPrintable(task + u": "_s + r.output));
        QVERIFY2(!r.output.contains(u"warning"_s), qPrintable(task + u": "_s + r.output));
    }
}

QTEST_GUILESS_MAIN(TestExportModelNew)
#include "tst_exportmodelnew.moc"
