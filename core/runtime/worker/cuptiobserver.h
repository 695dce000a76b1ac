#pragma once
// The worker's EvalObserver on top of kforge_profiler: a CUPTI activity trace of the trace pass (every
// kernel on every stream, side-stream and late work), the range-profiler metrics pass for both kernels,
// per-kernel roofline points, and the source-level pass (PC sampling mapped to source lines). CUPTI problems become "available": false with the reason, never errors.
#include "core/runtime/profiler/profiler.h"
#include "core/runtime/profiler/sourceprofile.h"
#include "core/runtime/worker/evalobserver.h"

#include <map>
#include <optional>
#include <string>

namespace kforge::runtime {

// Process-wide profiler state shared by the observers of successive evaluations.
struct ProfilerSession {
    profiler::ActivityTracer tracer;
    profiler::MetricsCollector metrics;
    std::optional<profiler::DeviceLimits> limits;
    bool limitsQueried = false;
    // The reference's metrics by TimingContext::referenceKey + metric set: the reference does not change
    // while candidates of one task are evaluated, and replaying it (10 passes) dominated the metrics pass.
    std::map<std::string, profiler::MetricsResult> referenceMetrics;
};

class CuptiObserver : public EvalObserver
{
public:
    explicit CuptiObserver(ProfilerSession &session)
        : m_session(session)
    {
    }

    void afterTimedRuns(const TimingContext &ctx, const TimingResult &timing) override;
    void beginTrace(const TimingContext &ctx) override;
    void beforeRun(Slot slot, int run) override;
    void afterRun(Slot slot, int run, double eventMs) override;
    void endTrace(const TimingContext &ctx) override;
    void metricsPass(const TimingContext &ctx, const std::function<void()> &launchCandidate,
                     const std::function<void()> &launchReference) override;
    void sourceProfilePass(const TimingContext &ctx, const std::function<void()> &launchCandidate,
                           const std::function<void()> &launchReference) override;
    void contribute(nlohmann::ordered_json &result) override;

private:
    ProfilerSession &m_session;
    TimingContext m_ctx;
    TimingResult m_timing;
    bool m_traced = false;
    std::optional<uint32_t> m_streamId;
    profiler::CuptiDiagnosis m_traceProblem;
    std::optional<profiler::TraceSummary> m_trace;
    std::optional<profiler::MetricsResult> m_candidateMetrics;
    std::optional<profiler::MetricsResult> m_referenceMetrics;
    std::optional<profiler::SourceProfile> m_sourceProfile;
};

} // namespace kforge::runtime
