#include "core/eval/evalresult.h"

#include "core/eval/jsonfields.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <algorithm>
#include <array>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

struct VerdictName {
    Verdict verdict;
    QLatin1String wire;
};

constexpr std::array kVerdictNames{
    VerdictName{Verdict::Correct, "correct"_L1},
    VerdictName{Verdict::Incorrect, "incorrect"_L1},
    VerdictName{Verdict::Crashed, "crashed"_L1},
    VerdictName{Verdict::CudaError, "cuda_error"_L1},
    VerdictName{Verdict::Timeout, "timeout"_L1},
    VerdictName{Verdict::LoadError, "load_error"_L1},
    VerdictName{Verdict::CompileError, "compile_error"_L1},
    VerdictName{Verdict::Error, "error"_L1},
};

// Keys fromJson() understands; everything else goes to EvalResult::extra.
const QStringList &knownKeys()
{
    static const QStringList keys{u"verdict"_s,          u"message"_s,          u"error_code"_s, u"cuda_error"_s,
                                  u"restart_required"_s, u"verification"_s,     u"timing"_s,     u"flags"_s,
                                  u"warnings"_s,         u"stdout_truncated"_s, u"trace"_s,      u"metrics"_s,
                                  u"roofline"_s,         u"stdout"_s,           u"exit_code"_s,  u"exit_signal"_s,
                                  u"worker"_s,           u"device_name"_s,      u"elapsed_ms"_s, u"metrics_skipped"_s,
                                  u"provisional"_s,      u"pending"_s};
    return keys;
}

} // namespace

QString metricsSkippedText(const QString &code)
{
    if (code.isEmpty())
        return {};
    if (code == "off"_L1)
        return QCoreApplication::translate("EvalResult", "not measured: the metrics pass was turned off");
    if (code == "not_among_best"_L1)
        return QCoreApplication::translate("EvalResult",
                                           "not measured: the metrics pass runs only for the session's best variants "
                                           "(Profile or re-run it to measure)");
    return QCoreApplication::translate("EvalResult", "not measured (%1)").arg(code);
}

QString pendingPassesText(const QStringList &pending)
{
    QStringList names;
    for (const QString &pass : pending) {
        if (pass == "precision"_L1)
            names << QCoreApplication::translate("EvalResult", "precision");
        else if (pass == "trace"_L1)
            names << QCoreApplication::translate("EvalResult", "trace");
        else if (pass == "metrics"_L1)
            names << QCoreApplication::translate("EvalResult", "metrics");
        else if (pass == "source_profile"_L1)
            names << QCoreApplication::translate("EvalResult", "source profile");
        else
            names << pass;
    }
    return names.join(QCoreApplication::translate("EvalResult", ", "));
}

QString verdictToString(Verdict v)
{
    for (const auto &n : kVerdictNames)
        if (n.verdict == v)
            return QString(n.wire);
    return u"error"_s;
}

std::optional<Verdict> verdictFromString(const QString &s)
{
    for (const auto &n : kVerdictNames)
        if (s == n.wire)
            return n.verdict;
    return std::nullopt;
}

QString verdictDisplayName(Verdict v)
{
    switch (v) {
    case Verdict::Correct: return QCoreApplication::translate("EvalResult", "correct");
    case Verdict::Incorrect: return QCoreApplication::translate("EvalResult", "incorrect");
    case Verdict::Crashed: return QCoreApplication::translate("EvalResult", "crashed");
    case Verdict::CudaError: return QCoreApplication::translate("EvalResult", "CUDA error");
    case Verdict::Timeout: return QCoreApplication::translate("EvalResult", "timed out");
    case Verdict::LoadError: return QCoreApplication::translate("EvalResult", "load error");
    case Verdict::CompileError: return QCoreApplication::translate("EvalResult", "compile error");
    case Verdict::Error: return QCoreApplication::translate("EvalResult", "error");
    }
    return {};
}

TimingStats TimingStats::fromJson(const QJsonObject &o)
{
    TimingStats t;
    t.raw = o;
    t.medianMs = json::nullableNumber(o, "median_ms"_L1);
    t.meanMs = json::nullableNumber(o, "mean_ms"_L1);
    t.minMs = json::nullableNumber(o, "min_ms"_L1);
    t.p10Ms = json::nullableNumber(o, "p10_ms"_L1);
    t.p90Ms = json::nullableNumber(o, "p90_ms"_L1);
    t.cv = json::nullableNumber(o, "cv"_L1);
    t.runs = qint64(json::number(o, "runs"_L1));
    return t;
}

QJsonObject TimingStats::toJson() const
{
    QJsonObject o = raw;
    o.insert(u"median_ms"_s, json::toValue(medianMs));
    o.insert(u"mean_ms"_s, json::toValue(meanMs));
    o.insert(u"min_ms"_s, json::toValue(minMs));
    o.insert(u"p10_ms"_s, json::toValue(p10Ms));
    o.insert(u"p90_ms"_s, json::toValue(p90Ms));
    o.insert(u"cv"_s, json::toValue(cv));
    o.insert(u"runs"_s, double(runs));
    return o;
}

AdaptiveTiming AdaptiveTiming::fromJson(const QJsonObject &o)
{
    AdaptiveTiming a;
    if (o.isEmpty())
        return a;
    a.raw = o;
    a.target = json::nullableNumber(o, "target"_L1);
    a.reached = o.value("reached"_L1).toBool();
    a.stoppedBy = o.value("stopped_by"_L1).toString();
    a.rounds = int(json::number(o, "rounds"_L1));
    for (auto [side, interval] : {std::pair{"candidate"_L1, &a.candidate}, std::pair{"reference"_L1, &a.reference}}) {
        const QJsonObject s = o.value(side).toObject();
        interval->lowMs = json::nullableNumber(s, "ci_low_ms"_L1);
        interval->highMs = json::nullableNumber(s, "ci_high_ms"_L1);
        interval->halfWidth = json::nullableNumber(s, "half_width"_L1);
    }
    return a;
}

QJsonObject AdaptiveTiming::toJson() const
{
    QJsonObject o = raw;
    o.insert(u"target"_s, json::toValue(target));
    o.insert(u"reached"_s, reached);
    o.insert(u"stopped_by"_s, stoppedBy);
    o.insert(u"rounds"_s, rounds);
    for (auto [side, interval] : {std::pair{u"candidate"_s, &candidate}, std::pair{u"reference"_s, &reference}}) {
        QJsonObject s = o.value(side).toObject();
        s.insert(u"ci_low_ms"_s, json::toValue(interval->lowMs));
        s.insert(u"ci_high_ms"_s, json::toValue(interval->highMs));
        // Unbounded: null, as the worker writes it.
        s.insert(u"half_width"_s, std::isnan(interval->halfWidth) ? QJsonValue() : json::toValue(interval->halfWidth));
        o.insert(side, s);
    }
    return o;
}

Verification Verification::fromJson(const QJsonObject &o)
{
    Verification v;
    v.raw = o;
    v.trials = int(json::number(o, "trials"_L1));
    v.maxAbsErr = json::nullableNumber(o, "max_abs_err"_L1);
    v.maxRelErr = json::nullableNumber(o, "max_rel_err"_L1);
    v.mismatches = qint64(json::number(o, "mismatches"_L1));
    const QJsonObject fm = o.value("first_mismatch"_L1).toObject();
    if (!fm.isEmpty()) {
        v.firstMismatch.raw = fm;
        v.firstMismatch.output = fm.value("output"_L1).toString();
        v.firstMismatch.index = qint64(json::number(fm, "index"_L1, -1));
        v.firstMismatch.expected = json::nullableNumber(fm, "expected"_L1);
        v.firstMismatch.got = json::nullableNumber(fm, "got"_L1);
    }
    v.nanCount = qint64(json::number(o, "nan_count"_L1));
    v.infCount = qint64(json::number(o, "inf_count"_L1));
    v.inputMutated = o.value("input_mutated"_L1).toBool();
    v.outputDependsOnInputs = o.value("output_depends_on_inputs"_L1).toBool(true);
    v.reason = o.value("reason"_L1).toString();
    return v;
}

QJsonObject Verification::toJson() const
{
    QJsonObject o = raw;
    o.insert(u"trials"_s, trials);
    o.insert(u"max_abs_err"_s, json::toValue(maxAbsErr));
    o.insert(u"max_rel_err"_s, json::toValue(maxRelErr));
    o.insert(u"mismatches"_s, double(mismatches));
    o.insert(u"nan_count"_s, double(nanCount));
    o.insert(u"inf_count"_s, double(infCount));
    o.insert(u"input_mutated"_s, inputMutated);
    // null ("could not decide") stays null; a decided value is written as decided.
    if (!(raw.value("output_depends_on_inputs"_L1).isNull() && outputDependsOnInputs))
        o.insert(u"output_depends_on_inputs"_s, outputDependsOnInputs);
    o.insert(u"reason"_s, reason);
    if (firstMismatch.isValid()) {
        QJsonObject fm = firstMismatch.raw;
        fm.insert(u"output"_s, firstMismatch.output);
        fm.insert(u"index"_s, double(firstMismatch.index));
        fm.insert(u"expected"_s, json::toValue(firstMismatch.expected));
        fm.insert(u"got"_s, json::toValue(firstMismatch.got));
        o.insert(u"first_mismatch"_s, fm);
    }
    return o;
}

double EvalResult::kernelTimeMs(const QString &side) const
{
    const QJsonObject stats = trace.value(side).toObject().value("kernel_time_ms"_L1).toObject();
    return json::nullableNumber(stats, "median"_L1);
}

EvalResult EvalResult::fromJson(const QJsonObject &o)
{
    EvalResult r;
    const QString verdict = o.value("verdict"_L1).toString();
    if (const auto v = verdictFromString(verdict)) {
        r.verdict = *v;
        r.message = o.value("message"_L1).toString();
    } else {
        r.verdict = Verdict::Error;
        r.message = QCoreApplication::translate("EvalResult", "The worker sent an unknown verdict '%1'. %2")
                        .arg(verdict, o.value("message"_L1).toString())
                        .trimmed();
    }
    r.errorCode = o.value("error_code"_L1).toString();
    r.cudaError = o.value("cuda_error"_L1).toString();
    r.restartRequired = o.value("restart_required"_L1).toBool();
    r.verification = Verification::fromJson(o.value("verification"_L1).toObject());
    const QJsonObject timing = o.value("timing"_L1).toObject();
    r.reference = TimingStats::fromJson(timing.value("reference"_L1).toObject());
    r.candidate = TimingStats::fromJson(timing.value("candidate"_L1).toObject());
    r.speedup = json::nullableNumber(timing, "speedup"_L1);
    r.adaptive = AdaptiveTiming::fromJson(timing.value("adaptive"_L1).toObject());
    for (const QJsonValue &f : o.value("flags"_L1).toArray())
        r.flags.append(f.toString());
    for (const QJsonValue &w : o.value("warnings"_L1).toArray())
        r.warnings.append(w.toString());
    r.stdoutTruncated = o.value("stdout_truncated"_L1).toBool();
    r.trace = o.value("trace"_L1).toObject();
    r.metrics = o.value("metrics"_L1).toObject();
    r.metricsSkipped = o.value("metrics_skipped"_L1).toString();
    r.roofline = o.value("roofline"_L1).toObject();
    r.stdoutText = o.value("stdout"_L1).toString();
    r.exitCode = int(json::number(o, "exit_code"_L1, -1));
    r.exitSignal = int(json::number(o, "exit_signal"_L1));
    r.workerName = o.value("worker"_L1).toString();
    r.deviceName = o.value("device_name"_L1).toString();
    r.elapsedMs = json::nullableNumber(o, "elapsed_ms"_L1);
    r.provisional = o.value("provisional"_L1).toBool();
    for (const QJsonValue &p : o.value("pending"_L1).toArray())
        r.pending.append(p.toString());
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!knownKeys().contains(it.key()))
            r.extra.insert(it.key(), it.value());
    return r;
}

bool EvalResult::ranDeepCheck() const
{
    return extra.value("deep"_L1).toObject().value("ran"_L1).toBool();
}

QJsonObject EvalResult::toJson() const
{
    QJsonObject o = extra;
    o.insert(u"verdict"_s, verdictToString(verdict));
    o.insert(u"message"_s, message);
    if (!errorCode.isEmpty())
        o.insert(u"error_code"_s, errorCode);
    if (!cudaError.isEmpty())
        o.insert(u"cuda_error"_s, cudaError);
    o.insert(u"restart_required"_s, restartRequired);
    if (verification.isValid() || !verification.reason.isEmpty())
        o.insert(u"verification"_s, verification.toJson());
    if (reference.isValid() || candidate.isValid()) {
        QJsonObject timing{{u"reference"_s, reference.toJson()},
                           {u"candidate"_s, candidate.toJson()},
                           {u"speedup"_s, json::toValue(speedup)}};
        if (adaptive.isValid())
            timing.insert(u"adaptive"_s, adaptive.toJson());
        o.insert(u"timing"_s, timing);
    }
    o.insert(u"flags"_s, QJsonArray::fromStringList(flags));
    if (!warnings.isEmpty())
        o.insert(u"warnings"_s, QJsonArray::fromStringList(warnings));
    if (stdoutTruncated)
        o.insert(u"stdout_truncated"_s, true);
    if (!trace.isEmpty())
        o.insert(u"trace"_s, trace);
    if (!metrics.isEmpty())
        o.insert(u"metrics"_s, metrics);
    if (!metricsSkipped.isEmpty())
        o.insert(u"metrics_skipped"_s, metricsSkipped);
    if (!roofline.isEmpty())
        o.insert(u"roofline"_s, roofline);
    if (!stdoutText.isEmpty())
        o.insert(u"stdout"_s, stdoutText);
    if (exitCode != -1)
        o.insert(u"exit_code"_s, exitCode);
    if (exitSignal != 0)
        o.insert(u"exit_signal"_s, exitSignal);
    if (!workerName.isEmpty())
        o.insert(u"worker"_s, workerName);
    if (!deviceName.isEmpty())
        o.insert(u"device_name"_s, deviceName);
    if (!std::isnan(elapsedMs))
        o.insert(u"elapsed_ms"_s, elapsedMs);
    if (provisional) { // a final result says nothing of either
        o.insert(u"provisional"_s, true);
        o.insert(u"pending"_s, QJsonArray::fromStringList(pending));
    }
    return o;
}

EvalResult EvalResult::failure(Verdict v, const QString &message, const QString &errorCode)
{
    EvalResult r;
    r.verdict = v;
    r.message = message;
    r.errorCode = errorCode;
    return r;
}

} // namespace kforge
