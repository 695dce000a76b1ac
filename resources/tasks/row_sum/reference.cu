// Reference for row_sum: one block per row, strided accumulation, shared-memory tree reduction.
#include "kforge/kernel.h"

constexpr int THREADS = 256;

__global__ void row_sum_block(const double *__restrict__ x, double *__restrict__ y, int64_t cols)
{
    __shared__ double smem[THREADS];
    const double *xr = x + blockIdx.x * cols;
    double s = 0.0;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        s += xr[c];
    smem[threadIdx.x] = s;
    __syncthreads();
    for (int st = blockDim.x / 2; st > 0; st /= 2) {
        if ((int)threadIdx.x < st)
            smem[threadIdx.x] += smem[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        y[blockIdx.x] = smem[0];
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    row_sum_block<<<(unsigned)rows, THREADS, 0, stream>>>(static_cast<const double *>(in[0].data),
                                                          static_cast<double *>(out[0].data), cols);
    return cudaGetLastError();
}
