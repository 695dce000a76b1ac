#pragma once
// How thoroughly the worker verifies and times one evaluation (the protocol's evaluate "options").
// The defaults are what the workbench uses; the CLI and the benchmark use them too, so figures agree.
#include "core/eval/timingdefaults.h"

#include <QJsonObject>
#include <QMetaType>
#include <QStringList>
#include <optional>

namespace kforge {

struct TimingSetting;

struct EvalOptions {
    int trials = TimingDefaults::trials; // verification trials, each with a new seed and fresh buffers
    bool timing = true;                  // false: verify only
    // When timing stops (docs/worker-protocol.md, "Timing"): both medians' 95% intervals within ±ciTarget,
    // after minRuns calls per side and minTimeMs; ciTarget 0: the fixed rule, once minRuns and minTimeMs
    // are reached. At most maxRuns calls and (adaptive) maxTimeMs.
    double ciTarget = TimingDefaults::ciTarget;
    int minRuns = TimingDefaults::minRuns;
    int minTimeMs = TimingDefaults::minTimeMs;
    int maxRuns = TimingDefaults::maxRuns;
    int maxTimeMs = TimingDefaults::maxTimeMs;
    int warmup = TimingDefaults::warmup; // untimed pairs first: at least this many and at least warmupMs
    int warmupMs = TimingDefaults::warmupMs;
    // The evaluation seed (0 .. 2^63 - 1). Absent (the default): the worker draws a fresh one from its random
    // source for every evaluation and records it in the result ("seed"); set: that seed, so a run is
    // reproduced (kforge-cli eval --seed S).
    std::optional<qint64> seed;
    bool trace = true; // CUPTI activity trace of traceRuns extra runs per side
    int traceRuns = TimingDefaults::traceRuns;
    bool metrics = true;     // CUPTI metrics pass (kernel replay; slower)...
    // ...only for a correct candidate at least this fast (0: any). MetricsPolicy::firstPass sets it to the
    // speedup a round's candidate needs to be among the session's best: the worker decides after timing.
    double metricsMinSpeedup = 0;
    QStringList metricNames; // empty: the profiler's default set
    bool samples = false;    // every run's time in the result (samples_ms)
    // CUPTI PC sampling after timing and metrics: stall reasons per source line ("source_profile"). Off in
    // rounds (it costs a second or so per evaluation); on when the user asks and for a round's new best.
    bool sourceProfile = false;
    int sourceProfilePeriod = 0; // CUPTI sampling period exponent; 0: the worker's default
    // The automatic deep check of a result that looks too good: more trials, edge-input trials, every timed
    // output compared, compute-sanitizer memcheck where the worker host has it. A worker that ran it says so in
    // the result ("deep"); the evaluation queue asks for it, never the user.
    bool deep = false;

    // The options the workbench uses: the defaults above with the user's timing settings applied.
    static EvalOptions fromSettings(const TimingSetting &timing);
    // These options for one task's evaluate request: the task's own target (task.json "timing": {"ci_target"})
    // where it has one.
    EvalOptions forTask(const QJsonObject &task) const;
    static EvalOptions fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    friend bool operator==(const EvalOptions &, const EvalOptions &) = default;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::EvalOptions)
