// Honest: a KForge kernel (.cu, KF_ENTRY) for the torch task diag(A) @ B: its inputs are the forward's tensors
// (A, then B; the module has no parameters or buffers), one block row per row of B, each element scaled by A[row],
// all on the given stream.
// KForge must report `correct` with no flag.
#include "kforge/kernel.h"

__global__ void th_rowscale(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int64_t n,
                            int64_t m)
{
    for (int64_t row = blockIdx.y; row < n; row += gridDim.y) {
        const float s = __ldg(a + row);
        for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < m; j += (int64_t)gridDim.x * blockDim.x)
            c[row * m + j] = s * __ldg(b + row * m + j);
    }
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)params;
    if (nin != 2 || nout != 1)
        return cudaErrorInvalidValue;
    const int64_t n = in[1].shape[0], m = in[1].shape[1];
    const int64_t cols = (m + 255) / 256;
    const dim3 grid((unsigned)(cols < 64 ? cols : 64), (unsigned)(n < 65535 ? n : 65535));
    th_rowscale<<<grid, 256, 0, stream>>>(static_cast<const float *>(in[0].data),
                                          static_cast<const float *>(in[1].data), static_cast<float *>(out[0].data), n,
                                          m);
    return cudaGetLastError();
}
