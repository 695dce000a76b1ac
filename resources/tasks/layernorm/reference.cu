// Reference for layernorm: one block per row, three passes over the row in global memory (mean,
// variance about the mean, normalise and write) with shared-memory tree reductions.
#include "kforge/kernel.h"

constexpr int THREADS = 256;

__device__ float block_sum(float v, float *smem)
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

__global__ void layernorm_rows(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ b,
                               float *__restrict__ y, int64_t cols, float eps)
{
    __shared__ float smem[THREADS];
    const float *xr = x + blockIdx.x * cols;
    float *yr = y + blockIdx.x * cols;
    float s = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        s += xr[c];
    const float mean = block_sum(s, smem) / (float)cols;
    float q = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        const float d = xr[c] - mean;
        q += d * d;
    }
    const float var = block_sum(q, smem) / (float)cols;
    const float rstd = rsqrtf(var + eps);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        yr[c] = (xr[c] - mean) * rstd * w[c] + b[c];
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    layernorm_rows<<<(unsigned)rows, THREADS, 0, stream>>>(
        static_cast<const float *>(in[0].data), static_cast<const float *>(in[1].data),
        static_cast<const float *>(in[2].data), static_cast<float *>(out[0].data), cols,
        (float)kf_param(params, "eps", 1e-5));
    return cudaGetLastError();
}
