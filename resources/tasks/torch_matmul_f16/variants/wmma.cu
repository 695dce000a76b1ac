// .cu candidate for the torch task A @ B in float16 (inputs: the forward arguments A, B).
// Tensor cores through WMMA: 128x128 block tiles in K slices of 32 staged through shared memory (rows padded by
// 8 halves against bank conflicts), 8 warps each owning a 64x32 tile as 4x2 16x16x16 fragments with float
// accumulators, as cuBLAS accumulates; each result is rounded to half once, through a per-warp float scratch.
// Shapes that are not multiples of the tiles, or unaligned buffers, fall back to a simple kernel (float sums too).
#include "kforge/kernel.h"

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

constexpr int BM = 128, BN = 128, BK = 32, PAD = 8, WARPS = 8;

__global__ __launch_bounds__(WARPS * 32) void hgemm_wmma(const __half *__restrict__ A, const __half *__restrict__ B,
                                                         __half *__restrict__ C, int m, int n, int k)
{
    __shared__ __align__(32) __half as[BM][BK + PAD];
    __shared__ __align__(32) __half bs[BK][BN + PAD];
    __shared__ __align__(32) float scratch[WARPS][16 * 16];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wrow = (warp / 4) * 64, wcol = (warp % 4) * 32; // 2 x 4 warps over the 128 x 128 tile
    const int64_t brow = (int64_t)blockIdx.y * BM, bcol = (int64_t)blockIdx.x * BN;
    (void)m;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < k; k0 += BK) {
        // 16-byte loads: A's 128 x 32 slice and B's 32 x 128 slice are 512 vectors each, two per thread.
        for (int v = tid; v < BM * BK / 8; v += WARPS * 32) {
            const int r = v / (BK / 8), c = (v % (BK / 8)) * 8;
            *reinterpret_cast<uint4 *>(&as[r][c]) = *reinterpret_cast<const uint4 *>(A + (brow + r) * k + k0 + c);
        }
        for (int v = tid; v < BK * BN / 8; v += WARPS * 32) {
            const int r = v / (BN / 8), c = (v % (BN / 8)) * 8;
            *reinterpret_cast<uint4 *>(&bs[r][c]) =
                *reinterpret_cast<const uint4 *>(B + (int64_t)(k0 + r) * n + bcol + c);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb[2];
#pragma unroll
            for (int i = 0; i < 4; ++i)
                wmma::load_matrix_sync(fa[i], &as[wrow + 16 * i][kk], BK + PAD);
#pragma unroll
            for (int j = 0; j < 2; ++j)
                wmma::load_matrix_sync(fb[j], &bs[kk][wcol + 16 * j], BN + PAD);
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 2; ++j)
                    wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        __syncthreads();
    }

    float *s = scratch[warp];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            wmma::store_matrix_sync(s, acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            for (int e = lane; e < 16 * 16; e += 32) {
                const int r = e / 16, c = e % 16;
                C[(brow + wrow + 16 * i + r) * n + bcol + wcol + 16 * j + c] = __float2half_rn(s[e]);
            }
            __syncwarp();
        }
}

__global__ void hgemm_simple(const __half *__restrict__ A, const __half *__restrict__ B, __half *__restrict__ C,
                             int64_t m, int64_t n, int64_t k)
{
    const int64_t col = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    const int64_t row = blockIdx.y * (int64_t)blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float acc = 0.0f;
    for (int64_t i = 0; i < k; ++i)
        acc = fmaf(__half2float(A[row * k + i]), __half2float(B[i * n + col]), acc);
    C[row * n + col] = __float2half_rn(acc);
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t m = in[0].shape[0], k = in[0].shape[1], n = in[1].shape[1];
    const __half *a = static_cast<const __half *>(in[0].data);
    const __half *b = static_cast<const __half *>(in[1].data);
    __half *c = static_cast<__half *>(out[0].data);
    const bool aligned =
        ((reinterpret_cast<uintptr_t>(a) | reinterpret_cast<uintptr_t>(b) | reinterpret_cast<uintptr_t>(c)) & 15) == 0;
    if (m % BM == 0 && n % BN == 0 && k % BK == 0 && aligned && m <= INT32_MAX && n <= INT32_MAX && k <= INT32_MAX) {
        hgemm_wmma<<<dim3((unsigned)(n / BN), (unsigned)(m / BM)), WARPS * 32, 0, stream>>>(a, b, c, (int)m, (int)n,
                                                                                           (int)k);
    } else {
        hgemm_simple<<<dim3((unsigned)((n + 31) / 32), (unsigned)((m + 7) / 8)), dim3(32, 8), 0, stream>>>(a, b, c, m,
                                                                                                           n, k);
    }
    return cudaGetLastError();
}
