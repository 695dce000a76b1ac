// A KForge .cu candidate for matmul_relu.py: inputs are the forward argument x, then the module's parameters and
// buffers as the module names them (linear.weight, linear.bias, offset).
#include "kforge/kernel.h"

__global__ void linear_relu(const float *x, const float *w, const float *b, const float *off, float *out, int m, int k, int n)
{
    int row = blockIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float acc = b[col] + off[col];
    for (int i = 0; i < k; ++i)
        acc += x[row * k + i] * w[col * k + i];
    out[row * n + col] = acc > 0.f ? acc : 0.f;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)params;
    if (nin != 4 || nout != 1 || strcmp(in[1].name, "linear.weight") != 0 || strcmp(in[3].name, "offset") != 0)
        return -1;
    int m = (int)in[0].shape[0], k = (int)in[0].shape[1], n = (int)in[1].shape[0];
    dim3 grid((n + 127) / 128, m);
    linear_relu<<<grid, 128, 0, stream>>>((const float *)in[0].data, (const float *)in[1].data, (const float *)in[2].data,
                                          (const float *)in[3].data, (float *)out[0].data, m, k, n);
    return cudaGetLastError();
}
