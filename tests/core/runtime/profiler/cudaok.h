#pragma once
// CUDA_OK(call): the GPU tests' and bench_profiler's check of a CUDA runtime call. A failed call is a broken
// rig, not a test result, so it prints where and why and exits 1.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CUDA_OK(call)                                                                                          \
    do {                                                                                                       \
        cudaError_t e_ = (call);                                                                               \
        if (e_ != cudaSuccess) {                                                                               \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));        \
            std::exit(1);                                                                                      \
        }                                                                                                      \
    } while (0)
