// Good candidate: one block of 256 threads per row, walking the row in tiles of 1024 elements. Each
// thread loads 4 consecutive int32 with one coalesced 16-byte load, scans them in registers, the thread
// totals are scanned with warp shuffles, warp totals through shared memory, and a running carry links
// the tiles. Each thread writes its 4 int64 results as two 16-byte stores.
#include "kforge/kernel.h"

constexpr int THREADS = 256;
constexpr int WARPS = THREADS / 32;
constexpr int TILE = THREADS * 4;

__global__ __launch_bounds__(THREADS) void cumsum_tiles(const int4 *__restrict__ x, longlong2 *__restrict__ y,
                                                        int64_t cols)
{
    __shared__ long long warp_tot[WARPS];
    const int64_t cols4 = cols / 4;
    const int4 *xr = x + blockIdx.x * cols4;
    longlong2 *yr = y + blockIdx.x * (cols / 2);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    long long carry = 0;
    for (int64_t t0 = 0; t0 < cols; t0 += TILE) {
        const int64_t i4 = t0 / 4 + threadIdx.x;
        const bool valid = i4 < cols4;
        const int4 v = valid ? __ldg(xr + i4) : make_int4(0, 0, 0, 0);
        const long long s0 = v.x, s1 = s0 + v.y, s2 = s1 + v.z, s3 = s2 + v.w;
        long long incl = s3; // inclusive scan of thread totals within the warp
        for (int off = 1; off < 32; off *= 2) {
            const long long o = __shfl_up_sync(0xffffffffu, incl, off);
            if (lane >= off)
                incl += o;
        }
        if (lane == 31)
            warp_tot[warp] = incl;
        __syncthreads();
        long long before = carry, tile_total = 0;
        for (int w = 0; w < WARPS; ++w) {
            const long long t = warp_tot[w];
            if (w < warp)
                before += t;
            tile_total += t;
        }
        before += incl - s3;
        if (valid) {
            yr[2 * i4] = make_longlong2(before + s0, before + s1);
            yr[2 * i4 + 1] = make_longlong2(before + s2, before + s3);
        }
        carry += tile_total;
        __syncthreads(); // warp_tot is rewritten by the next tile
    }
}

__global__ void cumsum_scalar(const int32_t *__restrict__ x, long long *__restrict__ y, int64_t rows, int64_t cols)
{
    const int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    long long run = 0;
    for (int64_t c = 0; c < cols; ++c) {
        run += x[r * cols + c];
        y[r * cols + c] = run;
    }
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t rows = in[0].shape[0], cols = in[0].shape[1];
    const void *x = in[0].data;
    void *y = out[0].data;
    const bool aligned = ((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(y)) & 15) == 0;
    if (aligned && cols % 4 == 0)
        cumsum_tiles<<<(unsigned)rows, THREADS, 0, stream>>>(static_cast<const int4 *>(x),
                                                             static_cast<longlong2 *>(y), cols);
    else
        cumsum_scalar<<<(unsigned)((rows + 127) / 128), 128, 0, stream>>>(static_cast<const int32_t *>(x),
                                                                          static_cast<long long *>(y), rows, cols);
    return cudaGetLastError();
}
