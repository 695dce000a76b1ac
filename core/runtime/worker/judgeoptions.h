#pragma once
// Options of one evaluate request (protocol field "options"), with the defaults of the protocol.
#include "core/runtime/worker/seeds.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace kforge::runtime {

struct EvalOptions {
    int trials = 5; // verification trials, each with a new seed and fresh buffers (2..1000)
    // When timing stops (docs/worker-protocol.md, "Timing"): with ciTarget > 0 (the adaptive rule) once both
    // medians' 95% intervals are within ±ciTarget of them, after at least kMinCiRounds sampled rounds, minRuns
    // calls and minTimeMs, at most maxRuns calls and maxTimeMs. ciTarget 0: the fixed rule, minRuns calls and
    // minTimeMs (its default then kFixedMinTimeMs, the rule before the adaptive one), at most maxRuns.
    double ciTarget = 0.01;
    static constexpr int kMinCiRounds = 8;
    static constexpr double kAdaptiveMinTimeMs = 100, kFixedMinTimeMs = 1000;
    int minRuns = 100;                     // timed runs of each kernel, at least...
    double minTimeMs = kAdaptiveMinTimeMs; // ...and until the timing loop has run this long (wall clock)...
    int maxRuns = 10000;                   // ...but never more than this
    double maxTimeMs = 5000;               // adaptive rule: timing ends by then (at the latest at minTimeMs)
    // The baseline's batches (the crossing subtracted from every batch) in every Nth sampled round, each K's
    // first kMinBaselineSamples always (1: every round). Warm-up rounds run none. The process boundary's cost.
    int baselineEvery = 2;
    static constexpr std::size_t kMinBaselineSamples = 3;
    int warmup = 10;                       // untimed runs of each kernel first...
    double warmupMs = 100;                 // ...and for at least this long, so clocks settle before timing
    // The evaluation's seed (core/runtime/worker/seeds.h): the request's "seed" where it gives one, else drawn
    // from the random source when the options are made, so every evaluation request gets a fresh one. Trial,
    // batch and poison seeds are deriveSeed(seed, seedstream::...). The result records it as "seed".
    uint64_t seed = drawSeed();
    bool seedGiven = false;      // the request named the seed (a reproduction), rather than the worker drawing it
    bool timing = true;          // false: verify only
    bool trace = true;           // CUPTI activity trace of extra runs after timing (when a profiler is attached)
    int traceRuns = 10;          // runs of each kernel in the trace pass
    // The judge's quiet probes (batchtimer.h, setQuietProbe) in the sampled rounds' reference and baseline
    // batches, each this long (0: none). A probe's largest step above kQuietGapUs is foreign GPU work in
    // another side's window: flag `gpu_contention` (issue 35, item 1).
    double quietProbeUs = 1000;
    static constexpr double kQuietGapUs = 50;
    // A median wait of the probes to start above this (us) is contention too (Judge::foreignGpuReport): on the H100
    // a 1 ms probe was never preempted beside a spinning kernel of another process (it runs whole once its context
    // gets the GPU), so the wait before it starts is what shows the other context's time slice.
    static constexpr double kQuietWaitUs = 200;
    bool metrics = true;         // CUPTI metrics pass (when a profiler is attached)...
    // ...for a correct candidate at least this fast against the reference (0: whatever its speedup). A round's
    // client sends the speedup a variant needs to be among its session's best ("metrics when they pay"), so
    // the worker decides after timing, in the same evaluation, instead of a second evaluation with the pass.
    double metricsMinSpeedup = 0;
    bool samples = false;        // add every run's time ("samples_ms") to the timing result
    bool sourceProfile = false;  // CUPTI PC-sampling pass after timing and metrics ("source_profile")
    int sourceProfilePeriod = 0; // 2^N cycles between samples, 5..31; 0: CUPTI's default
    bool sourceProfileReference = false; // sample the reference too
    // The deep check (docs/worker-protocol.md, "deep"): kDeepTrialFactor x trials full-check rounds, every
    // output of every timed batch compared, every edge trial, compute-sanitizer memcheck where available.
    bool deep = false;
    static constexpr int kDeepTrialFactor = 3;
    // Full-check rounds this evaluation runs: trials, or kDeepTrialFactor x trials (at most 1000) with deep.
    int fullCheckRounds() const { return deep ? std::min(1000, trials * kDeepTrialFactor) : trials; }
    std::vector<std::string> metricNames;

    // Fills from a protocol "options" object; false with `error` ("options.trials: ...") when invalid. Without
    // "seed" the seed is a fresh draw; "seed" is an integer in [0, 2^63 - 1].
    static bool fromJson(const nlohmann::ordered_json &j, EvalOptions &out, std::string &error);
    // Every option, the seed in use included: sent back as a request's options it reproduces the evaluation.
    nlohmann::ordered_json toJson() const;
};

} // namespace kforge::runtime
