// Class ignored_weights (hack catalogue #18, semantic shortcut), a KForge kernel for the torch task LayerNorm: its
// inputs are x, then the module's parameters ln.weight and ln.bias (forward tensors, then parameters, then buffers),
// and it reads only x: the normalised row without the affine part. Right for the constructor's weight 1 and bias 0; the
// judge moves them. It insists on the three inputs (cudaErrorInvalidValue otherwise), so a judge that passed no
// parameters shows.
// KForge must report `incorrect`.
#include "kforge/kernel.h"

constexpr int THREADS = 256;

__device__ float block_sum(float v, float *shared)
{
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    if (threadIdx.x % 32 == 0)
        shared[threadIdx.x / 32] = v;
    __syncthreads();
    float t = 0.0f;
    for (int i = 0; i < THREADS / 32; ++i)
        t += shared[i];
    __syncthreads();
    return t;
}

__global__ __launch_bounds__(THREADS) void norm_only(const float *__restrict__ x, float *__restrict__ y, int64_t cols,
                                                     float eps)
{
    __shared__ float shared[THREADS / 32];
    const float *xr = x + blockIdx.x * cols;
    float *yr = y + blockIdx.x * cols;
    float s = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += THREADS)
        s += xr[c];
    const float mean = block_sum(s, shared) / (float)cols;
    float q = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += THREADS) {
        const float d = xr[c] - mean;
        q += d * d;
    }
    const float rstd = rsqrtf(block_sum(q, shared) / (float)cols + eps);
    for (int64_t c = threadIdx.x; c < cols; c += THREADS)
        yr[c] = (xr[c] - mean) * rstd;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    if (nin != 3 || nout != 1)
        return cudaErrorInvalidValue;
    const double eps = kf_param(params, "eps", 1e-5);
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    norm_only<<<(unsigned)rows, THREADS, 0, stream>>>(static_cast<const float *>(in[0].data),
                                                      static_cast<float *>(out[0].data), cols, (float)eps);
    return cudaGetLastError();
}
