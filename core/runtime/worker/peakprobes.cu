#include "core/runtime/worker/peakprobes.h"

#include <cstdint>

namespace kforge::runtime::gpu {
namespace {

__global__ void readSweepKernel(const uint4 *data, std::size_t n, unsigned *sink)
{
    unsigned acc = 0;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint4 v = data[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u && threadIdx.x == 1023) // never true (blocks have 512 threads): keeps the loads
        sink[0] = acc;
}

// One mma.sync of each kind with the accumulators d[0..3] (A: 4 registers, B: 2).
template <TensorKind K>
__device__ __forceinline__ void mma(float *d, const unsigned *a, const unsigned *b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (K == TensorKind::F16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else if constexpr (K == TensorKind::Bf16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else if constexpr (K == TensorKind::Tf32)
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#if __CUDA_ARCH__ >= 890
    else if constexpr (K == TensorKind::Fp8E4m3)
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
#endif
}

template <TensorKind K>
__device__ constexpr bool hasMma()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    return true;
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return K != TensorKind::Fp8E4m3;
#else
    return false;
#endif
}

template <TensorKind K>
__global__ void mmaKernel(unsigned *sink, int iterations)
{
    if constexpr (!hasMma<K>()) {
        return; // built for an architecture without the instruction: sink[0] stays 0
    } else {
        // Small values of mixed signs (never zeros: a tensor core on zeros draws less power and clocks higher),
        // so the accumulators stay finite over any number of iterations.
        const unsigned lane = threadIdx.x & 31u;
        unsigned a[4], b[2];
        for (int i = 0; i < 4; ++i) {
            const bool neg = ((lane >> i) ^ i) & 1u;
            if constexpr (K == TensorKind::Tf32)
                a[i] = neg ? 0xbc23d70au : 0x3c23d70au; // -+0.01f
            else if constexpr (K == TensorKind::Fp8E4m3)
                a[i] = neg ? 0xa828a828u : 0x28a828a8u; // +-2^-5 bytes
            else
                a[i] = neg ? 0xa0002000u : 0x2000a000u; // +-2^-7 in f16, a small number in bf16
        }
        b[0] = a[1] ^ 0x80008000u;
        b[1] = a[2];
        float d[kMmaChains][4] = {};
        for (int it = 0; it < iterations; ++it) {
#pragma unroll
            for (int c = 0; c < kMmaChains; ++c)
                mma<K>(d[c], a, b);
        }
        float s = 0;
#pragma unroll
        for (int c = 0; c < kMmaChains; ++c)
            s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
        if (threadIdx.x == 0)
            atomicOr(sink, 1u);
        if (s == 1234567.0f) // never true; keeps the chains alive
            sink[1] = static_cast<unsigned>(s);
    }
}

} // namespace

cudaError_t readProbe(const void *data, std::size_t bytes, unsigned *sink, int blocks, cudaStream_t stream)
{
    readSweepKernel<<<blocks, kReadThreads, 0, stream>>>(static_cast<const uint4 *>(data), bytes / 16, sink);
    return cudaGetLastError();
}

double mmaFlopsPerInstruction(TensorKind kind)
{
    switch (kind) {
    case TensorKind::F16:
    case TensorKind::Bf16: return 2.0 * 16 * 8 * 16;
    case TensorKind::Tf32: return 2.0 * 16 * 8 * 8;
    case TensorKind::Fp8E4m3: return 2.0 * 16 * 8 * 32;
    }
    return 0;
}

int mmaMinArch(TensorKind kind)
{
    return kind == TensorKind::Fp8E4m3 ? 89 : 80;
}

cudaError_t mmaProbe(TensorKind kind, unsigned *sink, int blocks, int iterations, cudaStream_t stream)
{
    switch (kind) {
    case TensorKind::F16: mmaKernel<TensorKind::F16><<<blocks, kMmaThreads, 0, stream>>>(sink, iterations); break;
    case TensorKind::Bf16: mmaKernel<TensorKind::Bf16><<<blocks, kMmaThreads, 0, stream>>>(sink, iterations); break;
    case TensorKind::Tf32: mmaKernel<TensorKind::Tf32><<<blocks, kMmaThreads, 0, stream>>>(sink, iterations); break;
    case TensorKind::Fp8E4m3:
        mmaKernel<TensorKind::Fp8E4m3><<<blocks, kMmaThreads, 0, stream>>>(sink, iterations);
        break;
    }
    return cudaGetLastError();
}

} // namespace kforge::runtime::gpu
