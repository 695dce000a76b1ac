#include "core/eval/evaloptions.h"

#include "core/eval/jsonfields.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace kforge {

EvalOptions EvalOptions::fromJson(const QJsonObject &o)
{
    EvalOptions e;
    e.trials = int(json::number(o, "trials"_L1, e.trials));
    e.minRuns = int(json::number(o, "min_runs"_L1, e.minRuns));
    e.minTimeMs = int(json::number(o, "min_time_ms"_L1, e.minTimeMs));
    e.maxRuns = int(json::number(o, "max_runs"_L1, e.maxRuns));
    e.warmup = int(json::number(o, "warmup"_L1, e.warmup));
    e.seed = qint64(json::number(o, "seed"_L1, double(e.seed)));
    e.trace = o.value("trace"_L1).toBool(e.trace);
    e.metrics = o.value("metrics"_L1).toBool(e.metrics);
    for (const QJsonValue &v : o.value("metric_names"_L1).toArray())
        e.metricNames.append(v.toString());
    return e;
}

QJsonObject EvalOptions::toJson() const
{
    QJsonObject o{{u"trials"_s, trials},   {u"min_runs"_s, minRuns}, {u"min_time_ms"_s, minTimeMs},
                  {u"max_runs"_s, maxRuns}, {u"warmup"_s, warmup},    {u"seed"_s, double(seed)},
                  {u"trace"_s, trace},      {u"metrics"_s, metrics}};
    if (!metricNames.isEmpty())
        o.insert(u"metric_names"_s, QJsonArray::fromStringList(metricNames));
    return o;
}

} // namespace kforge
