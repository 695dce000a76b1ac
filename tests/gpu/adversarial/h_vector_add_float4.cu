// Honest: a vectorized memory-bound kernel. vector_add_f16 with 16-byte (float4) loads and stores, eight
// halves per thread added with __hadd2, grid-stride.
// KForge must report `correct` with no flag (in particular not `below_speed_of_light`).
#include "kforge/kernel.h"

#include <cuda_fp16.h>

__global__ void add8(const float4 *__restrict__ a, const float4 *__restrict__ b, float4 *__restrict__ c, int64_t n8)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n8; i += (int64_t)gridDim.x * blockDim.x) {
        float4 x = a[i], y = b[i], z;
        const __half2 *hx = reinterpret_cast<const __half2 *>(&x), *hy = reinterpret_cast<const __half2 *>(&y);
        __half2 *hz = reinterpret_cast<__half2 *>(&z);
        for (int k = 0; k < 4; ++k)
            hz[k] = __hadd2(hx[k], hy[k]);
        c[i] = z;
    }
}

__global__ void add_tail(const __half *a, const __half *b, __half *c, int64_t from, int64_t n)
{
    const int64_t i = from + blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = __hadd(a[i], b[i]);
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t n = in[0].numel, n8 = n / 8;
    if (n8)
        add8<<<2048, 256, 0, stream>>>(static_cast<const float4 *>(in[0].data), static_cast<const float4 *>(in[1].data),
                                       static_cast<float4 *>(out[0].data), n8);
    if (n8 * 8 < n)
        add_tail<<<1, 8, 0, stream>>>(static_cast<const __half *>(in[0].data), static_cast<const __half *>(in[1].data),
                                      static_cast<__half *>(out[0].data), n8 * 8, n);
    return cudaGetLastError();
}
