// Shared pieces of the adversarial kernels (tests/gpu/adversarial): an honest diag_matmul row scale, an
// honest matmul through cuBLAS SGEMM (plain FP32, as the reference) and helpers. Not a case by itself.
#pragma once
#include "kforge/kernel.h"

#include <cublas_v2.h>

__global__ void adv_rowscale_kernel(const float *__restrict__ a, const float4 *__restrict__ b, float4 *__restrict__ c,
                                    int64_t n, int64_t m4, int64_t row0, int64_t rows)
{
    for (int64_t r = row0 + blockIdx.y; r < row0 + rows && r < n; r += gridDim.y) {
        const float s = __ldg(a + r);
        for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < m4; j += (int64_t)gridDim.x * blockDim.x) {
            float4 v = __ldg(b + r * m4 + j);
            v.x *= s;
            v.y *= s;
            v.z *= s;
            v.w *= s;
            c[r * m4 + j] = v;
        }
    }
}

// diag_matmul C = diag(A) @ B for rows [row0, row0 + rows) on `stream` (M must be a multiple of 4, as in the task).
static inline int adv_rowscale_rows(const kf_tensor *in, const kf_tensor *out, int64_t row0, int64_t rows, cudaStream_t stream)
{
    const int64_t n = in[1].shape[0], m4 = in[1].shape[1] / 4;
    const unsigned gy = (unsigned)(rows < 65535 ? rows : 65535);
    adv_rowscale_kernel<<<dim3((unsigned)((m4 + 255) / 256), gy), 256, 0, stream>>>(
        static_cast<const float *>(in[0].data), static_cast<const float4 *>(in[1].data),
        static_cast<float4 *>(out[0].data), n, m4, row0, rows);
    return cudaGetLastError();
}

static inline int adv_rowscale(const kf_tensor *in, const kf_tensor *out, cudaStream_t stream)
{
    return adv_rowscale_rows(in, out, 0, in[1].shape[0], stream);
}

// matmul C = A @ B (row-major) with cuBLAS SGEMM on `stream`, as the task's reference does.
static inline int adv_sgemm(const kf_tensor *in, const kf_tensor *out, cudaStream_t stream)
{
    static cublasHandle_t handle = [] {
        cublasHandle_t h = nullptr;
        if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
            return (cublasHandle_t) nullptr;
        cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
        return h;
    }();
    if (!handle)
        return cudaErrorUnknown;
    const int m = (int)in[0].shape[0], k = (int)in[0].shape[1], n = (int)in[1].shape[1];
    const float one = 1.0f, zero = 0.0f;
    cublasSetStream(handle, stream);
    // Row-major C = A B is column-major C^T = B^T A^T.
    const cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                                          static_cast<const float *>(in[1].data), n, static_cast<const float *>(in[0].data),
                                          k, &zero, static_cast<float *>(out[0].data), n);
    return st == CUBLAS_STATUS_SUCCESS ? (int)cudaGetLastError() : (int)cudaErrorUnknown;
}

// Writes zeros to every output: what a cheat returns when its trick did not work.
static inline int adv_zeros(const kf_tensor *out, int nout, cudaStream_t stream)
{
    for (int i = 0; i < nout; ++i) {
        const size_t bytes = (size_t)out[i].numel * (out[i].dtype == KF_F16 || out[i].dtype == KF_BF16 ? 2 : 4);
        const cudaError_t e = cudaMemsetAsync(out[i].data, 0, bytes, stream);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

// Takes device memory in 1 GiB blocks, then smaller ones, until less than 64 MiB is free, and never frees it (the
// hogs, a6_hog_*).
static inline bool adv_hog_device_memory()
{
    for (size_t block = 1ull << 30; block >= (16u << 20); block /= 2) {
        for (;;) {
            size_t freeBytes = 0, total = 0;
            if (cudaMemGetInfo(&freeBytes, &total) != cudaSuccess || freeBytes < block + (64u << 20))
                break;
            void *p = nullptr;
            if (cudaMalloc(&p, block) != cudaSuccess) {
                cudaGetLastError();
                break;
            }
        }
    }
    return true;
}
