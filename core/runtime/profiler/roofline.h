#pragma once
// Roofline position of each kernel and the task's speed of light, from the worker's measured device
// peaks (copy bandwidth, FP32 FMA rate). Pure arithmetic; see docs/profiling.md for the rules.

#include "core/runtime/profiler/metricscollector.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace kforge::runtime::profiler {

struct DevicePeaks {
    double copyGbps = 0;  // measured device-to-device copy bandwidth, GB/s (read + write bytes)
    double fmaGflops = 0; // measured FP32 FMA rate, GFLOP/s (an FMA counts 2)

    bool valid() const { return copyGbps > 0 && fmaGflops > 0; }
    double ridge() const { return valid() ? fmaGflops / copyGbps : NAN; } // FLOP/byte
};

enum class Bound { Memory, Compute, Latency, Unknown };
const char *boundName(Bound b);

struct RooflineRules {
    double latencyTimeNs = 10'000;    // a kernel shorter than this is latency/launch bound
    double latencyUtilization = 0.20; // ... and so is one below this fraction of both peaks
};

struct RooflinePoint {
    double flops = NAN;
    double bytes = NAN;
    double timeNs = NAN;
    double intensity = NAN;        // FLOP/byte
    double attainableGflops = NAN; // min(peak FLOP rate, intensity * peak bandwidth)
    double achievedGflops = NAN;
    double achievedGbps = NAN;
    double pctOfAttainable = NAN; // achieved / attainable * 100 (bandwidth terms left of the ridge)
    double pctOfPeakFlops = NAN;
    double pctOfPeakBandwidth = NAN;
    Bound bound = Bound::Unknown;
    std::string why; // the rule that decided `bound`
};

RooflinePoint rooflinePoint(const DevicePeaks &peaks, double flops, double bytes, double timeNs,
                            const RooflineRules &rules = {});

// Task speed of light. The same definition as the Qt side's core/eval/speedoflight.h and the worker's flat
// roofline fields (core/runtime/worker/judge.cpp): a byte floor (bytes / copy bandwidth) that no
// implementation can beat, and a FLOP floor (FLOPs / FP32 FMA rate) that one beats by skipping work, by doing
// less arithmetic than the task's formula counts, or with tensor cores.
inline constexpr double kSpeedOfLightTolerance = 0.90;

struct SpeedOfLight {
    bool valid = false; // false without peaks or without FLOP/byte formulas
    double flops = 0;
    double bytes = 0;
    double timeMs = NAN;
    double floorMs = NAN; // max(flops / peak FLOP rate, bytes / peak bandwidth)
    double computeFloorMs = NAN;
    double memoryFloorMs = NAN;
    double timeOverFloor = NAN;
    double tolerance = kSpeedOfLightTolerance;
    bool belowSpeedOfLight = false; // timeMs < tolerance * memoryFloorMs: physically impossible, flag it
    bool beatsFlopFloor = false;    // not below, and timeMs < tolerance * computeFloorMs
    std::string limit;              // "memory" or "compute": the larger floor term
};

SpeedOfLight speedOfLight(const DevicePeaks &peaks, double flops, double bytes, double timeMs,
                          double tolerance = kSpeedOfLightTolerance);

struct KernelRoofline {
    size_t index = 0;
    std::string name;
    RooflinePoint point;
};

struct RooflineReport {
    DevicePeaks peaks;
    std::optional<SpeedOfLight> task;
    std::vector<KernelRoofline> kernels; // from the metrics pass (FP32 FLOPs, DRAM bytes, kernel time)
    std::optional<RooflinePoint> total;  // all kernels of the run together
};

// taskFlops/taskBytes < 0 means the task has no such formula.
RooflineReport buildRoofline(const DevicePeaks &peaks, const MetricsResult *metrics, double taskFlops, double taskBytes,
                             double medianMs, const RooflineRules &rules = {});

} // namespace kforge::runtime::profiler
