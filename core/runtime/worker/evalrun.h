#pragma once
// The state of one evaluation, shared by judge.cpp (the rounds), judgehosts.cpp (the hosts' mappings) and
// evalreport.cpp (the result object); the passes after timing (profilepasses.h, precisionpass.h) are objects
// it holds, given what they need. Private to the evaluator.
#include "core/runtime/worker/batchtimer.h"
#include "core/runtime/worker/evalclock.h"
#include "core/runtime/worker/judge.h"
#include "core/runtime/worker/medianci.h"
#include "core/runtime/worker/modulejudge.h"
#include "core/runtime/worker/precisionpass.h"
#include "core/runtime/worker/profilepasses.h"
#include "core/runtime/worker/verification.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kforge::runtime {

// kf_entry returned non-zero, or the host's finish found a CUDA error: the kernel failed itself.
struct EntryFailure {
    Side side;
    int rc; // 0 when the failure is `cudaError`
    std::string cudaError;
    std::string phase;
    std::string message = {}; // a module host's named error ("cand.py: ... at step forward: ...")
};

// The judge ran out of device memory for the batches (itself, or the candidate's process held more than its
// budget: Hosts::freeBeforeCandidate).
struct JudgeOutOfMemory {
    std::string message;
};


// Its clock (EvalClock: the phase, the parts' wall time, the progress, the watchdog) is what the passes get of it.
struct Judge::Run : EvalClock {
    const TaskSpec &task;
    const EvalOptions &options;
    Hosts hosts;
    nlohmann::ordered_json taskJson;
    std::unique_ptr<JudgeWeights> weights; // a torch task's (modulejudge.h)
    bool weightsMoved = false;
    nlohmann::ordered_json weightsReport; // the result's "weights"
    std::unique_ptr<BatchTimer> batches;
    std::unique_ptr<Verifier> verifier;
    Verification v;
    // The gate, per side (reference, candidate): a side whose calls wait for their own work while they enqueue
    // (a synchronize inside the call) times out the gate; after two such batches that side alone is timed
    // without it (its figure then includes its enqueueing), never the other: a candidate that synchronises
    // must not have the reference's host overhead counted in the reference's figure. The baseline is gated.
    bool gated[2] = {true, true};
    int gateTimeouts[2] = {0, 0};
    bool gatedSide(Side s) const { return s == Side::Baseline || gated[s == Side::Candidate ? 1 : 0]; }
    int k0 = kMinBatch, kRef = kMinBatch, kCand = kMinBatch;
    int fullRounds = 0, timedRounds = 0;
    double refPerCallMs = 0; // the reference's per-call estimate from round 2 (bounds the checks' recompute)
    // Per round, external ms of each batch, by side and K.
    std::map<int, std::vector<double>> baselineMs; // K -> batch ms
    std::vector<double> refBatchMs, candBatchMs;
    // The judge's preparation (Eg..E0) of the candidate's batches and of the baseline's of the same K.
    std::vector<double> candPrepMs, basePrepMs;
    // The judge's quiet probes' largest steps (us) in the sampled rounds' reference and baseline batches.
    std::vector<double> quietGapsUs;
    std::vector<double> quietWaitsUs; // and how long the first probe of each waited to start (BatchTime::quietWaitUs)
    double refWallMs = 0, candWallMs = 0, baselineWallMs = 0; // of the sampled batches (the boundary's cost)
    // The baseline's preparation is measured (its sets regenerated) in this many sampled rounds.
    static constexpr std::size_t kPrepYardstick = 3;
    // The process boundary's whole cost in this evaluation: the wall clock of every baseline batch (all
    // rounds), and the reference's and candidate's batches of those rounds, each of which pays one crossing.
    double boundaryWallMs = 0; // the crossings added once timing is done (timing.boundary_ms)
    std::map<int, int> crossedBatches; // K -> batches of that K
    int setsUsed = 0;
    double warmupMs = 0;     // the warm-up time this evaluation used (0 when the device was warm)
    bool deviceWarm = false; // Judge::setDeviceWarm
    // Where the rounds' wall time goes, in ms summed over every round (the result's round_parts_ms): each
    // batch's steps (BatchTime), its GPU preparation and window, the poison, the input checks, the
    // reference's recompute for the checks and the comparisons. Diagnostics for the throughput work.
    std::map<std::string, double> roundMs;
    void addRoundMs(const std::string &what, std::chrono::steady_clock::time_point since)
    {
        roundMs[what] += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
    }
    // One batch of side `who`: its wall clock and steps into roundMs, its quiet probes into quietGapsUs.
    void addBatch(const std::string &who, const BatchTime &t)
    {
        roundMs[who + ".batch_wall"] += t.wallMs;
        roundMs[who + ".enqueue"] += t.enqueueWallMs;
        roundMs[who + ".host"] += t.hostWallMs;
        roundMs[who + ".finish"] += t.finishWallMs;
        roundMs[who + ".wait"] += t.waitWallMs;
        roundMs[who + ".prep_gpu"] += t.prepMs;
        roundMs[who + ".window_gpu"] += t.ms;
        if (t.quietGapUs >= 0)
            quietGapsUs.push_back(t.quietGapUs);
        if (t.quietWaitUs >= 0)
            quietWaitsUs.push_back(t.quietWaitUs);
    }
    std::optional<RunStats> reference, candidate;
    // Why timing stopped, and both medians' intervals then (the result's timing.adaptive).
    StopReason stop = StopReason::None;
    MedianCi referenceCi, candidateCi;
    double crossingMs = 0;
    // The batches' memory against what was free before the candidate loaded (the result's "memory").
    nlohmann::ordered_json memory;
    std::size_t stdoutStart = 0;
    nlohmann::ordered_json sanitizer; // options.deep: {"ran", "errors", "reason", ...}
    PrecisionPass precision;          // a correct candidate's precision contract
    ProfilePasses profiles;           // a timed candidate's trace, metrics and source-level profile
    // The sampled rounds' per-call figures of one side: (batch ms - median baseline batch of the same K) / K.
    std::vector<double> perCallMs(bool ofReference) const
    {
        const int k = ofReference ? kRef : kCand;
        const auto base = baselineMs.find(k);
        const double b = base == baselineMs.end() ? 0 : median(base->second);
        std::vector<double> out;
        for (double ms : ofReference ? refBatchMs : candBatchMs)
            out.push_back(std::max(0.0, ms - b) / k);
        return out;
    }
    host::HostClient &host(Side s) const
    {
        return *(s == Side::Reference ? hosts.reference : s == Side::Candidate ? hosts.candidate : hosts.baseline);
    }
};

// Adds `flag` to the result's flags unless it is there (evalreport.cpp).
void addFlag(std::vector<std::string> &flags, const std::string &flag);

} // namespace kforge::runtime
