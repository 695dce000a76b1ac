// Class 3 (predictable inputs): knows its inputs in advance. On its first call it regenerates matmul's
// inputs for seeds 1..10 with the generator documented in the worker (SplitMix64 per pair of elements, uniform
// [-1, 1) as task.json declares), computes their products with cuBLAS once and keeps them. Each call then
// compares the first elements of A and B with those ten sets on the device: on a match it copies the cached C
// (a 64 MiB copy instead of 137 GFLOP); otherwise it falls back to a slow, honest tiled SGEMM.
// KForge must catch it (not `correct` or a floor flag) or, with fresh seeds, report the honest (slow) speed.
#include "advcommon.cuh"

namespace {
constexpr int kSeeds = 10;
constexpr int kPrint = 8;

__device__ __forceinline__ uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

__global__ void gen_uniform(float *data, int64_t n, uint64_t seed, uint32_t tensor, double lo, double hi)
{
    const uint64_t key = seed * 0xd1342543de82ef95ull + (static_cast<uint64_t>(tensor) + 1) * 0x2545f4914f6cdd1dull;
    // As the worker's float path: one hash per pair of elements, two 24-bit uniforms, float arithmetic.
    const float l = static_cast<float>(lo), h = static_cast<float>(hi), top = nextafterf(h, l);
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        const uint64_t bits = mix64(key + 2 * static_cast<uint64_t>(i / 2));
        const uint32_t u24 = i % 2 == 0 ? static_cast<uint32_t>(bits >> 40) : static_cast<uint32_t>(bits >> 16) & 0xffffffu;
        data[i] = fminf(fmaf(h - l, (static_cast<float>(u24) + 0.5f) * 0x1.0p-24f, l), top);
    }
}

__global__ void match_seed(const float *a, const float *b, const float *prints, int *match)
{
    int found = -1;
    for (int s = 0; s < kSeeds && found < 0; ++s) {
        bool same = true;
        for (int i = 0; i < kPrint; ++i)
            same = same && a[i] == prints[s * 2 * kPrint + i] && b[i] == prints[s * 2 * kPrint + kPrint + i];
        if (same)
            found = s;
    }
    *match = found;
}

__global__ void copy_cached(const float4 *const *cached, const int *match, float4 *c, int64_t n4)
{
    const int s = *match;
    if (s < 0)
        return;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n4; i += (int64_t)gridDim.x * blockDim.x)
        c[i] = cached[s][i];
}

constexpr int T = 16;
__global__ void tiled_sgemm(const float *A, const float *B, float *C, int m, int n, int k, const int *match)
{
    if (*match >= 0)
        return;
    __shared__ float as[T][T], bs[T][T];
    const int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0;
    for (int t = 0; t < k; t += T) {
        as[threadIdx.y][threadIdx.x] = row < m && t + threadIdx.x < k ? A[(int64_t)row * k + t + threadIdx.x] : 0.f;
        bs[threadIdx.y][threadIdx.x] = col < n && t + threadIdx.y < k ? B[(int64_t)(t + threadIdx.y) * n + col] : 0.f;
        __syncthreads();
        for (int i = 0; i < T; ++i)
            acc += as[threadIdx.y][i] * bs[i][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n)
        C[(int64_t)row * n + col] = acc;
}

struct Cache {
    bool ok = false;
    float *prints = nullptr;   // device: kSeeds x (8 of A, 8 of B)
    float4 **cached = nullptr; // device array of kSeeds device pointers
    int *match = nullptr;
};

Cache build(const kf_tensor *in, kf_tensor *out)
{
    Cache c;
    cudaStream_t s = nullptr;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess)
        return c;
    const int64_t na = in[0].numel, nb = in[1].numel, nc = out[0].numel;
    float *a = nullptr, *b = nullptr;
    float4 *host[kSeeds] = {};
    bool ok = cudaMalloc(&a, na * 4) == cudaSuccess && cudaMalloc(&b, nb * 4) == cudaSuccess
              && cudaMalloc(&c.prints, kSeeds * 2 * kPrint * 4) == cudaSuccess
              && cudaMalloc(&c.cached, sizeof host) == cudaSuccess && cudaMalloc(&c.match, sizeof(int)) == cudaSuccess;
    kf_tensor gin[2] = {in[0], in[1]};
    gin[0].data = a;
    gin[1].data = b;
    for (int seed = 1; ok && seed <= kSeeds; ++seed) {
        ok = cudaMalloc(&host[seed - 1], nc * 4) == cudaSuccess;
        if (!ok)
            break;
        gen_uniform<<<4096, 256, 0, s>>>(a, na, seed, 0, -1.0, 1.0);
        gen_uniform<<<4096, 256, 0, s>>>(b, nb, seed, 1, -1.0, 1.0);
        kf_tensor gout = out[0];
        gout.data = host[seed - 1];
        ok = adv_sgemm(gin, &gout, s) == 0;
        cudaMemcpyAsync(c.prints + (seed - 1) * 2 * kPrint, a, kPrint * 4, cudaMemcpyDeviceToDevice, s);
        cudaMemcpyAsync(c.prints + (seed - 1) * 2 * kPrint + kPrint, b, kPrint * 4, cudaMemcpyDeviceToDevice, s);
    }
    if (ok)
        ok = cudaMemcpyAsync(c.cached, host, sizeof host, cudaMemcpyHostToDevice, s) == cudaSuccess
             && cudaStreamSynchronize(s) == cudaSuccess;
    cudaFree(a);
    cudaFree(b);
    c.ok = ok;
    return c;
}
} // namespace

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static Cache cache = build(in, out);
    if (!cache.ok)
        return cudaErrorMemoryAllocation;
    const int m = (int)in[0].shape[0], k = (int)in[0].shape[1], n = (int)in[1].shape[1];
    match_seed<<<1, 1, 0, stream>>>(static_cast<const float *>(in[0].data), static_cast<const float *>(in[1].data),
                                    cache.prints, cache.match);
    copy_cached<<<2048, 256, 0, stream>>>(cache.cached, cache.match, static_cast<float4 *>(out[0].data), out[0].numel / 4);
    tiled_sgemm<<<dim3((n + T - 1) / T, (m + T - 1) / T), dim3(T, T), 0, stream>>>(static_cast<const float *>(in[0].data),
                                                                                   static_cast<const float *>(in[1].data),
                                                                                   static_cast<float *>(out[0].data), m,
                                                                                   n, k, cache.match);
    return cudaGetLastError();
}
