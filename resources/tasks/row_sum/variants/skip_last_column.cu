// Deliberately wrong candidate (self-test checks that it is caught): the good warp-per-row kernel with an
// off-by-one loop bound, so the last element of every row is left out of its sum.
#include "kforge/kernel.h"

__global__ void row_sum_warp_off_by_one(const double *__restrict__ x, double *__restrict__ y, int64_t rows,
                                        int64_t cols)
{
    const int64_t r = (int64_t)blockIdx.x * 8 + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (r >= rows)
        return;
    const double *xr = x + r * cols;
    double s = 0.0;
    for (int64_t c = lane; c < cols - 1; c += 32) // bug: should be c < cols
        s += xr[c];
    for (int off = 16; off > 0; off /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, off);
    if (lane == 0)
        y[r] = s;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    row_sum_warp_off_by_one<<<(unsigned)((rows + 7) / 8), 256, 0, stream>>>(static_cast<const double *>(in[0].data),
                                                                            static_cast<double *>(out[0].data), rows,
                                                                            cols);
    return cudaGetLastError();
}
