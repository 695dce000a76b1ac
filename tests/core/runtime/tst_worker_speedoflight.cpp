// The worker's speed of light (core/runtime/worker/floors.h) from the bundled task.json files and the
// peaks measured on the H200 (docs/worker-protocol.md): the two floors, the flags, the message, never a
// percentage over 100, and the FP32 FMA peak named as the stand-in for half and bf16 tasks.
#include "check.h"
#include "core/runtime/worker/floors.h"

#include <cmath>

using namespace kforge::runtime;

namespace {

const DevicePeaks kH200{4206.1, 54434.0, {}};

TaskSpec task(const char *name)
{
    const TaskSpecResult r = loadTaskFolder(std::string(KFORGE_TEST_SOURCE_DIR "/resources/tasks/") + name);
    KF_CHECK_MSG(r.ok(), r.error.message());
    return r.ok() ? *r.spec : TaskSpec{};
}

bool near(double a, double b)
{
    return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

void diagMatmul()
{
    const TaskSpec t = task("diag_matmul");
    KF_CHECK(flopsDtype(t) == Dtype::F32);
    // 0.0438 ms: the good candidate on the H200, within both floors.
    const SpeedOfLightResult s = speedOfLight(t, kH200, 0.0438);
    const double bytes = 4.0 * 4096 + 8.0 * 4096 * 4096, flops = 4096.0 * 4096;
    KF_CHECK(near(s.bytesFloorMs, bytes / 4206.1e6) && near(s.flopsFloorMs, flops / 54434e6));
    KF_CHECK(near(s.floorMs, s.bytesFloorMs));
    KF_CHECK(s.state == SpeedOfLightResult::State::WithinFloors && s.flag.empty() && s.message.empty());
    KF_CHECK_MSG(s.percent && near(*s.percent, 100 * s.bytesFloorMs / 0.0438), std::to_string(s.percent.value_or(-1)));
    KF_CHECK(s.flopsPeakKind == "fp32_fma" && near(s.flopsPeakGflops, 54434.0));
    const auto roof = s.rooflineJson(3.048);
    KF_CHECK(roof.at("flops_peak_kind") == "fp32_fma" && roof.at("flops_dtype") == "f32");
    KF_CHECK(roof.at("speed_of_light_state") == "within_floors");
    KF_CHECK(near(roof.at("fraction_of_floor").get<double>(), s.floorMs / 0.0438));
    KF_CHECK(near(roof.at("reference_gbps").get<double>(), bytes / 3.048e-3 * 1e-9));
    KF_CHECK(near(roof.at("candidate_gflops").get<double>(), flops / 0.0438e-3 * 1e-9));

    // Under the byte floor: impossible, no percentage.
    const SpeedOfLightResult below = speedOfLight(t, kH200, 0.02);
    KF_CHECK(below.state == SpeedOfLightResult::State::BelowByteFloor && below.flag == "below_speed_of_light");
    KF_CHECK(!below.percent && below.rooflineJson().at("speed_of_light_pct").is_null());
    KF_CHECK_CONTAINS(below.message, "cannot have done all the work the task describes");
    // Within the 10 % tolerance under the floor: 100 %, never more.
    const SpeedOfLightResult atFloor = speedOfLight(t, kH200, 0.95 * s.bytesFloorMs);
    KF_CHECK(atFloor.state == SpeedOfLightResult::State::WithinFloors && atFloor.percent && *atFloor.percent == 100);
    KF_CHECK(atFloor.fractionOfFloor > 1); // the raw ratio stays as results always had it
}

void matmul()
{
    // 0.1 ms for 2*4096^3 FLOP is 1.37 PFLOP/s in FP32: 25x the FMA peak, above the byte floor.
    const TaskSpec t = task("matmul");
    const SpeedOfLightResult s = speedOfLight(t, kH200, 0.1);
    KF_CHECK(s.state == SpeedOfLightResult::State::BeatsFlopFloor && s.flag == "beats_flop_floor");
    KF_CHECK_CONTAINS(s.message, "faster than the task's declared arithmetic allows: either work is skipped or the "
                                 "task's flops counts avoidable work, such as an algebraic rewrite");
    // f32: judged against FP32, never TF32, and the message says so.
    KF_CHECK_CONTAINS(s.message, "An f32 task is judged against the FP32 FMA peak: TF32 or half-precision tensor cores "
                                 "would beat it by lowering the task's precision.");
    KF_CHECK(s.percent && near(*s.percent, 100 * s.bytesFloorMs / 0.1) && *s.percent <= 100); // of the byte floor
    KF_CHECK(s.rooflineJson().at("speed_of_light_state") == "beats_flop_floor");
    // At 5 ms it is within both floors: the FLOP floor (2.52 ms) is the task's.
    const SpeedOfLightResult honest = speedOfLight(t, kH200, 5);
    KF_CHECK(honest.state == SpeedOfLightResult::State::WithinFloors && near(honest.floorMs, honest.flopsFloorMs));
    KF_CHECK(honest.percent && near(*honest.percent, 100 * honest.flopsFloorMs / 5));
}

void halfPrecision()
{
    // bf16 against the FP32 FMA peak: beating it is what tensor cores do, so only beats_flop_floor, and said.
    const SpeedOfLightResult s = speedOfLight(1e12, 1e6, Dtype::BF16, kH200, 1.0);
    KF_CHECK(s.state == SpeedOfLightResult::State::BeatsFlopFloor && s.flag == "beats_flop_floor");
    KF_CHECK_CONTAINS(s.message, "No tensor-core peak was measured for bf16 on this device");
    KF_CHECK(s.rooflineJson().at("flops_peak_kind") == "fp32_fma");
    // With a measured bf16 peak the floor uses it, and a time within 10 % of it reads 100 %.
    DevicePeaks withBf16 = kH200;
    withBf16.dtypeGflops[Dtype::BF16] = 990000;
    const SpeedOfLightResult tc = speedOfLight(1e12, 1e6, Dtype::BF16, withBf16, 1.0);
    KF_CHECK(tc.flopsPeakKind == "bf16" && near(tc.flopsFloorMs, 1e12 / 990000e6));
    KF_CHECK(tc.state == SpeedOfLightResult::State::WithinFloors && tc.percent && *tc.percent == 100);
    // The task's dtype: relu_bf16's output.
    KF_CHECK(flopsDtype(task("relu_bf16")) == Dtype::BF16);
    KF_CHECK(flopsDtype(task("histogram")) == Dtype::F32); // integers only: the FP32 peak stands in
}

void tensorSpecPeak()
{
    // The datasheet rate: H100 SXM (132 SMs, 1980 MHz max) 4096 FLOP per SM and clock = 1070 TFLOPS; A100 312.
    KF_CHECK(near(tensorSpecGflops(90, 132, 1980), 132 * 1980e6 * 4096 / 1e9));
    KF_CHECK(near(tensorSpecGflops(80, 108, 1410), 311869.44));
    KF_CHECK(tensorSpecGflops(61, 60, 1500) == 0 && tensorSpecGflops(90, 0, 1980) == 0);
    // torch_matmul_f16 (4096^3) by cuBLAS's WGMMA at 700 TFLOPS (0.196 ms), with an mma.sync probe of 480 TFLOPS:
    // the probe alone would call it impossible; the datasheet rate keeps it within the floors.
    const double flops = 2.0 * 4096 * 4096 * 4096, bytes = 3.0 * 2 * 4096 * 4096;
    DevicePeaks h100;
    h100.copyGbps = 2570;
    h100.fmaGflops = 60000;
    h100.dtypeGflops[Dtype::F16] = 480000;
    const double cublasMs = flops / 700000e6;
    const SpeedOfLightResult probeOnly = speedOfLight(flops, bytes, Dtype::F16, h100, cublasMs);
    KF_CHECK(probeOnly.flag == "beats_flop_floor" && probeOnly.flopsPeakSource == "probe");
    KF_CHECK_CONTAINS(probeOnly.message, "the measured f16 tensor-core peak");
    h100.dtypeSpecGflops[Dtype::F16] = tensorSpecGflops(90, 132, 1980);
    const SpeedOfLightResult honest = speedOfLight(flops, bytes, Dtype::F16, h100, cublasMs);
    KF_CHECK_MSG(honest.flag.empty() && honest.state == SpeedOfLightResult::State::WithinFloors, honest.message);
    KF_CHECK(honest.rooflineJson().at("flops_peak_source") == "spec" && honest.flopsPeakKind == "f16");
    // Skipped work still falls under it (a quarter of the product in the same time ratio), and the message says so.
    const SpeedOfLightResult skipped = speedOfLight(flops, bytes, Dtype::F16, h100, cublasMs / 4);
    KF_CHECK(skipped.flag == "beats_flop_floor");
    KF_CHECK_CONTAINS(skipped.message, "the f16 tensor cores' datasheet peak");
    // A probe above the datasheet (a clock the table does not know) is kept: the floor never drops.
    h100.dtypeGflops[Dtype::F16] = 2e6;
    KF_CHECK(speedOfLight(flops, bytes, Dtype::F16, h100, cublasMs).flopsPeakSource == "probe");
    // An f32 task never takes a tensor peak.
    KF_CHECK(speedOfLight(flops, bytes, Dtype::F32, h100, cublasMs).flopsPeakKind == "fp32_fma");
}

void readBandwidth()
{
    // row_sum reads 8192 x 4096 doubles and writes 8192: read-mostly, so the byte floor uses the read bandwidth.
    const TaskSpec rows = task("row_sum");
    KF_CHECK(writeShare(rows) > 0 && writeShare(rows) < kReadMostlyWriteShare);
    DevicePeaks withRead = kH200;
    withRead.readGbps = 4450.0;
    const SpeedOfLightResult r = speedOfLight(rows, withRead, 0.1);
    KF_CHECK(r.bytesPeakKind == "read" && near(r.bytesPeakGbps, 4450.0) && near(r.bytesFloorMs, r.bytes / 4450e6));
    KF_CHECK(r.rooflineJson().at("bytes_peak_kind") == "read");
    KF_CHECK(near(r.rooflineJson().at("peak_read_gbps").get<double>(), 4450.0));
    // An honest pure-read kernel at 0.96 of the copy-bandwidth floor: within the read floor, no flag.
    const SpeedOfLightResult copyOnly = speedOfLight(rows, kH200, 1.0);
    const double honest = copyOnly.bytesFloorMs * 0.86; // under the copy floor's 0.90: flagged before
    KF_CHECK(speedOfLight(rows, kH200, honest).flag == "below_speed_of_light");
    DevicePeaks fast = kH200;
    fast.readGbps = kH200.copyGbps / 0.85;
    KF_CHECK(speedOfLight(rows, fast, honest).flag.empty());
    // A read bandwidth below the copy's never raises the floor.
    DevicePeaks slow = kH200;
    slow.readGbps = 1000;
    KF_CHECK(near(speedOfLight(rows, slow, 1.0).bytesPeakGbps, kH200.copyGbps));
    // diag_matmul writes as much as it reads: the copy bandwidth; no read peak measured: the copy stands in.
    const TaskSpec diag = task("diag_matmul");
    KF_CHECK(writeShare(diag) > 0.4);
    KF_CHECK(speedOfLight(diag, withRead, 0.1).bytesPeakKind == "copy");
    KF_CHECK(speedOfLight(rows, kH200, 0.1).bytesPeakKind == "copy");
    // The message names the bandwidth used.
    const SpeedOfLightResult below = speedOfLight(rows, withRead, r.bytesFloorMs * 0.5);
    KF_CHECK_CONTAINS(below.message, "at the measured read bandwidth");
    // No outputs declared: unknown split, the copy bandwidth.
    KF_CHECK(speedOfLight(1e6, 1e6, Dtype::F32, withRead, 1.0).bytesPeakKind == "copy");
}

void dramPeak()
{
    // Measured on the H100: torch_softmax (8 x 4096 x 8192 bytes) in 0.0921 ms by a Triton kernel, against a
    // cudaMemcpy probe of 2.57 TB/s (floor 0.1046 ms): an honest kernel at 0.88 of the copy floor. The DRAM's
    // own peak (2 x 2619 MHz x 5120 bits = 3352 GB/s) is the floor no honest kernel passes.
    const double bytes = 8.0 * 4096 * 8192;
    DevicePeaks h100;
    h100.copyGbps = bytes / (0.1046 * 1e6);
    h100.fmaGflops = 60000;
    KF_CHECK(speedOfLight(0, bytes, Dtype::F32, h100, 0.0921).flag == "below_speed_of_light");
    h100.dramGbps = 2.0 * 2619e3 * 1e3 * (5120 / 8.0) / 1e9;
    const SpeedOfLightResult honest = speedOfLight(0, bytes, Dtype::F32, h100, 0.0921);
    KF_CHECK_MSG(honest.flag.empty() && honest.bytesPeakKind == "dram", honest.message);
    KF_CHECK(honest.percent && *honest.percent > 85 && *honest.percent < 88);
    // A cached result still falls far below it, and the message names the bound.
    const SpeedOfLightResult cached = speedOfLight(0, bytes, Dtype::F32, h100, 0.02);
    KF_CHECK(cached.flag == "below_speed_of_light");
    KF_CHECK_CONTAINS(cached.message, "the DRAM's peak bandwidth");
    // A DRAM figure below a measured one never lowers the floor's bandwidth.
    h100.dramGbps = 1000;
    KF_CHECK(speedOfLight(0, bytes, Dtype::F32, h100, 0.0921).bytesPeakKind == "copy");
}

void noFloors()
{
    // transpose declares flops "0": only the byte floor.
    const SpeedOfLightResult tr = speedOfLight(task("transpose"), kH200, 0.1);
    KF_CHECK(tr.flopsFloorMs == 0 && tr.bytesFloorMs > 0 && tr.state == SpeedOfLightResult::State::WithinFloors);
    // No peaks measured, or no time: unknown, nothing flagged.
    const SpeedOfLightResult none = speedOfLight(task("matmul"), DevicePeaks{}, 0.1);
    KF_CHECK(none.state == SpeedOfLightResult::State::Unknown && none.flag.empty() && !none.percent);
    KF_CHECK(none.rooflineJson().at("speed_of_light_state") == "unknown");
    const SpeedOfLightResult untimed = speedOfLight(task("matmul"), kH200, 0);
    KF_CHECK(untimed.state == SpeedOfLightResult::State::Unknown && untimed.floorMs > 0);
    KF_CHECK(speedOfLight(1, 1, Dtype::F32, kH200, NAN).state == SpeedOfLightResult::State::Unknown);
}

} // namespace

int main()
{
    diagMatmul();
    matmul();
    halfPrecision();
    tensorSpecPeak();
    readBandwidth();
    dramPeak();
    noFloors();
    return kforge::runtime::test::finish("tst_worker_speedoflight");
}
