#pragma once
// The outcome of evaluating one candidate against its task's reference: the verdict, how verification
// went, timing statistics of both sides, the speedup, warning flags and the CUPTI payloads. It mirrors the
// worker protocol's EvalResult (docs/worker-protocol.md) plus what only the client knows (compile errors,
// worker crashes, watchdog timeouts), and round-trips through JSON without losing a number, so the
// session store can persist it as is.
#include "core/eval/deviceinfo.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <limits>
#include <optional>

namespace kforge {

enum class Verdict {
    Correct,      // verified within tolerance on every trial
    Incorrect,    // ran, but an output differs, is unwritten, or an input was mutated
    Crashed,      // the worker died while running the candidate (signal, abort, exit())
    CudaError,    // a CUDA error (cudaError field names it), possibly sticky
    Timeout,      // the client's watchdog killed the worker after the task's timeout_s
    LoadError,    // the shared object did not load: missing entry, wrong ABI version, undefined symbol
    CompileError, // client side: nvcc failed; the compile result carries the diagnostics
    Error,        // client side: no verdict about the candidate (no GPU, worker unavailable, bad task)
};

QString verdictToString(Verdict v); // wire form: "correct", "cuda_error", ...
std::optional<Verdict> verdictFromString(const QString &s);
QString verdictDisplayName(Verdict v); // translated
// EvalResult::metricsSkipped for people: "not measured: ..." (translated); empty for an empty code.
QString metricsSkippedText(const QString &code);
// EvalResult::pending for people: "precision, trace, metrics" (translated; an unknown pass by its code).
QString pendingPassesText(const QStringList &pending);

struct TimingStats {
    static constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
    double medianMs = NaN;
    double meanMs = NaN;
    double minMs = NaN;
    double p10Ms = NaN;
    double p90Ms = NaN;
    double cv = NaN; // coefficient of variation (stddev / mean)
    qint64 runs = 0;
    QJsonObject raw; // as the worker sent it (samples_ms, fields of later versions); toJson() keeps it

    bool isValid() const { return runs > 0; }
    static TimingStats fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
};

// timing.adaptive (docs/worker-protocol.md, "Timing"): the stop rule's target, whether it ended the timing, and
// both medians' 95% confidence intervals then. Results from workers before the adaptive rule have none.
struct AdaptiveTiming {
    struct Interval {
        double lowMs = TimingStats::NaN;
        double highMs = TimingStats::NaN;
        double halfWidth = TimingStats::NaN; // (high - low) / 2 / median; NaN while unbounded (< 8 rounds)
    };
    double target = TimingStats::NaN; // relative half-width asked for; 0: the fixed rule
    bool reached = false;             // both intervals within the target when timing stopped
    QString stoppedBy;                // "target", "fixed", "max_runs", "max_time"
    int rounds = 0;                   // sampled rounds (each interval's samples)
    Interval candidate, reference;
    QJsonObject raw; // as the worker sent it; toJson() keeps it

    bool isValid() const { return !std::isnan(target); }
    static AdaptiveTiming fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
};

struct Mismatch {
    QString output;
    qint64 index = -1;
    double expected = TimingStats::NaN;
    double got = TimingStats::NaN;
    QJsonObject raw; // coords, trial, seed, poison, ...
    bool isValid() const { return index >= 0; }
};

struct Verification {
    int trials = 0;
    double maxAbsErr = TimingStats::NaN;
    double maxRelErr = TimingStats::NaN;
    qint64 mismatches = 0;
    Mismatch firstMismatch;
    qint64 nanCount = 0;
    qint64 infCount = 0;
    bool inputMutated = false;
    bool outputDependsOnInputs = true; // true also when the worker could not decide (null)
    QString reason;
    QJsonObject raw; // as the worker sent it (per-output errors, elements, reference_cached, ...)

    bool isValid() const { return trials > 0; }
    static Verification fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
};

struct EvalResult {
    Verdict verdict = Verdict::Error;
    QString message;   // human text from the worker or the client
    QString errorCode; // protocol error code when the worker refused (no_device, load_failed, ...)
    QString cudaError; // "cudaErrorIllegalAddress" when verdict == CudaError
    bool restartRequired = false;

    Verification verification;
    TimingStats reference;
    TimingStats candidate;
    double speedup = TimingStats::NaN; // reference median / candidate median
    AdaptiveTiming adaptive;           // invalid for results without timing or from older workers

    QStringList flags;    // "degenerate_output", "side_stream_work", "late_work", "below_speed_of_light", ...
    QStringList warnings; // sentences for people (e.g. why a degenerate output is no kernel speedup)
    QJsonObject trace;    // CUPTI payloads, kept verbatim
    QJsonObject metrics;
    // Why the hardware-metrics pass did not run for this evaluation, a code (metricsSkippedText() says it for
    // people): "off" (the caller turned it off), "not_among_best" (the metrics-when-they-pay policy runs it only
    // for the session's best variants). Empty when it ran or was asked for.
    QString metricsSkipped;
    QJsonObject roofline;
    QString stdoutText; // kernel printf output, capped by the worker
    bool stdoutTruncated = false;

    // Client side.
    int exitCode = -1;  // the worker's exit code when it died (Crashed)
    int exitSignal = 0; // the signal that ended it, 0 when none
    QString workerName; // which worker ran it
    QString deviceName;
    double elapsedMs = TimingStats::NaN; // turnaround as the client measured it
    QJsonObject extra;                   // fields of the worker's result this version does not know, kept for the store

    // A result as it stood after timing (the worker's "measured" event, docs/worker-protocol.md): shown at once, never
    // stored or used by a round; the final result of the same evaluation follows and replaces it. `pending`: the passes
    // still to run then ("precision", "trace", "metrics", "source_profile"), in that order.
    bool provisional = false;
    QStringList pending;

    bool isCorrect() const { return verdict == Verdict::Correct; }
    bool hasFlag(const QString &f) const { return flags.contains(f); }
    bool hasTiming() const { return reference.isValid() && candidate.isValid(); }
    // Whether the worker ran the deep check asked for with EvalOptions::deep (its report: "deep" in the result);
    // a worker without deep support answers the same request with an ordinary result.
    bool ranDeepCheck() const;

    // The trace's kernels, typed, are Measurement's (TraceSummary); CUPTI's per-run sum of kernel time (median over runs) for a side; NaN when not traced.
    double kernelTimeMs(const QString &side = QStringLiteral("candidate")) const;

    static EvalResult fromJson(const QJsonObject &o);
    QJsonObject toJson() const;

    // A result the client makes up when there is no worker verdict.
    static EvalResult failure(Verdict v, const QString &message, const QString &errorCode = {});
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::Verdict)
Q_DECLARE_METATYPE(kforge::TimingStats)
Q_DECLARE_METATYPE(kforge::Verification)
Q_DECLARE_METATYPE(kforge::EvalResult)
