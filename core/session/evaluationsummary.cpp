#include "core/session/evaluationsummary.h"

#include <QJsonArray>

namespace kforge {

namespace {
std::optional<double> number(const QJsonValue &v)
{
    if (v.isDouble())
        return v.toDouble();
    return std::nullopt;
}
} // namespace

EvaluationSummary EvaluationSummary::fromResultJson(const QJsonObject &result)
{
    EvaluationSummary s;
    s.verdict = result.value(QLatin1String("verdict")).toString();
    s.message = result.value(QLatin1String("message")).toString();
    const QJsonObject timing = result.value(QLatin1String("timing")).toObject();
    s.speedup = number(timing.value(QLatin1String("speedup")));
    const QJsonObject ref = timing.value(QLatin1String("reference")).toObject();
    const QJsonObject cand = timing.value(QLatin1String("candidate")).toObject();
    s.referenceMedianMs = number(ref.value(QLatin1String("median_ms")));
    s.candidateMedianMs = number(cand.value(QLatin1String("median_ms")));
    s.candidateCv = number(cand.value(QLatin1String("cv")));
    for (const auto &f : result.value(QLatin1String("flags")).toArray())
        s.flags << f.toString();
    return s;
}

} // namespace kforge
