#include "kforge/kernel.h"
__global__ void __launch_bounds__(1024, 2) heavy(float* x, const float* y, int n) {
    float acc[64];
#pragma unroll
    for (int i = 0; i < 64; ++i) acc[i] = y[threadIdx.x + i * n];
    for (int k = 0; k < n; ++k)
#pragma unroll
        for (int i = 0; i < 64; ++i) acc[i] = acc[i] * acc[(i + k) & 63] + y[k];
    float s = 0;
#pragma unroll
    for (int i = 0; i < 64; ++i) s += acc[i];
    x[threadIdx.x] = s;
}
__device__ int deep(int v, int d) { if (d == 0) return v; int buf[16]; for (int i=0;i<16;++i) buf[i]=v+i; return deep(buf[v&15], d-1) + buf[d&15]; }
__global__ void rec(int* x) { x[threadIdx.x] = deep(x[threadIdx.x], x[0]); }
__constant__ float coeffs[256];
__global__ void usec(float* x) { x[threadIdx.x] *= coeffs[threadIdx.x]; }
KF_ENTRY(in, nin, out, nout, params, stream) {
    heavy<<<1, 32, 0, stream>>>((float*)out[0].data, (const float*)in[0].data, 8);
    rec<<<1, 32, 0, stream>>>((int*)out[0].data);
    usec<<<1, 32, 0, stream>>>((float*)out[0].data);
    return 0;
}
