// Good candidate: 32x32 tiles staged through shared memory so both the global reads and the global writes
// are coalesced; the tile has one column of padding so reading it column-wise hits 32 different banks.
// 32x8 threads per tile, 4 elements per thread.
#include "kforge/kernel.h"

constexpr int TILE = 32;
constexpr int ROWS_PER_PASS = 8;

__global__ void transpose_tiled(const float *__restrict__ x, float *__restrict__ y, int64_t rows, int64_t cols)
{
    __shared__ float tile[TILE][TILE + 1];
    const int64_t c0 = (int64_t)blockIdx.x * TILE; // tile origin in x: column
    const int64_t r0 = (int64_t)blockIdx.y * TILE; // tile origin in x: row
    const int tx = threadIdx.x, ty = threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        const int64_t r = r0 + ty + j, c = c0 + tx;
        if (r < rows && c < cols)
            tile[ty + j][tx] = x[r * cols + c];
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        const int64_t c = c0 + ty + j, r = r0 + tx; // y[c][r]
        if (r < rows && c < cols)
            y[c * rows + r] = tile[tx][ty + j];
    }
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    const dim3 grid((unsigned)((cols + TILE - 1) / TILE), (unsigned)((rows + TILE - 1) / TILE));
    transpose_tiled<<<grid, dim3(TILE, ROWS_PER_PASS), 0, stream>>>(static_cast<const float *>(in[0].data),
                                                                    static_cast<float *>(out[0].data), rows, cols);
    return cudaGetLastError();
}
