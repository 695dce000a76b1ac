#include "core/runtime/worker/cuptiobserver.h"

#include "core/runtime/worker/cudacheck.h"
#include "core/runtime/worker/isolation.h"
#include "core/runtime/worker/nvcc.h"
#include "core/runtime/worker/sourceprofilehelper.h"

#include <algorithm>
#include <chrono>
#include <exception>

namespace kforge::runtime {

void CuptiObserver::afterTimedRuns(const TimingContext &ctx, const TimingResult &timing)
{
    m_ctx = ctx;
    m_timing = timing;
}

void CuptiObserver::beginTrace(const TimingContext &ctx)
{
    m_ctx = ctx;
    if (!m_session.limitsQueried) {
        m_session.limitsQueried = true;
        m_session.limits = profiler::queryDeviceLimits(ctx.device);
    }
    m_traceProblem = m_session.tracer.start();
    m_traced = m_traceProblem.ok();
    if (!m_traced)
        return;
    // Only this pass: drop whatever an earlier evaluation left.
    m_session.tracer.flush();
    m_session.tracer.takeRecords();
    m_session.tracer.takeRegions();
    m_streamId = profiler::ActivityTracer::streamId(ctx.stream);
}

void CuptiObserver::beforeRun(Slot slot, int run)
{
    if (m_traced)
        m_session.tracer.beginRegion(slot == Slot::Reference ? profiler::RegionKind::Reference
                                                             : profiler::RegionKind::Candidate,
                                     static_cast<uint32_t>(run), m_streamId);
}

void CuptiObserver::afterRun(Slot, int, double eventMs)
{
    if (m_traced)
        m_session.tracer.endRegion(eventMs);
}

void CuptiObserver::endTrace(const TimingContext &)
{
    if (!m_traced) {
        m_trace = profiler::TraceSummary::unavailable(m_traceProblem);
        return;
    }
    KF_CUDA(cudaDeviceSynchronize()); // FlushAll does not wait for running work
    m_session.tracer.flush();
    profiler::SummaryOptions options;
    options.limits = m_session.limits ? &*m_session.limits : nullptr;
    m_trace = profiler::summarizeTrace(m_session.tracer.takeRecords(), m_session.tracer.takeRegions(), options);
    // Tracing stops with the pass, so later timing loops run without CUPTI in the way.
    m_session.tracer.stop();
}

void CuptiObserver::metricsPass(const TimingContext &ctx, const std::function<void()> &launchCandidate,
                                const std::function<void()> &launchReference)
{
    // A CUDA failure inside a launch must not unwind through CUPTI's session: keep it, rethrow after.
    std::exception_ptr failure;
    const auto guarded = [&failure](const std::function<void()> &launch) {
        return [&failure, &launch] {
            if (failure)
                return;
            try {
                launch();
            } catch (...) {
                failure = std::current_exception();
            }
        };
    };
    m_candidateMetrics = m_session.metrics.collect(guarded(launchCandidate), ctx.metricNames);
    std::string cacheKey = ctx.referenceKey;
    for (const std::string &name : ctx.metricNames)
        cacheKey += "|" + name;
    if (const auto cached = m_session.referenceMetrics.find(cacheKey); cached != m_session.referenceMetrics.end()) {
        m_referenceMetrics = cached->second;
        m_referenceMetrics->cached = true;
    } else if (!failure) {
        m_referenceMetrics = m_session.metrics.collect(guarded(launchReference), ctx.metricNames);
        // Only complete results are reused; a missing or failed collection is tried again next time.
        if (!failure && m_referenceMetrics && m_referenceMetrics->available && !ctx.referenceKey.empty())
            m_session.referenceMetrics.emplace(cacheKey, *m_referenceMetrics);
    }
    if (failure)
        std::rethrow_exception(failure);
}

void CuptiObserver::sourceProfilePass(const TimingContext &ctx, const std::function<void()> &, const std::function<void()> &)
{
    // In a fresh helper process (see sourceprofilehelper.h): the kernels run there on the same inputs.
    const auto t0 = std::chrono::steady_clock::now();
    SourceProfileRequest request;
    request.task = ctx.task;
    request.reference = ctx.referenceLibrary;
    request.candidate = ctx.candidateLibrary;
    request.seed = ctx.seed;
    request.device = ctx.device;
    request.period = ctx.sourceProfilePeriod;
    request.sampleReference = ctx.sourceProfileReference;
    const std::filesystem::path work = TempDir::path().empty() ? std::filesystem::temp_directory_path() : TempDir::path();
    m_sourceProfile = sourceProfileInHelper(selfExecutable(), request, work, 60);
    // The cost includes the helper's start, its CUDA context, the cubin extraction and the correlation.
    m_sourceProfile->costMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void CuptiObserver::contribute(nlohmann::ordered_json &result)
{
    if (m_sourceProfile)
        result["source_profile"] = m_sourceProfile->toJson();
    std::vector<std::string> flags = result.value("flags", std::vector<std::string>{});
    if (m_trace) {
        result["trace"] = nlohmann::json(*m_trace);
        for (const std::string &f : m_trace->candidateFlags())
            if (std::find(flags.begin(), flags.end(), f) == flags.end())
                flags.push_back(f);
    }
    if (m_candidateMetrics) {
        nlohmann::ordered_json metrics;
        metrics["candidate"] = nlohmann::json(*m_candidateMetrics);
        if (m_referenceMetrics)
            metrics["reference"] = nlohmann::json(*m_referenceMetrics);
        result["metrics"] = metrics;

        // Per-kernel roofline points from the metrics, beside the worker's task-level roofline.
        const profiler::DevicePeaks peaks{m_ctx.peakCopyGbps, m_ctx.peakFmaGflops};
        if (peaks.valid() && result.contains("roofline")) {
            nlohmann::ordered_json profile;
            profile["candidate"] = nlohmann::json(profiler::buildRoofline(peaks, &*m_candidateMetrics, m_ctx.flops,
                                                                          m_ctx.bytes, m_timing.candidate.medianMs));
            if (m_referenceMetrics)
                profile["reference"] = nlohmann::json(profiler::buildRoofline(peaks, &*m_referenceMetrics, m_ctx.flops,
                                                                              m_ctx.bytes, m_timing.reference.medianMs));
            result["roofline"]["profile"] = profile;
        }
    }
    result["flags"] = flags;
}

} // namespace kforge::runtime
