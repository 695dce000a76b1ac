// The "speedup" CUDA-L1 found: min(y, min_value) <= min_value, and clamping that to [min_value, max_value]
// gives exactly min_value (when min_value <= max_value) whatever y is. So the whole block reduces to a fill.
// It passes verification; the worker flags the output as not depending on the inputs.
#include "kforge/kernel.h"

__global__ void fill(float *__restrict__ out, int64_t n, float value)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = value;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)in;
    (void)nin;
    (void)nout;
    const float min_value = (float)kf_param(params, "min_value", 0.0);
    const float max_value = (float)kf_param(params, "max_value", 1.0);
    // torch.clamp with min > max returns max everywhere.
    const float value = min_value <= max_value ? min_value : max_value;
    const int64_t n = out[0].numel;
    fill<<<132 * 16, 256, 0, stream>>>(static_cast<float *>(out[0].data), n, value);
    return cudaGetLastError();
}
