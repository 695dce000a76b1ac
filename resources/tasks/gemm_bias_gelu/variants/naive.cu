// Naive fused candidate: a textbook 32x32 shared-memory tiled GEMM, one output per thread, with bias and
// GELU applied before the single store. Fusion saves the extra pass over y, but the GEMM itself is slow.
#include "kforge/kernel.h"

constexpr int TILE = 32;

__device__ __forceinline__ float gelu_tanh(float v)
{
    const float k0 = 0.7978845608028654f;
    return 0.5f * v * (1.0f + tanhf(k0 * (v + 0.044715f * v * v * v)));
}

// y (m x n) = gelu(x (m x k) * w^T + bias), w is (n x k).
__global__ void linear_gelu_tiled(const float *__restrict__ x, const float *__restrict__ w,
                                  const float *__restrict__ bias, float *__restrict__ y, int64_t m, int64_t n,
                                  int64_t k)
{
    __shared__ float xs[TILE][TILE + 1];
    __shared__ float ws[TILE][TILE + 1]; // ws[kk][col]
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t row = (int64_t)blockIdx.y * TILE + ty;
    const int64_t col = (int64_t)blockIdx.x * TILE + tx;
    const int64_t wrow = (int64_t)blockIdx.x * TILE + ty; // the weight row this thread loads
    float acc = 0.0f;
    for (int64_t t = 0; t < k; t += TILE) {
        xs[ty][tx] = (row < m && t + tx < k) ? x[row * k + t + tx] : 0.0f;
        ws[tx][ty] = (wrow < n && t + tx < k) ? w[wrow * k + t + tx] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int i = 0; i < TILE; ++i)
            acc = fmaf(xs[ty][i], ws[i][tx], acc);
        __syncthreads();
    }
    if (row < m && col < n)
        y[row * n + col] = gelu_tanh(acc + bias[col]);
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t m = in[0].shape[0], k = in[0].shape[1], n = in[1].shape[0];
    const dim3 grid((unsigned)((n + TILE - 1) / TILE), (unsigned)((m + TILE - 1) / TILE));
    linear_gelu_tiled<<<grid, dim3(TILE, TILE), 0, stream>>>(
        static_cast<const float *>(in[0].data), static_cast<const float *>(in[1].data),
        static_cast<const float *>(in[2].data), static_cast<float *>(out[0].data), m, n, k);
    return cudaGetLastError();
}
