#pragma once
// One evaluate request, judged from outside the kernels' processes: the reference, the candidate and a no-op
// baseline each run in their own candidate host (core/runtime/host), and the judge drives rounds of batches
// (batchtimer.h): every round gives each host the same fresh inputs, the judge times each batch with its own
// events and compares the candidate's outputs with the reference's (all of them in verification rounds, a
// random subset otherwise). Then the passes, objects it calls: the precision contract (precisionpass.h), the
// hosts' own trace, metrics and source-level passes (profilepasses.h). The outcome is the protocol's EvalResult
// object (docs/worker-protocol.md).
#include "core/runtime/host/hostclient.h"
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/judgeoptions.h"
#include "core/runtime/worker/gpucontext.h"

#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace kforge::runtime {

struct RunStats {
    double medianMs = 0, meanMs = 0, minMs = 0, p10Ms = 0, p90Ms = 0, cv = 0;
    int runs = 0;
    std::vector<float> samplesMs; // in run order
};

class BatchTimer;
struct BatchTime;
struct EntryFailure;
struct Verification;
enum class Side;

class Judge
{
public:
    using Progress = std::function<void(const char *stage)>;
    // The provisional result, sent once timing is over and before the passes (the protocol's "measured" event).
    using Measured = std::function<void(const nlohmann::ordered_json &provisional)>;
    static constexpr std::size_t kStdoutCap = 64 * 1024;
    // Bounds of K, the calls of one batch (docs/worker-protocol.md, "Timing").
    static constexpr int kMinBatch = 3;
    static constexpr int kMaxBatch = 256;
    static constexpr double kBatchTargetMs = 5;
    // The reference's recompute for the candidate's outputs in one full-check round, outside the deep check.
    static constexpr double kCheckBudgetMs = 40;

    struct Hosts {
        host::HostClient *reference = nullptr;
        host::HostClient *candidate = nullptr;
        host::HostClient *baseline = nullptr;
        // A fresh host of the same library (the source-level pass: CUPTI's PC sampling delivers samples only on
        // the first enable in a process); nullptr when it cannot start.
        std::function<std::unique_ptr<host::HostClient>(bool reference)> fresh;
        // A fresh host of the candidate run under `wrapper` (compute-sanitizer's command line before the host's
        // own, options.deep); nullptr when it cannot start, with the reason in `error`.
        std::function<std::unique_ptr<host::HostClient>(const std::vector<std::string> &wrapper, std::string &error)> wrapped;
        // Called before the timing rounds: the server's spare host, if one is booting, finishes its boot, so
        // no context is being created while batches are timed. May be empty.
        std::function<void()> quiet;
        // Called when the timing rounds are over: the server may boot spare hosts now (they overlap the
        // passes after timing, the reply and the client's next load, not the next evaluation's timing).
        std::function<void()> timed;
        // A torch task: the reference module's own state (its host's first export), kept by the server with
        // the reference's host; empty until the first evaluation exports it. nullptr for a CUDA task.
        std::string *referenceState = nullptr;
        // Free device memory before the candidate's host started (0: unknown): the batches are sized from it, so
        // memory the candidate's code takes cannot shrink them; a candidate that leaves less than they need
        // exceeded its budget (three quarters of it) and gets `out_of_memory` saying so (issue 35, item 2).
        std::size_t freeBeforeCandidate = 0;
    };

    // `gpu` must be ready. `referenceProfiles` keeps the reference's trace and metrics replies across
    // evaluations (by pass, task and metric set); keyed by the reference library too (setReferenceKey), at most
    // kReferenceProfilesKept.
    Judge(GpuContext &gpu, std::map<std::string, nlohmann::ordered_json> &referenceProfiles);
    ~Judge();
    Judge(const Judge &) = delete;
    Judge &operator=(const Judge &) = delete;

    // `measured`, when given, gets the provisional result (provisional()) before the passes run.
    nlohmann::ordered_json evaluate(const TaskSpec &task, const EvalOptions &options, const Hosts &hosts,
                                    const Progress &progress = {}, const Measured &measured = {});
    // The judge's own CUDA context is unusable after this evaluation: the worker must exit after replying.
    bool restartRequired() const { return m_restartRequired; }
    // The device ran an evaluation's batches moments ago (the server knows): its clocks are up, so the
    // warm-up time (options.warmup_ms) is skipped; the probe rounds before sampling still run.
    void setDeviceWarm(bool warm) { m_deviceWarm = warm; }
    // What identifies the loaded reference library (its bytes' size and hash): part of the reference
    // metrics cache's key, so the cache survives a reference loaded again (candidates of several tasks
    // through one worker) and never serves another library's figures.
    void setReferenceKey(std::string key) { m_referenceKey = std::move(key); }
    static constexpr double kWarmDeviceS = 1.0; // "moments ago": the previous evaluation ended this recently
    static constexpr std::size_t kReferenceProfilesKept = 128; // references' trace and metrics replies the server keeps

    static RunStats summarize(const std::vector<float> &samplesMs);
    // K for a side whose calls take `perCallMs`: enough calls for kBatchTargetMs, within [kMinBatch,
    // kMaxBatch].
    static int chooseBatch(double perCallMs);
    // The result's "roofline" object for a timed candidate (floors.h, the one computation), its flag and
    // warning appended to `flags` / `warnings` when it has one.
    static nlohmann::ordered_json roofline(const TaskSpec &task, const DevicePeaks &peaks, double candidateMs,
                                           double referenceMs, std::vector<std::string> &flags,
                                           std::vector<std::string> &warnings);

    // The result's "device_state" ({"before", "after", "changed"}) from the readings around an evaluation; a
    // setting that changed (the judge changes none) adds `device_state_changed` and a warning naming it.
    static void deviceStateReport(const DeviceState &before, const DeviceState &after, nlohmann::ordered_json &result);
    // How many input sets the batches get (issue 35, item 2): a quarter of the memory free before the candidate's
    // host started (`freeBefore`, 0: unknown, then `freeNow`), at most kMaxBatch. `error` when not even one set
    // fits, or when the candidate left less free than the sets need (it holds more than its three quarters);
    // `memory` is the result's "memory".
    struct BatchSizing {
        int sets = 0;
        std::string error;
        nlohmann::ordered_json memory;
    };
    static BatchSizing sizeBatches(std::size_t freeBefore, std::size_t freeNow, std::size_t perSet);
    // The judge's quiet probes' largest steps (us) as the result's timing.foreign_gpu; a step over
    // EvalOptions::kQuietGapUs adds `gpu_contention` and a warning (issue 35, item 1).
    // `waitsUs`: how long each batch's first probe waited to start; a median above kQuietWaitUs (over 3 or more
    // probes) is contention too.
    static nlohmann::ordered_json foreignGpuReport(const std::vector<double> &stepsUs, double probeUs,
                                                   std::vector<std::string> &flags, std::vector<std::string> &warnings,
                                                   const std::vector<double> &waitsUs = {});
    // Profile passes the candidate's process did not deliver while the reference's did: `profile_refused`.
    static void profileRefusalReport(const std::vector<std::string> &refused, std::vector<std::string> &flags,
                                     std::vector<std::string> &warnings);

private:
    struct Run; // the state of one evaluation (judge.cpp)
    void rounds(Run &run);
    void round(Run &run, int index, bool fullCheck, bool sample);
    struct RoundBatch {
        Side side;
        int calls;
    };
    std::vector<RoundBatch> roundOrder(const Run &run, int kRef, int kCand, bool probe, bool sample, bool isFirst);
    // A round's checks, after its batches: what it compares and against what (judge.cpp, checkRound).
    struct RoundCheck {
        const std::string &name; // "round N", for the failure's phase and the verification's report
        uint64_t seed;           // the round's batch seed
        int first;               // the set the round's calls start from
        int kCand, kRef;         // the round's calls per side
        bool fullCheck;          // every output compared (a trial round)
        bool candidateLast;      // nothing regenerated the inputs since the candidate's batch
    };
    void checkRound(Run &run, const RoundCheck &check);
    void recordSample(Run &run, const std::map<int, double> &base, std::map<Side, BatchTime> &times,
                      const double (&prep)[2], double baseWall);
    // The edge rounds (verification.h, EdgeSchedule): after the first round, on edge-range inputs.
    void edgeRounds(Run &run);
    // options.deep: one verification batch of the candidate in a host run under compute-sanitizer memcheck.
    void sanitizerRound(Run &run);
    void allocateBatches(Run &run); // rounds' first step
    // The sampled rounds' per-call statistics of each side, the crossing and the boundary's cost.
    void concludeTiming(Run &run);
    // The passes after verification and timing (precisionpass.h, profilepasses.h), given what they need of
    // `run`: its clock, its hosts and batches, and mapHost for the fresh hosts they start.
    void passes(Run &run);
    // A side's call failed (EntryFailure, evalrun.h): the verdict and message, and `cuda_error` in `result`.
    void entryFailed(Run &run, const EntryFailure &failure, nlohmann::ordered_json &result);
    // The end of the evaluation's device work: the hosts' mappings closed, the batches' memory freed.
    void closeBatches(Run &run, nlohmann::ordered_json &result);
    // Lends the batches (and for a torch task the judge's weights) to `h`, a host of `side`; a module host of
    // the reference or candidate then loads the weights, once they are moved (judgehosts.cpp). Throws
    // HostFailure, EntryFailure (out of memory).
    void mapHost(Run &run, host::HostClient &h, Side side);
    // A torch task, after every host is mapped: the reference's own state (exported once per reference
    // host), moved with the evaluation's seed, loaded into the reference's and the candidate's modules.
    void judgeWeights(Run &run);
    // The judge's moved weights into `h`, a module host of `side` (throws HostFailure load_error on a refusal).
    void loadWeights(Run &run, host::HostClient &h, Side side);
    // A torch task, before the hosts are mapped: the weights' buffer laid out from the reference's state, and
    // for a kernel candidate its extra inputs there.
    void prepareWeights(Run &run);
    // The result object (evalreport.cpp): the verification, the timing (timingReport), the passes' parts, the
    // candidate's output and isolation, the flags and warnings, the message.
    nlohmann::ordered_json report(Run &run, nlohmann::ordered_json result);
    // The result as it stands once verification and timing are over, before the passes (evalreport.cpp): the
    // report so far with "provisional": true and "pending" (the passes still to run, in their order), or null
    // when no pass is left to run (the final result follows at once then).
    nlohmann::ordered_json provisional(Run &run, const nlohmann::ordered_json &result);
    void timingReport(const Run &run, nlohmann::ordered_json &result, std::vector<std::string> &flags,
                      std::vector<std::string> &warnings) const;

    GpuContext &m_gpu;
    std::map<std::string, nlohmann::ordered_json> &m_referenceProfiles;
    bool m_restartRequired = false;
    bool m_deviceWarm = false;
    std::string m_referenceKey;
    std::mt19937_64 m_random;
};

} // namespace kforge::runtime
