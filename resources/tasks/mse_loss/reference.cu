// Reference for mse_loss: a grid-stride pass accumulates squared differences per thread in float64 and
// reduces each block in shared memory into a temporary array; a one-block kernel sums the partials and
// writes the mean.
#include "kforge/kernel.h"

constexpr int THREADS = 256;
constexpr int BLOCKS = 1024;

__global__ void sq_diff_partials(const float *__restrict__ p, const float *__restrict__ t, double *__restrict__ part,
                                 int64_t n)
{
    __shared__ double smem[THREADS];
    double s = 0.0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        const double d = (double)p[i] - (double)t[i];
        s += d * d;
    }
    smem[threadIdx.x] = s;
    __syncthreads();
    for (int st = blockDim.x / 2; st > 0; st /= 2) {
        if ((int)threadIdx.x < st)
            smem[threadIdx.x] += smem[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        part[blockIdx.x] = smem[0];
}

__global__ void finish_mean(const double *__restrict__ part, int nparts, float *__restrict__ out, int64_t n)
{
    __shared__ double smem[THREADS];
    double s = 0.0;
    for (int i = threadIdx.x; i < nparts; i += blockDim.x)
        s += part[i];
    smem[threadIdx.x] = s;
    __syncthreads();
    for (int st = blockDim.x / 2; st > 0; st /= 2) {
        if ((int)threadIdx.x < st)
            smem[threadIdx.x] += smem[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[0] = (float)(smem[0] / (double)n);
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    const int64_t n = in[0].numel;
    double *part = nullptr;
    cudaError_t err = cudaMallocAsync(reinterpret_cast<void **>(&part), sizeof(double) * BLOCKS, stream);
    if (err != cudaSuccess)
        return err;
    sq_diff_partials<<<BLOCKS, THREADS, 0, stream>>>(static_cast<const float *>(in[0].data),
                                                     static_cast<const float *>(in[1].data), part, n);
    finish_mean<<<1, THREADS, 0, stream>>>(part, BLOCKS, static_cast<float *>(out[0].data), n);
    cudaFreeAsync(part, stream);
    return cudaGetLastError();
}
