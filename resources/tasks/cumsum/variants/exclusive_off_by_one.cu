// Deliberately wrong candidate (self-test checks that it is caught): the naive running sum, but each
// result is stored before the current element is added, i.e. an exclusive scan shifted by one.
#include "kforge/kernel.h"

__global__ void cumsum_exclusive(const int32_t *__restrict__ x, long long *__restrict__ y, int64_t rows, int64_t cols)
{
    const int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    long long run = 0;
    for (int64_t c = 0; c < cols; ++c) {
        y[r * cols + c] = run; // bug: should add x[r][c] first
        run += x[r * cols + c];
    }
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    cumsum_exclusive<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(
        static_cast<const int32_t *>(in[0].data), static_cast<long long *>(out[0].data), rows, cols);
    return cudaGetLastError();
}
