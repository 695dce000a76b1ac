#pragma once
// Theoretical occupancy of a kernel launch computed from what a CUPTI kernel record carries (block size,
// registers, shared memory) and the device's limits, with the CUDA toolkit's occupancy calculator
// (cuda_occupancy.h, the same code cudaOccupancyMaxActiveBlocksPerMultiprocessor uses) — no function
// pointer and no GPU needed.

#include <cstddef>
#include <optional>
#include <string>

namespace kforge::runtime::profiler {

struct DeviceLimits {
    int ccMajor = 0;
    int ccMinor = 0;
    int smCount = 0;
    int warpSize = 32;
    int maxThreadsPerBlock = 0;
    int maxThreadsPerSm = 0;
    int regsPerSm = 0;
    int regsPerBlock = 0;
    size_t smemPerSm = 0;            // bytes
    size_t smemPerBlock = 0;         // default per-block limit
    size_t smemPerBlockOptin = 0;    // opt-in per-block limit
    size_t reservedSmemPerBlock = 0; // reserved by the driver for every block

    bool valid() const { return ccMajor > 0 && maxThreadsPerSm > 0 && regsPerSm > 0; }
};

// Limits of CUDA device `device` (cudaGetDeviceProperties); nullopt with `error` set when there is none.
std::optional<DeviceLimits> queryDeviceLimits(int device, std::string *error = nullptr);

struct Occupancy {
    int activeBlocksPerSm = 0;
    int activeWarpsPerSm = 0;
    int maxWarpsPerSm = 0;
    double percent = 0;  // activeWarpsPerSm / maxWarpsPerSm * 100
    std::string limiter; // "warps", "registers", "shared_memory", "blocks", "barriers" (joined by '+')
};

// nullopt when the launch cannot run on this device (block too large, too many registers, ...).
std::optional<Occupancy> theoreticalOccupancy(const DeviceLimits &limits, int threadsPerBlock, int registersPerThread,
                                              size_t staticSmemPerBlock, size_t dynamicSmemPerBlock);

} // namespace kforge::runtime::profiler
