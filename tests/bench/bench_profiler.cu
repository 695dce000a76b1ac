// bench_profiler: what CUPTI costs the workbench's measurements.
//  1. Tracing overhead on the median event time of a short kernel (~1M floats) and of diag_matmul's good
//     candidate (row scaling, 4096 x 4096), timed as the worker times them: no tracing, kernels-only
//     tracing, full tracing (API records + a region per run). Blocks of runs interleaved.
//  2. Metrics pass wall time (Range Profiler, default metric set) for the 4096 x 4096 row scaling and a
//     naive 4096 x 4096 diag(A) @ B matrix product: first call (init + config) and later calls.
//  3. Traced mean kernel times, for comparison with `ncu --clock-control none --metrics
//     gpu__time_duration.sum` run on `bench_profiler --ncu-workload` (same kernels, no CUPTI of ours).
// Prints figures; not a pass/fail test.
#include "core/runtime/profiler/profiler.h"
#include "tests/core/runtime/profiler/cudaok.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace kforge::runtime::profiler;

namespace {

__global__ void scale_kernel(float* __restrict__ x, float a, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

// diag(A) @ B, the good way: C[i, :] = A[i] * B[i, :], float4 per thread.
__global__ void rowscale_kernel(const float* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ c,
                                int n, int m4)
{
    size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (idx >= (size_t)n * m4)
        return;
    const float s = a[idx / m4];
    float4 v = b[idx];
    c[idx] = make_float4(s * v.x, s * v.y, s * v.z, s * v.w);
}

// diag(A) @ B, the naive way: a dense product with the diagonal matrix materialised.
__global__ void naive_diag_matmul(const float* __restrict__ d, const float* __restrict__ b, float* __restrict__ c, int n)
{
    int i = blockIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    float acc = 0;
    for (int k = 0; k < n; ++k)
        acc += d[(size_t)i * n + k] * b[(size_t)k * n + j];
    c[(size_t)i * n + j] = acc;
}

__global__ void flush_kernel(float* x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        x[i] += 1.0f;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

struct Bench {
    cudaStream_t s = nullptr;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    float *x = nullptr, *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr, *flush = nullptr;
    const size_t shortN = 1u << 20, flushN = 64u << 20;  // 256 MiB flush buffer > L2
    const int n = 4096;

    void setup()
    {
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        CUDA_OK(cudaEventCreate(&e0));
        CUDA_OK(cudaEventCreate(&e1));
        CUDA_OK(cudaMalloc(&x, shortN * sizeof(float)));
        CUDA_OK(cudaMalloc(&a, n * sizeof(float)));
        CUDA_OK(cudaMalloc(&b, (size_t)n * n * sizeof(float)));
        CUDA_OK(cudaMalloc(&c, (size_t)n * n * sizeof(float)));
        CUDA_OK(cudaMalloc(&d, (size_t)n * n * sizeof(float)));
        CUDA_OK(cudaMalloc(&flush, flushN * sizeof(float)));
        CUDA_OK(cudaMemset(x, 0, shortN * sizeof(float)));
        CUDA_OK(cudaMemset(a, 0, n * sizeof(float)));
        CUDA_OK(cudaMemset(b, 0, (size_t)n * n * sizeof(float)));
        CUDA_OK(cudaMemset(d, 0, (size_t)n * n * sizeof(float)));
        CUDA_OK(cudaMemset(flush, 0, flushN * sizeof(float)));
        CUDA_OK(cudaDeviceSynchronize());
    }
    void shortKernel() { scale_kernel<<<(unsigned)((shortN + 255) / 256), 256, 0, s>>>(x, 1.0001f, shortN); }
    void rowscale()
    {
        const int m4 = n / 4;
        const size_t total = (size_t)n * m4;
        rowscale_kernel<<<(unsigned)((total + 255) / 256), 256, 0, s>>>(a, reinterpret_cast<const float4*>(b),
                                                                          reinterpret_cast<float4*>(c), n, m4);
    }
    void naive() { naive_diag_matmul<<<dim3(n / 256, n), 256, 0, s>>>(d, b, c, n); }
    void flushL2() { flush_kernel<<<528, 256, 0, s>>>(flush, flushN); }

    // One timed run as the worker does it; the region is opened only when a tracer is given.
    double timedRun(const std::function<void()>& k, ActivityTracer* tracer, RegionKind kind, uint32_t run)
    {
        flushL2();
        if (tracer)
            tracer->beginRegion(kind, run, ActivityTracer::streamId(s));
        CUDA_OK(cudaEventRecord(e0, s));
        k();
        CUDA_OK(cudaEventRecord(e1, s));
        CUDA_OK(cudaEventSynchronize(e1));
        float ms = 0;
        CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
        if (tracer)
            tracer->endRegion(ms);
        return ms;
    }
};

struct OverheadRow {
    std::string kernel;
    double none = 0, light = 0, full = 0;
    double tracedMeanUs = 0;
};

OverheadRow overhead(Bench& bench, const char* label, const std::function<void()>& k, int blockRuns, int rounds)
{
    std::vector<double> none, light, full;
    OverheadRow row;
    row.kernel = label;
    for (int i = 0; i < 20; ++i)
        bench.timedRun(k, nullptr, RegionKind::Candidate, 0);  // warm-up
    std::vector<double> traced;
    for (int round = 0; round < rounds; ++round) {
        for (int r = 0; r < blockRuns; ++r)
            none.push_back(bench.timedRun(k, nullptr, RegionKind::Candidate, r));
        {
            TracerOptions kernelsOnly;
            kernelsOnly.apiRecords = false;
            ActivityTracer t(kernelsOnly);
            if (!t.start().ok()) {
                std::printf("tracer unavailable\n");
                return row;
            }
            for (int r = 0; r < blockRuns; ++r)
                light.push_back(bench.timedRun(k, &t, RegionKind::Candidate, r));
            t.stop();
        }
        {
            ActivityTracer t;
            if (!t.start().ok())
                return row;
            for (int r = 0; r < blockRuns; ++r)
                full.push_back(bench.timedRun(k, &t, RegionKind::Candidate, r));
            CUDA_OK(cudaDeviceSynchronize());
            t.flush();
            TraceSummary sum = summarizeTrace(t.takeRecords(), t.takeRegions());
            for (const KernelGroup& g : sum.candidate.kernels)
                traced.push_back(g.durationUs.mean);
            t.stop();
        }
    }
    row.none = median(none);
    row.light = median(light);
    row.full = median(full);
    row.tracedMeanUs = traced.empty() ? 0 : median(traced);
    return row;
}

// Whether tracing and metrics are available in this process, as JSON (run it under ncu or
// compute-sanitizer to see the degrade path name the tool holding CUPTI).
int status(Bench& bench)
{
    ActivityTracer t;
    CuptiDiagnosis d = t.start();
    MetricsCollector mc;
    MetricsResult m = mc.collect([&] { bench.rowscale(); });
    nlohmann::json j{{"tracer", d.ok() ? nlohmann::json("available") : nlohmann::json(d)},
                     {"metrics", m.available ? nlohmann::json("available") : nlohmann::json(m.problem)}};
    std::printf("STATUS %s\n", j.dump().c_str());
    return 0;
}

int ncuWorkload(Bench& bench)
{
    // The same kernels, timed by ncu from outside (no CUPTI of ours in this mode).
    for (int r = 0; r < 10; ++r) {
        bench.flushL2();
        bench.shortKernel();
        bench.flushL2();
        bench.rowscale();
    }
    CUDA_OK(cudaDeviceSynchronize());
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    setvbuf(stdout, nullptr, _IOLBF, 0);  // keep the output if something crashes
    if (!hasCudaDevice()) {
        std::printf("bench_profiler: no CUDA device\n");
        return 0;
    }
    Bench bench;
    bench.setup();
    if (argc > 1 && std::strcmp(argv[1], "--ncu-workload") == 0)
        return ncuWorkload(bench);
    if (argc > 1 && std::strcmp(argv[1], "--status") == 0)
        return status(bench);

    cudaDeviceProp prop{};
    CUDA_OK(cudaGetDeviceProperties(&prop, 0));
    std::printf("bench_profiler on %s (%d SMs)\n\n", prop.name, prop.multiProcessorCount);

    std::vector<OverheadRow> rows;
    rows.push_back(overhead(bench, "scale 1M floats (short)", [&] { bench.shortKernel(); }, 200, 5));
    rows.push_back(overhead(bench, "rowscale 4096x4096", [&] { bench.rowscale(); }, 100, 5));

    // Metrics pass.
    struct MetricsRow {
        std::string what;
        double totalMs = 0, sessionMs = 0;
        size_t passes = 0, kernels = 0;
        bool ok = false;
        std::string why;
    };
    std::vector<MetricsRow> mrows;
    {
        ActivityTracer tracer;  // as in the worker: tracing is on when the metrics pass runs (names the ranges)
        tracer.start();
        MetricsCollector mc;
        auto run = [&](const char* what, const std::function<void()>& launch) {
            auto t0 = std::chrono::steady_clock::now();
            MetricsResult m = mc.collect(launch);
            double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            mrows.push_back({what, wall, m.sessionMs, m.passes, m.kernels.size(), m.available, m.problem.reason});
            for (const KernelMetrics& k : m.kernels)
                std::printf("  metrics %-40.40s time %9.1f us  DRAM %7.1f MiB  %6.0f GB/s  %8.0f GFLOP/s  occ %4.1f%%\n",
                            k.name.c_str(), k.timeNs / 1e3, k.dramBytes / 1048576.0, k.achievedGbps, k.achievedGflops,
                            k.achievedOccupancyPct);
        };
        run("rowscale 4096x4096 (1st: init+config)", [&] { bench.rowscale(); });
        run("rowscale 4096x4096", [&] { bench.rowscale(); });
        run("naive diag matmul 4096x4096", [&] { bench.naive(); });
        run("reference (naive) + candidate (rowscale)", [&] {
            bench.naive();
            bench.rowscale();
        });
        tracer.stop();
    }

    std::printf("\nTracing overhead on the median event time (worker-style runs, L2 flushed, interleaved blocks)\n");
    std::printf("%-26s %12s %12s %12s %9s %9s %14s\n", "kernel", "none ms", "kernels ms", "full ms", "kern %", "full %",
                "traced mean us");
    for (const OverheadRow& r : rows)
        std::printf("%-26s %12.5f %12.5f %12.5f %+8.2f%% %+8.2f%% %14.2f\n", r.kernel.c_str(), r.none, r.light, r.full,
                    100.0 * (r.light / r.none - 1), 100.0 * (r.full / r.none - 1), r.tracedMeanUs);
    std::printf("\nMetrics pass (default metric set)\n");
    std::printf("%-42s %10s %10s %7s %8s\n", "launch", "wall ms", "session ms", "passes", "kernels");
    for (const MetricsRow& r : mrows)
        std::printf("%-42s %10.1f %10.1f %7zu %8zu %s\n", r.what.c_str(), r.totalMs, r.sessionMs, r.passes, r.kernels,
                    r.ok ? "" : r.why.c_str());
    for (const OverheadRow& r : rows)
        std::printf("TRACED %s %.3f\n", r.kernel.c_str(), r.tracedMeanUs);
    return 0;
}
