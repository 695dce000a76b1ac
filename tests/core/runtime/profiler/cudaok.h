#pragma once
// What the profiler's GPU tests and bench_profiler share: CUDA_OK(call), the check of a CUDA runtime call (a
// failed call is a broken rig, not a test result, so it prints where and why and exits 1), and hasCudaDevice().
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CUDA_OK(call)                                                                                  \
    do {                                                                                               \
        cudaError_t e_ = (call);                                                                       \
        if (e_ != cudaSuccess) {                                                                       \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            std::exit(1);                                                                              \
        }                                                                                              \
    } while (0)

// Whether the CUDA runtime sees a device: the GPU tests skip (77) without one, bench_profiler says so.
inline bool hasCudaDevice()
{
    int devices = 0;
    return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}
