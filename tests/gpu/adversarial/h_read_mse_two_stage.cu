// Honest (issue 35 item 7): a pure-read kernel at its floor. mse_loss reads 2 x 2^25 floats and writes one: the
// task's byte floor uses the measured read bandwidth, so this kernel (the task's good variant: float4 loads, one
// partial per block, one warp sums the partials) runs near 100 % of it without being called impossible.
// KForge must report `correct` with no flag (no below_speed_of_light).
// Good candidate: a grid sized to fill the GPU once (4 blocks of 512 per SM), float4 loads, float
// accumulation per thread (a few hundred terms each) promoted to double for the warp-shuffle and block
// reductions; one partial per block, then a one-warp kernel sums the partials. Deterministic.
#include "kforge/kernel.h"

constexpr int THREADS = 512;
constexpr int BLOCKS = 132 * 4;

__device__ __forceinline__ double warp_sum(double v)
{
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

__global__ __launch_bounds__(THREADS) void partials_vec4(const float4 *__restrict__ p, const float4 *__restrict__ t,
                                                         const float *__restrict__ ps, const float *__restrict__ ts,
                                                         int64_t n4, int64_t n, double *__restrict__ part)
{
    __shared__ double warp_part[THREADS / 32];
    float s = 0.0f;
    for (int64_t i = blockIdx.x * (int64_t)THREADS + threadIdx.x; i < n4; i += (int64_t)gridDim.x * THREADS) {
        const float4 a = __ldg(p + i), b = __ldg(t + i);
        const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z, dw = a.w - b.w;
        s += (dx * dx + dy * dy) + (dz * dz + dw * dw);
    }
    // Scalar tail (n not a multiple of 4), taken by the first block only.
    if (blockIdx.x == 0)
        for (int64_t i = n4 * 4 + threadIdx.x; i < n; i += THREADS) {
            const float d = ps[i] - ts[i];
            s += d * d;
        }
    double d = warp_sum((double)s);
    if (threadIdx.x % 32 == 0)
        warp_part[threadIdx.x / 32] = d;
    __syncthreads();
    if (threadIdx.x < 32) {
        d = threadIdx.x < THREADS / 32 ? warp_part[threadIdx.x] : 0.0;
        d = warp_sum(d);
        if (threadIdx.x == 0)
            part[blockIdx.x] = d;
    }
}

__global__ void finish(const double *__restrict__ part, int nparts, float *__restrict__ out, int64_t n)
{
    double s = 0.0;
    for (int i = threadIdx.x; i < nparts; i += 32)
        s += part[i];
    s = warp_sum(s);
    if (threadIdx.x == 0)
        out[0] = (float)(s / (double)n);
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t n = in[0].numel;
    const float *p = static_cast<const float *>(in[0].data);
    const float *t = static_cast<const float *>(in[1].data);
    const bool aligned = ((reinterpret_cast<uintptr_t>(p) | reinterpret_cast<uintptr_t>(t)) & 15) == 0;
    const int64_t n4 = aligned ? n / 4 : 0;
    double *part = nullptr;
    cudaError_t err = cudaMallocAsync(reinterpret_cast<void **>(&part), sizeof(double) * BLOCKS, stream);
    if (err != cudaSuccess)
        return err;
    partials_vec4<<<BLOCKS, THREADS, 0, stream>>>(reinterpret_cast<const float4 *>(p),
                                                  reinterpret_cast<const float4 *>(t), p, t, n4, n, part);
    finish<<<1, 32, 0, stream>>>(part, BLOCKS, static_cast<float *>(out[0].data), n);
    cudaFreeAsync(part, stream);
    return cudaGetLastError();
}
