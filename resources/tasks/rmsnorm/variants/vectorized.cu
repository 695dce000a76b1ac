// Good candidate: one block of 256 threads per row, 16-byte loads (8 bf16) kept in registers for rows of
// up to 8192 elements, so x is read from memory once; warp-shuffle reduction of the sum of squares;
// bf16x2 conversions on the way out. Other shapes take a scalar kernel.
#include "kforge/kernel.h"

#include <cuda_bf16.h>

constexpr int THREADS = 256;
constexpr int MAX_VEC = 4; // uint4 (8 bf16) per thread

__device__ __forceinline__ float block_sum(float v, float *warp_sums)
{
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    float t = 0.0f;
    for (int i = 0; i < THREADS / 32; ++i)
        t += warp_sums[i];
    return t;
}

__global__ __launch_bounds__(THREADS) void rmsnorm_vec(const uint4 *__restrict__ x, const uint4 *__restrict__ w,
                                                       uint4 *__restrict__ y, int cols8, float inv_cols, float eps)
{
    __shared__ float warp_sums[THREADS / 32];
    const uint4 *xr = x + (int64_t)blockIdx.x * cols8;
    uint4 *yr = y + (int64_t)blockIdx.x * cols8;
    uint4 v[MAX_VEC];
    float q = 0.0f;
#pragma unroll
    for (int i = 0; i < MAX_VEC; ++i) {
        const int c = threadIdx.x + i * THREADS;
        if (c < cols8) {
            v[i] = xr[c];
            const __nv_bfloat162 *h = reinterpret_cast<const __nv_bfloat162 *>(&v[i]);
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const float2 f = __bfloat1622float2(h[j]);
                q += f.x * f.x + f.y * f.y;
            }
        }
    }
    const float rinv = rsqrtf(block_sum(q, warp_sums) * inv_cols + eps);
#pragma unroll
    for (int i = 0; i < MAX_VEC; ++i) {
        const int c = threadIdx.x + i * THREADS;
        if (c < cols8) {
            const uint4 wv = __ldg(w + c);
            const __nv_bfloat162 *h = reinterpret_cast<const __nv_bfloat162 *>(&v[i]);
            const __nv_bfloat162 *hw = reinterpret_cast<const __nv_bfloat162 *>(&wv);
            uint4 o;
            __nv_bfloat162 *ho = reinterpret_cast<__nv_bfloat162 *>(&o);
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const float2 f = __bfloat1622float2(h[j]);
                const float2 g = __bfloat1622float2(hw[j]);
                ho[j] = __floats2bfloat162_rn(f.x * rinv * g.x, f.y * rinv * g.y);
            }
            yr[c] = o;
        }
    }
}

__global__ __launch_bounds__(THREADS) void rmsnorm_scalar(const __nv_bfloat16 *__restrict__ x,
                                                          const __nv_bfloat16 *__restrict__ w,
                                                          __nv_bfloat16 *__restrict__ y, int64_t cols, float eps)
{
    __shared__ float warp_sums[THREADS / 32];
    const __nv_bfloat16 *xr = x + blockIdx.x * cols;
    __nv_bfloat16 *yr = y + blockIdx.x * cols;
    float q = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += THREADS) {
        const float v = __bfloat162float(xr[c]);
        q += v * v;
    }
    const float rinv = rsqrtf(block_sum(q, warp_sums) / (float)cols + eps);
    for (int64_t c = threadIdx.x; c < cols; c += THREADS)
        yr[c] = __float2bfloat16(__bfloat162float(xr[c]) * rinv * __bfloat162float(w[c]));
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    const float eps = (float)kf_param(params, "eps", 1e-6);
    const void *x = in[0].data, *w = in[1].data;
    void *y = out[0].data;
    const bool aligned = ((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(w) |
                           reinterpret_cast<uintptr_t>(y)) & 15) == 0;
    if (aligned && cols % 8 == 0 && cols / 8 <= (int64_t)MAX_VEC * THREADS)
        rmsnorm_vec<<<(unsigned)rows, THREADS, 0, stream>>>(static_cast<const uint4 *>(x),
                                                            static_cast<const uint4 *>(w), static_cast<uint4 *>(y),
                                                            (int)(cols / 8), 1.0f / (float)cols, eps);
    else
        rmsnorm_scalar<<<(unsigned)rows, THREADS, 0, stream>>>(static_cast<const __nv_bfloat16 *>(x),
                                                               static_cast<const __nv_bfloat16 *>(w),
                                                               static_cast<__nv_bfloat16 *>(y), cols, eps);
    return cudaGetLastError();
}
