// GPU: the metrics pass. A 256 MiB copy kernel's DRAM bytes are within 2% of the 512 MiB it must move;
// an FMA kernel's FP32 FLOP count is exactly what it executes; ranges are named from the traced replays;
// the replays never count as launches of a timed run; theoretical occupancy from the kernel record equals
// cudaOccupancyMaxActiveBlocksPerMultiprocessor; a foreign CUPTI subscriber is reported, not fatal.
#include "core/runtime/profiler/profiler.h"
#include "tests/core/runtime/check.h"
#include "tests/core/runtime/profiler/cudaok.h"

#include <cuda_runtime.h>
#include <cupti.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace kforge::runtime::profiler;

namespace {

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n4)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n4)
        out[i] = in[i];
}

// Exactly 8 * iters FFMA per thread and no other floating-point instruction: the inputs are loaded, the
// results stored, the loop counter is an integer (iters is a multiple of the unroll factor).
__global__ void fma_kernel(const float* __restrict__ in, float* __restrict__ out, int iters, float a, float b)
{
    const size_t base = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * 8;
    float x0 = in[base + 0], x1 = in[base + 1], x2 = in[base + 2], x3 = in[base + 3];
    float x4 = in[base + 4], x5 = in[base + 5], x6 = in[base + 6], x7 = in[base + 7];
#pragma unroll 4
    for (int k = 0; k < iters; ++k) {
        x0 = fmaf(x0, a, b); x1 = fmaf(x1, a, b); x2 = fmaf(x2, a, b); x3 = fmaf(x3, a, b);
        x4 = fmaf(x4, a, b); x5 = fmaf(x5, a, b); x6 = fmaf(x6, a, b); x7 = fmaf(x7, a, b);
    }
    out[base + 0] = x0; out[base + 1] = x1; out[base + 2] = x2; out[base + 3] = x3;
    out[base + 4] = x4; out[base + 5] = x5; out[base + 6] = x6; out[base + 7] = x7;
}

__global__ void smem_kernel(float* out)
{
    extern __shared__ float tile[];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void __launch_bounds__(128, 1) heavy_kernel(const float* __restrict__ in, float* __restrict__ out)
{
    float acc[48];
#pragma unroll
    for (int i = 0; i < 48; ++i)
        acc[i] = in[threadIdx.x + i * 128];
#pragma unroll
    for (int r = 0; r < 16; ++r)
#pragma unroll
        for (int i = 0; i < 48; ++i)
            acc[i] = acc[i] * acc[(i + r) % 48] + 1.0f;
    float s = 0;
#pragma unroll
    for (int i = 0; i < 48; ++i)
        s += acc[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

void CUPTIAPI ignore(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

}  // namespace

int main()
{
    setvbuf(stdout, nullptr, _IOLBF, 0);  // keep the output if something crashes
    if (!hasCudaDevice())
        kforge::runtime::test::skip("no CUDA device");

    ActivityTracer tracer;  // the worker's tracer, running through the metrics pass
    CuptiDiagnosis ts = tracer.start();
    KF_CHECK_MSG(ts.ok(), ts.reason);

    const size_t copyBytes = 256ull << 20, n4 = copyBytes / sizeof(float4);
    float4 *in = nullptr, *out = nullptr;
    CUDA_OK(cudaMalloc(&in, copyBytes));
    CUDA_OK(cudaMalloc(&out, copyBytes));
    CUDA_OK(cudaMemset(in, 1, copyBytes));
    int sms = 0;
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int fmaBlocks = sms * 8, fmaThreads = 256, fmaIters = 4096;
    const double fmaThreadCount = double(fmaBlocks) * fmaThreads;
    float *fin = nullptr, *fout = nullptr;
    CUDA_OK(cudaMalloc(&fin, fmaThreadCount * 8 * sizeof(float)));
    CUDA_OK(cudaMalloc(&fout, fmaThreadCount * 8 * sizeof(float)));
    CUDA_OK(cudaMemset(fin, 0, fmaThreadCount * 8 * sizeof(float)));
    cudaStream_t s = nullptr;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_OK(cudaDeviceSynchronize());
    const unsigned copyBlocks = static_cast<unsigned>((n4 + 255) / 256);
    auto launchCopy = [&] { copy_kernel<<<copyBlocks, 256, 0, s>>>(in, out, n4); };
    auto launchFma = [&] { fma_kernel<<<fmaBlocks, fmaThreads, 0, s>>>(fin, fout, fmaIters, 0.999f, 0.001f); };

    // Three timed runs of the copy, as the worker would do them before the metrics pass.
    for (uint32_t run = 0; run < 3; ++run) {
        tracer.beginRegion(RegionKind::Candidate, run, ActivityTracer::streamId(s));
        launchCopy();
        CUDA_OK(cudaStreamSynchronize(s));
        tracer.endRegion();
    }

    MetricsCollector collector;
    MetricsResult m = collector.collect([&] {
        launchCopy();
        launchFma();
    });
    KF_CHECK_MSG(m.available, m.problem.error + ": " + m.problem.reason + " " + m.problem.hint);
    std::printf("metrics: chip %s, %zu metrics, %zu passes, session %.0f ms, collect %.0f ms, named %d (%s, %zu replay "
                "records), dropped %zu\n",
                m.chip.c_str(), m.metrics.size(), m.passes, m.sessionMs, m.totalMs, m.kernelsNamed,
                m.kernelNamesFrom.c_str(), m.replayRecords, m.rangesDropped);
    KF_CHECK(m.chip == "GH100" || !m.chip.empty());
    KF_CHECK(m.passes >= 1 && m.invalidMetrics.empty());
    KF_CHECK(m.kernels.size() == 2);
    KF_CHECK(m.kernelsNamed);
    for (const KernelMetrics& k : m.kernels)
        std::printf("  [%zu] %-45.45s %9.1f us  DRAM %8.1f MiB %7.0f GB/s  FLOP %.6g  %7.0f GFLOP/s  dram %5.1f%% sm %5.1f%% "
                    "cm %5.1f%% occ %5.1f%% (theor. %.1f%%) L2 %5.1f%% clk %.0f MHz\n",
                    k.index, k.name.c_str(), k.timeNs / 1e3, k.dramBytes / 1048576.0, k.achievedGbps, k.flopsFp32,
                    k.achievedGflops, k.dramThroughputPct, k.smThroughputPct, k.computeMemoryThroughputPct,
                    k.achievedOccupancyPct, k.theoreticalOccupancy ? k.theoreticalOccupancy->percent : -1.0,
                    k.l2HitRatePct, k.smClockMhz);

    if (m.kernels.size() == 2) {
        const KernelMetrics& copy = m.kernels[0];
        const KernelMetrics& fma = m.kernels[1];
        KF_CHECK_CONTAINS(copy.name, "copy_kernel");
        KF_CHECK_CONTAINS(fma.name, "fma_kernel");
        const double must = 2.0 * copyBytes;
        KF_CHECK_MSG(std::abs(copy.dramBytes - must) <= 0.02 * must,
                     "copy DRAM bytes " + std::to_string(copy.dramBytes) + " vs " + std::to_string(must));
        KF_CHECK(copy.timeNs > 0 && copy.achievedGbps > 1000);
        KF_CHECK(copy.launch && copy.launch->grid[0] == static_cast<int32_t>(copyBlocks) && copy.launch->block[0] == 256);

        const double ffma = fma.value(metric::kFfma);
        const double expectFfma = fmaThreadCount * 8.0 * fmaIters;
        KF_CHECK_MSG(ffma == expectFfma, "FFMA " + std::to_string(ffma) + " expected " + std::to_string(expectFfma));
        KF_CHECK(fma.value(metric::kFadd) == 0 && fma.value(metric::kFmul) == 0);
        KF_CHECK_MSG(fma.flopsFp32 == 2.0 * expectFfma, "FLOPs " + std::to_string(fma.flopsFp32));
        KF_CHECK(fma.achievedGflops > 1000);

        // Theoretical occupancy from the record == the runtime's answer for the same function.
        int blocks = 0;
        CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, copy_kernel, 256, 0));
        KF_CHECK(copy.theoreticalOccupancy && copy.theoreticalOccupancy->activeBlocksPerSm == blocks);
        CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fma_kernel, fmaThreads, 0));
        KF_CHECK(fma.theoreticalOccupancy && fma.theoreticalOccupancy->activeBlocksPerSm == blocks);

        // The roofline on these two kernels, with round H200-like peaks.
        RooflineReport roof = buildRoofline(DevicePeaks{4000, 60000}, &m, -1, -1, NAN);
        KF_CHECK(roof.kernels.size() == 2 && roof.kernels[0].point.bound == Bound::Memory &&
                 roof.kernels[1].point.bound == Bound::Compute);
    }

    // The replays were traced (that is how the ranges got their names) but are not launches of a run.
    CUDA_OK(cudaDeviceSynchronize());
    tracer.flush();
    TraceSummary t = summarizeTrace(tracer.takeRecords(), tracer.takeRegions());
    std::printf("trace after the metrics pass: candidate runs %zu, launches/run %.0f..%.0f, replay records excluded %zu\n",
                t.candidate.runs, t.candidate.launchesPerRun.min, t.candidate.launchesPerRun.max, t.replayExcluded);
    KF_CHECK(t.candidate.runs == 3 && t.candidate.launchesPerRun.min == 1 && t.candidate.launchesPerRun.max == 1);
    KF_CHECK(t.replayExcluded >= 2);

    // A second collect reuses the configuration: only the session cost remains.
    MetricsResult again = collector.collect(launchCopy);
    KF_CHECK(again.available && again.kernels.size() == 1);
    std::printf("second collect (copy only): session %.0f ms, total %.0f ms\n", again.sessionMs, again.totalMs);

    // Occupancy cross-check on kernels with shared memory and many registers, launched in an untimed region.
    std::optional<DeviceLimits> limits = queryDeviceLimits(0);
    KF_CHECK(limits.has_value());
    float* scratch = nullptr;
    CUDA_OK(cudaMalloc(&scratch, 1 << 24));
    CUDA_OK(cudaFuncSetAttribute(smem_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
    struct OccCase {
        const void* fn;
        int block;
        size_t dyn;
    };
    const OccCase occCases[] = {{(const void*)smem_kernel, 256, 48 * 1024}, {(const void*)smem_kernel, 96, 100 * 1024},
                                {(const void*)smem_kernel, 1024, 4096},       {(const void*)heavy_kernel, 128, 0},
                                {(const void*)fma_kernel, 96, 0}};
    uint32_t untimed = tracer.beginRegion(RegionKind::Untimed, 0);
    for (const OccCase& c : occCases) {
        if (c.fn == (const void*)smem_kernel)
            smem_kernel<<<4, c.block, c.dyn, s>>>(scratch);
        else if (c.fn == (const void*)heavy_kernel)
            heavy_kernel<<<4, c.block, 0, s>>>(fin, scratch);
        else
            fma_kernel<<<4, c.block, 0, s>>>(fin, scratch, 4, 1.0f, 0.0f);
    }
    CUDA_OK(cudaStreamSynchronize(s));
    tracer.endRegion();
    tracer.flush();
    auto recs = tracer.kernelsInRegion(untimed);
    std::sort(recs.begin(), recs.end(), [](const auto& x, const auto& y) { return x.first.start < y.first.start; });
    KF_CHECK(recs.size() == std::size(occCases));
    for (size_t i = 0; i < recs.size() && i < std::size(occCases); ++i) {
        const KernelRecord& k = recs[i].first;
        int expect = 0;
        CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&expect, occCases[i].fn, occCases[i].block, occCases[i].dyn));
        auto o = limits ? theoreticalOccupancy(*limits, k.threadsPerBlock(), k.registers, k.staticSmem, k.dynamicSmem)
                        : std::nullopt;
        std::printf("  occupancy %-28.28s block %4d regs %3d smem %6d+%6d: ours %d blocks (%s), runtime %d\n",
                    demangle(recs[i].second).c_str(), k.threadsPerBlock(), k.registers, k.staticSmem, k.dynamicSmem,
                    o ? o->activeBlocksPerSm : -1, o ? o->limiter.c_str() : "-", expect);
        KF_CHECK(o && o->activeBlocksPerSm == expect);
    }
    tracer.stop();

    // A foreign CUPTI subscriber (as under Nsight): metrics either still work or say who holds CUPTI.
    {
        CUpti_SubscriberParams p{};
        p.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
        p.subscriberName = "FakeNsight";
        CUpti_SubscriberHandle h = nullptr;
        if (cuptiSubscribe_v2(&h, reinterpret_cast<CUpti_CallbackFunc>(ignore), nullptr, &p) == CUPTI_SUCCESS) {
            MetricsCollector other;
            MetricsResult r = other.collect(launchCopy);
            std::printf("metrics under a foreign subscriber: %s %s\n", r.available ? "available" : r.problem.error.c_str(),
                        r.problem.reason.c_str());
            KF_CHECK(r.available || !r.problem.reason.empty());
            if (!r.available && r.problem.error == "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED")
                KF_CHECK_CONTAINS(r.problem.holder, "FakeNsight");
            cuptiUnsubscribe(h);
        }
    }
    return kforge::runtime::test::finish("tst_profiler_gpu_metrics");
}
