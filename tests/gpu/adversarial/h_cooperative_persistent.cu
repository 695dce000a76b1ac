// Honest: a cooperative persistent kernel (cudaLaunchCooperativeKernel, one block per SM slot that fits, a grid-wide
// barrier between two phases): phase 1 copies A's scale factors into shared per-row registers of the output's
// first column block, phase 2 scales every row of B. Launched on the given stream.
// KForge must report `correct` with no flag.
#include "advcommon.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void persistentRowscale(const float *a, const float *b, float *c, int64_t n, int64_t m, float *scale)
{
    cg::grid_group grid = cg::this_grid();
    const int64_t threads = (int64_t)gridDim.x * blockDim.x;
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (int64_t i = tid; i < n; i += threads) // phase 1: the row scales into a scratch vector
        scale[i] = a[i];
    grid.sync();
    for (int64_t i = tid; i < n * m; i += threads) // phase 2: every element of B times its row's scale
        c[i] = b[i] * scale[i / m];
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static float *scale = nullptr;
    static int64_t scaleRows = 0;
    int64_t n = in[1].shape[0], m = in[1].shape[1];
    if (scaleRows < n) {
        if (scale)
            cudaFree(scale);
        if (cudaMalloc(&scale, (size_t)n * sizeof(float)) != cudaSuccess)
            return 2;
        scaleRows = n;
    }
    int device = 0, sms = 0, perSm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    const int threads = 256;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, persistentRowscale, threads, 0);
    dim3 grid(sms * (perSm > 0 ? perSm : 1)), block(threads);
    const float *a = (const float *)in[0].data, *b = (const float *)in[1].data;
    float *c = (float *)out[0].data;
    void *args[] = {&a, &b, &c, &n, &m, &scale};
    return (int)cudaLaunchCooperativeKernel((void *)persistentRowscale, grid, block, args, 0, stream);
}
