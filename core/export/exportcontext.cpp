#include "core/export/exportcontext.h"

#include "core/eval/evaloptions.h"
#include "core/export/codenames.h"

#include <QCoreApplication>
#include <QFile>
#include <QSet>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

constexpr int kMaxDims = 8; // KF_MAX_DIMS

} // namespace

ExportContext::ExportContext(const ExportInput &in)
    : input(in)
{
    ns = CodeNames::identifier(QString::fromStdString(in.task.name).toLower());
    nsUpper = ns.toUpper();
    entry = ns + u"_entry"_s;
    referenceEntry = ns + u"_reference_entry"_s;

    QSet<QString> taken{ns};
    for (const auto &t : in.task.inputs)
        inputIds << CodeNames::identifier(QString::fromStdString(t.name), &taken);
    for (const auto &t : in.task.outputs)
        outputIds << CodeNames::identifier(QString::fromStdString(t.name), &taken);
    QSet<QString> paramTaken{ns};
    for (const auto &p : in.task.params)
        paramIds << CodeNames::identifier(QString::fromStdString(p.first), &paramTaken);

    kernelFlags = NvccFlags::translate(in.buildFlags());
    QStringList taskFlags;
    for (const auto &f : in.task.nvccFlags)
        taskFlags << QString::fromStdString(f);
    referenceFlags = NvccFlags::translate(taskFlags);

    if (in.task.name.empty())
        error = tr("the task has no name");
    else if (in.task.outputs.empty())
        error = tr("the task %1 has no outputs").arg(QString::fromStdString(in.task.name));
    else if (in.variantSource.trimmed().isEmpty())
        error = tr("variant %1 has no source").arg(in.variantId);
    else if (in.referenceSource.trimmed().isEmpty())
        error = tr("the task %1 has no reference source").arg(QString::fromStdString(in.task.name));
    for (const auto *list : {&in.task.inputs, &in.task.outputs})
        for (const auto &t : *list)
            if (error.isEmpty() && (t.shape.size() > size_t(kMaxDims)))
                error = tr("tensor %1 has %2 dimensions; the kernel ABI allows %3").arg(QString::fromStdString(t.name)).arg(t.shape.size()).arg(kMaxDims);
}

bool ExportContext::usesHalf() const
{
    for (const auto *list : {&input.task.inputs, &input.task.outputs})
        for (const auto &t : *list)
            if (t.dtype == runtime::Dtype::F16)
                return true;
    return false;
}

bool ExportContext::usesBfloat16() const
{
    for (const auto *list : {&input.task.inputs, &input.task.outputs})
        for (const auto &t : *list)
            if (t.dtype == runtime::Dtype::BF16)
                return true;
    return false;
}

bool ExportContext::linksCublas() const
{
    return kernelFlags.libraries.contains(u"cublas"_s) || referenceFlags.libraries.contains(u"cublas"_s);
}

void ExportContext::addTimingValues(TemplateRenderer::Values &v)
{
    const EvalOptions timing;
    v[u"min_runs"_s] = QString::number(timing.minRuns);
    // The benchmarks time by the fixed rule (no confidence target): its minimum time.
    v[u"min_time_ms"_s] = QString::number(TimingDefaults::fixedMinTimeMs);
    v[u"max_runs"_s] = QString::number(timing.maxRuns);
    v[u"warmup"_s] = QString::number(timing.warmup);
    v[u"warmup_ms"_s] = QString::number(timing.warmupMs);
}

QString ExportContext::paramsItems(const runtime::TaskSpec &task)
{
    if (task.params.empty())
        return u"    const kf_params params = {nullptr, 0};"_s;
    QString out = u"    static const kf_param_value items[] = {\n"_s;
    for (const auto &[name, value] : task.params)
        out += u"        {%1, %2},\n"_s.arg(CodeNames::cString(QString::fromStdString(name)), CodeNames::number(double(value)));
    out += u"    };\n    const kf_params params = {items, %1};"_s.arg(task.params.size());
    return out;
}

TemplateRenderer::Values ExportContext::baseValues() const
{
    TemplateRenderer::Values v;
    v[u"ns"_s] = ns;
    v[u"NS"_s] = nsUpper;
    v[u"task_name"_s] = QString::fromStdString(input.task.name);
    v[u"title"_s] = input.task.title.empty() ? QString::fromStdString(input.task.name) : QString::fromStdString(input.task.title);
    v[u"variant_id"_s] = QString::number(input.variantId);
    v[u"variant_label"_s] = input.variantLabel;
    v[u"entry"_s] = entry;
    v[u"reference_entry"_s] = referenceEntry;
    v[u"kforge_version"_s] = input.kforgeVersion;
    v[u"cuda_arch"_s] = input.provenance.cudaArchNumber();
    return v;
}

QString ExportContext::descriptionComment(int width) const
{
    QString out;
    for (const QString &paragraph : QString::fromStdString(input.task.description).split(u'\n')) {
        QString line;
        for (const QString &word : paragraph.split(u' ', Qt::SkipEmptyParts)) {
            if (!line.isEmpty() && line.size() + 1 + word.size() > width - 3) {
                out += u"// "_s + line + u'\n';
                line.clear();
            }
            line += (line.isEmpty() ? QString() : u" "_s) + word;
        }
        out += line.isEmpty() ? u"//\n"_s : u"// "_s + line + u'\n';
    }
    return out;
}

QString ExportContext::shapeInitializer(const runtime::TensorSpec &t)
{
    QStringList dims;
    for (const auto &d : t.shape)
        dims << QString::number(d.value);
    return u"{"_s + dims.join(u", "_s) + u"}"_s;
}

QString ExportContext::shapeText(const runtime::TensorSpec &t)
{
    QStringList dims;
    for (const auto &d : t.shape)
        dims << QString::fromStdString(d.text);
    return dims.isEmpty() ? u"scalar"_s : dims.join(u" x "_s);
}

QByteArray ExportContext::abiHeader()
{
    QFile f(u":/kforge/export/abi/kforge/kernel.h"_s);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace kforge
