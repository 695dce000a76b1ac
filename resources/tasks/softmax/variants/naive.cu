// Naive candidate: one thread per row, three sequential passes. Neighbouring threads read addresses a
// whole row apart, so no load is coalesced, and only R threads exist to hide memory latency.
#include "kforge/kernel.h"

__global__ void softmax_thread_per_row(const float *__restrict__ x, float *__restrict__ y, int64_t rows,
                                       int64_t cols)
{
    const int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const float *xr = x + r * cols;
    float *yr = y + r * cols;
    float mx = -INFINITY;
    for (int64_t c = 0; c < cols; ++c)
        mx = fmaxf(mx, xr[c]);
    float sum = 0.0f;
    for (int64_t c = 0; c < cols; ++c)
        sum += expf(xr[c] - mx);
    for (int64_t c = 0; c < cols; ++c)
        yr[c] = expf(xr[c] - mx) / sum;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    softmax_thread_per_row<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(
        static_cast<const float *>(in[0].data), static_cast<float *>(out[0].data), rows, cols);
    return cudaGetLastError();
}
