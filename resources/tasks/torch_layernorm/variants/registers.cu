// .cu candidate for the torch task LayerNorm (inputs: x, then the module's ln.weight and ln.bias; eps is a param).
// The row is read from memory once, into registers (up to 8 float4 per thread, so rows
// of up to 8192 elements with 256 threads); mean and variance about the mean are computed from the
// registers with warp-shuffle reductions, and the normalised row is written with float4 stores.
// Rows that do not fit, or are not float4-aligned, take a scalar two-pass kernel.
#include "kforge/kernel.h"

constexpr int THREADS = 256;
constexpr int MAX_VEC = 8;

__device__ __forceinline__ float block_sum(float v, float *warp_sums)
{
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    float t = 0.0f;
    for (int i = 0; i < THREADS / 32; ++i)
        t += warp_sums[i];
    __syncthreads(); // warp_sums is reused by the next reduction
    return t;
}

__global__ __launch_bounds__(THREADS) void layernorm_regs(const float4 *__restrict__ x, const float4 *__restrict__ w,
                                                          const float4 *__restrict__ b, float4 *__restrict__ y,
                                                          int cols4, float eps)
{
    __shared__ float warp_sums[THREADS / 32];
    const float4 *xr = x + (int64_t)blockIdx.x * cols4;
    float4 *yr = y + (int64_t)blockIdx.x * cols4;
    float4 v[MAX_VEC];
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < MAX_VEC; ++i) {
        const int c = threadIdx.x + i * THREADS;
        if (c < cols4) {
            v[i] = xr[c];
            s += (v[i].x + v[i].y) + (v[i].z + v[i].w);
        }
    }
    const float n = 4.0f * cols4;
    const float mean = block_sum(s, warp_sums) / n;
    float q = 0.0f;
#pragma unroll
    for (int i = 0; i < MAX_VEC; ++i) {
        const int c = threadIdx.x + i * THREADS;
        if (c < cols4) {
            const float dx = v[i].x - mean, dy = v[i].y - mean, dz = v[i].z - mean, dw = v[i].w - mean;
            q += (dx * dx + dy * dy) + (dz * dz + dw * dw);
        }
    }
    const float rstd = rsqrtf(block_sum(q, warp_sums) / n + eps);
#pragma unroll
    for (int i = 0; i < MAX_VEC; ++i) {
        const int c = threadIdx.x + i * THREADS;
        if (c < cols4) {
            const float4 wv = __ldg(w + c), bv = __ldg(b + c);
            yr[c] = make_float4((v[i].x - mean) * rstd * wv.x + bv.x, (v[i].y - mean) * rstd * wv.y + bv.y,
                                (v[i].z - mean) * rstd * wv.z + bv.z, (v[i].w - mean) * rstd * wv.w + bv.w);
        }
    }
}

__global__ __launch_bounds__(THREADS) void layernorm_scalar(const float *__restrict__ x, const float *__restrict__ w,
                                                            const float *__restrict__ b, float *__restrict__ y,
                                                            int64_t cols, float eps)
{
    __shared__ float warp_sums[THREADS / 32];
    const float *xr = x + blockIdx.x * cols;
    float *yr = y + blockIdx.x * cols;
    float s = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += THREADS)
        s += xr[c];
    const float mean = block_sum(s, warp_sums) / (float)cols;
    float q = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += THREADS) {
        const float d = xr[c] - mean;
        q += d * d;
    }
    const float rstd = rsqrtf(block_sum(q, warp_sums) / (float)cols + eps);
    for (int64_t c = threadIdx.x; c < cols; c += THREADS)
        yr[c] = (xr[c] - mean) * rstd * w[c] + b[c];
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    const float eps = (float)kf_param(params, "eps", 1e-5);
    const void *x = in[0].data, *w = in[1].data, *b = in[2].data;
    void *y = out[0].data;
    const bool aligned = ((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(w)
                           | reinterpret_cast<uintptr_t>(b) | reinterpret_cast<uintptr_t>(y))
                          & 15)
                         == 0;
    if (aligned && cols % 4 == 0 && cols / 4 <= (int64_t)MAX_VEC * THREADS)
        layernorm_regs<<<(unsigned)rows, THREADS, 0, stream>>>(static_cast<const float4 *>(x),
                                                               static_cast<const float4 *>(w),
                                                               static_cast<const float4 *>(b), static_cast<float4 *>(y),
                                                               (int)(cols / 4), eps);
    else
        layernorm_scalar<<<(unsigned)rows, THREADS, 0, stream>>>(static_cast<const float *>(x),
                                                                 static_cast<const float *>(w),
                                                                 static_cast<const float *>(b), static_cast<float *>(y),
                                                                 cols, eps);
    return cudaGetLastError();
}
