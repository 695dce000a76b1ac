// Roofline arithmetic and the task speed of light, as a table of cases. No GPU needed.
#include "core/runtime/profiler/profilerjson.h"
#include "core/runtime/profiler/roofline.h"
#include "tests/core/runtime/check.h"

#include <cmath>
#include <string>

using namespace kforge::runtime::profiler;

namespace {

bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

// Round numbers: ridge point = 60000 / 4000 = 15 FLOP/byte.
const DevicePeaks kPeaks{4000.0, 60000.0};

struct PointCase {
    const char *label;
    double flops, bytes, timeNs;
    Bound bound;
    double intensity, attainableGflops, achievedGflops, achievedGbps, pctOfAttainable;
};

void testPoints()
{
    KF_CHECK(kPeaks.ridge() == 15.0);
    const PointCase cases[] = {
        // A copy: no FLOPs, 512 MiB in 140 us -> 3834.8 GB/s, 95.9 % of the bandwidth roof.
        {"copy", 0, 536870912.0, 140000, Bound::Memory, 0, 0, 0, 536870912.0 / 140000, 100.0 * 536870912.0 / 140000 / 4000},
        // Intensity 1 (memory side): attainable 4000 GFLOP/s; 2e9 FLOP in 1 ms = 2000 GFLOP/s = 50 %.
        {"stream-like", 2e9, 2e9, 1e6, Bound::Memory, 1.0, 4000, 2000, 2000, 50.0},
        // FMA-bound: intensity 1000, 54 TFLOP/s achieved = 90 % of the compute roof.
        {"fma", 5.4e10, 5.4e7, 1e6, Bound::Compute, 1000, 60000, 54000, 54, 90.0},
        // Exactly at the ridge counts as compute.
        {"ridge", 3e10, 2e9, 1e6, Bound::Compute, 15, 60000, 30000, 2000, 50.0},
        // Shorter than 10 us: latency, whatever the intensity.
        {"tiny", 1e6, 1e6, 5000, Bound::Latency, 1, 4000, 200, 200, 5.0},
        // 1 ms at 10 % of both peaks: latency/occupancy bound.
        {"starved", 6e9, 4e8, 1e6, Bound::Latency, 15, 60000, 6000, 400, 10.0},
        // 25 % of peak bandwidth is enough to call it memory bound.
        {"quarter-bw", 1e8, 1e9, 1e6, Bound::Memory, 0.1, 400, 100, 1000, 25.0},
    };
    for (const PointCase &c : cases) {
        RooflinePoint p = rooflinePoint(kPeaks, c.flops, c.bytes, c.timeNs);
        std::string tag = std::string(c.label) + ": bound=" + boundName(p.bound) + " ai=" + std::to_string(p.intensity)
                          + " attainable=" + std::to_string(p.attainableGflops)
                          + " achieved=" + std::to_string(p.achievedGflops) + " gbps=" + std::to_string(p.achievedGbps)
                          + " pct=" + std::to_string(p.pctOfAttainable) + " why=" + p.why;
        KF_CHECK_MSG(p.bound == c.bound, tag);
        KF_CHECK_MSG(near(p.intensity, c.intensity), tag);
        KF_CHECK_MSG(near(p.attainableGflops, c.attainableGflops), tag);
        KF_CHECK_MSG(near(p.achievedGflops, c.achievedGflops), tag);
        KF_CHECK_MSG(near(p.achievedGbps, c.achievedGbps), tag);
        KF_CHECK_MSG(near(p.pctOfAttainable, c.pctOfAttainable), tag);
        KF_CHECK_MSG(!p.why.empty(), tag);
    }

    // Custom rules move the latency threshold.
    RooflineRules strict;
    strict.latencyTimeNs = 1000;
    KF_CHECK(rooflinePoint(kPeaks, 1e7, 1e7, 5000, strict).bound == Bound::Memory);
    KF_CHECK(rooflinePoint(kPeaks, 1e7, 1e7, 5000).bound == Bound::Latency);

    // Missing inputs give Unknown, never a made-up classification.
    KF_CHECK(rooflinePoint(kPeaks, NAN, 1e6, 1e6).bound == Bound::Unknown);
    KF_CHECK(rooflinePoint(kPeaks, 1e6, 1e6, 0).bound == Bound::Unknown);
    RooflinePoint noPeaks = rooflinePoint(DevicePeaks{}, 1e9, 1e9, 1e6);
    KF_CHECK(noPeaks.bound == Bound::Unknown && near(noPeaks.achievedGflops, 1000) && std::isnan(noPeaks.attainableGflops));
    // FLOPs without bytes (everything from cache): infinite intensity, compute side.
    RooflinePoint cached = rooflinePoint(kPeaks, 3e10, 0, 1e6);
    KF_CHECK(std::isinf(cached.intensity) && cached.bound == Bound::Compute && near(cached.attainableGflops, 60000));
}

void testSpeedOfLight()
{
    // diag_matmul, N = M = 4096: flops N*M, bytes 4N + 8NM.
    const double n = 4096, flops = n * n, bytes = 4 * n + 8 * n * n;
    const double memFloor = bytes / (4000.0 * 1e6), computeFloor = flops / (60000.0 * 1e6);
    struct Case {
        double timeMs;
        bool below;
    };
    for (Case c : {Case{0.040, false}, Case{memFloor, false}, Case{0.9 * memFloor, false},
                   Case{0.8999 * memFloor, true}, Case{0.01, true}}) {
        SpeedOfLight s = speedOfLight(kPeaks, flops, bytes, c.timeMs);
        std::string tag = "time " + std::to_string(c.timeMs) + " floor " + std::to_string(s.floorMs);
        KF_CHECK_MSG(s.valid, tag);
        KF_CHECK_MSG(near(s.floorMs, memFloor) && near(s.memoryFloorMs, memFloor) && near(s.computeFloorMs, computeFloor),
                     tag);
        KF_CHECK_MSG(s.limit == "memory", tag);
        KF_CHECK_MSG(near(s.timeOverFloor, c.timeMs / memFloor), tag);
        KF_CHECK_MSG(s.belowSpeedOfLight == c.below, tag);
        KF_CHECK(s.tolerance == kSpeedOfLightTolerance);
    }
    // Compute-limited task: a 4096^3 GEMM (2*N^3 FLOP, 3 matrices of floats).
    SpeedOfLight gemm = speedOfLight(kPeaks, 2 * n * n * n, 12 * n * n, 3.0);
    KF_CHECK(gemm.limit == "compute" && near(gemm.floorMs, 2 * n * n * n / 6e10) && !gemm.belowSpeedOfLight);
    KF_CHECK(!gemm.beatsFlopFloor);
    // Under the FLOP floor but above the byte floor (an algebraic rewrite, tensor cores): reported, not
    // impossible, the same rule as core/eval/speedoflight.h and the worker's beats_flop_floor flag.
    SpeedOfLight rewrite = speedOfLight(kPeaks, 2 * n * n * n, 12 * n * n, 0.9 * 2 * n * n * n / 6e10 - 0.01);
    KF_CHECK(rewrite.beatsFlopFloor && !rewrite.belowSpeedOfLight);
    KF_CHECK(nlohmann::json(rewrite)["beats_flop_floor"] == true);
    // Under the byte floor too: impossible, and only that is said.
    SpeedOfLight skipped = speedOfLight(kPeaks, 2 * n * n * n, 12 * n * n, 0.8 * 12 * n * n / 4e9);
    KF_CHECK(skipped.belowSpeedOfLight && !skipped.beatsFlopFloor);
    // A stricter tolerance flags more.
    KF_CHECK(speedOfLight(kPeaks, flops, bytes, 0.95 * memFloor, 0.97).belowSpeedOfLight);
    // No peaks, or no formulas: nothing to say.
    KF_CHECK(!speedOfLight(DevicePeaks{}, flops, bytes, 1.0).valid);
    KF_CHECK(!speedOfLight(kPeaks, 0, 0, 1.0).valid);
    KF_CHECK(!speedOfLight(kPeaks, flops, bytes, 1.0).belowSpeedOfLight);
}

void testReport()
{
    MetricsResult m;
    m.available = true;
    KernelMetrics copy;
    copy.index = 0;
    copy.name = "copy_kernel(float4 const*, float4*, unsigned long)";
    copy.flopsFp32 = 0;
    copy.dramBytes = 536870912.0;
    copy.timeNs = 140000;
    KernelMetrics fma;
    fma.index = 1;
    fma.flopsFp32 = 5.4e10;
    fma.dramBytes = 5.4e7;
    fma.timeNs = 1e6;
    m.kernels = {copy, fma};
    RooflineReport r = buildRoofline(kPeaks, &m, 1e9, 6e8, 1.2);
    KF_CHECK(r.task && r.task->valid && !r.task->belowSpeedOfLight);
    KF_CHECK(r.kernels.size() == 2 && r.kernels[0].point.bound == Bound::Memory
             && r.kernels[1].point.bound == Bound::Compute);
    KF_CHECK(r.total && near(r.total->flops, 5.4e10) && near(r.total->timeNs, 1.14e6));
    nlohmann::json j = r;
    KF_CHECK(j["peaks"]["ridge_flop_per_byte"] == 15.0);
    KF_CHECK(j["kernels"][0]["bound"] == "memory" && j["kernels"][0]["name"] == copy.name);
    KF_CHECK(j["kernels"][1]["name"].is_null());
    KF_CHECK(j["task"]["below_speed_of_light"] == false && j["task"]["limit"] == "memory");

    // Without metrics only the speed of light; without formulas (-1) no task entry.
    RooflineReport onlyTask = buildRoofline(kPeaks, nullptr, 1e9, 6e8, 0.1);
    KF_CHECK(onlyTask.task && onlyTask.task->belowSpeedOfLight && onlyTask.kernels.empty() && !onlyTask.total);
    RooflineReport nothing = buildRoofline(kPeaks, nullptr, -1, -1, 0.1);
    KF_CHECK(!nothing.task);
    nlohmann::json jn = nothing;
    KF_CHECK(jn["task"].is_null() && jn["total"].is_null());
    // NaN never reaches JSON.
    KF_CHECK(jsonNumber(NAN).is_null() && jsonNumber(INFINITY).is_null() && jsonNumber(1.5) == 1.5);
}

} // namespace

int main()
{
    testPoints();
    testSpeedOfLight();
    testReport();
    return kforge::runtime::test::finish("tst_profiler_roofline");
}
