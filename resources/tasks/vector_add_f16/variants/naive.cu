// Naive candidate: a grid-stride loop over single elements with a small fixed grid, converting through
// float. Correct (the float sum rounded to half is the half sum, or one ulp off in rare double-rounding
// ties, within tolerance), but 2-byte accesses only.
#include "kforge/kernel.h"

#include <cuda_fp16.h>

__global__ void add_f16_gridstride(const __half *__restrict__ a, const __half *__restrict__ b, __half *__restrict__ c,
                                   int64_t n)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        c[i] = __float2half_rn(__half2float(a[i]) + __half2float(b[i]));
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    add_f16_gridstride<<<1024, 256, 0, stream>>>(static_cast<const __half *>(in[0].data),
                                                 static_cast<const __half *>(in[1].data),
                                                 static_cast<__half *>(out[0].data), in[0].numel);
    return cudaGetLastError();
}
