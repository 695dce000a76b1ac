// GPU: the tracer on real launches, timed the way the worker times them. Same-stream work is counted
// per run and not flagged; a fork/join on a side stream is flagged side_stream_work; a kernel left
// running on a side stream is flagged late_work; launches from another thread are attributed to the run;
// traced kernel time agrees with the event time. Also: a foreign CUPTI subscriber is named.
#include "core/runtime/profiler/profiler.h"
#include "tests/core/runtime/check.h"
#include "tests/core/runtime/profiler/cudaok.h"

#include <cuda_runtime.h>
#include <cupti.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <thread>

using namespace kforge::runtime::profiler;

namespace {

__global__ void busy_kernel(float* x, size_t n, int iters)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float v = x[i];
        for (int k = 0; k < iters; ++k)
            v = v * 0.9999f + 0.5f;
        x[i] = v;
    }
}

__global__ void flush_kernel(float* x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        x[i] += 1.0f;
}

__global__ void spin_kernel(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

struct Rig {
    cudaStream_t s = nullptr, s2 = nullptr;
    cudaEvent_t start = nullptr, end = nullptr, fork = nullptr, join = nullptr;
    float *a = nullptr, *b = nullptr, *scratch = nullptr;
    size_t n = 1u << 22, scratchN = 1u << 24;
    long long spinCycles = 0;
    int blocks = 0;

    void setup()
    {
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        CUDA_OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
        for (cudaEvent_t* e : {&start, &end})
            CUDA_OK(cudaEventCreate(e));
        for (cudaEvent_t* e : {&fork, &join})
            CUDA_OK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
        CUDA_OK(cudaMalloc(&a, n * sizeof(float)));
        CUDA_OK(cudaMalloc(&b, n * sizeof(float)));
        CUDA_OK(cudaMalloc(&scratch, scratchN * sizeof(float)));
        CUDA_OK(cudaMemset(a, 0, n * sizeof(float)));
        CUDA_OK(cudaMemset(b, 0, n * sizeof(float)));
        int clockKHz = 0, sms = 0;
        CUDA_OK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0));
        CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        spinCycles = (long long)clockKHz * 2;  // ~2 ms at the nominal clock
        blocks = sms * 4;
        CUDA_OK(cudaDeviceSynchronize());
    }

    void busy(float* x, cudaStream_t st, int iters = 64) { busy_kernel<<<blocks, 256, 0, st>>>(x, n, iters); }
};

// The worker's protocol: L2 flush outside the region, begin, start event, entry, [device sync], end
// event, wait for it, end region with the event time.
void timedRuns(ActivityTracer& tracer, Rig& rig, RegionKind kind, int runs, bool deviceSync,
               const std::function<void(cudaStream_t)>& entry)
{
    for (int run = 0; run < runs; ++run) {
        flush_kernel<<<rig.blocks, 256, 0, rig.s>>>(rig.scratch, rig.scratchN);  // async: may start after begin
        tracer.beginRegion(kind, static_cast<uint32_t>(run), ActivityTracer::streamId(rig.s));
        CUDA_OK(cudaEventRecord(rig.start, rig.s));
        entry(rig.s);
        if (deviceSync)
            CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaEventRecord(rig.end, rig.s));
        CUDA_OK(cudaEventSynchronize(rig.end));
        float ms = 0;
        CUDA_OK(cudaEventElapsedTime(&ms, rig.start, rig.end));
        tracer.endRegion(ms);
    }
    CUDA_OK(cudaDeviceSynchronize());
}

TraceSummary collect(ActivityTracer& tracer, const DeviceLimits* limits, TraceRecords* keep = nullptr,
                     std::vector<Region>* keepRegions = nullptr)
{
    CUDA_OK(cudaDeviceSynchronize());
    CuptiDiagnosis d = tracer.flush();
    KF_CHECK_MSG(d.ok(), d.reason);
    TraceRecords recs = tracer.takeRecords();
    std::vector<Region> regions = tracer.takeRegions();
    SummaryOptions o;
    o.limits = limits;
    TraceSummary s = summarizeTrace(recs, regions, o);
    if (keep)
        *keep = std::move(recs);
    if (keepRegions)
        *keepRegions = std::move(regions);
    return s;
}

void print(const char* label, const TraceSummary& t)
{
    auto side = [](const char* name, const SideSummary& s) {
        std::printf("  %-9s runs=%zu launches/run=%.0f..%.0f gpu=%.4f ms busy=%.4f ms event=%.4f ms gpu/event=%.3f "
                    "side=%d(%zu) late=%d(%zu, max %.1f us) untagged=%zu\n",
                    name, s.runs, s.launchesPerRun.min, s.launchesPerRun.max, s.gpuTimeMs.median, s.busyTimeMs.median,
                    s.eventTimeMs.median, s.gpuOverEvent, s.sideStreamWork, s.sideStreamItems, s.lateWork, s.lateItems,
                    s.maxLateUs, s.untaggedItems);
        for (const KernelGroup& g : s.kernels)
            std::printf("      %-40.40s x%zu mean %.2f us grid %d block %d regs %d occ %.0f%%\n", g.name.c_str(), g.count,
                        g.durationUs.mean, g.grid[0], g.block[0], g.registers, g.occupancy ? g.occupancy->percent : -1.0);
    };
    std::printf("%s: records=%zu dropped=%zu outside=%zu replay_excluded=%zu\n", label, t.records, t.dropped,
                t.outsideRegions, t.replayExcluded);
    side("reference", t.reference);
    side("candidate", t.candidate);
}

void CUPTIAPI ignore(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

void testForeignSubscriber()
{
    CUpti_SubscriberParams p{};
    p.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    p.subscriberName = "FakeNsight";
    CUpti_SubscriberHandle h = nullptr;
    CUptiResult r = cuptiSubscribe_v2(&h, reinterpret_cast<CUpti_CallbackFunc>(ignore), nullptr, &p);
    KF_CHECK_MSG(r == CUPTI_SUCCESS, cuptiResultName(r));
    if (r != CUPTI_SUCCESS)
        return;
    ActivityTracer t;
    CuptiDiagnosis d = t.start();
    std::printf("tracer under a foreign subscriber: %s / %s\n", d.error.c_str(), d.reason.c_str());
    KF_CHECK(!d.ok() && !t.active());
    KF_CHECK(d.error == "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
    KF_CHECK_CONTAINS(d.holder, "FakeNsight");  // CUPTI reports it as "CUPTI for FakeNsight"
    KF_CHECK_CONTAINS(d.reason, "FakeNsight");
    KF_CHECK(t.beginRegion(RegionKind::Candidate, 0) == kNoRegion);  // harmless while unavailable
    cuptiUnsubscribe(h);
}

}  // namespace

int main()
{
    setvbuf(stdout, nullptr, _IOLBF, 0);  // keep the output if something crashes
    if (!hasCudaDevice())
        kforge::runtime::test::skip("no CUDA device");

    testForeignSubscriber();

    ActivityTracer tracer;
    CuptiDiagnosis started = tracer.start();
    KF_CHECK_MSG(started.ok(), started.error + ": " + started.reason);
    if (!started.ok())
        return kforge::runtime::test::finish("tst_profiler_gpu_trace");
    KF_CHECK(ActivityTracer::current() == &tracer);

    Rig rig;
    rig.setup();
    std::optional<DeviceLimits> limits = queryDeviceLimits(0);
    KF_CHECK(limits && limits->valid());
    collect(tracer, nullptr);  // drop setup records

    // A: reference one kernel, candidate two kernels on the launch stream, interleaved.
    for (int i = 0; i < 5; ++i) {
        timedRuns(tracer, rig, RegionKind::Reference, 1, true, [&](cudaStream_t s) { rig.busy(rig.a, s, 4096); });
        timedRuns(tracer, rig, RegionKind::Candidate, 1, true, [&](cudaStream_t s) {
            rig.busy(rig.a, s, 2048);
            rig.busy(rig.b, s, 2048);
        });
    }
    TraceRecords recsA;
    std::vector<Region> regionsA;
    TraceSummary a = collect(tracer, limits ? &*limits : nullptr, &recsA, &regionsA);
    print("A same stream", a);
    KF_CHECK(a.available && a.dropped == 0);
    KF_CHECK(a.reference.runs == 5 && a.candidate.runs == 5);
    KF_CHECK(a.reference.launchesPerRun.min == 1 && a.reference.launchesPerRun.max == 1);
    KF_CHECK(a.candidate.launchesPerRun.min == 2 && a.candidate.launchesPerRun.max == 2);
    KF_CHECK(a.candidateFlags().empty());
    KF_CHECK(!a.reference.sideStreamWork && !a.reference.lateWork);
    KF_CHECK(a.candidate.untaggedItems == 0 && a.reference.untaggedItems == 0);
    KF_CHECK_MSG(a.outsideRegions >= 10, "the 10 flush kernels are outside: " + std::to_string(a.outsideRegions));
    KF_CHECK(a.reference.kernels.size() == 1 && a.reference.kernels[0].name.find("busy_kernel") != std::string::npos);
    KF_CHECK(!a.reference.kernels.empty() && a.reference.kernels[0].occupancy.has_value());
    // Traced GPU time vs event time: the event also holds the launch latency, so slightly above 1.
    KF_CHECK_MSG(a.reference.gpuOverEvent > 0.90 && a.reference.gpuOverEvent <= 1.01,
                 "reference gpu/event " + std::to_string(a.reference.gpuOverEvent));
    KF_CHECK_MSG(a.candidate.gpuOverEvent > 0.90 && a.candidate.gpuOverEvent <= 1.01,
                 "candidate gpu/event " + std::to_string(a.candidate.gpuOverEvent));
    // How much room the late-work deadline has on honest runs (region end minus last kernel end).
    {
        double minSlackUs = 1e30;
        for (const Region& r : regionsA) {
            uint64_t last = 0;
            for (const KernelRecord& k : recsA.kernels) {
                auto it = recsA.externalIds.find(k.correlationId);
                if (it != recsA.externalIds.end() && decodeRegionId(it->second) == r.id)
                    last = std::max(last, k.end);
            }
            if (last && r.endNs)
                minSlackUs = std::min(minSlackUs, (static_cast<double>(r.endNs) - static_cast<double>(last)) / 1e3);
        }
        std::printf("  honest runs: smallest gap between last kernel end and region end %.1f us\n", minSlackUs);
        KF_CHECK(minSlackUs > 0);
    }

    // B: fork/join on a side stream (legitimate, but flagged).
    timedRuns(tracer, rig, RegionKind::Candidate, 5, true, [&](cudaStream_t s) {
        rig.busy(rig.a, s);
        CUDA_OK(cudaEventRecord(rig.fork, s));
        CUDA_OK(cudaStreamWaitEvent(rig.s2, rig.fork));
        rig.busy(rig.b, rig.s2);
        CUDA_OK(cudaEventRecord(rig.join, rig.s2));
        CUDA_OK(cudaStreamWaitEvent(s, rig.join));
    });
    TraceSummary b = collect(tracer, nullptr);
    print("B side stream", b);
    KF_CHECK(b.candidate.launchesPerRun.min == 2 && b.candidate.launchesPerRun.max == 2);
    KF_CHECK(b.candidate.sideStreamWork && b.candidate.sideStreamItems == 5);
    KF_CHECK(b.candidate.sideStreams.size() == 1 && b.candidate.sideStreams[0] == ActivityTracer::streamId(rig.s2));
    KF_CHECK(!b.candidate.lateWork);
    KF_CHECK((b.candidateFlags() == std::vector<std::string>{"side_stream_work"}));
    std::printf("  json flags: %s\n", nlohmann::json(b)["flags"].dump().c_str());

    // C: a 2 ms kernel left running on a side stream; the worker waits only for its own stream.
    timedRuns(tracer, rig, RegionKind::Candidate, 3, false, [&](cudaStream_t s) {
        rig.busy(rig.a, s);
        spin_kernel<<<1, 32, 0, rig.s2>>>(rig.spinCycles);
    });
    TraceSummary c = collect(tracer, nullptr);
    print("C late work", c);
    KF_CHECK(c.candidate.lateWork && c.candidate.lateItems == 3);
    KF_CHECK_MSG(c.candidate.maxLateUs > 500, "max late " + std::to_string(c.candidate.maxLateUs) + " us");
    KF_CHECK(c.candidate.sideStreamWork);
    KF_CHECK((c.candidateFlags() == std::vector<std::string>{"side_stream_work", "late_work"}));

    // D: one kernel launched from another thread (no external id there), joined before returning.
    timedRuns(tracer, rig, RegionKind::Candidate, 3, true, [&](cudaStream_t s) {
        rig.busy(rig.a, s);
        std::thread t([&] { rig.busy(rig.b, s); });
        t.join();
    });
    TraceSummary d = collect(tracer, nullptr);
    print("D other thread", d);
    KF_CHECK(d.candidate.launchesPerRun.min == 2 && d.candidate.launchesPerRun.max == 2);
    KF_CHECK(d.candidate.untaggedItems == 3);
    KF_CHECK(d.candidateFlags().empty());

    // E: without API records (cheaper tracing) regions are attributed by time alone.
    tracer.stop();
    KF_CHECK(!tracer.active() && ActivityTracer::current() == nullptr);
    TracerOptions lightOptions;
    lightOptions.apiRecords = false;
    ActivityTracer light(lightOptions);
    CuptiDiagnosis ls = light.start();
    KF_CHECK_MSG(ls.ok(), ls.reason);
    for (int run = 0; run < 3; ++run) {
        light.beginRegion(RegionKind::Candidate, run, ActivityTracer::streamId(rig.s));
        CUDA_OK(cudaEventRecord(rig.start, rig.s));
        rig.busy(rig.a, rig.s);
        rig.busy(rig.b, rig.s);
        CUDA_OK(cudaEventRecord(rig.end, rig.s));
        CUDA_OK(cudaEventSynchronize(rig.end));
        light.endRegion();
    }
    TraceSummary e = collect(light, nullptr);
    print("E time-only attribution", e);
    KF_CHECK(e.apiRecords == 0);
    KF_CHECK(e.candidate.launchesPerRun.min == 2 && e.candidate.launchesPerRun.max == 2);
    KF_CHECK(e.candidate.untaggedItems == 6);
    light.stop();

    return kforge::runtime::test::finish("tst_profiler_gpu_trace");
}
