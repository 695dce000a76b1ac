#include "core/collection/verifyrecord.h"

#include <array>
#include <utility>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

constexpr std::array<std::pair<VerifyRun, const char *>, 5> kRuns{{
    {VerifyRun::Main, "main"},
    {VerifyRun::Tolerance3, "tol_1e-3"},
    {VerifyRun::Tolerance2, "tol_1e-2"},
    {VerifyRun::HeldOut1, "heldout_1"},
    {VerifyRun::HeldOut2, "heldout_2"},
}};

} // namespace

QString runName(VerifyRun r)
{
    for (const auto &[run, name] : kRuns)
        if (run == r)
            return QString::fromLatin1(name);
    return {};
}

std::optional<VerifyRun> runFromName(const QString &name)
{
    for (const auto &[run, n] : kRuns)
        if (name == QLatin1String(n))
            return run;
    return std::nullopt;
}

double runTolerance(VerifyRun r)
{
    return r == VerifyRun::Tolerance3 ? 1e-3 : r == VerifyRun::Tolerance2 ? 1e-2 : 0;
}

int heldOutIndex(VerifyRun r)
{
    return r == VerifyRun::HeldOut1 ? 1 : r == VerifyRun::HeldOut2 ? 2 : 0;
}

QJsonObject VerifyRecord::toJson() const
{
    QJsonObject o{{u"pair"_s, pair},
                  {u"run"_s, runName(run)},
                  {u"problem"_s, problem},
                  {u"task"_s, task},
                  {u"candidate"_s, candidate},
                  {u"kind"_s, kind},
                  {u"wall_s"_s, wallS},
                  {u"worker_s"_s, workerS},
                  {u"finished_at"_s, finishedAt.toUTC().toString(Qt::ISODateWithMs)},
                  {u"result"_s, result.toJson()}};
    if (claimedSpeedup)
        o.insert(u"claimed_speedup"_s, *claimedSpeedup);
    return o;
}

std::optional<VerifyRecord> VerifyRecord::fromJson(const QJsonObject &o)
{
    const std::optional<VerifyRun> run = runFromName(o.value(u"run"_s).toString());
    if (!run || o.value(u"pair"_s).toString().isEmpty() || !o.value(u"result"_s).isObject())
        return std::nullopt;
    VerifyRecord r;
    r.pair = o.value(u"pair"_s).toString();
    r.run = *run;
    r.problem = o.value(u"problem"_s).toString();
    r.task = o.value(u"task"_s).toString();
    r.candidate = o.value(u"candidate"_s).toString();
    r.kind = o.value(u"kind"_s).toString();
    if (o.value(u"claimed_speedup"_s).isDouble())
        r.claimedSpeedup = o.value(u"claimed_speedup"_s).toDouble();
    r.result = Measurement::fromJson(o.value(u"result"_s).toObject());
    r.wallS = o.value(u"wall_s"_s).toDouble();
    r.workerS = o.value(u"worker_s"_s).toDouble(-1);
    r.finishedAt = QDateTime::fromString(o.value(u"finished_at"_s).toString(), Qt::ISODateWithMs);
    return r;
}

} // namespace kforge
