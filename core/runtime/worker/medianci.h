#pragma once
// When the judge stops timing (docs/worker-protocol.md, "Timing", item 5): the distribution-free 95%
// confidence interval of a median and the stop rule over the sampled rounds. Pure functions, no CUDA.
#include <string>
#include <vector>

namespace kforge::runtime {

// The interval [x_(j), x_(k)] of the sorted samples (1-based order statistics), j = floor(n/2 - 1.96 sqrt(n)/2),
// k = ceil(1 + n/2 + 1.96 sqrt(n)/2): the normal approximation of the binomial(n, 1/2) count below the median.
struct MedianCi {
    int n = 0;
    double median = 0;
    double lowMs = 0, highMs = 0;
    // (high - low) / 2 / median; infinite while the interval is unbounded (j < 1 or k > n: fewer than 8
    // samples) or the median is not positive.
    double halfWidth = 0;
    bool bounded = false;
};

MedianCi medianCi(std::vector<double> samples);
// The median alone (the mean of the two middle samples for an even count; 0 for none).
double median(std::vector<double> samples);

enum class StopReason {
    None,    // run another round
    Target,  // adaptive: both sides' intervals within the target, the minimums met
    Fixed,   // ci_target 0: the fixed rule's min_runs, min_time_ms and 5 rounds met
    MaxRuns, // max_runs calls of the side with fewer
    MaxTime, // max_time_ms of timing (adaptive), or 40% / 50% of the task's timeout
};
std::string stopReasonName(StopReason r); // "target", "fixed", "max_runs", "max_time"; "" for None

struct StopRule {
    double ciTarget = 0.01; // relative half-width of both medians' intervals; 0: the fixed rule
    int minRounds = 8;      // sampled rounds before the interval counts (the adaptive rule)
    int minRuns = 100;      // calls of the side with fewer, at least...
    double minTimeMs = 100; // ...and this long timing
    int maxRuns = 10000;
    double maxTimeMs = 5000;  // adaptive: timing ends by then (or by minTimeMs, the later)
    double softEndMs = 24000; // since the evaluation's start: 40% of the task's timeout...
    double hardEndMs = 30000; // ...and 50%, where timing ends even below the minimums
};

struct StopState {
    int rounds = 0;       // sampled rounds
    long long calls = 0;  // calls of the side with fewer over them (max_runs; the fixed rule's min_runs)
    long long callsMost = 0; // calls of the side with more (the adaptive rule's min_runs)
    double timingMs = 0;  // since timing started
    double elapsedMs = 0; // since the evaluation started
    MedianCi candidate, reference;
};

StopReason stopReason(const StopRule &rule, const StopState &state);

} // namespace kforge::runtime
