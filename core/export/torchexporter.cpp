#include "core/export/torchexporter.h"

#include "core/export/codenames.h"
#include "core/export/exportreadme.h"
#include "core/export/licenseheader.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString pyShape(const runtime::TensorSpec &t)
{
    QStringList dims;
    for (const auto &d : t.shape)
        dims << QString::number(d.value);
    return u"("_s + dims.join(u", "_s) + (dims.size() == 1 ? u",)"_s : u")"_s);
}

QString initName(runtime::InitSpec::Kind k)
{
    switch (k) {
    case runtime::InitSpec::Kind::Normal: return u"normal"_s;
    case runtime::InitSpec::Kind::Uniform: return u"uniform"_s;
    case runtime::InitSpec::Kind::Integers: return u"integers"_s;
    case runtime::InitSpec::Kind::Constant: return u"constant"_s;
    }
    return u"normal"_s;
}

} // namespace

QString TorchExporter::torchExpression(const QString &taskName)
{
    QFile f(u":/kforge/export/torch_exprs.json"_s);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QJsonObject table = QJsonDocument::fromJson(f.readAll()).object();
    return taskName.startsWith(u'_') ? QString() : table.value(taskName).toString();
}

QList<QPair<QString, QString>> TorchExporter::fileRoles(const ExportContext &ctx, bool withReference)
{
    const QString &ns = ctx.ns;
    QList<QPair<QString, QString>> roles{
        {u"setup.py"_s, withReference
                            ? u"builds `%1_ext` (the kernel) and `%1_reference_ext` (the task's reference)"_s.arg(ns)
                            : u"builds the extension module `%1_ext`"_s.arg(ns)},
        {u"%1_binding.cpp"_s.arg(ns), u"`forward()`: checks the tensors and calls the kernel on the current stream"_s},
        {u"%1_kernel.cu"_s.arg(ns), u"the exported kernel, as KForge measured it"_s},
    };
    if (withReference)
        roles << QPair<QString, QString>{u"reference.cu"_s,
                                         u"the task's reference implementation, which the test compares against"_s}
              << QPair<QString, QString>{u"%1_reference_binding.cpp"_s.arg(ns), u"`forward()` of the reference module"_s};
    roles << QPair<QString, QString>{u"include/kforge/kernel.h"_s,
                                     u"the KForge kernel ABI the kernel source is written against"_s}
          << QPair<QString, QString>{u"test_%1.py"_s.arg(ns),
                                     withReference
                                         ? u"checks the kernel against the reference with the task's tolerances, then times both"_s
                                         : u"checks the kernel against a PyTorch expression of the task with its tolerances, then times both"_s}
          << QPair<QString, QString>{u"task.json"_s, u"the task definition as KForge stored it"_s}
          << QPair<QString, QString>{u"README.md"_s, u"this file"_s};
    return roles;
}

void TorchExporter::addSetupValues(const ExportContext &ctx, TemplateRenderer::Values &v)
{
    const ExportInput &in = ctx.input;
    QString arch = in.provenance.cudaArchNumber();
    arch.remove(QRegularExpression(u"[a-z]$"_s)); // TORCH_CUDA_ARCH_LIST speaks "9.0", not "90a"
    v[u"torch_arch"_s] = arch.size() >= 2 ? arch.left(arch.size() - 1) + u'.' + arch.right(1) : arch;
    QStringList libraries = ctx.kernelFlags.libraries + ctx.referenceFlags.libraries;
    libraries.removeDuplicates();
    v[u"libraries"_s] = CodeNames::pyList(libraries);
    QStringList kernelNvcc;
    for (const auto &g : ctx.kernelFlags.compile)
        kernelNvcc << NvccFlags::joined(g);
    v[u"kernel_nvcc_flags"_s] = CodeNames::pyList(kernelNvcc);
    v[u"py_title"_s] = CodeNames::pyString(QString::fromStdString(in.task.title.empty() ? in.task.name : in.task.title));
}

ExportBundle TorchExporter::generate(const ExportContext &ctx, const ExportOptions &options)
{
    ExportBundle bundle;
    bundle.failWith(ctx.error);
    if (!bundle.ok())
        return bundle;
    const ExportInput &in = ctx.input;
    const runtime::TaskSpec &task = in.task;
    const QString &ns = ctx.ns;
    const QString expr = torchExpression(QString::fromStdString(task.name));
    const bool withReference = expr.isEmpty();
    QString error;
    TemplateRenderer::Values v = ctx.baseValues();

    // setup.py
    addSetupValues(ctx, v);
    QStringList referenceNvcc;
    for (const auto &g : ctx.referenceFlags.compile)
        referenceNvcc << NvccFlags::joined(g);
    v[u"test_script"_s] = u"test_%1.py"_s.arg(ns);
    v[u"reference_note"_s] =
        withReference ? u"\n# The test compares against the task's reference, built here as %1_reference_ext."_s.arg(ns)
                      : QString();
    v[u"reference_module"_s] =
        withReference
            ? u"# The task's reference as a module of its own, so its symbols cannot clash with the kernel's.\n"
              "modules.append(extension(\"%1_reference_ext\", \"%1_reference_binding.cpp\", \"reference.cu\", \"%2\", %3))\n"_s
                  .arg(ns, ctx.referenceEntry, CodeNames::pyList(referenceNvcc))
            : QString();

    // binding
    QStringList signature, checks, contiguous, allocate, returns, pyArgs;
    QStringList inDescribe, outDescribe;
    for (size_t i = 0; i < task.inputs.size(); ++i) {
        const runtime::TensorSpec &t = task.inputs[i];
        const QString &id = ctx.inputIds[qsizetype(i)];
        signature << u"torch::Tensor "_s + id;
        checks << u"    check(%1, %2, %3, %4);"_s.arg(id, CodeNames::cString(QString::fromStdString(t.name)), CodeNames::atScalarType(t.dtype),
                                                      ExportContext::shapeInitializer(t));
        contiguous << u"    %1 = %1.contiguous();"_s.arg(id);
        inDescribe << u"describe(%1, %2, %3)"_s.arg(id, CodeNames::kfDtype(t.dtype), CodeNames::cString(QString::fromStdString(t.name)));
        pyArgs << u"py::arg(%1)"_s.arg(CodeNames::pyString(id));
    }
    const QString options0 = task.inputs.empty()
                                 ? u"torch::TensorOptions().device(torch::kCUDA, c10::cuda::current_device())"_s
                                 : ctx.inputIds.front() + u".options()"_s;
    for (size_t i = 0; i < task.outputs.size(); ++i) {
        const runtime::TensorSpec &t = task.outputs[i];
        const QString &id = ctx.outputIds[qsizetype(i)];
        allocate << u"    torch::Tensor %1 = torch::empty(%2, %3.dtype(%4));"_s.arg(
            id, ExportContext::shapeInitializer(t), options0, CodeNames::atScalarType(t.dtype));
        outDescribe << u"describe(%1, %2, %3)"_s.arg(id, CodeNames::kfDtype(t.dtype), CodeNames::cString(QString::fromStdString(t.name)));
        returns << id;
    }
    QString describe;
    if (!inDescribe.isEmpty())
        describe += u"    kf_tensor inputs[] = {"_s + inDescribe.join(u",\n                          "_s) + u"};\n"_s;
    describe += u"    kf_tensor outputs[] = {"_s + outDescribe.join(u",\n                           "_s) + u"};"_s;
    v[u"signature"_s] = signature.join(u", "_s);
    v[u"checks"_s] = checks.join(u'\n');
    v[u"device_expr"_s] = task.inputs.empty() ? u"torch::Device(torch::kCUDA, c10::cuda::current_device())"_s
                                              : ctx.inputIds.front() + u".device()"_s;
    v[u"contiguous"_s] = contiguous.join(u'\n');
    v[u"allocate"_s] = allocate.join(u'\n');
    v[u"describe"_s] = describe;
    v[u"params_items"_s] = ExportContext::paramsItems(task);
    v[u"inputs_ptr"_s] = inDescribe.isEmpty() ? u"nullptr"_s : u"inputs"_s;
    v[u"num_inputs"_s] = QString::number(task.inputs.size());
    v[u"num_outputs"_s] = QString::number(task.outputs.size());
    v[u"return_type"_s] = returns.size() == 1 ? u"torch::Tensor"_s : u"std::vector<torch::Tensor>"_s;
    v[u"return_value"_s] = returns.size() == 1 ? returns.front() : u"{"_s + returns.join(u", "_s) + u"}"_s;
    v[u"doc"_s] = CodeNames::cString(QString::fromStdString(task.title.empty() ? task.name : task.title));
    v[u"py_args"_s] = pyArgs.isEmpty() ? QString() : u", "_s + pyArgs.join(u", "_s);

    // test
    QStringList params, inputs, outputs;
    for (const auto &[name, value] : task.params)
        params << CodeNames::pyString(QString::fromStdString(name)) + u": "_s
                      + (CodeNames::isIntegral(value) ? QString::number(qint64(value)) : QString::number(value, 'g', 17));
    for (const auto &t : task.inputs)
        inputs << u"    (%1, %2, %3, %4, %5, %6),"_s
                      .arg(CodeNames::pyString(QString::fromStdString(t.name)), CodeNames::torchDtype(t.dtype), pyShape(t),
                           CodeNames::pyString(initName(t.init.kind)))
                      .arg(t.init.a, 0, 'g', 17)
                      .arg(t.init.b, 0, 'g', 17);
    for (const auto &t : task.outputs) {
        const runtime::Tolerance tol = task.toleranceFor(t.dtype);
        outputs << u"    (%1, %2, %3, %4, %5),"_s
                       .arg(CodeNames::pyString(QString::fromStdString(t.name)), CodeNames::torchDtype(t.dtype), pyShape(t))
                       .arg(tol.atol, 0, 'g', 17)
                       .arg(tol.rtol, 0, 'g', 17);
    }
    v[u"params_dict"_s] = u"{"_s + params.join(u", "_s) + u"}"_s;
    v[u"inputs_list"_s] = inputs.isEmpty() ? QString() : inputs.join(u'\n') + u'\n';
    v[u"outputs_list"_s] = outputs.join(u'\n') + u'\n';
    v[u"torch_expr"_s] = withReference ? u"None"_s : CodeNames::pyString(expr);
    v[u"expected_source"_s] = withReference ? u"the task's reference kernel (%1_reference_ext)"_s.arg(ns)
                                            : u"the PyTorch expression `%1`"_s.arg(expr);
    v[u"expected_source_py"_s] = CodeNames::pyString(withReference ? u"the reference"_s : expr);
    v[u"reference_import"_s] = withReference ? u"import %1_reference_ext\n"_s.arg(ns) : QString();
    v[u"reference_call"_s] = withReference ? u"%1_reference_ext.forward(*inputs)"_s.arg(ns)
                                           : u"None  # unused: TORCH_EXPR is set"_s;
    ctx.addTimingValues(v);

    const auto add = [&](const QString &path, const QByteArray &content, bool license = true) {
        bundle.files << ExportFile{path, license ? LicenseHeader::apply(path, content, options.licenseText) : content};
    };
    const auto render = [&](const QString &tmpl, const QString &path) {
        add(path, TemplateRenderer::renderResource(tmpl, v, &error).toUtf8());
    };
    render(u"torch/setup.py.in"_s, u"setup.py"_s);
    v[u"binding_entry"_s] = ctx.entry;
    v[u"binding_what"_s] = u"the exported kernel"_s;
    render(u"torch/binding.cpp.in"_s, u"%1_binding.cpp"_s.arg(ns));
    if (withReference) {
        v[u"binding_entry"_s] = ctx.referenceEntry;
        v[u"binding_what"_s] = u"the task's reference"_s;
        render(u"torch/binding.cpp.in"_s, u"%1_reference_binding.cpp"_s.arg(ns));
    }
    add(u"%1_kernel.cu"_s.arg(ns), in.variantSource.toUtf8());
    if (withReference)
        add(u"reference.cu"_s, in.referenceSource.toUtf8());
    const QByteArray abi = ExportContext::abiHeader();
    if (abi.isEmpty() && error.isEmpty())
        error = QCoreApplication::translate("kforge::TorchExporter", "the kernel ABI header is missing from this build");
    add(u"include/kforge/kernel.h"_s, abi, false);
    render(u"torch/test.py.in"_s, u"test_%1.py"_s.arg(ns));
    add(u"task.json"_s, in.taskJson.toUtf8(), false);
    add(u"README.md"_s,
        ExportReadme::render(ctx, ExportFormat::Torch, fileRoles(ctx, withReference), {}, &error).toUtf8(), false);

    bundle.failWith(error);
    return bundle;
}

} // namespace kforge
