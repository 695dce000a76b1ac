#pragma once
// One evaluate request: verification trials against the reference, then interleaved timing, then the
// observer's metrics pass; the outcome is the protocol's EvalResult object (docs/worker-protocol.md).
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/evalobserver.h"
#include "core/runtime/worker/evaloptions.h"
#include "core/runtime/worker/gpucontext.h"
#include "core/runtime/worker/isolation.h"
#include "core/runtime/worker/kernellibrary.h"
#include "core/runtime/worker/referencecache.h"

#include <functional>

namespace kforge::runtime {

class TensorSet;

class Evaluator
{
public:
    using Progress = std::function<void(const char *stage)>;
    static constexpr std::size_t kStdoutCap = 64 * 1024;

    // `gpu` must be ready. `capture` may be null (nothing captured).
    Evaluator(GpuContext &gpu, ReferenceCache &cache, StdoutCapture *capture);
    ~Evaluator();
    Evaluator(const Evaluator &) = delete;
    Evaluator &operator=(const Evaluator &) = delete;

    nlohmann::ordered_json evaluate(const TaskSpec &task, const EvalOptions &options, KernelLibrary &reference,
                                    KernelLibrary &candidate, EvalObserver *observer = nullptr,
                                    const Progress &progress = {});
    // The last evaluation left the CUDA context unusable: the worker must exit after replying.
    bool restartRequired() const { return m_restartRequired; }

    static RunStats summarize(const std::vector<float> &samplesMs);

private:
    struct Verification;
    struct TimingSetup;

    void call(Slot slot, TensorSet &inputs, TensorSet &outputs);
    void verify(const TaskSpec &task, const EvalOptions &options, Verification &v);
    // One run with the timing protocol: L2 flush, start event, kf_entry, device-wide synchronize, end
    // event. Returns the event time; `observer` (may be null) sees the run.
    float runOnce(TimingSetup &setup, Slot slot, int index, const char *what, EvalObserver *observer);
    TimingResult timedRuns(TimingSetup &setup, const EvalOptions &options, EvalObserver *observer, const TimingContext &ctx);
    void tracePass(TimingSetup &setup, const EvalOptions &options, EvalObserver *observer, const TimingContext &ctx);
    void metricsPass(TimingSetup &setup, EvalObserver *observer, const TimingContext &ctx);
    void sourceProfilePass(TimingSetup &setup, EvalObserver *observer, const TimingContext &ctx);
    std::function<void()> launcher(TimingSetup &setup, Slot slot, const char *what);

    GpuContext &m_gpu;
    ReferenceCache &m_cache;
    StdoutCapture *m_capture;
    KernelLibrary *m_reference = nullptr;
    KernelLibrary *m_candidate = nullptr;
    std::vector<kf_param_value> m_params;
    std::string m_phase;
    bool m_restartRequired = false;
    void *m_hostScratch = nullptr; // pinned, for results read back without a device-wide sync
    DeviceBuffer m_deviceScratch;
    cudaEvent_t m_start = nullptr;
    cudaEvent_t m_stop = nullptr;
};

} // namespace kforge::runtime
