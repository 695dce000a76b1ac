// Reference for softmax: one block per row, three passes over the row (max, sum of exponentials, write)
// with shared-memory tree reductions.
#include "kforge/kernel.h"

constexpr int THREADS = 256;

__device__ float block_reduce_max(float v, float *smem)
{
    smem[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s)
            smem[threadIdx.x] = fmaxf(smem[threadIdx.x], smem[threadIdx.x + s]);
        __syncthreads();
    }
    const float r = smem[0];
    __syncthreads();
    return r;
}

__device__ float block_reduce_sum(float v, float *smem)
{
    smem[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s)
            smem[threadIdx.x] += smem[threadIdx.x + s];
        __syncthreads();
    }
    const float r = smem[0];
    __syncthreads();
    return r;
}

__global__ void softmax_rows(const float *__restrict__ x, float *__restrict__ y, int64_t cols)
{
    __shared__ float smem[THREADS];
    const float *xr = x + blockIdx.x * cols;
    float *yr = y + blockIdx.x * cols;
    float mx = -INFINITY;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        mx = fmaxf(mx, xr[c]);
    mx = block_reduce_max(mx, smem);
    float sum = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        sum += expf(xr[c] - mx);
    sum = block_reduce_sum(sum, smem);
    const float inv = 1.0f / sum;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        yr[c] = expf(xr[c] - mx) * inv;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    softmax_rows<<<(unsigned)rows, THREADS, 0, stream>>>(static_cast<const float *>(in[0].data),
                                                         static_cast<float *>(out[0].data), cols);
    return cudaGetLastError();
}
