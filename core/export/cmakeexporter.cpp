#include "core/export/cmakeexporter.h"

#include "core/export/codenames.h"
#include "core/export/exportreadme.h"
#include "core/export/licenseheader.h"

#include <QCoreApplication>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString distName(const runtime::InitSpec &init)
{
    switch (init.kind) {
    case runtime::InitSpec::Kind::Normal: return u"Dist::Normal"_s;
    case runtime::InitSpec::Kind::Uniform: return u"Dist::Uniform"_s;
    case runtime::InitSpec::Kind::Integers: return u"Dist::Integers"_s;
    case runtime::InitSpec::Kind::Constant: return u"Dist::Constant"_s;
    }
    return u"Dist::Normal"_s;
}

QString cmakeLibs(const QStringList &libraries)
{
    QString out;
    for (const auto &l : libraries)
        out += u' ' + NvccFlags::cmakeLibrary(l);
    return out;
}

// target_compile_options() for the CUDA sources of `target`, or nothing when there are none.
QString cmakeOptions(const QString &target, const NvccFlags::Translated &flags, const QString &indent)
{
    if (flags.compile.isEmpty())
        return {};
    QStringList opts;
    for (const auto &group : flags.compile)
        opts << NvccFlags::cmakeCudaOption(group);
    return indent + u"# The nvcc flags the kernel was measured with (the build decides architecture and output).\n"_s
           + indent + u"target_compile_options("_s + target + u" PRIVATE\n"_s + indent + u"  "_s
           + opts.join(u"\n"_s + indent + u"  "_s) + u")\n"_s;
}

QString tensorTable(const char *name, const std::vector<runtime::TensorSpec> &tensors, const runtime::TaskSpec &task,
                    bool outputs)
{
    QString out = u"inline constexpr int kNum%1 = %2;\n"_s.arg(QLatin1String(name)).arg(tensors.size());
    if (tensors.empty())
        return out + u"inline const TensorInfo k%1[1] = {};\n"_s.arg(QLatin1String(name));
    out += u"inline const TensorInfo k%1[] = {\n"_s.arg(QLatin1String(name));
    for (const auto &t : tensors) {
        const runtime::Tolerance tol = task.toleranceFor(t.dtype);
        const QString dist = outputs ? u"Dist::None"_s : distName(t.init);
        const double a = outputs ? 0 : t.init.a;
        const double b = outputs ? 0 : t.init.b;
        out += u"    {%1, %2, %3, %4, %5, %6, %7, %8, %9},\n"_s
                   .arg(CodeNames::cString(QString::fromStdString(t.name)), CodeNames::kfDtype(t.dtype))
                   .arg(t.shape.size())
                   .arg(ExportContext::shapeInitializer(t), dist, CodeNames::number(a), CodeNames::number(b),
                        CodeNames::number(outputs ? tol.atol : 0), CodeNames::number(outputs ? tol.rtol : 0));
    }
    return out + u"};\n"_s;
}

QString paramsTable(const runtime::TaskSpec &task)
{
    if (task.params.empty())
        return u"inline const kf_params kParams = {nullptr, 0};\n"_s;
    QString out = u"inline const kf_param_value kParamItems[] = {\n"_s;
    for (const auto &[name, value] : task.params)
        out += u"    {%1, %2},\n"_s.arg(CodeNames::cString(QString::fromStdString(name)), CodeNames::number(double(value)));
    out += u"};\ninline const kf_params kParams = {kParamItems, %1};\n"_s.arg(task.params.size());
    return out;
}

} // namespace

QList<QPair<QString, QString>> CMakeExporter::fileRoles(const ExportContext &ctx)
{
    const QString &ns = ctx.ns;
    return {
        {u"CMakeLists.txt"_s,
         u"the library `%1::kernel`, and (when `%2_BUILD_TESTS` is on) the reference, test and benchmark"_s.arg(ns, ctx.nsUpper)},
        {u"include/%1/%1.h"_s.arg(ns), u"the public header: `%1::run()` with plain CUDA types"_s.arg(ns)},
        {u"include/kforge/kernel.h"_s, u"the KForge kernel ABI the kernel source is written against (internal)"_s},
        {u"src/%1_kernel.cu"_s.arg(ns), u"the exported kernel, as KForge measured it"_s},
        {u"src/%1.cpp"_s.arg(ns), u"`%1::run()`: builds the ABI descriptors and calls the kernel"_s.arg(ns)},
        {u"reference/reference.cu"_s, u"the task's reference implementation (used by the test and benchmark only)"_s},
        {u"test/test_%1.cpp"_s.arg(ns), u"checks the kernel against the reference with the task's tolerances (exit 0/1)"_s},
        {u"test/%1_harness.h"_s.arg(ns), u"input generation and the two calls the test and benchmark share"_s},
        {u"bench/bench_%1.cpp"_s.arg(ns), u"times reference and kernel the way KForge does and prints the speedup"_s},
        {u"task.json"_s, u"the task definition as KForge stored it"_s},
        {u"README.md"_s, u"this file"_s},
    };
}

QStringList CMakeExporter::intoLines(const ExportContext &ctx, const QString &subdir)
{
    return {
        u"set(CMAKE_CUDA_ARCHITECTURES \"%1-real;%1-virtual\")  # before CUDA is enabled, unless already set"_s.arg(
            ctx.input.provenance.cudaArchNumber()),
        u"enable_language(CUDA)  # or add CUDA to project(... LANGUAGES ...)"_s,
        u"add_subdirectory(%1)"_s.arg(subdir),
        u"target_link_libraries(<your_target> PRIVATE %1::kernel)"_s.arg(ctx.ns),
    };
}

QStringList CMakeExporter::intoLinesFor(const ExportContext &ctx, const QString &subdir, const QString &host)
{
    QStringList lines = intoLines(ctx, subdir);
    // Comments would make the patterns match text that is not in effect.
    QString text;
    for (const QString &line : host.split(u'\n')) {
        const qsizetype hash = line.indexOf(u'#');
        text += (hash >= 0 ? line.left(hash) : line) + u'\n';
    }
    const bool hasArch = text.contains(QRegularExpression(u"CMAKE_CUDA_ARCHITECTURES"_s));
    const bool hasCuda = text.contains(QRegularExpression(u"enable_language\\s*\\([^)]*\\bCUDA\\b"_s,
                                                          QRegularExpression::CaseInsensitiveOption))
                         || text.contains(QRegularExpression(u"project\\s*\\([^)]*\\bCUDA\\b"_s,
                                                             QRegularExpression::CaseInsensitiveOption));
    const bool hasSubdir = text.contains(
        QRegularExpression(u"add_subdirectory\\s*\\(\\s*\"?"_s + QRegularExpression::escape(subdir) + u"/?\"?[\\s)]"_s,
                           QRegularExpression::CaseInsensitiveOption));
    const QString present = tr("  # already there");
    if (hasArch)
        lines[0] = u"# "_s + lines[0] + present;
    if (hasCuda)
        lines[1] = u"# "_s + lines[1] + present;
    if (hasSubdir)
        lines[2] = u"# "_s + lines[2] + present;
    return lines;
}

ExportBundle CMakeExporter::generate(const ExportContext &ctx, const ExportOptions &options)
{
    ExportBundle bundle;
    bundle.failWith(ctx.error);
    if (!bundle.ok())
        return bundle;
    const ExportInput &in = ctx.input;
    const runtime::TaskSpec &task = in.task;
    const QString &ns = ctx.ns;
    QString error;
    TemplateRenderer::Values v = ctx.baseValues();

    // Public header.
    QString extraIncludes;
    if (ctx.usesHalf())
        extraIncludes += u"#include <cuda_fp16.h>\n"_s;
    if (ctx.usesBfloat16())
        extraIncludes += u"#include <cuda_bf16.h>\n"_s;
    QString paramsBlock, shapeBlock, numelBlock;
    for (size_t i = 0; i < task.params.size(); ++i) {
        const double value = task.params[i].second;
        paramsBlock +=
            CodeNames::isIntegral(value)
                ? u"inline constexpr int64_t %1 = %2;\n"_s.arg(ctx.paramIds[qsizetype(i)], CodeNames::number(value))
                : u"inline constexpr double %1 = %2;\n"_s.arg(ctx.paramIds[qsizetype(i)], CodeNames::number(value));
    }
    QStringList signature, signatureNoDefault, describe, callArgs;
    const auto addTensors = [&](const std::vector<runtime::TensorSpec> &tensors, const QStringList &ids, bool isInput) {
        for (size_t i = 0; i < tensors.size(); ++i) {
            const runtime::TensorSpec &t = tensors[i];
            const QString &id = ids[qsizetype(i)];
            if (!t.shape.empty())
                shapeBlock += u"inline constexpr int64_t %1[%2] = %3;\n"_s.arg(id)
                                  .arg(t.shape.size())
                                  .arg(ExportContext::shapeInitializer(t));
            numelBlock += u"inline constexpr int64_t %1 = %2;\n"_s.arg(id).arg(t.numel());
            const QString param = (isInput ? u"const "_s : QString()) + CodeNames::cppType(t.dtype) + u" *"_s + id;
            signature << param;
            callArgs << u"static_cast<%1%2 *>(%3[%4])"_s
                            .arg(isInput ? u"const "_s : QString(), CodeNames::cppType(t.dtype), isInput ? u"in"_s : u"out"_s)
                            .arg(i);
            describe << u"describe(%1, %2, %3, %4)"_s.arg(id, CodeNames::kfDtype(t.dtype), CodeNames::cString(QString::fromStdString(t.name)),
                                                          ExportContext::shapeInitializer(t));
        }
    };
    addTensors(task.inputs, ctx.inputIds, true);
    const qsizetype numInputDescriptors = describe.size();
    addTensors(task.outputs, ctx.outputIds, false);
    signatureNoDefault = signature;

    v[u"extra_includes"_s] = extraIncludes;
    v[u"params_block"_s] = paramsBlock;
    v[u"shape_block"_s] = shapeBlock;
    v[u"numel_block"_s] = numelBlock;
    v[u"description_comment"_s] = ctx.descriptionComment();
    v[u"signature"_s] = signature.join(u", "_s);
    v[u"signature_no_default"_s] = signatureNoDefault.join(u", "_s);

    QString describeBlock;
    if (numInputDescriptors > 0)
        describeBlock += u"    kf_tensor inputs[] = {\n        "_s
                         + describe.mid(0, numInputDescriptors).join(u",\n        "_s) + u"};\n"_s;
    describeBlock += u"    kf_tensor outputs[] = {\n        "_s
                     + describe.mid(numInputDescriptors).join(u",\n        "_s) + u"};"_s;
    v[u"describe_block"_s] = describeBlock;
    v[u"params_items"_s] = ExportContext::paramsItems(task) + u'\n';
    v[u"inputs_ptr"_s] = numInputDescriptors > 0 ? u"inputs"_s : u"nullptr"_s;
    v[u"num_inputs"_s] = QString::number(task.inputs.size());
    v[u"num_outputs"_s] = QString::number(task.outputs.size());

    // Build.
    v[u"kernel_libs"_s] = cmakeLibs(ctx.kernelFlags.libraries);
    v[u"reference_libs"_s] = cmakeLibs(ctx.referenceFlags.libraries);
    v[u"kernel_options"_s] = cmakeOptions(ns + u"_kernel"_s, ctx.kernelFlags, QString());
    v[u"reference_options"_s] = cmakeOptions(ns + u"_reference"_s, ctx.referenceFlags, u"  "_s);

    // Test harness and benchmark.
    v[u"tensor_tables"_s] = tensorTable("Inputs", task.inputs, task, false)
                            + tensorTable("Outputs", task.outputs, task, true);
    v[u"params_table"_s] = paramsTable(task);
    v[u"kernel_call_args"_s] = callArgs.join(u", "_s) + u", "_s;
    const ExportProvenance &p = in.provenance;
    v[u"kforge_reference_ms"_s] = CodeNames::number(p.referenceMedianMs.value_or(0.0));
    v[u"kforge_kernel_ms"_s] = CodeNames::number(p.candidateMedianMs.value_or(0.0));
    v[u"kforge_speedup"_s] = CodeNames::number(p.speedup.value_or(0.0));
    v[u"kforge_device"_s] = CodeNames::cString(p.gpuName.isEmpty() ? u"an unrecorded GPU"_s : p.gpuName);
    ctx.addTimingValues(v);

    const QString root = options.format == ExportFormat::Into ? options.intoSubdir + u'/' : QString();
    const auto add = [&](const QString &path, const QByteArray &content, bool license = true) {
        bundle.files << ExportFile{root + path,
                                   license ? LicenseHeader::apply(path, content, options.licenseText) : content};
    };
    const auto render = [&](const QString &tmpl, const QString &path) {
        const QString text = TemplateRenderer::renderResource(tmpl, v, &error);
        add(path, text.toUtf8());
    };

    render(u"cmake/CMakeLists.txt.in"_s, u"CMakeLists.txt"_s);
    render(u"cmake/header.h.in"_s, u"include/%1/%1.h"_s.arg(ns));
    const QByteArray abi = ExportContext::abiHeader();
    if (abi.isEmpty() && error.isEmpty())
        error = tr("the kernel ABI header is missing from this build");
    add(u"include/kforge/kernel.h"_s, abi, false); // KForge's own header, shipped verbatim
    add(u"src/%1_kernel.cu"_s.arg(ns), in.variantSource.toUtf8());
    render(u"cmake/wrapper.cpp.in"_s, u"src/%1.cpp"_s.arg(ns));
    add(u"reference/reference.cu"_s, in.referenceSource.toUtf8());
    render(u"cmake/harness.h.in"_s, u"test/%1_harness.h"_s.arg(ns));
    render(u"cmake/test.cpp.in"_s, u"test/test_%1.cpp"_s.arg(ns));
    render(u"cmake/bench.cpp.in"_s, u"bench/bench_%1.cpp"_s.arg(ns));
    add(u"task.json"_s, in.taskJson.toUtf8(), false);
    if (options.format == ExportFormat::Into)
        bundle.cmakeLines = intoLines(ctx, options.intoSubdir);
    add(u"README.md"_s, ExportReadme::render(ctx, options.format, fileRoles(ctx), bundle.cmakeLines, &error).toUtf8(),
        false);

    bundle.failWith(error);
    return bundle;
}

} // namespace kforge
