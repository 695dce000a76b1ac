#include "core/optimizer/promptbuilder.h"
#include "core/eval/measureformat.h"
#include "core/eval/measurementfigures.h"
#include "core/optimizer/prompttemplate.h"
#include "core/session/sessionstore.h"
#include "core/sourcelevel/sourceheat.h"
#include "core/task/sourcelanguage.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <cmath>

namespace kforge {

namespace {

QString numberText(double v)
{
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return QString::number(qint64(v));
    return QString::number(v, 'g', 8);
}

QString shapeText(const QJsonArray &shape)
{
    QStringList parts;
    for (const auto &d : shape)
        parts << (d.isDouble() ? numberText(d.toDouble()) : d.toString());
    return parts.join(QLatin1String(", "));
}

QVariantList tensors(const QJsonArray &list)
{
    QVariantList out;
    for (const auto &e : list) {
        const QJsonObject o = e.toObject();
        out << QVariantMap{{QStringLiteral("name"), o.value(QLatin1String("name")).toString()},
                           {QStringLiteral("dtype"), o.value(QLatin1String("dtype")).toString()},
                           {QStringLiteral("shape"), shapeText(o.value(QLatin1String("shape")).toArray())}};
    }
    return out;
}

// The contract's default tolerances for dtypes task.json does not set.
QString defaultTolerance(const QString &dtype)
{
    if (dtype == QLatin1String("f64"))
        return QStringLiteral("atol 1e-08, rtol 1e-08");
    if (dtype == QLatin1String("f32"))
        return QStringLiteral("atol 0.0001, rtol 0.0001");
    if (dtype == QLatin1String("f16"))
        return QStringLiteral("atol 0.01, rtol 0.01");
    if (dtype == QLatin1String("bf16"))
        return QStringLiteral("atol 0.02, rtol 0.02");
    return QStringLiteral("exact equality");
}

QString toleranceText(const QJsonObject &task)
{
    const QJsonObject tol = task.value(QLatin1String("tolerance")).toObject();
    QStringList dtypes;
    for (const auto &o : task.value(QLatin1String("outputs")).toArray()) {
        const QString d = o.toObject().value(QLatin1String("dtype")).toString();
        if (!d.isEmpty() && !dtypes.contains(d))
            dtypes << d;
    }
    QStringList parts;
    for (const QString &d : std::as_const(dtypes)) {
        const QJsonObject t = tol.value(d).toObject();
        const QString text = t.isEmpty() ? defaultTolerance(d)
                                         : QStringLiteral("atol %1, rtol %2")
                                               .arg(t.value(QLatin1String("atol")).toDouble(), 0, 'g', 6)
                                               .arg(t.value(QLatin1String("rtol")).toDouble(), 0, 'g', 6);
        parts << QStringLiteral("%1 for %2").arg(text, d);
    }
    return parts.isEmpty() ? QStringLiteral("the task's tolerances") : parts.join(QLatin1String("; "));
}

QString speedupText(const std::optional<double> &s)
{
    return s ? QString::number(*s, 'f', *s >= 100 ? 0 : 2) : QStringLiteral("?");
}

QString letter(int index)
{
    return QString(QChar(u'A' + char16_t(index % 26)));
}

QString deviceOf(const QList<PromptExemplar> &list)
{
    for (const auto &e : list)
        if (!e.deviceName.isEmpty())
            return e.deviceName;
    return QStringLiteral("the GPU");
}

// A torch task's forward arguments: "f32, shape [M, K]" for a tensor, "int = 3" for a Python scalar.
QVariantList forwardArgs(const QJsonObject &task)
{
    QVariantList out;
    const QJsonArray args = task.value(QLatin1String("inputs")).toArray();
    for (const auto &e : args) {
        const QJsonObject o = e.toObject();
        QString text;
        if (o.contains(QLatin1String("shape")))
            text = QStringLiteral("%1, shape [%2]")
                       .arg(o.value(QLatin1String("dtype")).toString(),
                            shapeText(o.value(QLatin1String("shape")).toArray()));
        else
            text = QStringLiteral("%1 = %2").arg(
                o.value(QLatin1String("scalar")).toString(QStringLiteral("scalar")),
                o.value(QLatin1String("value")).isDouble()
                    ? numberText(o.value(QLatin1String("value")).toDouble())
                    : QString::fromUtf8(
                          QJsonDocument(QJsonArray{o.value(QLatin1String("value"))}).toJson(QJsonDocument::Compact))
                          .mid(1)
                          .chopped(1));
        out << QVariantMap{{QStringLiteral("name"), o.value(QLatin1String("name")).toString()},
                           {QStringLiteral("text"), text}};
    }
    return out;
}

QString languageOf(const QString &source)
{
    return fenceLanguage(sourceLanguage(source));
}

} // namespace

bool PromptBuilder::isTorch(const TaskRecord &task)
{
    return task.isTorch();
}

QString PromptBuilder::templateFor(const QString &name, const TaskRecord &task)
{
    if (isTorch(task) && (name == QLatin1String("contrastive") || name == QLatin1String("repair")))
        return name + QLatin1String("_torch");
    return name;
}

PromptExemplar PromptBuilder::exemplar(const SessionStore &store, qint64 variantId)
{
    PromptExemplar e;
    const Variant *v = store.population().find(variantId);
    if (!v)
        return e;
    e.id = v->id;
    e.label = v->label;
    e.isReference = v->origin == VariantOrigin::Reference;
    e.source = store.variants().source(variantId);
    e.speedup = v->eval.speedup;
    if (const auto full = store.evaluations().latest(variantId)) {
        e.result = full->measurement();
        e.deviceName = full->device.value(QLatin1String("name")).toString();
    }
    return e;
}

QVariantMap PromptBuilder::taskContext(const TaskRecord &task)
{
    const QJsonObject j = task.json();
    QVariantList params;
    const QJsonObject p = j.value(QLatin1String("params")).toObject();
    for (auto it = p.begin(); it != p.end(); ++it)
        params << QVariantMap{{QStringLiteral("name"), it.key()},
                              {QStringLiteral("value"), numberText(it.value().toDouble())}};
    const QVariantList parameters = tensors(j.value(QLatin1String("parameters")).toArray());
    const QVariantList buffers = tensors(j.value(QLatin1String("buffers")).toArray());
    const bool torch = isTorch(task);
    return {
        {QStringLiteral("name"), task.name},
        {QStringLiteral("is_torch"), torch},
        {QStringLiteral("reference_language"), torch ? QStringLiteral("python") : QStringLiteral("cuda")},
        {QStringLiteral("forward_args"), torch ? forwardArgs(j) : QVariantList()},
        {QStringLiteral("parameters"), parameters},
        {QStringLiteral("has_parameters"), !parameters.isEmpty()},
        {QStringLiteral("buffers"), buffers},
        {QStringLiteral("has_buffers"), !buffers.isEmpty()},
        {QStringLiteral("title"), j.value(QLatin1String("title")).toString(task.name)},
        {QStringLiteral("description"), task.description().trimmed()},
        {QStringLiteral("params"), params},
        {QStringLiteral("has_params"), !params.isEmpty()},
        {QStringLiteral("inputs"), tensors(j.value(QLatin1String("inputs")).toArray())},
        {QStringLiteral("outputs"), tensors(j.value(QLatin1String("outputs")).toArray())},
        {QStringLiteral("flops"), j.value(QLatin1String("flops")).toString()},
        {QStringLiteral("bytes"), j.value(QLatin1String("bytes")).toString()},
        {QStringLiteral("tolerance"), toleranceText(j)},
        {QStringLiteral("degenerate"), j.value(QLatin1String("degenerate")).toBool()},
        {QStringLiteral("reference_source"), task.referenceSource.trimmed()},
    };
}

QVariantMap PromptBuilder::exemplarContext(const PromptExemplar &e, int index)
{
    const MeasurementFigures p = MeasurementFigures::of(e.result);
    QVariantMap profile{{QStringLiteral("lines"), p.profileLines()}};
    if (p.medianMs)
        profile.insert(QStringLiteral("median_ms"), formatMeasure(*p.medianMs));
    if (!p.bound.isEmpty())
        profile.insert(QStringLiteral("bound"), p.bound);
    if (p.achievedGbps)
        profile.insert(QStringLiteral("gbps"), formatMeasure(*p.achievedGbps));
    if (p.achievedGflops)
        profile.insert(QStringLiteral("gflops"), formatMeasure(*p.achievedGflops));
    if (const auto pct = p.speedOfLight.percent())
        profile.insert(QStringLiteral("sol_pct"), speedOfLightFigure(*pct));
    if (p.achievedOccupancyPct)
        profile.insert(QStringLiteral("occupancy_pct"), formatMeasure(*p.achievedOccupancyPct));
    if (p.registers)
        profile.insert(QStringLiteral("registers"), *p.registers);
    if (p.sharedBytes)
        profile.insert(QStringLiteral("shared_bytes"), *p.sharedBytes);
    if (p.spillBytes)
        profile.insert(QStringLiteral("spill_bytes"), *p.spillBytes);
    // Where the samples fall, when the evaluation ran the source-level pass (EvalOptions::sourceProfile).
    const QStringList hot = SourceHeat::promptLines(e.result.sourceProfile, e.source);
    if (!hot.isEmpty()) {
        profile.insert(QStringLiteral("hot_lines"), hot);
        profile.insert(QStringLiteral("has_hot_lines"), true);
    }
    return {
        {QStringLiteral("letter"), letter(index)},
        {QStringLiteral("id"), e.id},
        {QStringLiteral("label"), e.label},
        {QStringLiteral("is_reference"), e.isReference},
        {QStringLiteral("speedup"), speedupText(e.speedup ? e.speedup : p.speedup)},
        {QStringLiteral("source"), e.source.trimmed()},
        // The fence of its code (```cuda or ```python: a torch task's ModelNew) and the form in words.
        {QStringLiteral("language"), languageOf(e.source)},
        {QStringLiteral("form"), sourceLanguage(e.source) == SourceLanguage::Python ? QStringLiteral("a ModelNew module")
                                                                                    : QStringLiteral("a KForge .cu kernel")},
        {QStringLiteral("profile"), profile},
    };
}

QVariantMap PromptBuilder::contrastiveContext(const ContrastiveRequest &r)
{
    // Slowest first, so the prompt reads as a progression and "the faster one" is always the last.
    QList<PromptExemplar> sorted = r.exemplars;
    std::stable_sort(sorted.begin(), sorted.end(), [](const PromptExemplar &a, const PromptExemplar &b) {
        return a.speedup.value_or(0) < b.speedup.value_or(0);
    });
    // The reference's code is printed once, under "Reference implementation"; its entry (or that of a variant
    // with the very same code) keeps its measurements and refers to it.
    const QString reference = r.task.referenceSource.trimmed();
    QVariantList exemplars;
    for (int i = 0; i < sorted.size(); ++i) {
        QVariantMap e = exemplarContext(sorted[i], i);
        e.insert(QStringLiteral("is_reference_source"),
                 sorted[i].isReference || (!reference.isEmpty() && sorted[i].source.trimmed() == reference));
        exemplars << e;
    }
    return {
        {QStringLiteral("task"), taskContext(r.task)},
        {QStringLiteral("exemplars"), exemplars},
        {QStringLiteral("contrast"), sorted.size() >= 2},
        {QStringLiteral("slowest_letter"), letter(0)},
        {QStringLiteral("fastest_letter"), letter(std::max<int>(0, int(sorted.size()) - 1))},
        {QStringLiteral("device"), deviceOf(sorted)},
        {QStringLiteral("hint"), r.hint.trimmed()},
    };
}

QStringList PromptBuilder::failureDetails(const Measurement &result)
{
    QStringList out;
    const Verification &v = result.verification;
    const auto orZero = [](double d) { return std::isfinite(d) ? d : 0.0; };
    if (!v.reason.isEmpty())
        out << v.reason;
    if (v.mismatches > 0) {
        const Mismatch &first = v.firstMismatch;
        QString s = QStringLiteral("%1 output elements differ from the reference").arg(numberText(double(v.mismatches)));
        if (!first.raw.isEmpty())
            s += QStringLiteral("; the first is %1[%2]: expected %3, got %4")
                     .arg(first.output, numberText(double(std::max<qint64>(first.index, 0))),
                          std::isfinite(first.expected) ? QString::number(first.expected, 'g', 7) : QStringLiteral("NaN"),
                          std::isfinite(first.got) ? QString::number(first.got, 'g', 7)
                                                   : QStringLiteral("NaN (or never written)"));
        out << s;
    }
    if (std::isfinite(v.maxAbsErr) && v.maxAbsErr > 0)
        out << QStringLiteral("max absolute error %1, max relative error %2")
                   .arg(v.maxAbsErr, 0, 'g', 4)
                   .arg(orZero(v.maxRelErr), 0, 'g', 4);
    if (v.nanCount > 0 || v.infCount > 0)
        out << QStringLiteral("%1 NaN and %2 Inf values in the output")
                   .arg(numberText(double(v.nanCount)), numberText(double(v.infCount)));
    if (v.inputMutated)
        out << QStringLiteral("the kernel modified one of its inputs");
    if (!result.cudaError.isEmpty())
        out << QStringLiteral("CUDA error: %1").arg(result.cudaError);
    if (const QString s = result.stdoutText.trimmed(); !s.isEmpty())
        out << QStringLiteral("kernel output: %1").arg(s.left(400));
    return out;
}

QVariantMap PromptBuilder::repairContext(const RepairRequest &r)
{
    using F = RepairRequest::Failure;
    return {
        {QStringLiteral("task"), taskContext(r.task)},
        {QStringLiteral("source"), r.source.trimmed()},
        {QStringLiteral("language"), languageOf(r.source)},
        {QStringLiteral("design"), r.design.trimmed()},
        {QStringLiteral("compile_error"), r.failure == F::CompileError},
        {QStringLiteral("wrong_result"), r.failure == F::WrongResult},
        {QStringLiteral("runtime_error"), r.failure == F::RuntimeError},
        {QStringLiteral("diagnostics"), r.diagnostics.trimmed()},
        {QStringLiteral("nvcc_command"), r.nvccCommand.isEmpty() ? QStringLiteral("nvcc") : r.nvccCommand},
        {QStringLiteral("verdict"), r.result.verdictName()},
        {QStringLiteral("message"), r.result.message.trimmed()},
        {QStringLiteral("details"), failureDetails(r.result)},
    };
}

QVariantMap PromptBuilder::compareContext(const CompareRequest &r)
{
    return {
        {QStringLiteral("task"), taskContext(r.task)},
        {QStringLiteral("a"), exemplarContext(r.a, 0)},
        {QStringLiteral("b"), exemplarContext(r.b, 1)},
        {QStringLiteral("device"), deviceOf({r.a, r.b})},
        {QStringLiteral("question"),
         r.question.trimmed().isEmpty() ? QStringLiteral("Why is variant A faster than variant B?") : r.question.trimmed()},
    };
}

QString PromptBuilder::renderNamed(const QString &name, const QVariantMap &context, QString *error)
{
    QString message, origin;
    const QString text = PromptTemplate::load(name, &message, &origin);
    if (text.isEmpty()) {
        if (error)
            *error = tr("Prompt template \"%1\": %2").arg(name, message);
        return {};
    }
    const QString out = PromptTemplate::render(text, context, &message);
    if (out.isEmpty() && error)
        *error = tr("Prompt template %1: %2").arg(origin, message);
    return out;
}

QString PromptBuilder::contrastive(const ContrastiveRequest &r, QString *error)
{
    if (r.exemplars.isEmpty()) {
        if (error)
            *error = tr("No measured variant to show the model: evaluate the reference first");
        return {};
    }
    return renderNamed(templateFor(r.templateName, r.task), contrastiveContext(r), error);
}

QString PromptBuilder::repair(const RepairRequest &r, QString *error)
{
    return renderNamed(templateFor(r.templateName, r.task), repairContext(r), error);
}

QString PromptBuilder::compare(const CompareRequest &r, QString *error)
{
    return renderNamed(r.templateName, compareContext(r), error);
}

QString PromptBuilder::system(QString *error)
{
    return renderNamed(QStringLiteral("system"), {}, error).trimmed();
}

} // namespace kforge
