// Class 7 (unstable numerics): softmax without the max subtraction, y = exp(x) / sum(exp(x)) per row. With
// the declared inputs (normal, std 2) exp never overflows and the result matches; with inputs scaled up
// (|x| > 88) exp overflows to inf and the row becomes NaN or 0 where the reference stays finite.
// KForge must report `incorrect` (reason `unstable_numerics`: an edge trial failed where declared ones pass).
#include "kforge/kernel.h"

__global__ void softmax_no_max(const float *__restrict__ x, float *__restrict__ y, int64_t cols)
{
    const float *row = x + blockIdx.x * cols;
    float *dst = y + blockIdx.x * cols;
    __shared__ float partial[256];
    float sum = 0.f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        sum += expf(row[c]);
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    const float total = partial[0];
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        dst[c] = expf(row[c]) / total;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    softmax_no_max<<<(unsigned)rows, 256, 0, stream>>>(static_cast<const float *>(in[0].data),
                                                       static_cast<float *>(out[0].data), cols);
    return cudaGetLastError();
}
