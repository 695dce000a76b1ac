#pragma once
// Hook points for profilers (CUPTI activity tracing, range-profiler metrics) around an evaluation. In
// order: beforeTimedRuns / afterTimedRuns around the timing loop (which calls nothing per run, so the
// measurement stays clean); then, when options.trace is set, a separate trace pass of a few runs with
// the timing protocol, bracketed by beginTrace / endTrace and beforeRun / afterRun per run; then
// metricsPass when options.metrics is set; sourceProfilePass when options.source_profile is set; finally
// contribute() adds "trace", "metrics", "source_profile" and flags.
#include <cuda_runtime.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace kforge::runtime {

enum class Slot { Reference, Candidate };
inline const char *slotName(Slot s)
{
    return s == Slot::Reference ? "reference" : "candidate";
}

struct TimingContext {
    cudaStream_t stream = nullptr; // the launch stream passed to kf_entry
    int device = 0;
    bool trace = false;   // options.trace
    bool metrics = false; // options.metrics
    std::vector<std::string> metricNames;
    double flops = -1; // the task's formulas; -1 when absent
    double bytes = -1;
    double peakCopyGbps = 0; // the device's measured peaks
    double peakFmaGflops = 0;
    // Identifies the reference and the task's shapes (ReferenceCache::key without the seed): hardware
    // metrics of the same reference on the same shapes are collected once per worker, not per evaluation.
    std::string referenceKey;
    // The source-level pass (options.source_profile*) and the loaded libraries it reads the cubins from.
    bool sourceProfile = false;
    int sourceProfilePeriod = 0;
    bool sourceProfileReference = false;
    std::string candidateLibrary;
    std::string referenceLibrary;
    nlohmann::ordered_json task; // the task.json object (only with sourceProfile: the helper rebuilds the inputs)
    uint64_t seed = 1;           // of the timing inputs
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

class EvalObserver
{
public:
    virtual ~EvalObserver() = default;
    virtual void beforeTimedRuns(const TimingContext &) {}
    virtual void afterTimedRuns(const TimingContext &, const TimingResult &) {}

    // The trace pass. beforeRun comes after the start event is recorded, afterRun after the end event
    // (recorded after a device-wide synchronize) has completed, with the event time.
    virtual void beginTrace(const TimingContext &) {}
    virtual void beforeRun(Slot, int /*run*/) {}
    virtual void afterRun(Slot, int /*run*/, double /*eventMs*/) {}
    virtual void endTrace(const TimingContext &) {}

    // Each launcher runs the kernel once on the timing inputs and synchronizes the device; it throws
    // CudaFailure on an error (let it through: the evaluator classifies it).
    virtual void metricsPass(const TimingContext &, const std::function<void()> & /*launchCandidate*/,
                             const std::function<void()> & /*launchReference*/)
    {
    }
    // The source-level pass, after the metrics pass; launchers as for metricsPass (launchReference only
    // matters with ctx.sourceProfileReference).
    virtual void sourceProfilePass(const TimingContext &, const std::function<void()> & /*launchCandidate*/,
                                   const std::function<void()> & /*launchReference*/)
    {
    }
    // Adds "trace" / "metrics" / "source_profile" objects and entries of "flags" to the result.
    virtual void contribute(nlohmann::ordered_json & /*result*/) {}
};

} // namespace kforge::runtime
