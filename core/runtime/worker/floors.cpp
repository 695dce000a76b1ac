#include "core/runtime/worker/floors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kforge::runtime {
namespace {

std::string ms(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g ms", v);
    return buf;
}

bool positive(double v)
{
    return std::isfinite(v) && v > 0;
}

} // namespace

Dtype flopsDtype(const TaskSpec &task)
{
    for (const auto *side : {&task.outputs, &task.inputs})
        for (const TensorSpec &t : *side)
            if (isFloating(t.dtype))
                return t.dtype;
    return Dtype::F32;
}

const char *SpeedOfLightResult::stateName(State s)
{
    switch (s) {
    case State::Unknown: return "unknown";
    case State::WithinFloors: return "within_floors";
    case State::BeatsFlopFloor: return "beats_flop_floor";
    case State::BelowByteFloor: return "below_byte_floor";
    }
    return "unknown";
}

double writeShare(const TaskSpec &task)
{
    double in = 0, out = 0;
    for (const auto *list : {&task.inputs, &task.parameters, &task.buffers})
        for (const TensorSpec &t : *list)
            in += static_cast<double>(t.sizeBytes());
    for (const TensorSpec &t : task.outputs)
        out += static_cast<double>(t.sizeBytes());
    return in + out > 0 ? out / (in + out) : -1;
}

SpeedOfLightResult speedOfLight(double flops, double bytes, Dtype dtype, const DevicePeaks &peaks, double candidateMedianMs,
                                double writeShare)
{
    SpeedOfLightResult r;
    r.flops = positive(flops) ? flops : 0;
    r.bytes = positive(bytes) ? bytes : 0;
    r.dtype = dtype;
    r.copyGbps = positive(peaks.copyGbps) ? peaks.copyGbps : 0;
    r.fmaGflops = positive(peaks.fmaGflops) ? peaks.fmaGflops : 0;
    r.readGbps = positive(peaks.readGbps) ? peaks.readGbps : 0;
    r.writeShare = std::isfinite(writeShare) && writeShare >= 0 ? writeShare : -1;
    // A read-mostly task gets the read bandwidth, never a lower one than the copy's (a floor may only be lowered
    // by a better-fitting peak: a correct kernel must never be called impossible).
    if (r.readGbps > 0 && r.writeShare >= 0 && r.writeShare <= kReadMostlyWriteShare) {
        r.bytesPeakGbps = std::max(r.readGbps, r.copyGbps);
        r.bytesPeakKind = "read";
    } else {
        r.bytesPeakGbps = r.copyGbps;
        r.bytesPeakKind = "copy";
    }
    if (positive(peaks.dramGbps) && peaks.dramGbps > r.bytesPeakGbps) {
        r.bytesPeakGbps = peaks.dramGbps; // a floor only from a bound no honest kernel passes
        r.bytesPeakKind = "dram";
    }
    const auto rate = [dtype](const std::map<Dtype, double> &m) {
        const auto it = m.find(dtype);
        return it != m.end() && positive(it->second) ? it->second : 0.0;
    };
    const double probed = rate(peaks.dtypeGflops), spec = rate(peaks.dtypeSpecGflops);
    if (probed > 0 || spec > 0) {
        r.flopsPeakGflops = std::max(probed, spec); // a floor only from a bound no honest kernel passes
        r.flopsPeakKind = std::string(dtypeName(dtype));
        r.flopsPeakSource = spec > probed ? "spec" : "probe";
    } else {
        r.flopsPeakGflops = r.fmaGflops;
        r.flopsPeakKind = "fp32_fma";
        r.flopsPeakSource = "probe";
    }
    r.candidateMs = positive(candidateMedianMs) ? candidateMedianMs : 0;
    // GB/s = 1e6 byte/ms; GFLOP/s = 1e6 FLOP/ms.
    if (r.bytes > 0 && r.bytesPeakGbps > 0)
        r.bytesFloorMs = r.bytes / (r.bytesPeakGbps * 1e6);
    if (r.flops > 0 && r.flopsPeakGflops > 0)
        r.flopsFloorMs = r.flops / (r.flopsPeakGflops * 1e6);
    r.floorMs = std::max(r.bytesFloorMs, r.flopsFloorMs);
    if (r.candidateMs <= 0 || r.floorMs <= 0)
        return r;
    const double t = r.candidateMs;
    r.fractionOfFloor = r.floorMs / t;
    if (r.bytesFloorMs > 0 && t < kSpeedOfLightTolerance * r.bytesFloorMs) {
        r.state = SpeedOfLightResult::State::BelowByteFloor;
        r.flag = "below_speed_of_light";
        r.message = "The candidate's median time " + ms(t)
                    + " is below the time needed to move the task's bytes at "
                    + (r.bytesPeakKind == "dram" ? std::string("the DRAM's peak bandwidth")
                                                 : "the measured " + r.bytesPeakKind + " bandwidth")
                    + " (" + ms(r.bytesFloorMs) + "): it cannot have done all the work the task describes.";
    } else if (r.flopsFloorMs > 0 && t < kSpeedOfLightTolerance * r.flopsFloorMs) {
        r.state = SpeedOfLightResult::State::BeatsFlopFloor;
        r.flag = "beats_flop_floor";
        const bool fp32Peak = r.flopsPeakKind == "fp32_fma";
        r.message = "The candidate's median time " + ms(t) + " is under the FLOP floor of " + ms(r.flopsFloorMs)
                    + " (the task's flops at "
                    + (fp32Peak                         ? std::string("the measured FP32 FMA peak")
                       : r.flopsPeakSource == "spec" ? "the " + std::string(dtypeName(dtype)) + " tensor cores' datasheet peak"
                                                     : "the measured " + std::string(dtypeName(dtype)) + " tensor-core peak")
                    + "): faster than "
                    + "the task's declared arithmetic allows: either work is skipped or the task's flops counts "
                      "avoidable work, such as an algebraic rewrite.";
        if (fp32Peak && (dtype == Dtype::F16 || dtype == Dtype::BF16))
            r.message += " No tensor-core peak was measured for " + std::string(dtypeName(dtype))
                         + " on this device; tensor cores exceed the FP32 FMA peak.";
        else if (fp32Peak && dtype == Dtype::F32)
            r.message += " An f32 task is judged against the FP32 FMA peak: TF32 or half-precision tensor cores "
                         "would beat it by lowering the task's precision.";
        if (r.bytesFloorMs > 0)
            r.percent = std::min(100.0, 100.0 * r.bytesFloorMs / t);
    } else {
        r.state = SpeedOfLightResult::State::WithinFloors;
        r.percent = std::min(100.0, 100.0 * r.floorMs / t);
    }
    return r;
}

double tensorFlopsPerClockPerSm(int arch)
{
    switch (arch) {
    case 70: case 72: case 75: return 1024; // V100: 80 SMs x 1.53 GHz x 1024 = 125 TFLOPS
    case 80: return 2048;                  // A100: 108 x 1.41 GHz x 2048 = 312
    case 86: case 87: case 89: return 1024; // GA10x, Orin, AD10x (f16 accumulation; half with f32 on GeForce)
    case 90: return 4096;                  // H100 SXM: 132 x 1.83 GHz x 4096 = 989
    case 100: case 103: return 8192;       // B200: 148 x 1.965 GHz x 8192 = 2.38 PFLOPS (datasheet 2.25)
    case 120: case 121: return 1024;       // GB20x
    default: return 0;
    }
}

double tensorSpecGflops(int arch, int smCount, double smClockMhz)
{
    const double perClock = tensorFlopsPerClockPerSm(arch);
    if (perClock <= 0 || smCount <= 0 || !positive(smClockMhz))
        return 0;
    return smCount * smClockMhz * 1e6 * perClock / 1e9;
}

SpeedOfLightResult speedOfLight(const TaskSpec &task, const DevicePeaks &peaks, double candidateMedianMs)
{
    return speedOfLight(task.flops.present() ? task.flops.value : 0, task.bytes.present() ? task.bytes.value : 0,
                        flopsDtype(task), peaks, candidateMedianMs, writeShare(task));
}

nlohmann::ordered_json SpeedOfLightResult::rooflineJson(double referenceMedianMs) const
{
    nlohmann::ordered_json roof;
    const double candS = candidateMs * 1e-3, refS = positive(referenceMedianMs) ? referenceMedianMs * 1e-3 : 0;
    roof["flops"] = flops;
    roof["bytes"] = bytes;
    roof["arithmetic_intensity"] = bytes > 0 ? flops / bytes : 0;
    roof["peak_fma_gflops"] = fmaGflops;
    roof["peak_copy_gbps"] = copyGbps;
    roof["peak_read_gbps"] = readGbps;
    roof["peak_bytes_gbps"] = bytesPeakGbps;
    roof["bytes_peak_kind"] = bytesPeakKind;
    roof["write_share"] = writeShare >= 0 ? nlohmann::ordered_json(writeShare) : nlohmann::ordered_json(nullptr);
    roof["peak_flops_gflops"] = flopsPeakGflops;
    roof["flops_peak_kind"] = flopsPeakKind;
    roof["flops_peak_source"] = flopsPeakSource;
    roof["flops_dtype"] = std::string(dtypeName(dtype));
    roof["flops_floor_ms"] = flopsFloorMs;
    roof["bytes_floor_ms"] = bytesFloorMs;
    roof["floor_ms"] = floorMs;
    roof["candidate_gflops"] = candS > 0 ? flops / candS * 1e-9 : 0;
    roof["candidate_gbps"] = candS > 0 ? bytes / candS * 1e-9 : 0;
    if (refS > 0) {
        roof["reference_gflops"] = flops / refS * 1e-9;
        roof["reference_gbps"] = bytes / refS * 1e-9;
    }
    roof["fraction_of_floor"] = fractionOfFloor;
    roof["speed_of_light_state"] = stateName(state);
    roof["speed_of_light_pct"] = percent ? nlohmann::ordered_json(*percent) : nlohmann::ordered_json(nullptr);
    return roof;
}

} // namespace kforge::runtime
