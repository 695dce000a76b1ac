#include "core/runtime/profiler/occupancy.h"

#include <cuda_runtime.h>

namespace kforge::runtime::profiler {

std::optional<DeviceLimits> queryDeviceLimits(int device, std::string *error)
{
    cudaDeviceProp p{};
    cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e != cudaSuccess) {
        if (error)
            *error = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
        return std::nullopt;
    }
    DeviceLimits l;
    l.ccMajor = p.major;
    l.ccMinor = p.minor;
    l.smCount = p.multiProcessorCount;
    l.warpSize = p.warpSize;
    l.maxThreadsPerBlock = p.maxThreadsPerBlock;
    l.maxThreadsPerSm = p.maxThreadsPerMultiProcessor;
    l.regsPerSm = p.regsPerMultiprocessor;
    l.regsPerBlock = p.regsPerBlock;
    l.smemPerSm = p.sharedMemPerMultiprocessor;
    l.smemPerBlock = p.sharedMemPerBlock;
    l.smemPerBlockOptin = p.sharedMemPerBlockOptin;
    l.reservedSmemPerBlock = p.reservedSharedMemPerBlock;
    return l;
}

} // namespace kforge::runtime::profiler
