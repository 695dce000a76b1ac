#pragma once
// The task's speed of light as the worker computes it for a result's "roofline" object and its flags; the
// client reads the same fields (core/eval/speedoflight.h), so every view shows these figures.
//  - byte floor = task bytes / the measured copy bandwidth; FLOP floor = task FLOPs / the device's measured
//    peak for the task's dtype (flopsDtype). Only the FP32 FMA peak is measured today: then the FLOP floor of
//    every dtype uses it and the roofline says so ("flops_peak_kind": "fp32_fma").
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
    // Peaks measured for other dtypes (GFLOP/s), where a probe exists; the FP32 FMA peak stands in for the rest.
    std::map<Dtype, double> dtypeGflops;
};

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
    double flopsPeakGflops = 0; // the peak the FLOP floor uses
    std::string flopsPeakKind;  // "fp32_fma", or the dtype's name where a peak was measured for it
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
    // peak_flops_gflops, flops_peak_kind, flops_dtype, flops_floor_ms, bytes_floor_ms, floor_ms,
    // candidate_gflops/gbps, reference_gflops/gbps (with a reference time > 0), fraction_of_floor,
    // speed_of_light_state and speed_of_light_pct (null where there is none).
    nlohmann::ordered_json rooflineJson(double referenceMedianMs = 0) const;
};

// flops or bytes <= 0 (the task has no formula) leaves that floor out; so does a peak <= 0.
SpeedOfLightResult speedOfLight(double flops, double bytes, Dtype dtype, const DevicePeaks &peaks, double candidateMedianMs);
// The task's formulas and flopsDtype(task).
SpeedOfLightResult speedOfLight(const TaskSpec &task, const DevicePeaks &peaks, double candidateMedianMs);

} // namespace kforge::runtime
