// Deliberately wrong candidate (self-test checks that it is caught): the shared-memory histogram with a
// plain increment instead of an atomic, so threads that hit the same bin at the same time lose counts.
#include "kforge/kernel.h"

constexpr int BINS = 256;

__global__ void histogram_racy(const uint8_t *__restrict__ x, int *__restrict__ hist, int64_t n)
{
    __shared__ int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        volatile int *slot = &local[x[i]];
        *slot = *slot + 1; // bug: read-modify-write race between threads of the block
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        atomicAdd(&hist[b], local[b]);
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    int *hist = static_cast<int *>(out[0].data);
    cudaError_t err = cudaMemsetAsync(hist, 0, sizeof(int) * BINS, stream);
    if (err != cudaSuccess)
        return err;
    histogram_racy<<<132 * 8, 256, 0, stream>>>(static_cast<const uint8_t *>(in[0].data), hist, in[0].numel);
    return cudaGetLastError();
}
