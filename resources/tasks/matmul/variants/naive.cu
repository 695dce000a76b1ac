// Naive candidate: one thread per output element, the K loop straight from global memory. Loads of B are
// coalesced and A is broadcast across the warp, but every element of A and B is fetched N (or M) times.
#include "kforge/kernel.h"

__global__ void matmul_naive(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                             int64_t m, int64_t n, int64_t k)
{
    const int64_t col = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    const int64_t row = blockIdx.y * (int64_t)blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float acc = 0.0f;
    for (int64_t i = 0; i < k; ++i)
        acc += A[row * k + i] * B[i * n + col];
    C[row * n + col] = acc;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t m = in[0].shape[0], k = in[0].shape[1], n = in[1].shape[1];
    const dim3 block(32, 8);
    const dim3 grid((unsigned)((n + 31) / 32), (unsigned)((m + 7) / 8));
    matmul_naive<<<grid, block, 0, stream>>>(static_cast<const float *>(in[0].data),
                                             static_cast<const float *>(in[1].data),
                                             static_cast<float *>(out[0].data), m, n, k);
    return cudaGetLastError();
}
