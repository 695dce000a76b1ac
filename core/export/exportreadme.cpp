#include "core/export/exportreadme.h"

#include "core/export/codenames.h"
#include "core/export/templaterenderer.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

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

} // namespace

QString ExportReadme::formatMs(std::optional<double> ms)
{
    if (!ms || !std::isfinite(*ms))
        return u"not recorded"_s;
    if (*ms < 1.0)
        return u"%1 µs"_s.arg(*ms * 1000.0, 0, 'f', *ms < 0.01 ? 2 : 1);
    return u"%1 ms"_s.arg(*ms, 0, 'f', *ms < 100 ? 3 : 1);
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
    QStringList rows;
    const auto row = [&](const QString &key, const QString &value) {
        rows << u"| "_s + key + u" | "_s + cell(value) + u" |"_s;
    };
    row(u"Task"_s, code(qs(in.task.name)) + (in.task.title.empty() ? QString() : u" — "_s + qs(in.task.title)));
    row(u"Variant"_s,
        u"#%1"_s.arg(in.variantId) + (in.variantLabel.isEmpty() ? QString() : u" "_s + code(in.variantLabel)));
    if (!p.model.isEmpty())
        row(u"Written by"_s, p.model);
    QString gpu = orNotRecorded(p.gpuName);
    if (p.ccMajor > 0)
        gpu += u", compute capability %1.%2"_s.arg(p.ccMajor).arg(p.ccMinor);
    if (!p.arch.isEmpty())
        gpu += u" ("_s + p.arch + u')';
    row(u"GPU"_s, gpu);
    row(u"Driver"_s, orNotRecorded(p.driverVersion)
                         + (p.runtimeVersion.isEmpty() ? QString() : u", CUDA runtime "_s + p.runtimeVersion));
    row(u"nvcc"_s, orNotRecorded(p.nvccVersion));
    row(u"nvcc flags"_s, p.nvccFlags.isEmpty() ? u"not recorded"_s : code(p.nvccFlags.join(u' ')));
    const auto withCv = [](std::optional<double> ms, std::optional<double> cv) {
        QString s = formatMs(ms);
        if (ms && cv && std::isfinite(*cv))
            s += u" (median; cv %1%)"_s.arg(*cv * 100.0, 0, 'f', 1);
        else if (ms)
            s += u" (median)"_s;
        return s;
    };
    row(u"Reference time"_s, withCv(p.referenceMedianMs, p.referenceCv));
    row(u"Kernel time"_s, withCv(p.candidateMedianMs, p.candidateCv));
    row(u"Speedup"_s, formatSpeedup(p.speedup));
    row(u"Speed of light"_s, speedOfLightReportText(p.speedOfLight, p.speedOfLightPct, u"not recorded"_s));
    if (p.timingRuns > 0)
        row(u"Timed runs"_s, QString::number(p.timingRuns));
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

    QString summary = u"The CUDA kernel of variant #%1 of the KForge task `%2`"_s.arg(in.variantId).arg(qs(task.name));
    if (in.provenance.speedup)
        summary += u", measured %1 faster than the task's reference on %2"_s.arg(formatSpeedup(in.provenance.speedup),
                                                                                 orNotRecorded(in.provenance.gpuName));
    summary += u". It was checked against the reference on fresh random inputs before it was timed; the test here "
               "repeats that check on your machine."_s;
    if (task.degenerate || in.provenance.flags.contains(u"degenerate_output"_s))
        summary += u"\n\n**Warning:** the task's output does not depend on its inputs (it is degenerate), so this "
                   "speedup says nothing about kernel quality."_s;
    v[u"summary"_s] = summary;
    v[u"format_section"_s] = formatSection(ctx, format, cmakeLines);
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
                                        : lineage.join(u'\n') + u"\n\nOldest first; the last is this kernel."_s;

    v[u"task_description"_s] = qs(task.description);
    QStringList table{u"| Tensor | Role | dtype | Shape | Initial values |"_s, u"|---|---|---|---|---|"_s};
    for (const auto &t : task.inputs)
        table << u"| %1 | input | %2 | %3 | %4 |"_s.arg(code(qs(t.name)), CodeNames::dtypeName(t.dtype), shapeCell(t),
                                                        initText(t));
    for (const auto &t : task.outputs) {
        const runtime::Tolerance tol = task.toleranceFor(t.dtype);
        table << u"| %1 | output | %2 | %3 | tolerance atol %4, rtol %5 |"_s.arg(code(qs(t.name)),
                                                                                 CodeNames::dtypeName(t.dtype),
                                                                                 shapeCell(t), CodeNames::number(tol.atol),
                                                                                 CodeNames::number(tol.rtol));
    }
    QString taskTable = table.join(u'\n');
    if (!task.params.empty()) {
        QStringList params;
        for (const auto &[name, value] : task.params)
            params << code(qs(name) + u" = "_s + CodeNames::number(value));
        taskTable += u"\n\nParameters: "_s + params.join(u", "_s) + u'.';
    }
    if (task.flops.present() || task.bytes.present())
        taskTable += u"\n\nWork: %1 FLOP, %2 bytes moved at least (`%3`, `%4`)."_s.arg(
            QString::number(task.flops.value, 'g', 4), QString::number(task.bytes.value, 'g', 4), qs(task.flops.text),
            qs(task.bytes.text));
    if (!ctx.kernelFlags.ignored.isEmpty())
        taskTable += u"\n\nFlags of the measurement this build leaves to itself: `%1`."_s.arg(
            ctx.kernelFlags.ignored.join(u"`, `"_s));
    v[u"task_table"_s] = taskTable;

    QStringList files;
    for (const auto &[path, role] : fileRoles)
        files << u"- `%1`: %2"_s.arg(path, role);
    v[u"file_list"_s] = files.join(u'\n');
    static const QRegularExpression abiVersion(u"#define\\s+KF_ABI_VERSION\\s+(\\d+)"_s);
    v[u"abi_version"_s] = abiVersion.match(QString::fromUtf8(ExportContext::abiHeader())).captured(1);
    v[u"entry_note"_s] = format == ExportFormat::Torch
                             ? u"The build renames the entry point (`kf_entry` -> `%1`) with a macro.\n"_s.arg(ctx.entry)
                             : u"The build renames the entry point (`kf_entry` -> `%1`) with a macro, and `%2::run()` wraps it in a typed "
                               "function, so nothing of the ABI shows in the public header.\n"_s.arg(ctx.entry, ctx.ns);

    QString renderError;
    const QString text = TemplateRenderer::renderResource(u"README.md.in"_s, v, &renderError);
    if (!renderError.isEmpty() && error && error->isEmpty())
        *error = renderError;
    return text;
}

} // namespace kforge
