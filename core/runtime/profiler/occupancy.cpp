#include "core/runtime/profiler/occupancy.h"

#include <cuda_occupancy.h>

#include <climits>

namespace kforge::runtime::profiler {

std::optional<Occupancy> theoreticalOccupancy(const DeviceLimits &limits, int threadsPerBlock, int registersPerThread,
                                              size_t staticSmemPerBlock, size_t dynamicSmemPerBlock)
{
    if (!limits.valid() || threadsPerBlock <= 0)
        return std::nullopt;
    cudaOccDeviceProp prop;
    prop.computeMajor = limits.ccMajor;
    prop.computeMinor = limits.ccMinor;
    prop.maxThreadsPerBlock = limits.maxThreadsPerBlock;
    prop.maxThreadsPerMultiprocessor = limits.maxThreadsPerSm;
    prop.regsPerBlock = limits.regsPerBlock;
    prop.regsPerMultiprocessor = limits.regsPerSm;
    prop.warpSize = limits.warpSize;
    prop.sharedMemPerBlock = limits.smemPerBlock;
    prop.sharedMemPerMultiprocessor = limits.smemPerSm;
    prop.numSms = limits.smCount;
    prop.sharedMemPerBlockOptin = limits.smemPerBlockOptin;
    prop.reservedSharedMemPerBlock = limits.reservedSmemPerBlock;

    // What a record tells us about the function; the rest as cudaFuncGetAttributes reports it for a
    // kernel that opted into its dynamic shared memory (the launch succeeded, so it did).
    cudaOccFuncAttributes attr;
    attr.maxThreadsPerBlock = INT_MAX;
    attr.numRegs = registersPerThread;
    attr.sharedSizeBytes = staticSmemPerBlock;
    attr.partitionedGCConfig = PARTITIONED_GC_OFF;
    attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    attr.maxDynamicSharedSizeBytes = static_cast<int>(dynamicSmemPerBlock);
    attr.numBlockBarriers = 1;

    cudaOccDeviceState state; // default carveout: the driver picks the shared-memory split
    cudaOccResult result{};
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &prop, &attr, &state, threadsPerBlock, dynamicSmemPerBlock)
        != CUDA_OCC_SUCCESS)
        return std::nullopt;

    Occupancy o;
    const int warpsPerBlock = (threadsPerBlock + limits.warpSize - 1) / limits.warpSize;
    o.activeBlocksPerSm = result.activeBlocksPerMultiprocessor;
    o.activeWarpsPerSm = o.activeBlocksPerSm * warpsPerBlock;
    o.maxWarpsPerSm = limits.maxThreadsPerSm / limits.warpSize;
    o.percent = o.maxWarpsPerSm > 0 ? 100.0 * o.activeWarpsPerSm / o.maxWarpsPerSm : 0.0;
    struct Bit {
        unsigned bit;
        const char *name;
    };
    for (Bit b : {Bit{OCC_LIMIT_WARPS, "warps"}, Bit{OCC_LIMIT_REGISTERS, "registers"},
                  Bit{OCC_LIMIT_SHARED_MEMORY, "shared_memory"}, Bit{OCC_LIMIT_BLOCKS, "blocks"},
                  Bit{OCC_LIMIT_BARRIERS, "barriers"}}) {
        if (!(result.limitingFactors & b.bit))
            continue;
        // Appended piecewise: GCC 12's -Wrestrict misfires on operator+ of a literal and a string at -O3.
        if (!o.limiter.empty())
            o.limiter += '+';
        o.limiter += b.name;
    }
    return o;
}

} // namespace kforge::runtime::profiler
