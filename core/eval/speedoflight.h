#pragma once
// The task's speed of light for one measured variant, computed one way for every place that shows it (the
// prompt's profile lines, the Variants table, Compare, the HTML report, the export README), so one variant
// shows the same figures everywhere and never a percentage over 100.
//
// The definition, shared with kforge-worker (core/runtime/worker/judge.cpp and the profiler's
// core/runtime/profiler/roofline.cpp compute the same floors and the same flags):
//  - byte floor = task bytes / the bandwidth the worker used for the task's traffic (peak_bytes_gbps, with
//    bytes_peak_kind "read" for a read-mostly task or "copy"; results before issue 35: peak_copy_gbps);
//    FLOP floor = task FLOPs / the device's measured peak for the task's dtype (peak_flops_gflops, with
//    flops_peak_kind naming it; results before issue 19 and devices with no other probe: the FP32 FMA rate,
//    peak_fma_gflops, kind "fp32_fma"); the task's floor is the larger of the two. The worker's computation is
//    core/runtime/worker/floors.h.
//  - below the byte floor: median < 0.90 × byte floor. Nothing moves the task's bytes faster than the copy
//    bandwidth, so the variant cannot have done the task's work: the worker's `below_speed_of_light` flag.
//  - beats the FLOP floor: not below the byte floor, and median < 0.90 × FLOP floor: faster than the task's
//    declared arithmetic allows (work is skipped, or the task's `flops` counts avoidable work such as an
//    algebraic rewrite): the worker's `beats_flop_floor` flag. Useful, not impossible.
//  - otherwise the percentage is floor / median × 100, capped at 100: a median within the 10 % tolerance
//    under a floor (measured peaks and timing noise) reads as 100 %.
//    A floor the median beats is never given as a percentage.
// The 0.90 tolerance is the worker's (profiler::kSpeedOfLightTolerance, docs/profiling.md says why).
#include <QCoreApplication>
#include <QJsonObject>
#include <QString>
#include <optional>

namespace kforge {

struct SpeedOfLight {
    Q_DECLARE_TR_FUNCTIONS(kforge::SpeedOfLight)

public:
    enum class State {
        Unknown,        // no time, or no floor (the task has no FLOP/byte formulas, or no peaks were measured)
        WithinFloors,   // at or above both floors: percent() is meaningful
        BeatsFlopFloor, // under the FLOP floor, above the byte floor
        BelowByteFloor, // under the byte floor: impossible
    };
    static constexpr double kTolerance = 0.90;

    std::optional<double> timeMs; // the candidate's median
    std::optional<double> byteFloorMs;
    std::optional<double> flopFloorMs;
    std::optional<double> floorMs; // the larger floor; the only one old results may give
    QString flopsPeakKind;         // "fp32_fma" (also when the result does not say) or the dtype of a measured peak
    QString bytesPeakKind;         // "copy" (also when the result does not say), "read" or "dram": the byte floor's bandwidth
    QString flopsPeakSource;       // "probe" (also when the result does not say) or "spec": the tensor cores' datasheet rate
    State state = State::Unknown;

    bool isKnown() const { return state != State::Unknown; }
    // The FLOP floor is set by the FP32 FMA rate (flopsPeakKind "fp32_fma" or not recorded).
    bool fp32Peak() const;
    // floor / time in percent, at most 100; empty where the time beats that floor (or it is unknown).
    std::optional<double> bytePct() const;
    std::optional<double> flopPct() const;
    // The headline figure: of the task's floor while within both floors, of the byte floor when the variant
    // beats the FLOP floor, empty below the byte floor.
    std::optional<double> percent() const;

    // From the task's FLOP and byte counts and the device's measured peaks (GB/s, GFLOP/s); a count <= 0 or a
    // peak <= 0 leaves that floor out.
    static SpeedOfLight compute(double flops, double bytes, double copyGbps, double fmaGflops, std::optional<double> timeMs);
    // From a stored evaluation result: the worker's task-level roofline fields (bytes_floor_ms, flops_floor_ms,
    // floor_ms, fraction_of_floor, or flops/bytes with the peaks), else the profiler's report
    // (roofline.profile.candidate.task, or roofline.candidate.task in early sessions), and the candidate's
    // median time. A result whose floors are not split is classified by its below_speed_of_light flag.
    static SpeedOfLight fromResult(const QJsonObject &result);

    // Model input, English like the prompt templates: "75.1% of speed of light (the task's floor is 0.0318 ms)",
    // or what beating a floor means.
    QString promptLine() const;
    // English, for the HTML report and the export README: "75.1% of the roofline bound", ...
    QString reportText() const;
    // Translated, for a table cell: "75.1%", "beats FLOP floor", "impossible".
    QString cellText() const;
    // Translated, for a tooltip: both floors and what the state means.
    QString explanation() const;

private:
    // What the floors were measured against, English (the prompt's) and translated (the tooltip's): "the measured
    // read bandwidth", "the DRAM's peak bandwidth", "the f16 tensor cores' datasheet peak", ...
    QString bytesPeakWords() const;
    QString flopsPeakWords() const;
    QString bytesPeakText() const;
    QString flopsPeakText() const;
    std::optional<double> m_ratio; // time / task floor as the worker reported it (time_over_floor)
};

// The words of the HTML report and the export README: s.reportText(), or where the input records only a
// percentage and no floors (an export input made without a stored result), that percentage, capped at 100;
// `none` where there is neither.
QString speedOfLightReportText(const SpeedOfLight &s, std::optional<double> recordedPct, const QString &none);

// "75.1": the figure every speed-of-light text uses (3 significant digits, as formatMeasure in core/eval/measureformat.h).
QString speedOfLightFigure(double pct);

} // namespace kforge
