#pragma once
// Hook points for profilers (CUPTI activity tracing, range-profiler metrics) around an evaluation. The
// evaluator calls them in this order: beforeTimedRuns, beforeRun/afterRun for every timed run,
// afterTimedRuns, then metricsPass (after timing, so its replays never disturb the measurement), and
// finally contribute() to add "trace", "metrics" and flags to the result.
#include <cuda_runtime.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace kforge {

enum class Slot { Reference, Candidate };
inline const char *slotName(Slot s)
{
    return s == Slot::Reference ? "reference" : "candidate";
}

struct TimingContext {
    cudaStream_t stream = nullptr; // the launch stream passed to kf_entry
    bool trace = false;            // options.trace
    bool metrics = false;          // options.metrics
    std::vector<std::string> metricNames;
};

struct RunStats {
    double medianMs = 0, meanMs = 0, minMs = 0, p10Ms = 0, p90Ms = 0, cv = 0;
    int runs = 0;
    std::vector<float> samplesMs; // in run order
};

struct TimingResult {
    RunStats reference;
    RunStats candidate;
    double speedup = 0;
};

class EvalObserver {
public:
    virtual ~EvalObserver() = default;
    virtual void beforeTimedRuns(const TimingContext &) {}
    // Around one timed run, between the start event and the completed end event.
    virtual void beforeRun(Slot, int /*run*/) {}
    virtual void afterRun(Slot, int /*run*/, double /*eventMs*/) {}
    virtual void afterTimedRuns(const TimingContext &, const TimingResult &) {}
    // Each launcher runs the kernel once on the timing inputs and synchronizes the device; it throws
    // CudaFailure on an error. Only called when options.metrics is set.
    virtual void metricsPass(const TimingContext &, const std::function<void()> & /*launchCandidate*/,
                             const std::function<void()> & /*launchReference*/)
    {
    }
    // Adds "trace" / "metrics" objects and entries of "flags" to the result.
    virtual void contribute(nlohmann::ordered_json & /*result*/) {}
};

} // namespace kforge
