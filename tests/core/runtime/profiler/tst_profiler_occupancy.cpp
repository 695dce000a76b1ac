// Theoretical occupancy from what a kernel record carries, on H200 (sm_90) limits. The expected values are
// worked out by hand in the comments from the CUDA occupancy rules (registers in units of 256 per warp,
// shared memory plus 1 KiB reserved per block, at most 32 blocks and 64 warps per SM). No GPU needed.
#include "core/runtime/profiler/occupancy.h"
#include "tests/core/runtime/check.h"

#include <string>

using namespace kforge::runtime::profiler;

int main()
{
    DeviceLimits h200;
    h200.ccMajor = 9;
    h200.ccMinor = 0;
    h200.smCount = 132;
    h200.warpSize = 32;
    h200.maxThreadsPerBlock = 1024;
    h200.maxThreadsPerSm = 2048;
    h200.regsPerSm = 65536;
    h200.regsPerBlock = 65536;
    h200.smemPerSm = 233472;         // 228 KiB
    h200.smemPerBlock = 49152;       // 48 KiB without opt-in
    h200.smemPerBlockOptin = 232448; // 227 KiB
    h200.reservedSmemPerBlock = 1024;

    struct Case {
        int threads, regs;
        size_t staticSmem, dynamicSmem;
        int blocks;
        double pct;
        const char *limiter;
    };
    const Case cases[] = {
        {256, 32, 0, 0, 8, 100.0, "warps"},     // 2048 / 256 threads
        {256, 64, 0, 0, 4, 50.0, "registers"},  // 64*32 = 2048 regs/warp, 8 warps -> 16384/block
        {128, 255, 0, 0, 2, 12.5, "registers"}, // 255*32 = 8160 -> 8192/warp, 4 warps -> 32768/block
        {1024, 16, 0, 0, 2, 100.0, "warps"},
        {32, 16, 0, 0, 32, 50.0, "blocks"},                // 32-block limit: 32 warps of 64
        {256, 32, 0, 48 * 1024, 4, 50.0, "shared_memory"}, // (48 + 1) KiB per block: 228 / 49 -> 4
        {256, 32, 16 * 1024, 0, 8, 100.0, "warps"},        // 17 KiB * 8 = 136 KiB fits
    };
    for (const Case &c : cases) {
        auto o = theoreticalOccupancy(h200, c.threads, c.regs, c.staticSmem, c.dynamicSmem);
        std::string tag = std::to_string(c.threads) + " threads, " + std::to_string(c.regs) + " regs, smem "
                          + std::to_string(c.staticSmem) + "+" + std::to_string(c.dynamicSmem);
        KF_CHECK_MSG(o.has_value(), tag);
        if (!o)
            continue;
        tag += ": blocks=" + std::to_string(o->activeBlocksPerSm) + " warps=" + std::to_string(o->activeWarpsPerSm)
               + " pct=" + std::to_string(o->percent) + " limiter=" + o->limiter;
        KF_CHECK_MSG(o->activeBlocksPerSm == c.blocks, tag);
        KF_CHECK_MSG(o->percent == c.pct, tag);
        KF_CHECK_MSG(o->limiter.find(c.limiter) != std::string::npos, tag);
        KF_CHECK_MSG(o->maxWarpsPerSm == 64, tag);
    }
    // Launches that cannot be resident give no occupancy.
    auto tooBig = theoreticalOccupancy(h200, 2048, 32, 0, 0);
    KF_CHECK(!tooBig || tooBig->activeBlocksPerSm == 0);
    auto tooMuchSmem = theoreticalOccupancy(h200, 128, 32, 0, 240 * 1024);
    KF_CHECK(!tooMuchSmem || tooMuchSmem->activeBlocksPerSm == 0);
    KF_CHECK(!theoreticalOccupancy(DeviceLimits{}, 256, 32, 0, 0));
    KF_CHECK(!theoreticalOccupancy(h200, 0, 32, 0, 0));
    return kforge::runtime::test::finish("tst_profiler_occupancy");
}
