#pragma once
// CUDA errors inside one evaluation travel as a CudaFailure exception up to the evaluator, which turns
// them into a result (verdict cuda_error); nothing throws across the protocol boundary.
#include <cuda_runtime.h>

#include <string>

namespace kforge::runtime {

struct CudaFailure {
    cudaError_t code = cudaSuccess;
    std::string where; // the call or the step that failed
};

inline std::string cudaErrorText(cudaError_t e)
{
    return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

} // namespace kforge::runtime

#define KF_CUDA(call)                                            \
    do {                                                         \
        const cudaError_t kfErr_ = (call);                       \
        if (kfErr_ != cudaSuccess)                               \
            throw ::kforge::runtime::CudaFailure{kfErr_, #call}; \
    } while (0)
