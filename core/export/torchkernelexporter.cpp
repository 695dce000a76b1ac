#include "core/export/torchkernelexporter.h"

#include "core/export/codenames.h"
#include "core/export/exportcontext.h"
#include "core/export/exportreadme.h"
#include "core/export/licenseheader.h"
#include "core/export/modelnewexporter.h"
#include "core/export/templaterenderer.h"
#include "core/export/torchexporter.h"
#include "core/runtime/task/expression.h"
#include "core/task/tasksummary.h"

#include <QSet>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

constexpr int kMaxDims = 8; // KF_MAX_DIMS

// A tensor or scalar the binding's forward() takes, in its order: forward arguments, parameters, buffers.
struct Argument {
    enum class Role { Forward, Parameter, Buffer };
    Role role = Role::Forward;
    const TaskTensorInfo *info = nullptr;
    QString id;         // C++ identifier
    QString scalarType; // int64_t, double, bool for a scalar forward argument; empty for a tensor
    runtime::Dtype dtype = runtime::Dtype::F32;
    bool isTensor() const { return scalarType.isEmpty(); }
};

QString cQuoted(const QString &s)
{
    return CodeNames::cString(s);
}

// `head`, then `items` joined by ", ", then `tail`; a line is broken before an item that would pass 116 columns and
// continued `indent` spaces in.
QString wrapped(const QString &head, const QStringList &items, const QString &tail, int indent)
{
    QString out = head;
    qsizetype column = head.size() - head.lastIndexOf(u'\n') - 1;
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QString piece = items[i] + (i + 1 < items.size() ? u","_s : tail);
        if (i > 0 && column + 1 + piece.size() > 116) {
            out += u'\n' + QString(indent, u' ');
            column = indent;
        } else if (i > 0) {
            out += u' ';
            ++column;
        }
        out += piece;
        column += piece.size();
    }
    return items.isEmpty() ? head + tail : out;
}

} // namespace

QString TorchKernelExporter::pyAttribute(const QString &owner, const QString &stateName)
{
    QString out = owner;
    for (const QString &part : stateName.split(u'.')) {
        const bool plain = !part.isEmpty() && !part.front().isDigit() && !CodeNames::isReservedWord(part)
                           && CodeNames::identifier(part) == part;
        out = plain ? out + u'.' + part : u"getattr(%1, %2)"_s.arg(out, CodeNames::pyString(part));
    }
    return out;
}

QString TorchKernelExporter::cppExpression(const QString &text, const QHash<QString, QString> &variables,
                                           const std::map<std::string, double, std::less<>> &values, QString *error)
{
    const runtime::ExpressionResult r = runtime::evaluateExpression(text.toStdString(), values);
    if (!r.ok()) {
        if (error)
            *error = QString::fromStdString(r.error);
        return {};
    }
    // The text parses in the language of expression.h: numbers, params, + - * /, parentheses, min, max, ceil, floor.
    QString out;
    QList<bool> braces; // per open parenthesis: it closes a min()/max() initializer list
    for (qsizetype i = 0; i < text.size();) {
        const QChar c = text[i];
        if (c.isSpace()) {
            ++i;
        } else if (c.isDigit() || c == u'.') {
            const qsizetype start = i;
            while (i < text.size() && (text[i].isDigit() || text[i] == u'.'))
                ++i;
            if (i < text.size() && (text[i] == u'e' || text[i] == u'E')) {
                qsizetype j = i + 1;
                if (j < text.size() && (text[j] == u'+' || text[j] == u'-'))
                    ++j;
                if (j < text.size() && text[j].isDigit()) {
                    i = j;
                    while (i < text.size() && text[i].isDigit())
                        ++i;
                }
            }
            const QString number = text.mid(start, i - start);
            out += number.contains(u'.') || number.contains(u'e', Qt::CaseInsensitive) ? number : number + u".0"_s;
        } else if (c.isLetter() || c == u'_') {
            const qsizetype start = i;
            while (i < text.size() && (text[i].isLetterOrNumber() || text[i] == u'_'))
                ++i;
            const QString name = text.mid(start, i - start);
            qsizetype j = i;
            while (j < text.size() && text[j].isSpace())
                ++j;
            if (j < text.size() && text[j] == u'(') {
                const bool list = name == u"min"_s || name == u"max"_s;
                out += u"std::"_s + name + (list ? u"({"_s : u"("_s);
                braces << list;
                i = j + 1;
            } else {
                out += variables.value(name, name);
            }
        } else if (c == u'(') {
            out += c;
            braces << false;
            ++i;
        } else if (c == u')') {
            out += !braces.isEmpty() && braces.takeLast() ? u"})"_s : u")"_s;
            ++i;
        } else if (c == u',') {
            out += u", "_s;
            ++i;
        } else {
            out += u' ' + c + u' ';
            ++i;
        }
    }
    return out.trimmed().replace(u"( "_s, u"("_s).replace(u"  "_s, u" "_s);
}

QList<QPair<QString, QString>> TorchKernelExporter::fileRoles(const ExportInput &in)
{
    const QString ns = ExportContext(in).ns;
    return QList<QPair<QString, QString>>{
        {u"model_new.py"_s, u"`ModelNew`: the reference `Model` with `forward()` calling the kernel through `%1_ext` (builds it on first "
                            "import when it is not built)"_s.arg(ns)},
        {u"reference.py"_s, u"the task's reference (`Model`, `get_inputs`, `get_init_inputs`) as it was imported"_s},
        {u"setup.py"_s, u"builds the extension module `%1_ext` (the kernel and its binding)"_s.arg(ns)},
        {u"%1_binding.cpp"_s.arg(ns),
         u"`forward()`: checks the tensors, reads the params their sizes give, allocates the outputs and calls the "
         "kernel on the current stream"_s},
        {u"%1_kernel.cu"_s.arg(ns), u"the exported kernel, variant #%1 as KForge measured it"_s.arg(in.variantId)},
        {u"include/kforge/kernel.h"_s, u"the KForge kernel ABI the kernel source is written against"_s},
    } + ModelNewExporter::harnessRoles();
}

ExportBundle TorchKernelExporter::generate(const ExportInput &in, const ExportOptions &options)
{
    ExportBundle bundle;
    const std::optional<TaskSummary> summary = ModelNewExporter::checkTorchInput(in, bundle);
    if (!summary)
        return bundle;
    const TaskSummary &s = *summary;
    if (s.outputs.isEmpty()) {
        bundle.failWith(tr("the task %1 has no outputs").arg(s.name));
        return bundle;
    }
    const ExportContext ctx(in);
    const QString &ns = ctx.ns;

    // The binding's arguments and the C++ names of everything it declares.
    QSet<QString> taken{ns,           u"forward"_s, u"inputs"_s,   u"outputs"_s, u"items"_s, u"guard"_s, u"rc"_s,
                        u"options"_s, u"check"_s,   u"describe"_s, u"expect"_s,  u"size"_s,  u"Param"_s, u"m"_s};
    QList<Argument> arguments;
    const auto addArguments = [&](const QList<TaskTensorInfo> &list, Argument::Role role) {
        for (const TaskTensorInfo &t : list) {
            Argument a;
            a.role = role;
            a.info = &t;
            a.id = CodeNames::identifier(t.name, &taken);
            if (t.isScalar())
                a.scalarType = t.dtype == u"bool"_s    ? u"bool"_s
                               : t.dtype == u"int"_s   ? u"int64_t"_s
                               : t.dtype == u"float"_s ? u"double"_s
                                                       : QString();
            if (t.isScalar() && a.scalarType.isEmpty() && bundle.ok())
                bundle.failWith(tr("the forward argument %1 is a Python %2: the kernel's kf_params take int, float "
                                   "and bool")
                                    .arg(t.name, t.dtype));
            arguments << a;
        }
    };
    addArguments(s.inputs, Argument::Role::Forward);
    addArguments(s.parameters, Argument::Role::Parameter);
    addArguments(s.buffers, Argument::Role::Buffer);
    if (!bundle.ok())
        return bundle;
    QStringList outputIds;
    for (const TaskTensorInfo &t : s.outputs)
        outputIds << CodeNames::identifier(t.name, &taken);
    QHash<QString, QString> paramStructs, paramVars; // "p_N", "p_N.value"
    std::map<std::string, double, std::less<>> paramValues;
    for (const auto &[name, value] : s.params) {
        paramStructs.insert(name, CodeNames::identifier(u"p_"_s + name, &taken));
        paramVars.insert(name, paramStructs.value(name) + u".value"_s);
        paramValues[name.toStdString()] = value;
    }

    // Every tensor in a dtype of the kernel ABI, with at most its dimensions.
    const auto abiDtype = [&](const TaskTensorInfo &t, runtime::Dtype *out) {
        const std::optional<runtime::Dtype> d = runtime::dtypeFromName(t.dtype.toStdString());
        if (!d) {
            bundle.failWith(tr("tensor %1 has dtype %2, which the kernel ABI has no name for (f32, f16, bf16, f64, i32, "
                               "i64, u8)")
                                .arg(t.name, t.dtype));
            return false;
        }
        if (t.written.size() > kMaxDims) {
            bundle.failWith(
                tr("tensor %1 has %2 dimensions; the kernel ABI allows %3").arg(t.name).arg(t.written.size()).arg(kMaxDims));
            return false;
        }
        *out = *d;
        return true;
    };
    for (Argument &a : arguments)
        if (a.isTensor() && !abiDtype(*a.info, &a.dtype))
            return bundle;
    QList<runtime::Dtype> outputDtypes;
    for (const TaskTensorInfo &t : s.outputs) {
        runtime::Dtype d;
        if (!abiDtype(t, &d))
            return bundle;
        outputDtypes << d;
    }
    // A dimension as C++ over the params; the export fails on one that does not evaluate.
    const auto dimension = [&](const TaskTensorInfo &t, qsizetype i) {
        QString problem;
        const QString cpp = cppExpression(t.written[i], paramVars, paramValues, &problem);
        if (cpp.isEmpty() && bundle.ok())
            bundle.failWith(tr("dimension %1 of %2 (%3) does not evaluate over the task's params: %4")
                                .arg(i)
                                .arg(t.name, t.written[i], problem));
        return cpp;
    };

    QStringList signature, checks, reads, dimensionChecks, contiguous, inDescribe, pyArgs, paramValuesCode;
    QString firstTensor;
    for (const Argument &a : arguments) {
        pyArgs << u"py::arg(%1)"_s.arg(CodeNames::pyString(a.id));
        if (!a.isTensor()) {
            signature << a.scalarType + u' ' + a.id;
            continue;
        }
        const TaskTensorInfo &t = *a.info;
        signature << u"torch::Tensor "_s + a.id;
        if (firstTensor.isEmpty())
            firstTensor = a.id;
        checks << u"    check(%1, %2, %3, %4);"_s.arg(a.id, cQuoted(t.name), CodeNames::atScalarType(a.dtype))
                      .arg(t.written.size());
        for (qsizetype i = 0; i < t.written.size(); ++i) {
            if (paramVars.contains(t.written[i]))
                reads << u"    %1.read(%2, %3, %4);"_s.arg(paramStructs.value(t.written[i]), a.id).arg(i).arg(cQuoted(t.name));
            else
                dimensionChecks << u"    expect(%1, %2, %3, %4, %5);"_s.arg(a.id).arg(i).arg(dimension(t, i),
                                                                                             cQuoted(t.name),
                                                                                             cQuoted(t.written[i]));
        }
        contiguous << u"    %1 = %1.contiguous();"_s.arg(a.id);
        inDescribe << u"describe(%1, %2, %3)"_s.arg(a.id, CodeNames::kfDtype(a.dtype), cQuoted(t.name));
    }
    QSet<QString> scalarNames;
    for (const Argument &a : arguments)
        if (!a.isTensor())
            scalarNames << a.info->name;
    // A param that a scalar forward argument of its name stands for is left to the shapes that may name it.
    for (const auto &[name, value] : s.params)
        paramValuesCode << u"    %1Param %2{%3, %4};"_s.arg(scalarNames.contains(name) ? u"[[maybe_unused]] "_s : QString(),
                                                            paramStructs.value(name), cQuoted(name),
                                                            CodeNames::number(value));

    QStringList allocate, outDescribe, returns;
    for (qsizetype o = 0; o < s.outputs.size(); ++o) {
        const TaskTensorInfo &t = s.outputs[o];
        QStringList dims;
        for (qsizetype i = 0; i < t.written.size(); ++i)
            dims << u"size(%1, %2)"_s.arg(dimension(t, i), cQuoted(t.written[i]));
        const QString dtype = u"options.dtype(%1));"_s.arg(CodeNames::atScalarType(outputDtypes[o]));
        allocate << (dims.isEmpty()
                         ? u"    torch::Tensor %1 = torch::empty(std::vector<int64_t>{}, %2"_s.arg(outputIds[o], dtype)
                         : wrapped(u"    torch::Tensor %1 = torch::empty({"_s.arg(outputIds[o]), dims, u"}, "_s + dtype, 8));
        outDescribe << u"describe(%1, %2, %3)"_s.arg(outputIds[o], CodeNames::kfDtype(outputDtypes[o]), cQuoted(t.name));
        returns << outputIds[o];
    }
    if (!bundle.ok())
        return bundle;

    // kf_params: the task's params (a scalar forward argument of the same name in their place), then the scalars.
    QStringList items;
    for (const auto &[name, value] : s.params)
        if (!scalarNames.contains(name))
            items << u"        {%1, %2},"_s.arg(cQuoted(name), paramVars.value(name));
    for (const Argument &a : arguments)
        if (!a.isTensor())
            items << u"        {%1, static_cast<double>(%2)},"_s.arg(cQuoted(a.info->name), a.id);
    const QString paramsItems = items.isEmpty()
                                    ? u"    const kf_params params = {nullptr, 0};"_s
                                    : u"    const kf_param_value items[] = {\n"_s + items.join(u'\n')
                                          + u"\n    };\n    const kf_params params = {items, %1};"_s.arg(items.size());

    TemplateRenderer::Values v = ctx.baseValues();
    v[u"task_name"_s] = s.name;
    QString describe;
    if (!inDescribe.isEmpty())
        describe += u"    kf_tensor inputs[] = {"_s + inDescribe.join(u",\n                          "_s) + u"};\n"_s;
    describe += u"    kf_tensor outputs[] = {"_s + outDescribe.join(u",\n                           "_s) + u"};"_s;
    const auto lines = [](const QStringList &l, const QString &comment) {
        return l.isEmpty() ? QString() : u"    // "_s + comment + u'\n' + l.join(u'\n');
    };
    v[u"forward_signature"_s] = wrapped((returns.size() == 1 ? u"torch::Tensor"_s : u"std::vector<torch::Tensor>"_s)
                                            + u" forward("_s,
                                        signature, u")"_s, 4);
    QStringList body{checks.join(u'\n')};
    body << lines(paramValuesCode, u"The task's params, as KForge measured the kernel with them."_s)
         << lines(reads, u"The params a dimension states alone: the sizes given here."_s)
         << lines(dimensionChecks, u"The other dimensions, as the task writes them."_s);
    body.removeAll(QString());
    v[u"checks"_s] = body.join(u'\n');
    v[u"device_expr"_s] = firstTensor.isEmpty() ? u"torch::Device(torch::kCUDA, c10::cuda::current_device())"_s
                                                : firstTensor + u".device()"_s;
    v[u"options_expr"_s] = firstTensor.isEmpty()
                               ? u"torch::TensorOptions().device(torch::kCUDA, c10::cuda::current_device())"_s
                               : firstTensor + u".options()"_s;
    v[u"contiguous"_s] = contiguous.join(u'\n');
    v[u"allocate"_s] = allocate.join(u'\n');
    v[u"describe"_s] = describe;
    v[u"params_items"_s] = paramsItems;
    v[u"inputs_ptr"_s] = inDescribe.isEmpty() ? u"nullptr"_s : u"inputs"_s;
    v[u"num_inputs"_s] = QString::number(inDescribe.size());
    v[u"num_outputs"_s] = QString::number(s.outputs.size());
    v[u"return_value"_s] = returns.size() == 1 ? returns.front() : u"{"_s + returns.join(u", "_s) + u"}"_s;
    v[u"doc"_s] = cQuoted(u"%1 (variant #%2 of the KForge task %3): the forward arguments, then the module's "
                          "parameters and buffers"_s.arg(s.title.isEmpty() ? s.name : s.title)
                              .arg(in.variantId)
                              .arg(s.name));
    v[u"py_args"_s] = pyArgs.isEmpty() ? QString() : u", "_s + pyArgs.join(u", "_s);

    // model_new.py: forward(self, <the forward arguments>) -> the extension on them and the module's tensors.
    QStringList forwardNames, callArgs;
    for (const Argument &a : arguments) {
        if (a.role == Argument::Role::Forward) {
            forwardNames << a.info->name;
            callArgs << a.info->name;
        } else {
            callArgs << pyAttribute(u"self"_s, a.info->name);
        }
    }
    TorchExporter::addSetupValues(ctx, v);
    v[u"variant_text"_s] = in.variantLabel.isEmpty()
                               ? u"variant #%1"_s.arg(in.variantId)
                               : u"variant #%1 (%2)"_s.arg(QString::number(in.variantId), in.variantLabel);
    QStringList kernelArguments;
    for (const Argument &a : arguments)
        kernelArguments << a.info->name;
    v[u"kernel_call"_s] = wrapped(u"    %1_ext.forward("_s.arg(ns), kernelArguments, u")."_s, 8);
    v[u"forward_parameters"_s] = forwardNames.isEmpty() ? QString() : u", "_s + forwardNames.join(u", "_s);
    v[u"forward_body"_s] = s.outputs.size() == 1
                               ? wrapped(u"        return _ext.forward("_s, callArgs, u")"_s, 12)
                               : wrapped(u"        return tuple(_ext.forward("_s, callArgs, u"))"_s, 12);

    // setup.py, as the CUDA tasks' torch export writes it.
    v[u"test_script"_s] = u"test_model_new.py"_s;
    v[u"reference_note"_s] = u"\n# model_new.py wraps it as ModelNew; test_model_new.py compares that with reference.py's Model."_s;
    v[u"reference_module"_s] = QString();

    QString error;
    const auto add = [&](const QString &path, const QByteArray &content, bool license = true) {
        bundle.files << ExportFile{path, license ? LicenseHeader::apply(path, content, options.licenseText) : content};
    };
    const auto render = [&](const QString &tmpl, const QString &path) {
        add(path, TemplateRenderer::renderResource(tmpl, v, &error).toUtf8());
    };
    render(u"modelnew/kernel_model_new.py.in"_s, u"model_new.py"_s);
    add(u"reference.py"_s, in.referenceSource.toUtf8(), false);
    render(u"torch/setup.py.in"_s, u"setup.py"_s);
    render(u"modelnew/kernel_binding.cpp.in"_s, u"%1_binding.cpp"_s.arg(ns));
    add(u"%1_kernel.cu"_s.arg(ns), in.variantSource.toUtf8());
    const QByteArray abi = ExportContext::abiHeader();
    if (abi.isEmpty() && error.isEmpty())
        error = tr("the kernel ABI header is missing from this build");
    add(u"include/kforge/kernel.h"_s, abi, false);
    bundle.files << ModelNewExporter::harnessFiles(in, s, options, &error);
    add(u"task.json"_s, in.taskJson.toUtf8(), false);
    add(u"README.md"_s, ExportReadme::render(ctx, ExportFormat::Torch, fileRoles(in), {}, &error).toUtf8(), false);
    bundle.failWith(error);
    return bundle;
}

} // namespace kforge
