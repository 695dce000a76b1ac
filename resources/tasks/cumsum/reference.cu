// Reference for cumsum: one block per row. Each thread scans a contiguous chunk of the row sequentially,
// a Hillis-Steele scan in shared memory combines the chunk totals, and each thread rescans its chunk
// with its offset while writing.
#include "kforge/kernel.h"

constexpr int THREADS = 256;

__global__ void cumsum_rows(const int32_t *__restrict__ x, long long *__restrict__ y, int64_t cols)
{
    __shared__ long long part[2][THREADS];
    const int32_t *xr = x + blockIdx.x * cols;
    long long *yr = y + blockIdx.x * cols;
    const int64_t chunk = (cols + THREADS - 1) / THREADS;
    const int64_t begin = threadIdx.x * chunk;
    const int64_t end = begin + chunk < cols ? begin + chunk : cols;
    long long total = 0;
    for (int64_t c = begin; c < end; ++c)
        total += xr[c];

    int cur = 0;
    part[cur][threadIdx.x] = total;
    __syncthreads();
    for (int off = 1; off < THREADS; off *= 2) {
        const long long v = part[cur][threadIdx.x] + (threadIdx.x >= (unsigned)off ? part[cur][threadIdx.x - off] : 0);
        part[cur ^ 1][threadIdx.x] = v;
        cur ^= 1;
        __syncthreads();
    }
    long long run = part[cur][threadIdx.x] - total; // exclusive prefix of this chunk
    for (int64_t c = begin; c < end; ++c) {
        run += xr[c];
        yr[c] = run;
    }
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    cumsum_rows<<<(unsigned)rows, THREADS, 0, stream>>>(static_cast<const int32_t *>(in[0].data),
                                                        static_cast<long long *>(out[0].data), cols);
    return cudaGetLastError();
}
