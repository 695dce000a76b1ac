#pragma once
// The task's speed of light as the worker computes it for a result's "roofline" object and its flags; the
// client reads the same fields (core/eval/speedoflight.h), so every view shows these figures.
//  - byte floor = task bytes / the measured bandwidth for the task's kind of traffic (bytesPeakKind): the
//    read-only bandwidth where the task's declared outputs are at most kReadMostlyWriteShare of its declared
//    input + output bytes (a reduction, a norm, a dot product), else the device-to-device copy bandwidth (read +
//    write). Where no read bandwidth was measured the copy bandwidth stands in ("bytes_peak_kind" says which).
//  - FLOP floor = task FLOPs / the device's measured peak for the task's dtype (flopsDtype): the tensor-core
//    peak for f16 and bf16 where it was measured, the FP32 FMA peak for f32 and every other dtype. An f32 task
//    is never judged against a TF32 peak: TF32 inside an f32 task is a lowered precision (precisioncontract.h),
//    not a faster way to do the task's arithmetic. "flops_peak_kind" names the peak.
//  - median < 0.90 x byte floor: `below_speed_of_light` (impossible: nothing moves the task's bytes faster).
//  - otherwise median < 0.90 x FLOP floor: `beats_flop_floor` (faster than the task's declared arithmetic
//    allows: work is skipped, or the task's flops count avoidable work such as an algebraic rewrite; for
//    f16/bf16 against the FP32 FMA peak also what tensor cores do). Never called impossible.
//  - the percentage: floor / median x 100 within both floors, of the byte floor when the FLOP floor is
//    beaten, none below the byte floor; never over 100.
// No CUDA here: the CI test computes it from task.json and peaks.
#include "core/runtime/task/taskspec.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>

namespace kforge::runtime {

struct DevicePeaks {
    double copyGbps = 0;  // device-to-device copy, bytes read + written per second
    double fmaGflops = 0; // FP32 FMA, 2 FLOP each
    // Tensor-core peaks measured for task dtypes (GFLOP/s, f16 and bf16 with f32 accumulation); the FP32 FMA
    // peak stands in for the rest.
    std::map<Dtype, double> dtypeGflops;
    // The tensor cores' datasheet rate for the same dtypes (tensorSpecGflops: SMs x the SM clock's maximum x the
    // architecture's dense rate per SM and clock). The mma.sync probe runs below what Hopper's WGMMA reaches
    // (cuBLAS), so a floor from the probe alone would call an honest cuBLAS GEMM impossible: the FLOP floor uses
    // the higher of the two, a bound no honest kernel passes. Empty for an architecture the table lacks.
    std::map<Dtype, double> dtypeSpecGflops;
    double readGbps = 0;   // read-only streaming bandwidth (bytes read per second); 0: not measured
    double tf32Gflops = 0; // tensor-core TF32, reported only: no task dtype is judged against it
    double fp8Gflops = 0;  // tensor-core FP8 (e4m3, f32 accumulation), sm_89+; reported only
    // The DRAM's own peak: 2 transfers per memory clock over the bus width (cudaDevAttrMemoryClockRate and
    // GlobalMemoryBusWidth; H100 SXM 3.35 TB/s). No kernel moves bytes faster, while a tuned streaming kernel beats
    // cudaMemcpy and the read probe by 12-15% (measured on the H100: a Triton softmax at 2.91 TB/s against a copy
    // probe of 2.57), so the byte floor uses the highest of the three. 0: the device does not say.
    double dramGbps = 0;
};

// The memory roof a profile pass's own roofline gets: the DRAM peak where it is above the copy probe, so that
// pass never calls impossible what the task's floor (speedOfLight) does not.
inline double memoryRoofGbps(const DevicePeaks &p)
{
    return p.copyGbps > p.dramGbps ? p.copyGbps : p.dramGbps;
}

// Dense f16/bf16 tensor-core FLOPs per SM and clock with f32 accumulation, by architecture (major * 10 + minor),
// an upper bound of NVIDIA's datasheets (V100 125, A100 312, H100 SXM 989 TFLOPS at their boost clocks; consumer
// parts of sm_86/89/120 run at half of it with f32 accumulation); 0 for an architecture not listed.
double tensorFlopsPerClockPerSm(int arch);
// smCount x smClockMhz x tensorFlopsPerClockPerSm(arch), in GFLOP/s; 0 where any of them is unknown.
double tensorSpecGflops(int arch, int smCount, double smClockMhz);

// A task whose outputs are at most this share of its input + output bytes moves mostly reads: its byte floor
// uses the read-only bandwidth (docs/profiling.md, "Floors").
inline constexpr double kReadMostlyWriteShare = 0.125;

inline constexpr double kSpeedOfLightTolerance = 0.90; // = profiler::kSpeedOfLightTolerance (docs/profiling.md)

// The dtype the task's FLOPs are counted in: the first floating output's, else the first floating input's,
// else f32.
Dtype flopsDtype(const TaskSpec &task);

struct SpeedOfLightResult {
    enum class State { Unknown, WithinFloors, BeatsFlopFloor, BelowByteFloor };
    double flops = 0;
    double bytes = 0;
    Dtype dtype = Dtype::F32;
    double copyGbps = 0;
    double fmaGflops = 0;
    double readGbps = 0;
    double bytesPeakGbps = 0;   // the bandwidth the byte floor uses
    std::string bytesPeakKind;  // "copy" or "read"
    double writeShare = -1;     // the task's output bytes / (input + output bytes); < 0: not known
    double flopsPeakGflops = 0; // the peak the FLOP floor uses
    std::string flopsPeakKind;  // "fp32_fma", or the dtype's name where a peak was measured for it
    std::string flopsPeakSource; // "probe" (measured) or "spec" (the datasheet rate, where it is higher)
    double bytesFloorMs = 0;    // 0: no floor (no byte count or no peak)
    double flopsFloorMs = 0;
    double floorMs = 0; // the larger
    double candidateMs = 0;
    double fractionOfFloor = 0;    // floorMs / candidateMs, uncapped (as results always had it)
    std::optional<double> percent; // of speed of light, at most 100; empty below the byte floor or unknown
    State state = State::Unknown;
    std::string flag;    // "", "below_speed_of_light" or "beats_flop_floor"
    std::string message; // the warning that goes with the flag

    // "unknown", "within_floors", "beats_flop_floor", "below_byte_floor"
    static const char *stateName(State s);
    // The result's "roofline" object: flops, bytes, arithmetic_intensity, peak_fma_gflops, peak_copy_gbps,
    // peak_read_gbps, peak_bytes_gbps, bytes_peak_kind, write_share, peak_flops_gflops, flops_peak_kind, flops_dtype, flops_floor_ms, bytes_floor_ms, floor_ms,
    // candidate_gflops/gbps, reference_gflops/gbps (with a reference time > 0), fraction_of_floor,
    // speed_of_light_state and speed_of_light_pct (null where there is none).
    nlohmann::ordered_json rooflineJson(double referenceMedianMs = 0) const;
};

// flops or bytes <= 0 (the task has no formula) leaves that floor out; so does a peak <= 0. `writeShare` (the
// task's output bytes over its input + output bytes, < 0 unknown) picks the bandwidth (kReadMostlyWriteShare).
SpeedOfLightResult speedOfLight(double flops, double bytes, Dtype dtype, const DevicePeaks &peaks, double candidateMedianMs,
                                double writeShare = -1);
// The task's declared outputs over its declared inputs, parameters, buffers and outputs, in bytes; -1 when the
// task declares none.
double writeShare(const TaskSpec &task);
// The task's formulas, flopsDtype(task) and writeShare(task).
SpeedOfLightResult speedOfLight(const TaskSpec &task, const DevicePeaks &peaks, double candidateMedianMs);

} // namespace kforge::runtime
