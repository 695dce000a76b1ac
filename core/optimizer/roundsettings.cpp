#include "core/optimizer/roundsettings.h"

#include <QCoreApplication>

namespace kforge {

QString Budget::exhaustedBy(const RoundUsage &used) const
{
    if (maxRequests > 0 && used.requests >= maxRequests)
        return QCoreApplication::translate("kforge::Budget", "%n request(s) of the budget used", nullptr, maxRequests);
    if (maxTokens > 0 && used.totalTokens() >= maxTokens)
        return QCoreApplication::translate("kforge::Budget", "%1 of %2 budgeted tokens used").arg(used.totalTokens()).arg(maxTokens);
    if (maxCost > 0 && used.cost >= maxCost)
        return QCoreApplication::translate("kforge::Budget", "$%1 of the $%2 budget spent")
            .arg(used.cost, 0, 'f', 2)
            .arg(maxCost, 0, 'f', 2);
    return {};
}

QJsonObject Budget::toJson() const
{
    return {{QStringLiteral("max_requests"), maxRequests},
            {QStringLiteral("max_tokens"), double(maxTokens)},
            {QStringLiteral("max_cost"), maxCost}};
}

Budget Budget::fromJson(const QJsonObject &o)
{
    Budget b;
    b.maxRequests = o.value(QLatin1String("max_requests")).toInt();
    b.maxTokens = qint64(o.value(QLatin1String("max_tokens")).toDouble());
    b.maxCost = o.value(QLatin1String("max_cost")).toDouble();
    return b;
}

QString toString(ExemplarMode m)
{
    switch (m) {
    case ExemplarMode::Auto: return QStringLiteral("auto");
    case ExemplarMode::PerCandidate: return QStringLiteral("per-candidate");
    case ExemplarMode::PerRound: return QStringLiteral("per-round");
    }
    return {};
}

ExemplarMode exemplarModeFromString(const QString &s, bool *ok)
{
    for (auto m : {ExemplarMode::Auto, ExemplarMode::PerCandidate, ExemplarMode::PerRound})
        if (s == toString(m)) {
            if (ok)
                *ok = true;
            return m;
        }
    if (ok)
        *ok = false;
    return ExemplarMode::Auto;
}

ExemplarMode RoundSettings::effectiveExemplarMode(int usable) const
{
    if (exemplarMode != ExemplarMode::Auto)
        return exemplarMode;
    // Only bucket sampling draws at random; top-k and most-different would give every candidate the same set.
    return candidates > 1 && usable > sampler.count && sampler.strategy == SamplingStrategy::Buckets
               ? ExemplarMode::PerCandidate
               : ExemplarMode::PerRound;
}

QJsonObject RoundSettings::toJson() const
{
    return {
        {QStringLiteral("candidates"), candidates},
        {QStringLiteral("max_concurrent"), maxConcurrent},
        {QStringLiteral("exemplars"), sampler.count},
        {QStringLiteral("strategy"), toString(sampler.strategy)},
        {QStringLiteral("exemplar_mode"), toString(exemplarMode)},
        {QStringLiteral("temperature"), sampler.temperature},
        {QStringLiteral("bucket_width"), sampler.bucketWidth},
        {QStringLiteral("seed"), QString::number(seed)},
        {QStringLiteral("repair_attempts"), repairAttempts},
        {QStringLiteral("budget"), budget.toJson()},
        {QStringLiteral("hint"), hint},
        {QStringLiteral("template"), templateName},
        {QStringLiteral("eval_options"), evalOptions.toJson()},
        {QStringLiteral("accept_suspicious"), acceptSuspicious},
        {QStringLiteral("endpoint"), endpoint},
        {QStringLiteral("model"), model},
    };
}

RoundSettings RoundSettings::fromJson(const QJsonObject &o)
{
    RoundSettings s;
    s.candidates = o.value(QLatin1String("candidates")).toInt(s.candidates);
    s.maxConcurrent = o.value(QLatin1String("max_concurrent")).toInt(s.maxConcurrent);
    s.sampler.count = o.value(QLatin1String("exemplars")).toInt(s.sampler.count);
    s.sampler.strategy = samplingStrategyFromString(o.value(QLatin1String("strategy")).toString());
    s.exemplarMode = exemplarModeFromString(o.value(QLatin1String("exemplar_mode")).toString());
    s.sampler.temperature = o.value(QLatin1String("temperature")).toDouble(s.sampler.temperature);
    s.sampler.bucketWidth = o.value(QLatin1String("bucket_width")).toDouble(s.sampler.bucketWidth);
    s.seed = o.value(QLatin1String("seed")).toString().toULongLong();
    s.repairAttempts = o.value(QLatin1String("repair_attempts")).toInt(s.repairAttempts);
    s.budget = Budget::fromJson(o.value(QLatin1String("budget")).toObject());
    s.hint = o.value(QLatin1String("hint")).toString();
    s.templateName = o.value(QLatin1String("template")).toString(s.templateName);
    if (o.contains(QLatin1String("eval_options")))
        s.evalOptions = EvalOptions::fromJson(o.value(QLatin1String("eval_options")).toObject());
    // Sessions before issue 19 stored the fixed seed 1; a round's evaluations always draw fresh seeds.
    s.evalOptions.seed.reset();
    s.acceptSuspicious = o.value(QLatin1String("accept_suspicious")).toBool();
    s.endpoint = o.value(QLatin1String("endpoint")).toString();
    s.model = o.value(QLatin1String("model")).toString();
    return s;
}

} // namespace kforge
