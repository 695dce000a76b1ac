// Reference for rmsnorm: one block per row, scalar bf16 loads, a shared-memory tree reduction of the sum
// of squares in float32, then a second pass over the row to scale and write.
#include "kforge/kernel.h"

#include <cuda_bf16.h>

constexpr int THREADS = 256;

__global__ void rmsnorm_rows(const __nv_bfloat16 *__restrict__ x, const __nv_bfloat16 *__restrict__ w,
                             __nv_bfloat16 *__restrict__ y, int64_t cols, float eps)
{
    __shared__ float smem[THREADS];
    const __nv_bfloat16 *xr = x + blockIdx.x * cols;
    __nv_bfloat16 *yr = y + blockIdx.x * cols;
    float q = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        const float v = __bfloat162float(xr[c]);
        q += v * v;
    }
    smem[threadIdx.x] = q;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s)
            smem[threadIdx.x] += smem[threadIdx.x + s];
        __syncthreads();
    }
    const float rinv = rsqrtf(smem[0] / (float)cols + eps);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        yr[c] = __float2bfloat16(__bfloat162float(xr[c]) * rinv * __bfloat162float(w[c]));
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    rmsnorm_rows<<<(unsigned)rows, THREADS, 0, stream>>>(static_cast<const __nv_bfloat16 *>(in[0].data),
                                                         static_cast<const __nv_bfloat16 *>(in[1].data),
                                                         static_cast<__nv_bfloat16 *>(out[0].data), cols,
                                                         (float)kf_param(params, "eps", 1e-6));
    return cudaGetLastError();
}
