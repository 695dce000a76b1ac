#include "core/runtime/worker/cuptiobserver.h"

#include "core/runtime/host/hostkernels.h"
#include "core/runtime/worker/sourceprofilehelper.h"

#include <algorithm>
#include <stdexcept>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;

void require(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(e));
}

} // namespace

Json CuptiHostProfiler::Outside::toJson() const
{
    return Json{{"items", items}, {"max_before_us", maxBeforeUs}, {"max_after_us", maxAfterUs}};
}

CuptiHostProfiler::Outside CuptiHostProfiler::checkWindows(profiler::TraceRecords &records)
{
    std::vector<uint64_t> delayEnds, markerStarts;
    std::vector<profiler::KernelRecord> rest;
    for (const profiler::KernelRecord &k : records.kernels) {
        const std::string &name = records.name(k);
        if (name == host::gpu::kDelayName)
            delayEnds.push_back(k.end);
        else if (name == host::gpu::kMarkerName)
            markerStarts.push_back(k.start);
        else if (name != host::gpu::kFlushName)
            rest.push_back(k);
    }
    records.kernels = rest;
    std::sort(delayEnds.begin(), delayEnds.end());
    std::sort(markerStarts.begin(), markerStarts.end());
    std::vector<std::pair<uint64_t, uint64_t>> windows;
    for (std::size_t i = 0; i < std::min(delayEnds.size(), markerStarts.size()); ++i)
        windows.emplace_back(delayEnds[i], markerStarts[i]);
    Outside out;
    const auto place = [&](uint64_t start, uint64_t end) {
        if (!start || !end || windows.empty())
            return;
        for (const auto &[b, e] : windows)
            if (start >= b && end <= e)
                return;
        ++out.items;
        // The nearest window: the last one that began before the item ended.
        std::pair<uint64_t, uint64_t> w = windows.front();
        for (const auto &win : windows)
            if (win.first <= end)
                w = win;
        if (start < w.first)
            out.maxBeforeUs = std::max(out.maxBeforeUs, static_cast<double>(w.first - start) * 1e-3);
        if (end > w.second)
            out.maxAfterUs = std::max(out.maxAfterUs, static_cast<double>(end - w.second) * 1e-3);
    };
    for (const profiler::KernelRecord &k : records.kernels)
        place(k.start, k.end);
    for (const profiler::MemoryRecord &m : records.memoryOps)
        place(m.start, m.end);
    return out;
}

Json CuptiHostProfiler::trace(const host::HostRunner &runner, int runs)
{
    if (!m_limitsQueried) {
        m_limitsQueried = true;
        m_limits = profiler::queryDeviceLimits(runner.device);
    }
    Json selfMs = Json::array();
    const profiler::CuptiDiagnosis problem = m_tracer.start();
    if (!problem.ok())
        return Json{{"trace", nlohmann::json(profiler::TraceSummary::unavailable(problem))}, {"self_ms", selfMs}};
    m_tracer.flush();
    m_tracer.takeRecords();
    m_tracer.takeRegions();
    const std::optional<uint32_t> streamId = profiler::ActivityTracer::streamId(runner.stream);
    const profiler::RegionKind kind = runner.reference ? profiler::RegionKind::Reference : profiler::RegionKind::Candidate;
    cudaEvent_t start = nullptr, stop = nullptr;
    require(cudaEventCreate(&start), "cudaEventCreate");
    require(cudaEventCreate(&stop), "cudaEventCreate");
    std::string failure;
    for (int i = 0; i < runs && failure.empty(); ++i) {
        runner.flushL2();
        runner.delay(); // the call is enqueued before the GPU reaches it: its events time the GPU work only
        require(cudaEventRecord(start, runner.stream), "cudaEventRecord");
        m_tracer.beginRegion(kind, static_cast<uint32_t>(i), streamId);
        const int rc = runner.call();
        require(cudaEventRecord(stop, runner.stream), "cudaEventRecord");
        runner.marker();
        const cudaError_t e = cudaDeviceSynchronize();
        float ms = 0;
        if (e == cudaSuccess && rc == 0 && cudaEventElapsedTime(&ms, start, stop) == cudaSuccess)
            selfMs.push_back(ms);
        m_tracer.endRegion(ms);
        if (rc != 0)
            failure = "kf_entry returned " + std::to_string(rc);
        else if (e != cudaSuccess)
            failure = std::string("the kernel failed: ") + cudaGetErrorName(e);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    m_tracer.flush();
    profiler::TraceRecords records = m_tracer.takeRecords();
    const Outside outside = checkWindows(records);
    profiler::SummaryOptions options;
    options.limits = m_limits ? &*m_limits : nullptr;
    const profiler::TraceSummary summary = profiler::summarizeTrace(records, m_tracer.takeRegions(), options);
    m_tracer.stop();
    if (!failure.empty())
        throw std::runtime_error(failure);
    return Json{{"trace", nlohmann::json(summary)}, {"self_ms", selfMs}, {"outside", outside.toJson()}};
}

Json CuptiHostProfiler::metrics(const host::HostRunner &runner, const Json &request)
{
    std::vector<std::string> names = request.value("metrics", std::vector<std::string>{});
    const profiler::MetricsResult m = m_metrics.collect(runner.launch, names);
    Json body{{"metrics", nlohmann::json(m)}};
    const profiler::DevicePeaks peaks{request.value("peak_copy_gbps", 0.0), request.value("peak_fma_gflops", 0.0)};
    if (peaks.valid())
        body["roofline"] = nlohmann::json(profiler::buildRoofline(
            peaks, &m, request.value("flops", -1.0), request.value("bytes", -1.0), request.value("median_ms", 0.0)));
    return body;
}

Json CuptiHostProfiler::sourceProfile(const host::HostRunner &runner, const Json &request)
{
    const profiler::SourceProfile p = sampleLibrary(runner.reference ? "reference" : "candidate", runner.launch,
                                                    runner.library, request.value("period", 0));
    return Json{{"source_profile", p.toJson()}};
}

} // namespace kforge::runtime
