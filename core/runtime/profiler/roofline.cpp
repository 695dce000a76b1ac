#include "core/runtime/profiler/roofline.h"

#include <algorithm>

namespace kforge::runtime::profiler {

const char *boundName(Bound b)
{
    switch (b) {
    case Bound::Memory: return "memory";
    case Bound::Compute: return "compute";
    case Bound::Latency: return "latency";
    case Bound::Unknown: break;
    }
    return "unknown";
}

RooflinePoint rooflinePoint(const DevicePeaks &peaks, double flops, double bytes, double timeNs, const RooflineRules &rules)
{
    RooflinePoint p;
    p.flops = flops;
    p.bytes = bytes;
    p.timeNs = timeNs;
    if (!(timeNs > 0) || std::isnan(flops) || std::isnan(bytes) || flops < 0 || bytes < 0) {
        p.why = "no time, FLOP or byte count for this kernel";
        return p;
    }
    // bytes/ns == GB/s and FLOP/ns == GFLOP/s.
    p.achievedGflops = flops / timeNs;
    p.achievedGbps = bytes / timeNs;
    p.intensity = bytes > 0 ? flops / bytes : (flops > 0 ? INFINITY : 0.0);
    if (!peaks.valid()) {
        p.why = "no device peaks";
        return p;
    }
    p.attainableGflops = std::min(peaks.fmaGflops, p.intensity * peaks.copyGbps);
    p.pctOfPeakFlops = 100.0 * p.achievedGflops / peaks.fmaGflops;
    p.pctOfPeakBandwidth = 100.0 * p.achievedGbps / peaks.copyGbps;
    // The roof that applies: bandwidth left of the ridge (also meaningful for kernels with no FLOPs),
    // the FLOP rate right of it. Left of the ridge both readings agree: achieved/(I * BW) == GB/s / BW.
    p.pctOfAttainable = p.intensity < peaks.ridge() ? p.pctOfPeakBandwidth : p.pctOfPeakFlops;

    const double floorUtil = 100.0 * rules.latencyUtilization;
    if (timeNs < rules.latencyTimeNs) {
        p.bound = Bound::Latency;
        p.why = "runs for less than " + std::to_string(static_cast<int>(rules.latencyTimeNs / 1000))
                + " us: launch and latency dominate";
    } else if (p.pctOfPeakFlops < floorUtil && p.pctOfPeakBandwidth < floorUtil) {
        p.bound = Bound::Latency;
        p.why = "below " + std::to_string(static_cast<int>(floorUtil))
                + "% of both peak FLOP rate and peak bandwidth: latency, occupancy or synchronisation bound";
    } else if (p.intensity < peaks.ridge()) {
        p.bound = Bound::Memory;
        p.why = "arithmetic intensity below the ridge point (" + std::to_string(peaks.ridge()) + " FLOP/byte)";
    } else {
        p.bound = Bound::Compute;
        p.why = "arithmetic intensity at or above the ridge point (" + std::to_string(peaks.ridge()) + " FLOP/byte)";
    }
    return p;
}

SpeedOfLight speedOfLight(const DevicePeaks &peaks, double flops, double bytes, double timeMs, double tolerance)
{
    SpeedOfLight s;
    s.flops = std::max(0.0, flops);
    s.bytes = std::max(0.0, bytes);
    s.timeMs = timeMs;
    s.tolerance = tolerance;
    if (!peaks.valid() || (s.flops <= 0 && s.bytes <= 0))
        return s;
    // GFLOP/s = 1e6 FLOP/ms; GB/s = 1e6 byte/ms.
    s.computeFloorMs = s.flops / (peaks.fmaGflops * 1e6);
    s.memoryFloorMs = s.bytes / (peaks.copyGbps * 1e6);
    s.floorMs = std::max(s.computeFloorMs, s.memoryFloorMs);
    s.limit = s.memoryFloorMs >= s.computeFloorMs ? "memory" : "compute";
    s.valid = true;
    if (timeMs > 0) {
        s.timeOverFloor = timeMs / s.floorMs;
        // Only the byte floor is a limit; beating the FLOP floor is reported, not called impossible.
        s.belowSpeedOfLight = timeMs < tolerance * s.memoryFloorMs;
        s.beatsFlopFloor = !s.belowSpeedOfLight && timeMs < tolerance * s.computeFloorMs;
    }
    return s;
}

RooflineReport buildRoofline(const DevicePeaks &peaks, const MetricsResult *metrics, double taskFlops, double taskBytes,
                             double medianMs, const RooflineRules &rules)
{
    RooflineReport r;
    r.peaks = peaks;
    if (taskFlops >= 0 || taskBytes >= 0) {
        SpeedOfLight s = speedOfLight(peaks, std::max(0.0, taskFlops), std::max(0.0, taskBytes), medianMs);
        if (s.valid)
            r.task = s;
    }
    if (metrics && metrics->available) {
        double flops = 0, bytes = 0, time = 0;
        for (const KernelMetrics &k : metrics->kernels) {
            KernelRoofline kr;
            kr.index = k.index;
            kr.name = k.name;
            kr.point = rooflinePoint(peaks, k.flopsFp32, k.dramBytes, k.timeNs, rules);
            r.kernels.push_back(std::move(kr));
            flops += k.flopsFp32;
            bytes += k.dramBytes;
            time += k.timeNs;
        }
        if (!metrics->kernels.empty())
            r.total = rooflinePoint(peaks, flops, bytes, time, rules);
    }
    return r;
}

} // namespace kforge::runtime::profiler
