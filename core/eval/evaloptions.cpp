#include "core/eval/evaloptions.h"

#include "core/eval/jsonfields.h"
#include "core/eval/timingsetting.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace kforge {

EvalOptions EvalOptions::fromSettings(const TimingSetting &timing)
{
    EvalOptions e;
    e.trials = timing.trials;
    e.minRuns = timing.minRuns;
    e.minTimeMs = timing.minTimeMs;
    e.maxRuns = timing.maxRuns;
    e.warmup = timing.warmup;
    e.ciTarget = timing.ciTargetPercent / 100.0;
    return e;
}

EvalOptions EvalOptions::forTask(const QJsonObject &task) const
{
    EvalOptions e = *this;
    if (const QJsonValue c = task.value("timing"_L1).toObject().value("ci_target"_L1); c.isDouble())
        e.ciTarget = c.toDouble();
    return e;
}

EvalOptions EvalOptions::fromJson(const QJsonObject &o)
{
    EvalOptions e;
    e.trials = int(json::number(o, "trials"_L1, e.trials));
    e.timing = o.value("timing"_L1).toBool(e.timing);
    e.minRuns = int(json::number(o, "min_runs"_L1, e.minRuns));
    e.minTimeMs = int(json::number(o, "min_time_ms"_L1, e.minTimeMs));
    e.maxRuns = int(json::number(o, "max_runs"_L1, e.maxRuns));
    e.ciTarget = json::number(o, "ci_target"_L1, e.ciTarget);
    e.maxTimeMs = int(json::number(o, "max_time_ms"_L1, e.maxTimeMs));
    e.warmup = int(json::number(o, "warmup"_L1, e.warmup));
    e.warmupMs = int(json::number(o, "warmup_ms"_L1, e.warmupMs));
    // Integers up to 2^63 - 1 read back exactly (QJsonValue keeps them as qint64).
    if (const QJsonValue seed = o.value("seed"_L1); seed.isDouble() && seed.toInteger(-1) >= 0)
        e.seed = seed.toInteger();
    e.trace = o.value("trace"_L1).toBool(e.trace);
    e.traceRuns = int(json::number(o, "trace_runs"_L1, e.traceRuns));
    e.metrics = o.value("metrics"_L1).toBool(e.metrics);
    e.metricsMinSpeedup = json::number(o, "metrics_min_speedup"_L1, e.metricsMinSpeedup);
    for (const QJsonValue &v : o.value("metric_names"_L1).toArray())
        e.metricNames.append(v.toString());
    e.samples = o.value("samples"_L1).toBool(e.samples);
    e.sourceProfile = o.value("source_profile"_L1).toBool(e.sourceProfile);
    e.sourceProfilePeriod = int(json::number(o, "source_profile_period"_L1, e.sourceProfilePeriod));
    e.deep = o.value("deep"_L1).toBool(e.deep);
    return e;
}

QJsonObject EvalOptions::toJson() const
{
    QJsonObject o{{u"trials"_s, trials},         {u"timing"_s, timing},    {u"min_runs"_s, minRuns},
                  {u"min_time_ms"_s, minTimeMs}, {u"max_runs"_s, maxRuns}, {u"warmup"_s, warmup},
                  {u"warmup_ms"_s, warmupMs},    {u"trace"_s, trace},      {u"trace_runs"_s, traceRuns},
                  {u"metrics"_s, metrics},       {u"samples"_s, samples},  {u"ci_target"_s, ciTarget},
                  {u"max_time_ms"_s, maxTimeMs}};
    // Only when chosen: without it the worker draws a fresh seed per evaluation.
    if (seed)
        o.insert(u"seed"_s, *seed);
    if (!metricNames.isEmpty())
        o.insert(u"metric_names"_s, QJsonArray::fromStringList(metricNames));
    // Only when asked: a request without the key is the same request as before the option existed.
    if (sourceProfile)
        o.insert(u"source_profile"_s, true);
    if (sourceProfile && sourceProfilePeriod > 0)
        o.insert(u"source_profile_period"_s, sourceProfilePeriod);
    if (deep)
        o.insert(u"deep"_s, true);
    if (metrics && metricsMinSpeedup > 0)
        o.insert(u"metrics_min_speedup"_s, metricsMinSpeedup);
    return o;
}

} // namespace kforge
