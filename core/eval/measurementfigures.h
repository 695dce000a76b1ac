#pragma once
// The figures of one Measurement that people and the model read, worked out once: timing, speed of light, the
// bound, the rates, the kernel that takes the most time (registers, shared memory, occupancy), the kernels and the
// roofline marks, and why a part was not measured. The Variants table, Compare and the charts (views/), the prompt
// (core/optimizer) and the session report (core/export) format these and derive none of their own, so a variant
// shows the same registers, shared memory, bound and speed of light wherever it is shown.
//
// The choices where the parts disagree, made here once:
//  - the heaviest kernel is the trace's kernel with the longest total time over the timed runs;
//  - registers are that kernel's launch's, else the metrics pass's longest kernel's, else the most ptxas reports
//    for any kernel of the source (results without a trace);
//  - shared memory is that kernel's per block, static plus dynamic: what a block holds and what limits occupancy
//    (a cuBLAS GEMM takes all of its 66 KiB dynamically);
//  - the bound is the roofline report's for the whole call, else the heaviest roofline kernel's, else the worker's
//    flat task-level field; "unknown" is no bound and stays empty;
//  - occupancy and throughputs are means over the metrics pass's kernels weighted by their time: the call's.
#include "core/eval/measurement.h"
#include "core/eval/speedoflight.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace kforge {

struct DeviceInfo;

struct MeasurementFigures {
    Q_DECLARE_TR_FUNCTIONS(kforge::MeasurementFigures)

public:
    QString verdict;      // the wire name (Measurement::verdictName), for the words shown
    bool correct = false; // the verdict is Verdict::Correct
    QString message;
    QStringList flags;

    // Timing of the candidate and the reference.
    std::optional<double> medianMs;
    std::optional<double> referenceMs;
    std::optional<double> speedup;
    std::optional<double> cv;
    std::optional<double> runs;  // timed runs of the candidate
    std::optional<double> p10Ms; // the candidate's 10th and 90th percentile times
    std::optional<double> p90Ms;
    SpeedOfLight speedOfLight; // the one computation (core/eval/speedoflight.h)

    QString bound; // memory, compute, latency; empty where unknown
    std::optional<double> achievedGbps;
    std::optional<double> achievedGflops;
    std::optional<double> dramBytes; // per timed call, all kernels
    std::optional<double> achievedOccupancyPct;
    std::optional<double> smThroughputPct;
    std::optional<double> dramThroughputPct;
    std::optional<double> l2HitRatePct;

    // The kernel that takes the most time.
    QString heaviestKernel;            // demangled, as the trace gives it
    std::optional<int> registers;      // per thread
    std::optional<qint64> sharedBytes; // per block, static + dynamic
    std::optional<double> theoreticalOccupancyPct;
    std::optional<qint64> spillBytes; // stores + loads, every kernel of the source (ptxas)

    std::optional<double> kernelTimeMs; // CUPTI's sum of kernel time per run
    std::optional<double> launchesPerRun;
    std::optional<double> traceRuns;
    QList<TraceKernel> kernels; // the candidate's, longest total first

    // Points of the roofline plot, longest first: the profiler's report, else points of the metrics pass.
    QList<RooflineKernel> rooflineKernels;
    std::optional<RooflineKernel> rooflineTask; // the whole task by its FLOP and byte formulas (no name)
    std::optional<double> peakGbps;
    std::optional<double> peakGflops;
    QString deviceName;
    std::optional<qint64> seed; // the evaluation seed (Measurement::seed)

    // Why a part is absent (translated), empty when it is there.
    QString timingProblem;
    QString traceProblem;
    QString metricsProblem;

    bool isCorrect() const { return correct; }
    bool hasHardwareMetrics() const { return metricsProblem.isEmpty(); }

    // One short English line per measured figure, for the prompt and the report ("memory-bound",
    // "22 registers per thread, 67584 bytes of shared memory per block, no spills", ...).
    QStringList profileLines() const;

    static MeasurementFigures of(const Measurement &m, const DeviceInfo &device);
    static MeasurementFigures of(const Measurement &m);
    // Measurement::fromJson and DeviceInfo::fromJson, then of().
    static MeasurementFigures fromResult(const QJsonObject &result, const QJsonObject &device = {});
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::MeasurementFigures)
