// Naive candidate: one block per row, a single pass accumulating sum and sum of squares with
// shared-memory atomics, variance as E[x^2] - mean^2, then a second pass to write. Simple, but the
// atomics serialise and the row is read twice from memory.
#include "kforge/kernel.h"

__global__ void layernorm_atomic(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ b,
                                 float *__restrict__ y, int64_t cols, float eps)
{
    __shared__ float sum, sumsq;
    if (threadIdx.x == 0) {
        sum = 0.0f;
        sumsq = 0.0f;
    }
    __syncthreads();
    const float *xr = x + blockIdx.x * cols;
    float *yr = y + blockIdx.x * cols;
    float s = 0.0f, q = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        const float v = xr[c];
        s += v;
        q += v * v;
    }
    atomicAdd(&sum, s);
    atomicAdd(&sumsq, q);
    __syncthreads();
    const float mean = sum / (float)cols;
    const float var = fmaxf(sumsq / (float)cols - mean * mean, 0.0f);
    const float rstd = 1.0f / sqrtf(var + eps);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        yr[c] = (xr[c] - mean) * rstd * w[c] + b[c];
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    layernorm_atomic<<<(unsigned)rows, 256, 0, stream>>>(
        static_cast<const float *>(in[0].data), static_cast<const float *>(in[1].data),
        static_cast<const float *>(in[2].data), static_cast<float *>(out[0].data), cols,
        (float)kf_param(params, "eps", 1e-5));
    return cudaGetLastError();
}
