#include "core/workerpool/workerreply.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

bool isNumberOrNull(const QJsonValue &v)
{
    return v.isDouble() || v.isNull();
}

// A statistics object of the timing: the median and the run count are what the speedup rests on.
QString timingStatsProblem(const QJsonObject &timing, QLatin1StringView side)
{
    const QJsonValue v = timing.value(side);
    if (!v.isObject())
        return WorkerReply::tr("timing.%1 is not an object").arg(side);
    const QJsonObject o = v.toObject();
    if (!isNumberOrNull(o.value("median_ms"_L1)) || !o.value("runs"_L1).isDouble())
        return WorkerReply::tr("timing.%1 lacks a numeric median_ms or runs").arg(side);
    for (const auto key : {"mean_ms"_L1, "min_ms"_L1, "p10_ms"_L1, "p90_ms"_L1, "cv"_L1})
        if (o.contains(key) && !isNumberOrNull(o.value(key)))
            return WorkerReply::tr("timing.%1.%2 is not a number").arg(side, key);
    return {};
}

QString verificationProblem(const QJsonValue &verification, bool correct)
{
    if (!verification.isObject())
        return WorkerReply::tr("verification is missing or not an object");
    const QJsonObject o = verification.toObject();
    if (!o.value("trials"_L1).isDouble() || !o.value("mismatches"_L1).isDouble())
        return WorkerReply::tr("verification lacks a numeric trials or mismatches");
    for (const auto key : {"max_abs_err"_L1, "max_rel_err"_L1, "nan_count"_L1, "inf_count"_L1})
        if (o.contains(key) && !isNumberOrNull(o.value(key)))
            return WorkerReply::tr("verification.%1 is not a number").arg(key);
    if (o.contains("input_mutated"_L1) && !o.value("input_mutated"_L1).isBool())
        return WorkerReply::tr("verification.input_mutated is not true or false");
    if (correct && o.value("mismatches"_L1).toDouble() != 0)
        return WorkerReply::tr("a correct verdict with mismatches");
    return {};
}

} // namespace

QString WorkerReply::schemaProblem(const QJsonObject &result)
{
    if (result.isEmpty())
        return tr("the reply has no result object");
    const QJsonValue verdict = result.value("verdict"_L1);
    if (!verdict.isString())
        return tr("verdict is missing or not a string");
    if (!verdictFromString(verdict.toString()))
        return tr("unknown verdict '%1'").arg(verdict.toString());
    if (!result.value("message"_L1).isString())
        return tr("message is missing or not a string");
    for (const auto key : {"restart_required"_L1, "stdout_truncated"_L1})
        if (result.contains(key) && !result.value(key).isBool())
            return tr("%1 is not true or false").arg(key);
    for (const auto key : {"flags"_L1, "warnings"_L1}) {
        if (!result.contains(key))
            continue;
        if (!result.value(key).isArray())
            return tr("%1 is not an array").arg(key);
        for (const QJsonValue &v : result.value(key).toArray())
            if (!v.isString())
                return tr("%1 holds something other than strings").arg(key);
    }
    const QString v = verdict.toString();
    // A verdict about the outputs rests on a verification; every other one may come without.
    if (v == "correct"_L1 || v == "incorrect"_L1 || result.contains("verification"_L1))
        if (const QString p = verificationProblem(result.value("verification"_L1), v == "correct"_L1); !p.isEmpty())
            return p;
    if (result.contains("timing"_L1)) {
        const QJsonValue timing = result.value("timing"_L1);
        if (!timing.isObject())
            return tr("timing is not an object");
        const QJsonObject t = timing.toObject();
        for (const auto side : {"reference"_L1, "candidate"_L1})
            if (const QString p = timingStatsProblem(t, side); !p.isEmpty())
                return p;
        if (t.contains("speedup"_L1) && !isNumberOrNull(t.value("speedup"_L1)))
            return tr("timing.speedup is not a number");
    }
    if (result.contains("deep"_L1) && !result.value("deep"_L1).isObject())
        return tr("deep is not an object");
    return {};
}

std::optional<EvalResult> WorkerReply::parseResult(const QJsonObject &result, QString *problem)
{
    if (const QString p = schemaProblem(result); !p.isEmpty()) {
        if (problem)
            *problem = p;
        return std::nullopt;
    }
    return EvalResult::fromJson(result);
}

EvalResult WorkerReply::toEvalResult() const
{
    if (ok) {
        QString problem;
        std::optional<EvalResult> r = parseResult(body.value("result"_L1).toObject(), &problem);
        if (!r)
            r = EvalResult::failure(
                Verdict::Error,
                tr("The worker's answer breaks the protocol (%1); it was not used as a measurement.").arg(problem),
                Malformed);
        r->elapsedMs = elapsedMs;
        // The response is the result that counts, whatever it says of itself; only a measured event is provisional.
        r->provisional = false;
        r->pending.clear();
        return *r;
    }
    Verdict v = Verdict::Error;
    if (errorCode == Timeout)
        v = Verdict::Timeout;
    else if (errorCode == Crashed)
        v = Verdict::Crashed;
    else if (errorCode == "load_failed"_L1 || errorCode == "abi_mismatch"_L1 || errorCode == "missing_entry"_L1)
        v = Verdict::LoadError;
    EvalResult r = EvalResult::failure(v, errorMessage, errorCode);
    r.exitCode = exitCode;
    r.exitSignal = exitSignal;
    r.elapsedMs = elapsedMs;
    return r;
}

} // namespace kforge
