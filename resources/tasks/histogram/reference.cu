// Reference for histogram: per-block histograms in shared memory (shared atomics), merged into the
// zeroed output with one global atomic per bin per block. One byte per load.
#include "kforge/kernel.h"

constexpr int BINS = 256;

__global__ void histogram_smem(const uint8_t *__restrict__ x, int *__restrict__ hist, int64_t n)
{
    __shared__ int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        atomicAdd(&local[x[i]], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b] != 0)
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
    histogram_smem<<<132 * 8, 256, 0, stream>>>(static_cast<const uint8_t *>(in[0].data), hist, in[0].numel);
    return cudaGetLastError();
}
