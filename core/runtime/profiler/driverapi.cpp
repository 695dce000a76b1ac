#include "core/runtime/profiler/driverapi.h"

#include <cudaTypedefs.h>
#include <cuda_runtime.h>

namespace kforge::runtime::profiler {

// Always ask for the ABI version the call is written against: CUDA 13 added cuCtxGetDevice_v2 with another
// signature, and "the newest" is not what a one-argument call expects.
CUresult currentContext(CUcontext *ctx)
{
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult status{};
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 4000, cudaEnableDefault, &status) != cudaSuccess
        || status != cudaDriverEntryPointSuccess || !fn)
        return CUDA_ERROR_NOT_FOUND;
    return reinterpret_cast<PFN_cuCtxGetCurrent_v4000>(fn)(ctx);
}

} // namespace kforge::runtime::profiler
