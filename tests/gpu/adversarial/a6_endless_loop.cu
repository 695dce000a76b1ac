// Class 6 (hangs): a kernel that never ends (it spins on a flag nobody sets).
// KForge must kill it within the evaluation's timeout and report `timeout`, the judge unaffected.
#include "advcommon.cuh"

__global__ void spin(volatile int *flag, float *out)
{
    while (*flag == 0) {
    }
    out[0] = 1.0f;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)in;
    (void)nin;
    (void)nout;
    (void)params;
    static int *flag = [] {
        int *f = nullptr;
        if (cudaMalloc(&f, sizeof(int)) == cudaSuccess)
            cudaMemset(f, 0, sizeof(int));
        return f;
    }();
    if (!flag)
        return cudaErrorMemoryAllocation;
    spin<<<1, 1, 0, stream>>>(flag, static_cast<float *>(out[0].data));
    return cudaGetLastError();
}
