// Class 6 (crashes): a device write 2^40 floats past the output, a sticky cudaErrorIllegalAddress.
// KForge must report `cuda_error` (cudaErrorIllegalAddress); the judge's own context stays usable.
#include "advcommon.cuh"

__global__ void wild(float *out, int64_t n)
{
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n)
        out[i + ((int64_t)1 << 40)] = 1.0f;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)in;
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t n = out[0].numel;
    wild<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(static_cast<float *>(out[0].data), n);
    return cudaGetLastError();
}
