#pragma once
// The user's measurement parameters (Settings → Timing), sent with every evaluate request: Settings keeps them,
// EvalOptions::fromSettings turns them into a request's options.
#include "core/eval/timingdefaults.h"

namespace kforge {

struct TimingSetting {
    int trials = TimingDefaults::trials;       // verification trials, each on fresh inputs
    int minRuns = TimingDefaults::minRuns;     // timed runs at least...
    int minTimeMs = TimingDefaults::minTimeMs; // ...and at least this long
    int maxRuns = TimingDefaults::maxRuns;
    int warmup = TimingDefaults::warmup;
    // The adaptive timing's target: both medians' 95% intervals within ±this percent; 0: the fixed rule.
    double ciTargetPercent = TimingDefaults::ciTarget * 100;
    friend bool operator==(const TimingSetting &, const TimingSetting &) = default;
};

} // namespace kforge
