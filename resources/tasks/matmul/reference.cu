// Reference for matmul: cuBLAS SGEMM in plain FP32 (the default math mode uses no TF32).
#include "kforge/kernel.h"

#include <cublas_v2.h>

static cublasHandle_t cublas_handle()
{
    static cublasHandle_t handle = [] {
        cublasHandle_t h = nullptr;
        if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
            return (cublasHandle_t) nullptr;
        cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
        return h;
    }();
    return handle;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int m = (int)in[0].shape[0];
    const int k = (int)in[0].shape[1];
    const int n = (int)in[1].shape[1];
    cublasHandle_t handle = cublas_handle();
    if (!handle)
        return cudaErrorUnknown;
    cublasSetStream(handle, stream);
    const float alpha = 1.0f, beta = 0.0f;
    // Row-major C = A B is column-major C^T = B^T A^T.
    const cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha,
                                          static_cast<const float *>(in[1].data), n,
                                          static_cast<const float *>(in[0].data), k, &beta,
                                          static_cast<float *>(out[0].data), n);
    if (st != CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    return cudaGetLastError();
}
