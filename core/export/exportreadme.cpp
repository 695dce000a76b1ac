#include "core/export/exportreadme.h"

#include "core/eval/measureformat.h"
#include "core/export/codenames.h"
#include "core/export/templaterenderer.h"
#include "core/export/torchkernelexporter.h"
#include "core/task/sourcelanguage.h"
#include "core/task/tasksummary.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString orNotRecorded(const QString &s)
{
    return s.trimmed().isEmpty() ? u"not recorded"_s : s;
}

QString dateText(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODate) : u"not recorded"_s;
}

// Markdown table cells must not contain a bare '|' or a line break.
QString cell(QString s)
{
    return s.replace(u'|', u"\\|"_s).replace(u'\n', u' ');
}

QString code(const QString &s)
{
    return s.isEmpty() ? QString() : u'`' + s + u'`';
}

QString initText(const runtime::TensorSpec &t)
{
    const auto n = [](double v) { return CodeNames::number(v); };
    switch (t.init.kind) {
    case runtime::InitSpec::Kind::Normal: return u"normal(mean %1, std %2)"_s.arg(n(t.init.a), n(t.init.b));
    case runtime::InitSpec::Kind::Uniform: return u"uniform [%1, %2)"_s.arg(n(t.init.a), n(t.init.b));
    case runtime::InitSpec::Kind::Integers: return u"integers [%1, %2)"_s.arg(n(t.init.a), n(t.init.b));
    case runtime::InitSpec::Kind::Constant: return u"constant %1"_s.arg(n(t.init.a));
    }
    return {};
}

QString shapeCell(const runtime::TensorSpec &t)
{
    const QString written = ExportContext::shapeText(t);
    QStringList values;
    for (const auto &d : t.shape)
        values << QString::number(d.value);
    const QString evaluated = values.join(u" x "_s);
    return written == evaluated || t.shape.empty() ? code(written) : code(written) + u" = "_s + code(evaluated);
}

QString formatSection(const ExportContext &ctx, ExportFormat format, const QStringList &cmakeLines)
{
    const QString &ns = ctx.ns;
    QStringList inArgs, allArgs;
    for (const auto &id : ctx.inputIds)
        inArgs << id;
    allArgs = inArgs + ctx.outputIds;
    switch (format) {
    case ExportFormat::CMake:
    case ExportFormat::Into: {
        QString s;
        if (format == ExportFormat::Into) {
            s += u"## Adding it to your project\n\nThese files were added to your CMake project. Add these lines to its top-level "
                 "`CMakeLists.txt` (the first two only if CUDA is not enabled there yet):\n\n```cmake\n"_s
                 + cmakeLines.join(u'\n') + u"\n```\n\n"_s
                 + u"The test and benchmark are off in a host project; configure with `-D%1_BUILD_TESTS=ON` to build "
                   "`test_%2` and `bench_%2`.\n\n"_s.arg(ctx.nsUpper, ns);
        } else {
            s += u"## Build, test, benchmark\n\n```sh\ncmake -S . -B build -DCMAKE_BUILD_TYPE=Release\n"
                 "cmake --build build -j\n./build/test_%1     # exit status 0: matches the reference within the task's tolerances\n"
                 "./build/bench_%1    # reference and kernel medians and the speedup\n```\n\n"
                 "Needs CMake 3.21 and a CUDA toolkit; the GPU architecture defaults to the one the kernel was measured on "
                 "(`-DCMAKE_CUDA_ARCHITECTURES=...` to change). In another CMake project: `add_subdirectory()` this folder "
                 "and link `%1::kernel`.\n\n"_s.arg(ns);
        }
        s += u"## Use\n\n```cpp\n#include \"%1/%1.h\"\n\n// device pointers, dense and row-major, shapes as in %1::shape\n"
             "cudaError_t err = %1::run(%2, stream);\n```\n"_s.arg(ns, allArgs.join(u", "_s));
        return s;
    }
    case ExportFormat::Torch:
        return u"## Build and test\n\n```sh\npython3 setup.py build_ext --inplace\npython3 test_%1.py\n```\n\n"
               "Needs PyTorch with CUDA and a CUDA toolkit matching it. The architecture defaults to the one the kernel was "
               "measured on (set `TORCH_CUDA_ARCH_LIST` to change).\n\n## Use\n\n```python\nimport torch\nimport %1_ext\n\n"
               "# CUDA tensors of the task's dtypes and shapes; runs on the current stream\nout = %1_ext.forward(%2)\n```\n"_s
                   .arg(ns, inArgs.join(u", "_s));
    }
    return {};
}

// A ModelNew export: nothing to build; the test, the benchmark, and the module in the user's code.
QString modelNewSection(const std::optional<TaskSummary> &summary)
{
    QStringList args;
    if (summary)
        for (const TaskTensorInfo &t : summary->inputs)
            args << t.name;
    return u"## Test and benchmark\n\n```sh\n"
           "python3 test_model_new.py     # exit status 0: ModelNew matches the reference within the task's tolerances\n"
           "python3 bench_model_new.py    # reference and ModelNew medians and the speedup\n```\n\n"
           "Needs Python 3 with PyTorch; both run on the GPU when PyTorch sees one, else on the CPU (`--device cpu` or "
           "`--device cuda:1` to choose). The test builds `Model` and `ModelNew` from `get_init_inputs()`, loads the "
           "reference's state dict into `ModelNew` (`load_state_dict(strict=True)`), and compares their outputs on "
           "inputs from `get_inputs()` under a new seed per trial (`--trials`, `--seed`), as KForge's judge did. The "
           "benchmark times both on the same inputs (`--runs`, `--min-time-ms`, `--warmup`).\n\n"
           "## Use\n\n```python\nimport torch\nfrom model_new import ModelNew\nfrom reference import Model, "
           "get_init_inputs\n\n"
           "# The same constructor and state-dict names as Model: its weights (or yours) load as they are.\n"
           "model = ModelNew(*get_init_inputs())\nmodel.load_state_dict(Model(*get_init_inputs()).state_dict())\n"
           "model = model.to(\"cuda\").eval()\nwith torch.no_grad():\n    out = model(%1)\n```\n"_s.arg(args.join(u", "_s));
}

// A torch task's .cu kernel: the extension to build, the same test and benchmark as a ModelNew module's, the module in
// the user's code or the extension alone.
QString torchKernelSection(const ExportContext &ctx, const TaskSummary &summary)
{
    QStringList args, kernelArgs;
    for (const TaskTensorInfo &t : summary.inputs)
        args << t.name;
    kernelArgs = args;
    for (const QList<TaskTensorInfo> *list : {&summary.parameters, &summary.buffers})
        for (const TaskTensorInfo &t : *list)
            kernelArgs << TorchKernelExporter::pyAttribute(u"model"_s, t.name);
    return u"## Build, test, benchmark\n\n```sh\n"
           "python3 setup.py build_ext --inplace   # builds %1_ext (the kernel and its binding) beside these files\n"
           "python3 test_model_new.py              # exit status 0: ModelNew matches the reference within the task's "
           "tolerances\n"
           "python3 bench_model_new.py             # reference and ModelNew medians and the speedup\n```\n\n"
           "Needs PyTorch with CUDA, a CUDA toolkit matching it, and a GPU. The architecture defaults to the one the kernel "
           "was measured on (set `TORCH_CUDA_ARCH_LIST` to change). Without the build step, `model_new.py` builds the "
           "extension when it is first imported, with `torch.utils.cpp_extension.load()` (which needs `ninja`), into "
           "`build/jit/`. The test builds `Model` and `ModelNew` from `get_init_inputs()`, loads the reference's state "
           "dict into `ModelNew` (`load_state_dict(strict=True)`), and compares their outputs on inputs from "
           "`get_inputs()` under a new seed per trial (`--trials`, `--seed`), as KForge's judge did; on the GPU that "
           "PyTorch sees first (`--device cuda:1` to choose; the kernel takes CUDA tensors only). The benchmark times "
           "both on the same inputs (`--runs`, `--min-time-ms`, `--warmup`).\n\n"
           "## Use\n\n```python\nimport torch\nfrom model_new import ModelNew\nfrom reference import Model, "
           "get_init_inputs\n\n"
           "# Model's constructor and state-dict names: its weights (or yours) load as they are.\n"
           "model = ModelNew(*get_init_inputs())\nmodel.load_state_dict(Model(*get_init_inputs()).state_dict())\n"
           "model = model.to(\"cuda\").eval()\nwith torch.no_grad():\n    out = model(%2)\n```\n\n"
           "`ModelNew` is `Model` with `forward()` calling the extension, which takes the forward arguments, then the "
           "module's parameters and buffers (state-dict order), all CUDA tensors:\n\n```python\nimport %1_ext\n\n"
           "out = %1_ext.forward(%3)\n```\n\n"
           "The kernel is given the task's params as `kf_params`, and the scalar forward arguments. A param that a "
           "dimension of a tensor states alone (`N` of a shape `(N, M)`) is read off the tensors given, so the outputs "
           "follow the sizes of the inputs (the kernel was measured at the sizes below); the other dimensions must be "
           "the task's.\n"_s.arg(ctx.ns, args.join(u", "_s), kernelArgs.join(u", "_s));
}

// The task's tensors for a torch task, from its task.json: forward arguments, the module's parameters and
// buffers (the state dict the test copies), outputs with their tolerance.
QString torchTaskTable(const TaskSummary &s)
{
    const auto shape = [](const TaskTensorInfo &t) { return t.isScalar() ? QString() : code(t.shapeText()); };
    QStringList table{u"| Tensor | Role | dtype | Shape | Values |"_s, u"|---|---|---|---|---|"_s};
    for (const TaskTensorInfo &t : s.inputs)
        table << (t.isScalar() ? u"| %1 | forward argument | %2 | | %3 |"_s.arg(code(t.name), t.dtype, code(t.scalarValue))
                               : u"| %1 | forward argument | %2 | %3 | from `get_inputs()` |"_s.arg(code(t.name),
                                                                                                    t.dtype, shape(t)));
    for (const TaskTensorInfo &t : s.parameters)
        table << u"| %1 | parameter | %2 | %3 | the reference's, loaded into ModelNew |"_s.arg(code(t.name), t.dtype,
                                                                                               shape(t));
    for (const TaskTensorInfo &t : s.buffers)
        table << u"| %1 | buffer | %2 | %3 | the reference's, loaded into ModelNew |"_s.arg(code(t.name), t.dtype,
                                                                                            shape(t));
    for (const TaskTensorInfo &t : s.outputs) {
        QString tolerance = u"compared exactly"_s;
        for (const TaskToleranceInfo &tol : s.tolerance)
            if (tol.dtype == t.dtype && !tol.exact)
                tolerance = u"tolerance atol %1, rtol %2"_s.arg(CodeNames::number(tol.atol), CodeNames::number(tol.rtol));
        table << u"| %1 | output | %2 | %3 | %4 |"_s.arg(code(t.name), t.dtype, shape(t), tolerance);
    }
    QString out = table.join(u'\n');
    if (!s.params.isEmpty()) {
        QStringList params;
        for (const auto &[name, value] : s.params)
            params << code(name + u" = "_s + CodeNames::number(value));
        out += u"\n\nParameters: "_s + params.join(u", "_s) + u'.';
    }
    if (!s.initInputs.isEmpty())
        out += u"\n\nConstructor arguments (`get_init_inputs()`): `%1`."_s.arg(s.initInputs);
    if (s.flops || s.bytes)
        out += u"\n\nWork: %1 FLOP, %2 bytes moved at least."_s.arg(s.flops ? QString::number(*s.flops, 'g', 4) : u"unknown"_s,
                                                                    s.bytes ? QString::number(*s.bytes, 'g', 4)
                                                                            : u"unknown"_s);
    return out;
}

} // namespace

QString ExportReadme::formatMs(std::optional<double> ms)
{
    if (!ms || !std::isfinite(*ms))
        return u"not recorded"_s;
    return formatDuration(*ms);
}

QString ExportReadme::formatSpeedup(std::optional<double> speedup)
{
    if (!speedup || !std::isfinite(*speedup))
        return u"not recorded"_s;
    return u"%1x"_s.arg(*speedup, 0, 'f', *speedup < 10 ? 2 : 1);
}

QStringList ExportReadme::provenanceRows(const ExportInput &in)
{
    const ExportProvenance &p = in.provenance;
    // A ModelNew module was measured by kforge-worker in its module host, and never compiled.
    const bool modelNew = sourceLanguage(in.variantSource) == SourceLanguage::Python;
    QStringList rows;
    const auto row = [&](const QString &key, const QString &value) {
        rows << u"| "_s + key + u" | "_s + cell(value) + u" |"_s;
    };
    row(u"Task"_s, code(QString::fromStdString(in.task.name)) + (in.task.title.empty() ? QString() : u" — "_s + QString::fromStdString(in.task.title)));
    row(u"Variant"_s,
        u"#%1"_s.arg(in.variantId) + (in.variantLabel.isEmpty() ? QString() : u" "_s + code(in.variantLabel)));
    if (!p.model.isEmpty())
        row(u"Written by"_s, p.model);
    QString gpu = orNotRecorded(p.gpuName);
    if (p.ccMajor > 0)
        gpu += u", compute capability %1.%2"_s.arg(p.ccMajor).arg(p.ccMinor);
    if (!p.arch.isEmpty())
        gpu += u" ("_s + p.arch + u')';
    row(modelNew ? u"Device"_s : u"GPU"_s, gpu);
    if (!modelNew || !p.driverVersion.isEmpty())
        row(u"Driver"_s, orNotRecorded(p.driverVersion)
                             + (p.runtimeVersion.isEmpty() ? QString() : u", CUDA runtime "_s + p.runtimeVersion));
    if (!modelNew) {
        row(u"nvcc"_s, orNotRecorded(p.nvccVersion));
        row(u"nvcc flags"_s, p.nvccFlags.isEmpty() ? u"not recorded"_s : code(NvccFlags::portable(p.nvccFlags).join(u' ')));
    }
    const auto withCv = [](std::optional<double> ms, std::optional<double> cv) {
        QString s = formatMs(ms);
        if (ms && cv && std::isfinite(*cv))
            s += u" (cv %1%)"_s.arg(*cv * 100.0, 0, 'f', 1);
        return s;
    };
    // The two times by their names in KForge's panels and report (core/eval/measureformat.h).
    row(TimeNames::eventTimeEnglish() + u", reference"_s, withCv(p.referenceMedianMs, p.referenceCv));
    row(TimeNames::eventTimeEnglish() + (modelNew ? u", ModelNew"_s : u", this kernel"_s),
        withCv(p.candidateMedianMs, p.candidateCv));
    if (p.candidateKernelMs)
        row(TimeNames::kernelTimeEnglish() + (modelNew ? u", ModelNew"_s : u", this kernel"_s),
            formatMs(p.candidateKernelMs));
    row(u"Speedup"_s, formatSpeedup(p.speedup));
    row(u"Speed of light"_s, speedOfLightReportText(p.speedOfLight, p.speedOfLightPct, u"not recorded"_s));
    if (p.timingRuns > 0)
        row(u"Timed runs"_s, QString::number(p.timingRuns));
    if (p.seed)
        row(u"Seed"_s, u"`%1` (`kforge-cli eval --seed %1` draws the same inputs)"_s.arg(*p.seed));
    if (!p.flags.isEmpty())
        row(u"Warnings"_s, p.flags.join(u", "_s));
    if (!p.suspiciousReason.isEmpty())
        row(u"Not reviewed"_s,
            u"KForge marked this result for review (%1) and it was not accepted"_s.arg(p.suspiciousReason));
    row(u"Variant created"_s, dateText(p.variantCreated));
    row(u"Measured"_s, dateText(p.evaluated));
    if (!p.sessionFile.isEmpty())
        row(u"Session"_s, code(p.sessionFile));
    row(u"Exported by"_s, u"KForge "_s + in.kforgeVersion);
    return rows;
}

QString ExportReadme::render(const ExportContext &ctx, ExportFormat format,
                             const QList<QPair<QString, QString>> &fileRoles, const QStringList &cmakeLines, QString *error)
{
    const ExportInput &in = ctx.input;
    const runtime::TaskSpec &task = in.task;
    TemplateRenderer::Values v = ctx.baseValues();

    const bool modelNew = sourceLanguage(in.variantSource) == SourceLanguage::Python;
    const std::optional<TaskSummary> torchTask = in.taskKind == TaskKind::Torch
                                                     ? TaskSummary::fromTaskJson(in.taskJson.toUtf8())
                                                     : std::nullopt;
    // A torch task's .cu kernel: a PyTorch extension, wrapped in a ModelNew module.
    const bool torchKernel = torchTask && !modelNew;
    QString summary =
        modelNew
            ? u"The PyTorch module `ModelNew` of variant #%1 of the KForge task `%2`"_s.arg(in.variantId).arg(QString::fromStdString(task.name))
        : torchKernel
            ? u"The CUDA kernel of variant #%1 of the KForge PyTorch task `%2`, built as a PyTorch extension that the "
              "`ModelNew` module here calls"_s.arg(in.variantId)
                  .arg(QString::fromStdString(task.name))
            : u"The CUDA kernel of variant #%1 of the KForge task `%2`"_s.arg(in.variantId).arg(QString::fromStdString(task.name));
    if (in.provenance.speedup)
        summary += u", measured %1 faster than the task's reference on %2"_s.arg(formatSpeedup(in.provenance.speedup),
                                                                                 orNotRecorded(in.provenance.gpuName));
    summary += u". It was checked against the reference on fresh random inputs before it was timed; the test here "
               "repeats that check on your machine."_s;
    if (task.degenerate || in.provenance.flags.contains(u"degenerate_output"_s))
        summary += u"\n\n**Warning:** the task's output does not depend on its inputs (it is degenerate), so this "
                   "speedup says nothing about kernel quality."_s;
    v[u"summary"_s] = summary;
    v[u"format_section"_s] = modelNew      ? modelNewSection(torchTask)
                             : torchKernel ? torchKernelSection(ctx, *torchTask)
                                           : formatSection(ctx, format, cmakeLines);
    v[u"provenance_rows"_s] = provenanceRows(in).join(u'\n');

    QStringList lineage;
    for (const auto &step : in.lineage) {
        QString line = u"1. #%1"_s.arg(step.variantId);
        if (!step.label.isEmpty())
            line += u" "_s + code(step.label);
        QStringList details;
        if (!step.origin.isEmpty())
            details << step.origin;
        if (step.round > 0)
            details << u"round %1"_s.arg(step.round);
        if (step.speedup)
            details << formatSpeedup(step.speedup);
        if (!details.isEmpty())
            line += u" — "_s + details.join(u", "_s);
        lineage << line;
    }
    v[u"lineage"_s] = lineage.isEmpty() ? u"Not recorded."_s
                                        : lineage.join(u'\n') + u"\n\nOldest first; the last is this "_s
                                              + (modelNew ? u"module."_s : u"kernel."_s);

    v[u"task_description"_s] = QString::fromStdString(task.description);
    QStringList table{u"| Tensor | Role | dtype | Shape | Initial values |"_s, u"|---|---|---|---|---|"_s};
    for (const auto &t : task.inputs)
        table << u"| %1 | input | %2 | %3 | %4 |"_s.arg(code(QString::fromStdString(t.name)), CodeNames::dtypeName(t.dtype), shapeCell(t),
                                                        initText(t));
    for (const auto &t : task.outputs) {
        const runtime::Tolerance tol = task.toleranceFor(t.dtype);
        table << u"| %1 | output | %2 | %3 | tolerance atol %4, rtol %5 |"_s.arg(code(QString::fromStdString(t.name)),
                                                                                 CodeNames::dtypeName(t.dtype),
                                                                                 shapeCell(t), CodeNames::number(tol.atol),
                                                                                 CodeNames::number(tol.rtol));
    }
    QString taskTable = torchTask ? torchTaskTable(*torchTask) : table.join(u'\n');
    if (!torchTask && !task.params.empty()) {
        QStringList params;
        for (const auto &[name, value] : task.params)
            params << code(QString::fromStdString(name) + u" = "_s + CodeNames::number(value));
        taskTable += u"\n\nParameters: "_s + params.join(u", "_s) + u'.';
    }
    if (!torchTask && (task.flops.present() || task.bytes.present()))
        taskTable += u"\n\nWork: %1 FLOP, %2 bytes moved at least (`%3`, `%4`)."_s.arg(
            QString::number(task.flops.value, 'g', 4), QString::number(task.bytes.value, 'g', 4), QString::fromStdString(task.flops.text),
            QString::fromStdString(task.bytes.text));
    if (!modelNew && !ctx.kernelFlags.ignored.isEmpty())
        taskTable += u"\n\nFlags of the measurement this build leaves to itself: `%1`."_s.arg(
            NvccFlags::portable(ctx.kernelFlags.ignored).join(u"`, `"_s));
    v[u"task_table"_s] = taskTable;

    QStringList files;
    for (const auto &[path, role] : fileRoles)
        files << u"- `%1`: %2"_s.arg(path, role);
    v[u"file_list"_s] = files.join(u'\n');
    static const QRegularExpression abiVersion(u"#define\\s+KF_ABI_VERSION\\s+(\\d+)"_s);
    const QString abi = abiVersion.match(QString::fromUtf8(ExportContext::abiHeader())).captured(1);
    const QString entryNote =
        format == ExportFormat::Torch
            ? u"The build renames the entry point (`kf_entry` -> `%1`) with a macro.\n"_s.arg(ctx.entry)
            : u"The build renames the entry point (`kf_entry` -> `%1`) with a macro, and `%2::run()` wraps it in a typed "
              "function, so nothing of the ABI shows in the public header.\n"_s.arg(ctx.entry, ctx.ns);
    v[u"closing_note"_s] =
        modelNew
            ? u"`model_new.py` is PyTorch code as KForge measured it, with nothing of KForge in it: it needs what it "
              "imports (an inline extension it builds with `torch.utils.cpp_extension.load_inline` needs a compiler "
              "that PyTorch can use).\n"_s
            : u"The kernel uses the KForge kernel ABI (`include/kforge/kernel.h`, a plain C header shipped verbatim, ABI\n"
              "version %1): one `extern \"C\"` entry point that takes tensor descriptors, the task's scalar\n"
              "parameters and a CUDA stream. %2"_s.arg(abi, entryNote);

    QString renderError;
    const QString text = TemplateRenderer::renderResource(u"README.md.in"_s, v, &renderError);
    if (!renderError.isEmpty() && error && error->isEmpty())
        *error = renderError;
    return text;
}

} // namespace kforge
