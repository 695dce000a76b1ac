// .cu candidate for the torch task Linear + GELU (tanh): inputs x, then the module's linear.weight
// (out_features x in_features) and linear.bias. A register-blocked SGEMM (128x128 block tiles, 8x8 per thread, K slices of 8) whose
// epilogue adds the bias and applies GELU in registers, so y is written once and never re-read.
// Both operands are stored k-major in shared memory; the weight tile is transposed on the way in.
#include "kforge/kernel.h"

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;

__device__ __forceinline__ float gelu_tanh(float v)
{
    const float k0 = 0.7978845608028654f;
    return 0.5f * v * (1.0f + tanhf(k0 * (v + 0.044715f * v * v * v)));
}

__global__ __launch_bounds__(256) void linear_gelu_regblock(const float *__restrict__ x, const float *__restrict__ w,
                                                            const float *__restrict__ bias, float *__restrict__ y,
                                                            int m, int n, int k)
{
    __shared__ __align__(16) float xs[BK][BM];
    __shared__ __align__(16) float ws[BK][BN];
    const int tid = threadIdx.x;
    const int trow = tid / (BN / TN);
    const int tcol = tid % (BN / TN);
    const int64_t brow = (int64_t)blockIdx.y * BM;
    const int64_t bcol = (int64_t)blockIdx.x * BN;
    const int lrow = tid / 2, lk = (tid % 2) * 4; // both tiles: 128 rows x 8 k, one float4 per thread

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < k; k0 += BK) {
        const float4 a = *reinterpret_cast<const float4 *>(x + (brow + lrow) * k + k0 + lk);
        const float4 b = *reinterpret_cast<const float4 *>(w + (bcol + lrow) * k + k0 + lk);
        xs[lk + 0][lrow] = a.x;
        xs[lk + 1][lrow] = a.y;
        xs[lk + 2][lrow] = a.z;
        xs[lk + 3][lrow] = a.w;
        ws[lk + 0][lrow] = b.x;
        ws[lk + 1][lrow] = b.y;
        ws[lk + 2][lrow] = b.z;
        ws[lk + 3][lrow] = b.w;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float ra[TM], rb[TN];
            const float4 a0 = *reinterpret_cast<const float4 *>(&xs[kk][trow * TM]);
            const float4 a1 = *reinterpret_cast<const float4 *>(&xs[kk][trow * TM + 4]);
            const float4 b0 = *reinterpret_cast<const float4 *>(&ws[kk][tcol * TN]);
            const float4 b1 = *reinterpret_cast<const float4 *>(&ws[kk][tcol * TN + 4]);
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

    float bv[TN];
#pragma unroll
    for (int j = 0; j < TN; ++j)
        bv[j] = bias[bcol + tcol * TN + j];
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        float *yrow = y + (brow + trow * TM + i) * n + bcol + tcol * TN;
        float r[TN];
#pragma unroll
        for (int j = 0; j < TN; ++j)
            r[j] = gelu_tanh(acc[i][j] + bv[j]);
        *reinterpret_cast<float4 *>(yrow) = make_float4(r[0], r[1], r[2], r[3]);
        *reinterpret_cast<float4 *>(yrow + 4) = make_float4(r[4], r[5], r[6], r[7]);
    }
}

__global__ void linear_gelu_simple(const float *__restrict__ x, const float *__restrict__ w,
                                   const float *__restrict__ bias, float *__restrict__ y, int64_t m, int64_t n, int64_t k)
{
    const int64_t col = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    const int64_t row = blockIdx.y * (int64_t)blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float acc = 0.0f;
    for (int64_t i = 0; i < k; ++i)
        acc = fmaf(x[row * k + i], w[col * k + i], acc);
    y[row * n + col] = gelu_tanh(acc + bias[col]);
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t m = in[0].shape[0], k = in[0].shape[1], n = in[1].shape[0];
    const float *x = static_cast<const float *>(in[0].data);
    const float *w = static_cast<const float *>(in[1].data);
    const float *b = static_cast<const float *>(in[2].data);
    float *y = static_cast<float *>(out[0].data);
    const bool aligned =
        ((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(w) | reinterpret_cast<uintptr_t>(y)) & 15) == 0;
    if (m % BM == 0 && n % BN == 0 && k % BK == 0 && aligned) {
        linear_gelu_regblock<<<dim3((unsigned)(n / BN), (unsigned)(m / BM)), 256, 0, stream>>>(x, w, b, y, (int)m,
                                                                                               (int)n, (int)k);
    } else {
        linear_gelu_simple<<<dim3((unsigned)((n + 31) / 32), (unsigned)((m + 7) / 8)), dim3(32, 8), 0, stream>>>(x, w, b, y,
                                                                                                                 m, n, k);
    }
    return cudaGetLastError();
}
