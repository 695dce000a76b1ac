#pragma once
// The worker's own GPU kernels: inputs from a seed, output comparison, bitwise diffs and the peak-rate
// probe. Plain host-callable launchers so the rest of the worker stays ordinary C++.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace kforge::runtime::gpu {

// Mirrors kforge::runtime::Dtype / kf_dtype values.
enum DtypeCode : int { F32 = 0, F16 = 1, BF16 = 2, F64 = 3, I32 = 4, I64 = 5, U8 = 6 };
enum DistCode : int { Normal = 0, Uniform = 1, Integers = 2, Constant = 3 };

// Special values mixed into a fill (InputRange::Special, core/runtime/task/inputrange.h): about 1 element in
// 32, at positions drawn from the seed, takes one of `values` (doubles, converted like drawn values).
struct FillSpecials {
    int count = 0; // 0: none
    double values[8] = {};
};

// Element i of tensor `stream` of a trial is a pure function of (seed, stream, i): counter-based, so the
// same seed gives the same inputs on any GPU and launch configuration. Floating values beyond the dtype's
// largest finite value saturate to it (a scaled distribution never makes an input infinite).
cudaError_t fill(void *data, int dtype, int64_t n, int dist, double a, double b, uint64_t seed, uint32_t tensor,
                 cudaStream_t stream, const FillSpecials &specials = {});

// Accumulated by compare(); zero it (resetCompareStats) before the first output.
struct CompareStats {
    unsigned long long mismatches;
    unsigned long long nanCount;
    unsigned long long infCount;
    unsigned long long firstIndex; // ULLONG_MAX when no mismatch
    unsigned long long maxAbsBits; // double bits; non-negative doubles order like integers
    unsigned long long maxRelBits;
};
cudaError_t resetCompareStats(CompareStats *deviceStats, cudaStream_t stream);

// allclose(got, expected) with |got - expected| <= atol + rtol * |expected|; NaN matches NaN and an
// infinity matches the same infinity; integers compare exactly.
cudaError_t compare(const void *expected, const void *got, int dtype, int64_t n, double atol, double rtol,
                    CompareStats *deviceStats, cudaStream_t stream);

// Adds the number of differing 32-bit words (and tail bytes) between a and b to *deviceCount.
cudaError_t countDifferences(const void *a, const void *b, size_t bytes, unsigned long long *deviceCount,
                             cudaStream_t stream);

// Runs `iterations` x 8 independent FMA chains per thread in `blocks` x 256 threads; FLOP = 2 * FMA.
cudaError_t fmaProbe(float *sink, int blocks, int iterations, cudaStream_t stream);
constexpr int kFmaChains = 8;
constexpr int kFmaThreads = 256;

} // namespace kforge::runtime::gpu
