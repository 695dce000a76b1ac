// Naive candidate: one thread per row, two sequential passes. Uncoalesced 2-byte loads and only R threads.
#include "kforge/kernel.h"

#include <cuda_bf16.h>

__global__ void rmsnorm_thread_per_row(const __nv_bfloat16 *__restrict__ x, const __nv_bfloat16 *__restrict__ w,
                                       __nv_bfloat16 *__restrict__ y, int64_t rows, int64_t cols, float eps)
{
    const int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const __nv_bfloat16 *xr = x + r * cols;
    __nv_bfloat16 *yr = y + r * cols;
    float q = 0.0f;
    for (int64_t c = 0; c < cols; ++c) {
        const float v = __bfloat162float(xr[c]);
        q += v * v;
    }
    const float rinv = 1.0f / sqrtf(q / (float)cols + eps);
    for (int64_t c = 0; c < cols; ++c)
        yr[c] = __float2bfloat16(__bfloat162float(xr[c]) * rinv * __bfloat162float(w[c]));
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    rmsnorm_thread_per_row<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(
        static_cast<const __nv_bfloat16 *>(in[0].data), static_cast<const __nv_bfloat16 *>(in[1].data),
        static_cast<__nv_bfloat16 *>(out[0].data), rows, cols, (float)kf_param(params, "eps", 1e-6));
    return cudaGetLastError();
}
