// Honest: a kernel over several launches. LayerNorm in two kernels on the given stream: one computes each
// row's mean and 1/sqrt(var + eps) (two passes over the row, centred variance) into a scratch buffer
// allocated once, the next normalises, scales and shifts.
// KForge must report `correct` with no flag.
#include "kforge/kernel.h"

__device__ float block_sum(float v, float *shared)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0)
        shared[threadIdx.x / 32] = v;
    __syncthreads();
    float total = 0;
    for (int w = 0; w < (int)(blockDim.x / 32); ++w)
        total += shared[w];
    __syncthreads();
    return total;
}

__global__ void row_stats(const float *__restrict__ x, float2 *__restrict__ stats, int64_t cols, float eps)
{
    __shared__ float shared[32];
    const float *row = x + blockIdx.x * cols;
    float s = 0;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        s += row[c];
    const float mean = block_sum(s, shared) / (float)cols;
    float q = 0;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        const float d = row[c] - mean;
        q += d * d;
    }
    const float var = block_sum(q, shared) / (float)cols;
    if (threadIdx.x == 0)
        stats[blockIdx.x] = make_float2(mean, rsqrtf(var + eps));
}

__global__ void normalize(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ b,
                          const float2 *__restrict__ stats, float *__restrict__ y, int64_t cols)
{
    const float2 st = stats[blockIdx.x];
    const float *row = x + blockIdx.x * cols;
    float *dst = y + blockIdx.x * cols;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        dst[c] = (row[c] - st.x) * st.y * w[c] + b[c];
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    static float2 *stats = nullptr;
    static int64_t capacity = 0;
    if (capacity < rows) {
        if (stats)
            cudaFree(stats);
        if (cudaMalloc(&stats, rows * sizeof(float2)) != cudaSuccess)
            return cudaErrorMemoryAllocation;
        capacity = rows;
    }
    const float eps = (float)kf_param(params, "eps", 1e-5);
    row_stats<<<(unsigned)rows, 256, 0, stream>>>(static_cast<const float *>(in[0].data), stats, cols, eps);
    normalize<<<(unsigned)rows, 256, 0, stream>>>(static_cast<const float *>(in[0].data),
                                                  static_cast<const float *>(in[1].data),
                                                  static_cast<const float *>(in[2].data), stats,
                                                  static_cast<float *>(out[0].data), cols);
    return cudaGetLastError();
}
