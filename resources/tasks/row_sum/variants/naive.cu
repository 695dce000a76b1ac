// Naive candidate: one thread per row summing sequentially; loads are a row apart across the warp.
#include "kforge/kernel.h"

__global__ void row_sum_thread(const double *__restrict__ x, double *__restrict__ y, int64_t rows, int64_t cols)
{
    const int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    double s = 0.0;
    for (int64_t c = 0; c < cols; ++c)
        s += x[r * cols + c];
    y[r] = s;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    row_sum_thread<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(static_cast<const double *>(in[0].data),
                                                                       static_cast<double *>(out[0].data), rows, cols);
    return cudaGetLastError();
}
