// Reference for relu_bf16: one thread per element, 2-byte loads and stores.
#include "kforge/kernel.h"

#include <cuda_bf16.h>

__global__ void relu(const __nv_bfloat16 *__restrict__ x, __nv_bfloat16 *__restrict__ y, int64_t n)
{
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) {
        const __nv_bfloat16 v = x[i];
        y[i] = __bfloat162float(v) > 0.0f ? v : __float2bfloat16(0.0f);
    }
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t n = in[0].numel;
    relu<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(static_cast<const __nv_bfloat16 *>(in[0].data),
                                                          static_cast<__nv_bfloat16 *>(out[0].data), n);
    return cudaGetLastError();
}
