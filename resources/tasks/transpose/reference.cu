// Reference for transpose: one thread per element in input order. Reads are coalesced; each warp's
// writes land in 32 different rows of y, 4 bytes in each 32-byte sector.
#include "kforge/kernel.h"

__global__ void transpose_elementwise(const float *__restrict__ x, float *__restrict__ y, int64_t rows, int64_t cols)
{
    const int64_t total = rows * cols;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t r = i / cols, c = i % cols;
        y[c * rows + r] = x[i];
    }
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    const int64_t total = rows * cols;
    const unsigned blocks = (unsigned)((total + 255) / 256 < 1048576 ? (total + 255) / 256 : 1048576);
    transpose_elementwise<<<blocks, 256, 0, stream>>>(static_cast<const float *>(in[0].data),
                                                      static_cast<float *>(out[0].data), rows, cols);
    return cudaGetLastError();
}
