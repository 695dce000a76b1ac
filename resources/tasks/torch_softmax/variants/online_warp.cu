// .cu candidate for the torch task softmax(x, dim=1) (input: the forward argument x).
// One block per row; a single read pass keeps a running (max, sum) pair per thread
// (online softmax: the sum is rescaled when the max grows), pairs are merged with warp shuffles and then
// across warps, and a second pass writes the result. float4 loads and stores throughout.
#include "kforge/kernel.h"

constexpr int THREADS = 512;

struct MaxSum {
    float m, s;
};

__device__ __forceinline__ MaxSum merge(MaxSum a, MaxSum b)
{
    if (a.m < b.m) {
        const MaxSum t = a;
        a = b;
        b = t;
    }
    // a.m >= b.m; an empty partial has m = -inf and s = 0.
    if (b.m == -INFINITY)
        return a;
    return MaxSum{a.m, a.s + b.s * expf(b.m - a.m)};
}

__device__ __forceinline__ MaxSum add(MaxSum a, float v)
{
    if (v > a.m) {
        a.s = a.s * expf(a.m - v) + 1.0f;
        a.m = v;
    } else {
        a.s += expf(v - a.m);
    }
    return a;
}

__device__ MaxSum block_merge(MaxSum p)
{
    __shared__ MaxSum warp_part[32];
    __shared__ MaxSum total;
    for (int off = 16; off > 0; off /= 2) {
        MaxSum o;
        o.m = __shfl_xor_sync(0xffffffffu, p.m, off);
        o.s = __shfl_xor_sync(0xffffffffu, p.s, off);
        p = merge(p, o);
    }
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0)
        warp_part[warp] = p;
    __syncthreads();
    if (warp == 0) {
        const int nwarps = blockDim.x / 32;
        MaxSum q = lane < nwarps ? warp_part[lane] : MaxSum{-INFINITY, 0.0f};
        for (int off = 16; off > 0; off /= 2) {
            MaxSum o;
            o.m = __shfl_xor_sync(0xffffffffu, q.m, off);
            o.s = __shfl_xor_sync(0xffffffffu, q.s, off);
            q = merge(q, o);
        }
        if (lane == 0)
            total = q;
    }
    __syncthreads();
    return total;
}

__global__ __launch_bounds__(THREADS) void softmax_online_vec4(const float4 *__restrict__ x, float4 *__restrict__ y,
                                                               int64_t cols4)
{
    const float4 *xr = x + blockIdx.x * cols4;
    float4 *yr = y + blockIdx.x * cols4;
    MaxSum p{-INFINITY, 0.0f};
    for (int64_t c = threadIdx.x; c < cols4; c += blockDim.x) {
        const float4 v = xr[c];
        p = add(p, v.x);
        p = add(p, v.y);
        p = add(p, v.z);
        p = add(p, v.w);
    }
    const MaxSum t = block_merge(p);
    const float inv = 1.0f / t.s;
    for (int64_t c = threadIdx.x; c < cols4; c += blockDim.x) {
        const float4 v = xr[c];
        yr[c] = make_float4(expf(v.x - t.m) * inv, expf(v.y - t.m) * inv, expf(v.z - t.m) * inv, expf(v.w - t.m) * inv);
    }
}

__global__ __launch_bounds__(THREADS) void softmax_online_scalar(const float *__restrict__ x, float *__restrict__ y,
                                                                 int64_t cols)
{
    const float *xr = x + blockIdx.x * cols;
    float *yr = y + blockIdx.x * cols;
    MaxSum p{-INFINITY, 0.0f};
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        p = add(p, xr[c]);
    const MaxSum t = block_merge(p);
    const float inv = 1.0f / t.s;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        yr[c] = expf(xr[c] - t.m) * inv;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    const void *x = in[0].data;
    void *y = out[0].data;
    const bool aligned = ((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(y)) & 15) == 0;
    if (cols % 4 == 0 && aligned)
        softmax_online_vec4<<<(unsigned)rows, THREADS, 0, stream>>>(static_cast<const float4 *>(x),
                                                                    static_cast<float4 *>(y), cols / 4);
    else
        softmax_online_scalar<<<(unsigned)rows, THREADS, 0, stream>>>(static_cast<const float *>(x),
                                                                      static_cast<float *>(y), cols);
    return cudaGetLastError();
}
