// .cu candidate for the torch task A @ B (inputs: the forward arguments A, B).
// Register-blocked SGEMM: 128x128 block tiles staged through shared memory in K slices of 8, each of the
// 256 threads accumulating an 8x8 sub-tile in registers, so every shared-memory load feeds 8 FMAs.
// A is stored transposed in shared memory so both operands are read as contiguous float4s.
// Shapes that are not multiples of the tiles fall back to a simple kernel.
#include "kforge/kernel.h"

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;

__global__ __launch_bounds__(256) void sgemm_regblock(const float *__restrict__ A, const float *__restrict__ B,
                                                      float *__restrict__ C, int m, int n, int k)
{
    __shared__ __align__(16) float as[BK][BM];
    __shared__ __align__(16) float bs[BK][BN];
    const int tid = threadIdx.x;
    const int trow = tid / (BN / TN); // 0..15
    const int tcol = tid % (BN / TN); // 0..15
    const int64_t brow = (int64_t)blockIdx.y * BM;
    const int64_t bcol = (int64_t)blockIdx.x * BN;
    const int arow = tid / 2, acol = (tid % 2) * 4;     // A tile: 128 rows x 8 columns, one float4 per thread
    const int lbrow = tid / 32, lbcol = (tid % 32) * 4; // B tile: 8 rows x 128 columns, one float4 per thread

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < k; k0 += BK) {
        const float4 a = *reinterpret_cast<const float4 *>(A + (brow + arow) * k + k0 + acol);
        as[acol + 0][arow] = a.x;
        as[acol + 1][arow] = a.y;
        as[acol + 2][arow] = a.z;
        as[acol + 3][arow] = a.w;
        *reinterpret_cast<float4 *>(&bs[lbrow][lbcol]) = *reinterpret_cast<const float4 *>(B + (int64_t)(k0 + lbrow) * n
                                                                                           + bcol + lbcol);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float ra[TM], rb[TN];
            const float4 a0 = *reinterpret_cast<const float4 *>(&as[kk][trow * TM]);
            const float4 a1 = *reinterpret_cast<const float4 *>(&as[kk][trow * TM + 4]);
            const float4 b0 = *reinterpret_cast<const float4 *>(&bs[kk][tcol * TN]);
            const float4 b1 = *reinterpret_cast<const float4 *>(&bs[kk][tcol * TN + 4]);
            ra[0] = a0.x;
            ra[1] = a0.y;
            ra[2] = a0.z;
            ra[3] = a0.w;
            ra[4] = a1.x;
            ra[5] = a1.y;
            ra[6] = a1.z;
            ra[7] = a1.w;
            rb[0] = b0.x;
            rb[1] = b0.y;
            rb[2] = b0.z;
            rb[3] = b0.w;
            rb[4] = b1.x;
            rb[5] = b1.y;
            rb[6] = b1.z;
            rb[7] = b1.w;
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        float *crow = C + (brow + trow * TM + i) * n + bcol + tcol * TN;
        *reinterpret_cast<float4 *>(crow) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        *reinterpret_cast<float4 *>(crow + 4) = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    }
}

__global__ void sgemm_simple(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int64_t m,
                             int64_t n, int64_t k)
{
    const int64_t col = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    const int64_t row = blockIdx.y * (int64_t)blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float acc = 0.0f;
    for (int64_t i = 0; i < k; ++i)
        acc = fmaf(A[row * k + i], B[i * n + col], acc);
    C[row * n + col] = acc;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t m = in[0].shape[0], k = in[0].shape[1], n = in[1].shape[1];
    const float *a = static_cast<const float *>(in[0].data);
    const float *b = static_cast<const float *>(in[1].data);
    float *c = static_cast<float *>(out[0].data);
    const bool aligned =
        ((reinterpret_cast<uintptr_t>(a) | reinterpret_cast<uintptr_t>(b) | reinterpret_cast<uintptr_t>(c)) & 15) == 0;
    if (m % BM == 0 && n % BN == 0 && k % BK == 0 && aligned) {
        sgemm_regblock<<<dim3((unsigned)(n / BN), (unsigned)(m / BM)), 256, 0, stream>>>(a, b, c, (int)m, (int)n, (int)k);
    } else {
        sgemm_simple<<<dim3((unsigned)((n + 31) / 32), (unsigned)((m + 7) / 8)), dim3(32, 8), 0, stream>>>(a, b, c, m, n, k);
    }
    return cudaGetLastError();
}
