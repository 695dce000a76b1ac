#include "core/runtime/worker/devicekernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <climits>
#include <cmath>

namespace kforge::runtime::gpu {
namespace {

constexpr int kThreads = 256;

unsigned gridFor(int64_t n)
{
    const int64_t blocks = (n + kThreads - 1) / kThreads;
    return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > 8192 ? 8192 : blocks));
}

__device__ __forceinline__ uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Uniform in (0, 1): never exactly 0, so log() in Box-Muller stays finite.
__device__ __forceinline__ double unit(uint64_t bits)
{
    return (static_cast<double>(bits >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

__device__ double sample(int dist, double a, double b, uint64_t key, int64_t i)
{
    const uint64_t base = mix64(key + 2 * static_cast<uint64_t>(i));
    switch (dist) {
    case Normal: {
        const double u1 = unit(base);
        const double u2 = unit(mix64(base ^ 0x5851f42d4c957f2dull));
        return a + b * sqrt(-2.0 * log(u1)) * cospi(2.0 * u2);
    }
    case Uniform: return a + (b - a) * unit(base);
    case Integers: {
        const double span = b - a;
        double v = floor(a + span * unit(base));
        return v >= b ? b - 1 : v;
    }
    default: return a;
    }
}

template <typename T>
__device__ T toInt(double v, double lo, double hi)
{
    v = rint(v);
    v = v < lo ? lo : (v > hi ? hi : v);
    return static_cast<T>(v);
}

// The largest finite value of a float dtype (0x7f7fffff, 65504, 0x7f7f).
__device__ __forceinline__ double saturate(double v, double max)
{
    return fmin(fmax(v, -max), max); // keeps -0.0 and NaN
}

__global__ void fillKernel(void *data, int dtype, int64_t n, int dist, double a, double b, uint64_t key, FillSpecials specials)
{
    const uint64_t specialKey = mix64(key ^ 0xe7037ed1a0b428dbull);
    for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        double v = sample(dist, a, b, key, i);
        if (specials.count > 0) {
            const uint64_t h = mix64(specialKey + static_cast<uint64_t>(i));
            if ((h & 31u) == 0)
                v = specials.values[(h >> 32) % static_cast<uint64_t>(specials.count)];
        }
        switch (dtype) {
        case F32: static_cast<float *>(data)[i] = static_cast<float>(saturate(v, 3.4028234663852886e38)); break;
        case F64: static_cast<double *>(data)[i] = v; break;
        case F16: static_cast<__half *>(data)[i] = __float2half_rn(static_cast<float>(saturate(v, 65504.0))); break;
        case BF16:
            static_cast<__nv_bfloat16 *>(data)[i] = __float2bfloat16_rn(
                static_cast<float>(saturate(v, 3.3895313892515355e38)));
            break;
        case I32: static_cast<int32_t *>(data)[i] = toInt<int32_t>(v, -2147483648.0, 2147483647.0); break;
        case I64:
            static_cast<long long *>(data)[i] = toInt<long long>(v, -9223372036854775808.0, 9223372036854774784.0);
            break;
        case U8: static_cast<uint8_t *>(data)[i] = toInt<uint8_t>(v, 0.0, 255.0); break;
        default: break;
        }
    }
}

// Normal samples for a 16- or 32-bit float dtype, in float arithmetic: one hash, one log and one sincospi
// for each pair of elements (Box-Muller's two outputs), where the double-precision path above spends two
// hashes and a double log, sqrt and cospi on every element. Generation is outside every timed window, but it
// is most of a round's GPU time for tasks with large inputs (diag_matmul: 8 GiB a batch, 21.9 ms in double).
// The 24-bit uniforms bound |z| by 5.9 (the double path: 8.6); the edge trials go beyond either.
template <typename T>
__device__ __forceinline__ void storeFloat(void *data, int64_t i, float v);
template <>
__device__ __forceinline__ void storeFloat<float>(void *data, int64_t i, float v)
{
    static_cast<float *>(data)[i] = fminf(fmaxf(v, -3.4028234663852886e38f), 3.4028234663852886e38f);
}
template <>
__device__ __forceinline__ void storeFloat<__half>(void *data, int64_t i, float v)
{
    static_cast<__half *>(data)[i] = __float2half_rn(fminf(fmaxf(v, -65504.f), 65504.f));
}
template <>
__device__ __forceinline__ void storeFloat<__nv_bfloat16>(void *data, int64_t i, float v)
{
    static_cast<__nv_bfloat16 *>(data)[i] = __float2bfloat16_rn(fminf(fmaxf(v, -3.3895313892515355e38f), 3.3895313892515355e38f));
}

template <typename T>
__global__ void fillNormalFloatKernel(void *data, int64_t n, float mean, float std, uint64_t key, FillSpecials specials)
{
    const uint64_t specialKey = mix64(key ^ 0xe7037ed1a0b428dbull);
    const int64_t pairs = (n + 1) / 2;
    for (int64_t p = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; p < pairs;
         p += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const uint64_t h = mix64(key + 2 * static_cast<uint64_t>(p));
        const float u1 = (static_cast<float>(static_cast<uint32_t>(h >> 40)) + 0.5f) * 0x1.0p-24f;
        const float u2 = (static_cast<float>(static_cast<uint32_t>(h >> 16) & 0xffffffu) + 0.5f) * 0x1.0p-24f;
        const float r = sqrtf(-2.0f * logf(u1));
        float sn, cs;
        sincospif(2.0f * u2, &sn, &cs);
        const float v[2] = {mean + std * r * cs, mean + std * r * sn};
        for (int k = 0; k < 2; ++k) {
            const int64_t i = 2 * p + k;
            if (i >= n)
                break;
            float out = v[k];
            if (specials.count > 0) {
                const uint64_t hs = mix64(specialKey + static_cast<uint64_t>(i));
                if ((hs & 31u) == 0)
                    out = static_cast<float>(specials.values[(hs >> 32) % static_cast<uint64_t>(specials.count)]);
            }
            storeFloat<T>(data, i, out);
        }
    }
}

// Normal samples for f64, one hash for each pair of elements (two 32-bit uniforms) and Box-Muller's two
// outputs from one log, sqrt and sincospi in double, where fillKernel spends two hashes, a log, a sqrt and a
// cospi on every element (measured on the H200: row_sum's 256 MiB input took most of a round's GPU time).
// The values are full doubles (not floats widened); the 32-bit uniforms bound |z| by 6.7.
__global__ void fillNormalDoubleKernel(double *data, int64_t n, double mean, double std, uint64_t key, FillSpecials specials)
{
    const uint64_t specialKey = mix64(key ^ 0xe7037ed1a0b428dbull);
    const int64_t pairs = (n + 1) / 2;
    for (int64_t p = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; p < pairs;
         p += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const uint64_t h = mix64(key + 2 * static_cast<uint64_t>(p));
        const double u1 = (static_cast<double>(h >> 32) + 0.5) * 0x1.0p-32;
        const double u2 = (static_cast<double>(h & 0xffffffffu) + 0.5) * 0x1.0p-32;
        const double r = sqrt(-2.0 * log(u1));
        double sn, cs;
        sincospi(2.0 * u2, &sn, &cs);
        const double v[2] = {mean + std * r * cs, mean + std * r * sn};
        for (int k = 0; k < 2; ++k) {
            const int64_t i = 2 * p + k;
            if (i >= n)
                break;
            double out = v[k];
            if (specials.count > 0) {
                const uint64_t hs = mix64(specialKey + static_cast<uint64_t>(i));
                if ((hs & 31u) == 0)
                    out = specials.values[(hs >> 32) % static_cast<uint64_t>(specials.count)];
            }
            data[i] = out;
        }
    }
}

// Uniform samples in [a, b) for a 16- or 32-bit float dtype, in float arithmetic: two 24-bit uniforms from
// each hash (elements 2p and 2p + 1), where the double path hashes every element and converts in double.
template <typename T>
__global__ void fillUniformFloatKernel(void *data, int64_t n, float lo, float hi, uint64_t key, FillSpecials specials)
{
    const uint64_t specialKey = mix64(key ^ 0xe7037ed1a0b428dbull);
    const int64_t pairs = (n + 1) / 2;
    const float span = hi - lo, top = nextafterf(hi, lo);
    for (int64_t p = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; p < pairs;
         p += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const uint64_t h = mix64(key + 2 * static_cast<uint64_t>(p));
        const uint32_t bits[2] = {static_cast<uint32_t>(h >> 40), static_cast<uint32_t>(h >> 16) & 0xffffffu};
        for (int k = 0; k < 2; ++k) {
            const int64_t i = 2 * p + k;
            if (i >= n)
                break;
            float out = fminf(fmaf(span, (static_cast<float>(bits[k]) + 0.5f) * 0x1.0p-24f, lo), top);
            if (specials.count > 0) {
                const uint64_t hs = mix64(specialKey + static_cast<uint64_t>(i));
                if ((hs & 31u) == 0)
                    out = static_cast<float>(specials.values[(hs >> 32) % static_cast<uint64_t>(specials.count)]);
            }
            storeFloat<T>(data, i, out);
        }
    }
}

// Integers in [lo, hi) for i32, i64 and u8 with a span of at most 2^32: one hash for each pair of elements, each
// value lo + (32 hash bits x span) >> 32 in integer arithmetic (bias at most span / 2^32), where fillKernel
// hashes every element and goes through double and floor (H200: histogram's 128 MiB u8 input was most of its
// rounds' GPU time).
template <typename T>
__global__ void fillIntegersKernel(T *data, int64_t n, long long lo, unsigned long long span, uint64_t key,
                                   FillSpecials specials, double min, double max)
{
    const uint64_t specialKey = mix64(key ^ 0xe7037ed1a0b428dbull);
    const int64_t pairs = (n + 1) / 2;
    for (int64_t p = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; p < pairs;
         p += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const uint64_t h = mix64(key + 2 * static_cast<uint64_t>(p));
        const uint64_t bits[2] = {h >> 32, h & 0xffffffffull};
        for (int k = 0; k < 2; ++k) {
            const int64_t i = 2 * p + k;
            if (i >= n)
                break;
            T out = static_cast<T>(lo + static_cast<long long>((bits[k] * span) >> 32));
            if (specials.count > 0) {
                const uint64_t hs = mix64(specialKey + static_cast<uint64_t>(i));
                if ((hs & 31u) == 0)
                    out = toInt<T>(specials.values[(hs >> 32) % static_cast<uint64_t>(specials.count)], min, max);
            }
            data[i] = out;
        }
    }
}

struct Acc {
    unsigned long long mismatches = 0, nans = 0, infs = 0, first = ULLONG_MAX;
    double maxAbs = 0, maxRel = 0;
};

template <typename T>
__device__ __forceinline__ double asDouble(T v)
{
    return static_cast<double>(v);
}
template <>
__device__ __forceinline__ double asDouble<__half>(__half v)
{
    return static_cast<double>(__half2float(v));
}
template <>
__device__ __forceinline__ double asDouble<__nv_bfloat16>(__nv_bfloat16 v)
{
    return static_cast<double>(__bfloat162float(v));
}

template <typename T, bool Floating>
__device__ __forceinline__ void compareValues(T ev, T gv, int64_t i, double atol, double rtol, Acc &acc)
{
    bool bad;
    if constexpr (Floating) {
        const double e = asDouble(ev);
        const double g = asDouble(gv);
        if (isnan(g)) {
            ++acc.nans;
            bad = !isnan(e);
        } else if (isinf(g)) {
            ++acc.infs;
            bad = g != e;
        } else if (!isfinite(e)) {
            bad = true;
        } else {
            const double d = fabs(g - e);
            const double ae = fabs(e);
            acc.maxAbs = fmax(acc.maxAbs, d);
            if (ae > 0 && d > acc.maxRel * ae) // a division only where the maximum may grow
                acc.maxRel = fmax(acc.maxRel, d / ae);
            bad = !(d <= atol + rtol * ae);
        }
    } else {
        bad = ev != gv;
        if (bad) {
            const double e = static_cast<double>(ev);
            const double d = fabs(static_cast<double>(gv) - e);
            acc.maxAbs = fmax(acc.maxAbs, d);
            if (e != 0)
                acc.maxRel = fmax(acc.maxRel, d / fabs(e));
        }
    }
    if (bad) {
        ++acc.mismatches;
        if (static_cast<unsigned long long>(i) < acc.first)
            acc.first = static_cast<unsigned long long>(i);
    }
}

__device__ void flushAcc(Acc acc, CompareStats *stats)
{
    for (int off = 16; off > 0; off /= 2) {
        acc.mismatches += __shfl_down_sync(0xffffffffu, acc.mismatches, off);
        acc.nans += __shfl_down_sync(0xffffffffu, acc.nans, off);
        acc.infs += __shfl_down_sync(0xffffffffu, acc.infs, off);
        acc.first = min(acc.first, __shfl_down_sync(0xffffffffu, acc.first, off));
        acc.maxAbs = fmax(acc.maxAbs, __shfl_down_sync(0xffffffffu, acc.maxAbs, off));
        acc.maxRel = fmax(acc.maxRel, __shfl_down_sync(0xffffffffu, acc.maxRel, off));
    }
    if ((threadIdx.x & 31) != 0)
        return;
    if (acc.mismatches)
        atomicAdd(&stats->mismatches, acc.mismatches);
    if (acc.nans)
        atomicAdd(&stats->nanCount, acc.nans);
    if (acc.infs)
        atomicAdd(&stats->infCount, acc.infs);
    if (acc.first != ULLONG_MAX)
        atomicMin(&stats->firstIndex, acc.first);
    if (acc.maxAbs > 0)
        atomicMax(&stats->maxAbsBits, static_cast<unsigned long long>(__double_as_longlong(acc.maxAbs)));
    if (acc.maxRel > 0)
        atomicMax(&stats->maxRelBits, static_cast<unsigned long long>(__double_as_longlong(acc.maxRel)));
}

// 16-byte loads where both tensors are 16-byte aligned (the judge's slots are): with one element a load, a
// 2-byte dtype moved 64 bytes a warp-load and the kernel ran at about a sixth of the memory's bandwidth
// (H200: 0.21-0.25 ms for 32M elements). The elements past the last whole vector, and unaligned tensors,
// one at a time. Every thread reaches flushAcc, so its shuffles are full-warp.
template <typename T, bool Floating>
__global__ void compareKernel(const T *expected, const T *got, int64_t n, double atol, double rtol, CompareStats *stats)
{
    Acc acc;
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    const int64_t tid = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
    constexpr int kPerVector = sizeof(T) < 16 ? static_cast<int>(16 / sizeof(T)) : 1;
    int64_t scalarFrom = 0;
    if (kPerVector > 1
        && ((reinterpret_cast<uintptr_t>(expected) | reinterpret_cast<uintptr_t>(got)) & 15u) == 0) {
        const int64_t vectors = n / kPerVector;
        const uint4 *ev = reinterpret_cast<const uint4 *>(expected);
        const uint4 *gv = reinterpret_cast<const uint4 *>(got);
        for (int64_t v = tid; v < vectors; v += stride) {
            const uint4 a = ev[v];
            const uint4 b = gv[v];
            const T *ta = reinterpret_cast<const T *>(&a);
            const T *tb = reinterpret_cast<const T *>(&b);
#pragma unroll
            for (int j = 0; j < kPerVector; ++j)
                compareValues<T, Floating>(ta[j], tb[j], v * kPerVector + j, atol, rtol, acc);
        }
        scalarFrom = vectors * kPerVector;
    }
    for (int64_t i = scalarFrom + tid; i < n; i += stride)
        compareValues<T, Floating>(expected[i], got[i], i, atol, rtol, acc);
    flushAcc(acc, stats);
}

__global__ void resetKernel(CompareStats *stats)
{
    *stats = CompareStats{0, 0, 0, ULLONG_MAX, 0, 0};
}

__global__ void diffKernel(const uint32_t *a, const uint32_t *b, int64_t words, const uint8_t *ta, const uint8_t *tb,
                           int tail, unsigned long long *count)
{
    unsigned long long local = 0;
    for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < words;
         i += static_cast<int64_t>(gridDim.x) * blockDim.x)
        local += a[i] != b[i];
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (int k = 0; k < tail; ++k)
            local += ta[k] != tb[k];
    for (int off = 16; off > 0; off /= 2)
        local += __shfl_down_sync(0xffffffffu, local, off);
    if ((threadIdx.x & 31) == 0 && local)
        atomicAdd(count, local);
}

__global__ void fmaKernel(float *sink, int iterations)
{
    float v[kFmaChains];
#pragma unroll
    for (int k = 0; k < kFmaChains; ++k)
        v[k] = static_cast<float>(threadIdx.x + k) * 1e-3f;
    const float m = 0.999999f, c = 1e-6f;
    // Unrolled so the loop counter and branch do not take issue slots from the FMAs.
#pragma unroll 16
    for (int it = 0; it < iterations; ++it) {
#pragma unroll
        for (int k = 0; k < kFmaChains; ++k)
            v[k] = fmaf(v[k], m, c);
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < kFmaChains; ++k)
        s += v[k];
    if (s == -1.0f) // never true; keeps the chains alive
        sink[0] = s;
}

// Calls `launch` with a value of the element type of an f32, f16 or bf16 dtype code.
template <typename Launch>
void byFloatDtype(int dtype, Launch launch)
{
    if (dtype == F32)
        launch(float{});
    else if (dtype == F16)
        launch(__half{});
    else
        launch(__nv_bfloat16{});
}

} // namespace

cudaError_t fill(void *data, int dtype, int64_t n, int dist, double a, double b, uint64_t seed, uint32_t tensor,
                 cudaStream_t stream, const FillSpecials &specials)
{
    if (n <= 0)
        return cudaSuccess;
    if (specials.count < 0 || specials.count > 8)
        return cudaErrorInvalidValue;
    const uint64_t key = seed * 0xd1342543de82ef95ull + (static_cast<uint64_t>(tensor) + 1) * 0x2545f4914f6cdd1dull;
    if (dist == Normal && (dtype == F32 || dtype == F16 || dtype == BF16) && std::fabs(a) < 1e37 && std::fabs(b) < 1e37) {
        byFloatDtype(dtype, [&](auto tag) {
            fillNormalFloatKernel<decltype(tag)><<<gridFor((n + 1) / 2), kThreads, 0, stream>>>(
                data, n, static_cast<float>(a), static_cast<float>(b), key, specials);
        });
        return cudaGetLastError();
    }
    if (dist == Uniform && (dtype == F32 || dtype == F16 || dtype == BF16) && std::fabs(a) < 1e37 && std::fabs(b) < 1e37
        && b > a) {
        byFloatDtype(dtype, [&](auto tag) {
            fillUniformFloatKernel<decltype(tag)><<<gridFor((n + 1) / 2), kThreads, 0, stream>>>(
                data, n, static_cast<float>(a), static_cast<float>(b), key, specials);
        });
        return cudaGetLastError();
    }
    if (dist == Integers && (dtype == I32 || dtype == I64 || dtype == U8)) {
        // Only where the bounds are whole, in the dtype's range and at most 2^32 apart (else fillKernel).
        const double lo = dtype == U8 ? 0.0 : (dtype == I32 ? -2147483648.0 : -9223372036854775808.0);
        const double hi = dtype == U8 ? 256.0 : (dtype == I32 ? 2147483648.0 : 9223372036854775807.0);
        if (a == std::floor(a) && b == std::floor(b) && a >= lo && b <= hi && b > a && b - a <= 4294967296.0) {
            const auto l = static_cast<long long>(a);
            const auto span = static_cast<unsigned long long>(b - a);
            const unsigned grid = gridFor((n + 1) / 2);
            if (dtype == I32)
                fillIntegersKernel<int32_t><<<grid, kThreads, 0, stream>>>(static_cast<int32_t *>(data), n, l, span, key,
                                                                           specials, -2147483648.0, 2147483647.0);
            else if (dtype == I64)
                fillIntegersKernel<long long><<<grid, kThreads, 0, stream>>>(static_cast<long long *>(data), n, l, span,
                                                                             key, specials, -9223372036854775808.0,
                                                                             9223372036854774784.0);
            else
                fillIntegersKernel<uint8_t><<<grid, kThreads, 0, stream>>>(static_cast<uint8_t *>(data), n, l, span, key,
                                                                           specials, 0.0, 255.0);
            return cudaGetLastError();
        }
    }
    if (dist == Normal && dtype == F64) {
        fillNormalDoubleKernel<<<gridFor((n + 1) / 2), kThreads, 0, stream>>>(static_cast<double *>(data), n, a, b,
                                                                               key, specials);
        return cudaGetLastError();
    }
    fillKernel<<<gridFor(n), kThreads, 0, stream>>>(data, dtype, n, dist, a, b, key, specials);
    return cudaGetLastError();
}

cudaError_t resetCompareStats(CompareStats *deviceStats, cudaStream_t stream)
{
    resetKernel<<<1, 1, 0, stream>>>(deviceStats);
    return cudaGetLastError();
}

cudaError_t compare(const void *expected, const void *got, int dtype, int64_t n, double atol, double rtol,
                    CompareStats *deviceStats, cudaStream_t stream)
{
    if (n <= 0)
        return cudaSuccess;
    const unsigned grid = gridFor(n);
    switch (dtype) {
    case F32:
        compareKernel<float, true><<<grid, kThreads, 0, stream>>>(static_cast<const float *>(expected),
                                                                  static_cast<const float *>(got), n, atol, rtol,
                                                                  deviceStats);
        break;
    case F64:
        compareKernel<double, true><<<grid, kThreads, 0, stream>>>(static_cast<const double *>(expected),
                                                                   static_cast<const double *>(got), n, atol, rtol,
                                                                   deviceStats);
        break;
    case F16:
        compareKernel<__half, true><<<grid, kThreads, 0, stream>>>(static_cast<const __half *>(expected),
                                                                   static_cast<const __half *>(got), n, atol, rtol,
                                                                   deviceStats);
        break;
    case BF16:
        compareKernel<__nv_bfloat16, true><<<grid, kThreads, 0, stream>>>(static_cast<const __nv_bfloat16 *>(expected),
                                                                          static_cast<const __nv_bfloat16 *>(got), n,
                                                                          atol, rtol, deviceStats);
        break;
    case I32:
        compareKernel<int32_t, false><<<grid, kThreads, 0, stream>>>(static_cast<const int32_t *>(expected),
                                                                     static_cast<const int32_t *>(got), n, atol, rtol,
                                                                     deviceStats);
        break;
    case I64:
        compareKernel<long long, false><<<grid, kThreads, 0, stream>>>(static_cast<const long long *>(expected),
                                                                       static_cast<const long long *>(got), n, atol,
                                                                       rtol, deviceStats);
        break;
    case U8:
        compareKernel<uint8_t, false><<<grid, kThreads, 0, stream>>>(static_cast<const uint8_t *>(expected),
                                                                     static_cast<const uint8_t *>(got), n, atol, rtol,
                                                                     deviceStats);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

cudaError_t countDifferences(const void *a, const void *b, size_t bytes, unsigned long long *deviceCount, cudaStream_t stream)
{
    if (bytes == 0)
        return cudaSuccess;
    const int64_t words = static_cast<int64_t>(bytes / 4);
    const int tail = static_cast<int>(bytes % 4);
    const auto *ta = static_cast<const uint8_t *>(a) + words * 4;
    const auto *tb = static_cast<const uint8_t *>(b) + words * 4;
    diffKernel<<<gridFor(words), kThreads, 0, stream>>>(static_cast<const uint32_t *>(a), static_cast<const uint32_t *>(b),
                                                        words, ta, tb, tail, deviceCount);
    return cudaGetLastError();
}

cudaError_t fmaProbe(float *sink, int blocks, int iterations, cudaStream_t stream)
{
    fmaKernel<<<blocks, kFmaThreads, 0, stream>>>(sink, iterations);
    return cudaGetLastError();
}

} // namespace kforge::runtime::gpu
