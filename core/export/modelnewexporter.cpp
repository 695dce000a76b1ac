#include "core/export/modelnewexporter.h"

#include "core/eval/timingdefaults.h"
#include "core/export/codenames.h"
#include "core/export/exportcontext.h"
#include "core/export/exportreadme.h"
#include "core/export/licenseheader.h"
#include "core/export/templaterenderer.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// One line per floating dtype, "    torch.float32: (atol, rtol),": what task.json gives, else the default, as the
// judge merges them (the defaults of docs/task-format.md); outputs of other dtypes compare exactly.
QString toleranceItems(const QByteArray &taskJson)
{
    const QJsonObject given = QJsonDocument::fromJson(taskJson).object().value(u"tolerance"_s).toObject();
    QString out;
    for (const runtime::Dtype d : {runtime::Dtype::F64, runtime::Dtype::F32, runtime::Dtype::F16, runtime::Dtype::BF16}) {
        runtime::Tolerance t = runtime::defaultTolerance(d);
        const QJsonObject o = given.value(CodeNames::dtypeName(d)).toObject();
        t.atol = o.value(u"atol"_s).toDouble(t.atol);
        t.rtol = o.value(u"rtol"_s).toDouble(t.rtol);
        out += u"    %1: (%2, %3),\n"_s.arg(CodeNames::torchDtype(d), CodeNames::number(t.atol), CodeNames::number(t.rtol));
    }
    return out;
}

} // namespace

QList<QPair<QString, QString>> ModelNewExporter::fileRoles(const ExportInput &in)
{
    return QList<QPair<QString, QString>>{
        {u"model_new.py"_s, u"`ModelNew`, variant #%1 as KForge measured it"_s.arg(in.variantId)},
        {u"reference.py"_s, u"the task's reference (`Model`, `get_inputs`, `get_init_inputs`) as it was imported"_s},
    } + harnessRoles();
}

QList<QPair<QString, QString>> ModelNewExporter::harnessRoles()
{
    return {
        {u"test_model_new.py"_s,
         u"builds both modules, loads the reference's state dict into `ModelNew`, and compares their outputs on fresh "
         "inputs of several seeds with the task's tolerances; exit status 0 when they match"_s},
        {u"bench_model_new.py"_s, u"times both on the same inputs and prints the medians and the speedup"_s},
        {u"task.json"_s, u"the task definition as KForge stored it"_s},
        {u"README.md"_s, u"this file"_s},
    };
}

std::optional<TaskSummary> ModelNewExporter::checkTorchInput(const ExportInput &in, ExportBundle &bundle)
{
    QString problem;
    std::optional<TaskSummary> summary = TaskSummary::fromTaskJson(in.taskJson.toUtf8(), &problem);
    if (!summary)
        bundle.failWith(tr("the task's task.json cannot be read: %1").arg(problem));
    else if (in.variantSource.trimmed().isEmpty())
        bundle.failWith(tr("variant %1 has no source").arg(in.variantId));
    else if (in.referenceSource.trimmed().isEmpty())
        bundle.failWith(tr("the task %1 has no reference source").arg(summary->name));
    if (!bundle.ok())
        return std::nullopt;
    return summary;
}

QList<ExportFile> ModelNewExporter::harnessFiles(const ExportInput &in, const TaskSummary &summary,
                                                 const ExportOptions &options, QString *error)
{
    const ExportContext ctx(in);
    TemplateRenderer::Values v = ctx.baseValues();
    v[u"py_task_name"_s] = CodeNames::pyString(summary.name);
    v[u"py_variant"_s] = CodeNames::pyString(
        in.variantLabel.isEmpty() ? u"variant #%1"_s.arg(in.variantId)
                                  : u"variant #%1 %2"_s.arg(QString::number(in.variantId), in.variantLabel));
    QStringList arguments, outputs;
    for (const TaskTensorInfo &a : summary.inputs)
        arguments << a.name;
    for (const TaskTensorInfo &o : summary.outputs)
        outputs << o.name;
    v[u"py_arguments"_s] = CodeNames::pyList(arguments);
    v[u"py_outputs"_s] = CodeNames::pyList(outputs);
    v[u"tolerance_items"_s] = toleranceItems(in.taskJson.toUtf8());
    v[u"trials"_s] = QString::number(TimingDefaults::trials);
    const ExportProvenance &p = in.provenance;
    v[u"py_measured"_s] = CodeNames::pyString(
        p.speedup ? u"%1 on %2"_s.arg(ExportReadme::formatSpeedup(p.speedup),
                                      p.gpuName.isEmpty() ? u"an unrecorded device"_s : p.gpuName)
                  : u"no speedup"_s);
    ExportContext::addTimingValues(v);
    v[u"harness"_s] = TemplateRenderer::renderResource(u"modelnew/harness.py.in"_s, v, error);
    QList<ExportFile> files;
    for (const QString &name : {u"test_model_new.py"_s, u"bench_model_new.py"_s})
        files << ExportFile{
            name,
            LicenseHeader::apply(name, TemplateRenderer::renderResource(u"modelnew/"_s + name + u".in"_s, v, error).toUtf8(),
                                 options.licenseText)};
    return files;
}

ExportBundle ModelNewExporter::generate(const ExportInput &in, const ExportOptions &options)
{
    ExportBundle bundle;
    if (in.taskKind != TaskKind::Torch) {
        bundle.failWith(tr("variant %1 is a PyTorch ModelNew module, but its task is not a PyTorch task (a task.json of "
                           "kind \"torch\")")
                            .arg(in.variantId));
        return bundle;
    }
    const std::optional<TaskSummary> summary = checkTorchInput(in, bundle);
    if (!summary)
        return bundle;

    const ExportContext ctx(in);
    QString error;
    const auto add = [&](const QString &path, const QByteArray &content, bool license) {
        bundle.files << ExportFile{path, license ? LicenseHeader::apply(path, content, options.licenseText) : content};
    };
    // The module is the user's to ship, so it carries their header; reference.py is the problem as they gave it.
    add(u"model_new.py"_s, in.variantSource.toUtf8(), true);
    add(u"reference.py"_s, in.referenceSource.toUtf8(), false);
    bundle.files << harnessFiles(in, *summary, options, &error);
    add(u"task.json"_s, in.taskJson.toUtf8(), false);
    add(u"README.md"_s, ExportReadme::render(ctx, ExportFormat::Torch, fileRoles(in), {}, &error).toUtf8(), false);
    bundle.failWith(error);
    return bundle;
}

} // namespace kforge
