#pragma once
// The judge's batches (docs/worker-protocol.md, "Timing"): device memory shared with the hosts through CUDA
// IPC (input sets, one output arena per side, the judge's private snapshot arena), the go/done IPC events,
// and one externally timed batch: [gate] E0, generation of every call's input set from the round's seed, the
// L2 flush, go; the host enqueues its calls and done; the judge waits for done, records E1, copies the
// outputs it will check early, and releases the gate.
#include "core/runtime/host/hostclient.h"
#include "core/runtime/task/inputrange.h"
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/devicebuffer.h"
#include "core/runtime/worker/gpucontext.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kforge::runtime {

enum class Side { Reference, Candidate, Baseline };
const char *sideName(Side s);

struct BatchFinish {
    std::vector<int> rc;   // of each call
    std::string cudaError; // empty when none
    // A module host's first error of the batch ("call 3, step forward: cand.py: ..."); empty for a kernel's.
    std::string error;
    bool outputMismatch = false; // that error is an output of another count, dtype, shape or device
};

struct BatchTime {
    double ms = 0;             // E1 - E0 (0 when the host's work failed: E1 may never come)
    double prepMs = 0;         // the judge's preparation before E0 (generation, flush): longer than the
                               // baseline's when another process used the GPU meanwhile
    BatchFinish finish;        // the host's finish, asked right after the gate was released
    bool gateTimedOut = false; // the host took longer than the gate's timeout to enqueue: ms includes that
    double wallMs = 0;         // the judge's wall clock for the whole batch (request to E1)
    // The largest step of the judge's quiet probes around this batch (setQuietProbe), in us; -1: none ran.
    double quietGapUs = -1;
    // The first probe's wall clock (launch to its end, synchronized) beyond the time it ran, in us; -1: none ran.
    double quietWaitUs = -1;
    // Where that wall clock went: enqueueing the preparation, the host's answer to the batch (its
    // enqueueing), its finish (its device synchronized), and the wait for E1 after it.
    double enqueueWallMs = 0, hostWallMs = 0, finishWallMs = 0, waitWallMs = 0;
};

class BatchTimer
{
public:
    // Allocates `sets` input sets and output slots (plain cudaMalloc: IPC needs it). Throws CudaFailure.
    // `baselineOutputs`: the baseline writes its outputs (a module host's baseline returns tensors that its host
    // copies), into an arena of its own, so the candidate's slots keep what the candidate wrote.
    BatchTimer(GpuContext &gpu, const TaskSpec &task, int sets, bool baselineOutputs = false);
    ~BatchTimer();
    BatchTimer(const BatchTimer &) = delete;
    BatchTimer &operator=(const BatchTimer &) = delete;

    // Bytes one set needs (inputs + the three output slots, four with `baselineOutputs`), for the memory budget.
    static std::size_t bytesPerSet(const TaskSpec &task, bool baselineOutputs = false);
    int sets() const { return m_sets; }

    // The map request for a host of `side`: the input arena, the side's output arena (the baseline gets the
    // candidate's, which it never writes), the two events.
    nlohmann::ordered_json mapRequest(Side side, const nlohmann::ordered_json &task) const;

    // Every output slot first, first + 1, ... (`slots` of them, wrapping) of `side` gets a fresh random byte
    // (outside any window); poisonOf tells it.
    void poison(Side side, int slots, uint64_t seed, int first = 0);
    unsigned char poisonOf(Side side, int slot) const;

    // One batch of `calls` calls (call c uses set and slot (first + c) % sets, repeating after `sets` calls) of
    // `host`. `gated`: hold the
    // judge's stream until the host has enqueued every call. `snapshot`: copy the output slots to the
    // snapshot arena right after done (the early comparison). Throws HostFailure, CudaFailure.
    // `generate` false (the baseline's batches but for its preparation yardstick): the sets are not regenerated
    // before the flush. The no-op library reads nothing, the flush leaves the cache as after generation, so the
    // crossing is the same; the judge saves the generation's wall time (the boundary's largest part).
    BatchTime run(host::HostClient &host, Side side, int calls, uint64_t roundSeed, bool gated, bool snapshot,
                  double timeoutS, const std::string &phase, int first = 0, bool generate = true);
    // The host's finish: its device synchronized, the calls' return codes. Throws HostFailure.
    using Finish = BatchFinish;
    Finish finish(host::HostClient &host, double timeoutS, const std::string &phase);

    // The reference's outputs for `sets` of the round, outside any window (the sets are regenerated first: the
    // candidate may have written to them): one ungated batch and the host's finish.
    Finish expected(host::HostClient &host, uint64_t roundSeed, const std::vector<int> &sets, double timeoutS,
                    const std::string &phase);
    // The range every input set is generated in from now on (edge rounds, core/runtime/task/inputrange.h);
    // Declared (the default) gives the task's distributions.
    void setRange(InputRange range, double scale = 1.0)
    {
        m_range = range;
        m_scale = scale;
    }
    InputRange range() const { return m_range; }
    // The same for `side`, outside any window: the sets regenerated, one ungated batch, the host's finish;
    // for the candidate the outputs are then copied to the snapshot too (early = late). `privateBuffers`: the
    // host runs each call on its own allocations (the compute-sanitizer round).
    Finish untimed(host::HostClient &host, Side side, uint64_t roundSeed, const std::vector<int> &sets,
                   bool privateBuffers, double timeoutS, const std::string &phase);
    // Sets [first, last) of the round regenerated on the judge's stream (synchronized).
    void generate(uint64_t roundSeed, int first, int last);
    // A regenerated copy of set `set` in the judge's scratch, compared word by word with the arena's set:
    // differing words per input tensor (input mutation).
    std::vector<unsigned long long> inputChanges(uint64_t roundSeed, int set);

    // The judge's quiet probe (hostkernels.h) of `us` in every batch of a side other than the candidate, 0: none.
    // One runs before the batch (synchronized before its host is asked to enqueue anything, so only other
    // contexts' work can be there: the sides not in their window are stopped and have finished), one after
    // E1 (the side's own calls are done). A step above a few us is GPU time another context took then: work a
    // host left running or waiting past its own window (issue 35, item 1).
    void setQuietProbe(double us) { m_probeNs = us > 0 ? static_cast<unsigned long long>(us * 1000) : 0; }

    // Waits at most `timeoutS` for the judge's stream to go idle (the gate released). False when it stays busy
    // (waiting for a done event a dead host never recorded): the object then leaks its memory instead of
    // blocking in cudaFree, and the worker must restart.
    bool drain(double timeoutS);

    // Device addresses for the comparisons.
    void *input(int set, std::size_t tensor) const;
    void *output(Side side, int slot, std::size_t tensor) const; // Reference / Candidate
    void *snapshot(int slot, std::size_t tensor) const;
    // The host call of set `set` for `side`, as the host protocol names it: the set's inputs, then the side's
    // extra inputs (setExtraInputs), then its outputs.
    nlohmann::ordered_json callJson(Side side, int set) const;
    // Tensors every call of `side` gets after the set's inputs, the same for every call: a kernel of a torch
    // task reads the module's parameters and buffers there (the judge's weights, modulejudge.h).
    void setExtraInputs(Side side, std::vector<std::pair<int, uint64_t>> refs)
    {
        m_extraInputs[static_cast<int>(side)] = std::move(refs);
    }

private:
    struct Arena {
        DeviceBuffer buffer;
        std::string handle; // hex cudaIpcMemHandle_t
        int id = 0;
    };
    void generateInto(void *base, uint64_t roundSeed, int set);
    int outputArena(Side side) const
    {
        return side == Side::Reference ? 1 : side == Side::Baseline && m_baselineOutputs ? 3 : 2;
    }
    void waitEvent(cudaEvent_t e, double timeoutS, const std::string &what);

    GpuContext &m_gpu;
    const TaskSpec &m_task;
    int m_sets;
    std::vector<std::size_t> m_inOffsets, m_outOffsets; // of each tensor within a set
    std::size_t m_inStride = 0, m_outStride = 0;
    Arena m_arenas[4]; // inputs, reference outputs, candidate outputs, baseline outputs (m_baselineOutputs)
    bool m_baselineOutputs = false;
    DeviceBuffer m_snapshot;
    DeviceBuffer m_scratch; // one input set (inputChanges)
    DeviceBuffer m_counts;
    unsigned long long *m_hostCounts = nullptr;
    std::vector<unsigned char> m_poison[4];
    std::vector<std::pair<int, uint64_t>> m_extraInputs[3]; // by Side
    cudaEvent_t m_go = nullptr, m_done = nullptr, m_eg = nullptr, m_e0 = nullptr, m_e1 = nullptr;
    std::string m_goHandle, m_doneHandle;
    int *m_flag = nullptr; // mapped host memory: [0] gate release, [1] gate timed out
    int *m_deviceFlag = nullptr;
    unsigned long long *m_probe = nullptr; // mapped host memory: the two probes' {step, ran} (ns)
    unsigned long long *m_deviceProbe = nullptr;
    unsigned long long m_probeNs = 0;
    bool m_stuck = false;
    InputRange m_range = InputRange::Declared;
    double m_scale = 1.0;
};

// setQuietProbe for one scope (a round's batches): `us` from here, none after it.
class QuietProbeScope
{
public:
    QuietProbeScope(BatchTimer &bt, double us)
        : m_bt(bt)
    {
        bt.setQuietProbe(us);
    }
    ~QuietProbeScope() { m_bt.setQuietProbe(0); }
    QuietProbeScope(const QuietProbeScope &) = delete;
    QuietProbeScope &operator=(const QuietProbeScope &) = delete;

private:
    BatchTimer &m_bt;
};

} // namespace kforge::runtime
