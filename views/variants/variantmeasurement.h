#pragma once
// What the panels show of one stored evaluation, read from its typed Measurement (core/eval/measurement.h).
// A value the worker did not measure stays empty, and where a whole part is missing the reason is kept for
// the user ("no hardware metrics: <why>").
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
struct Evaluation;

// One kernel of the candidate's CUPTI trace, summed over the timed runs.
struct MeasuredKernel {
    QString name;     // demangled, as the trace gives it
    qint64 count = 0; // launches over every timed run
    std::optional<double> perRun;
    std::optional<double> meanUs; // mean duration of one launch
    std::optional<double> totalUs;
    QList<int> grid;
    QList<int> block;
    std::optional<int> registers;
    std::optional<qint64> sharedBytes; // static + dynamic

    // The time this kernel costs per timed run, in ms.
    std::optional<double> msPerRun(std::optional<double> runs) const;
};

// A point of the roofline plot: arithmetic intensity (FLOP/byte) against achieved GFLOP/s.
struct RooflineMark {
    QString name; // the kernel's name; empty for the whole-task point
    double intensity = 0;
    double gflops = 0;
    QString bound;
};

struct VariantMeasurement {
    Q_DECLARE_TR_FUNCTIONS(kforge::VariantMeasurement)

public:
    QString verdict;
    QString message;
    QStringList flags;
    std::optional<double> medianMs;
    std::optional<double> referenceMs;
    std::optional<double> speedup;
    std::optional<double> cv;
    SpeedOfLight speedOfLight;   // the one computation (core/eval/speedoflight.h)
    std::optional<double> runs;  // timed runs of the candidate
    std::optional<double> p10Ms; // the candidate's 10th and 90th percentile times
    std::optional<double> p90Ms;
    std::optional<double> floorMs;
    std::optional<double> solPct;    // speedOfLight.percent(): never above 100, empty below a floor
    QString bound;                   // memory, compute, latency
    std::optional<double> dramBytes; // per timed call, all kernels
    std::optional<double> achievedGbps;
    std::optional<double> achievedGflops;
    std::optional<double> achievedOccupancyPct; // weighted by kernel time
    std::optional<double> theoreticalOccupancyPct;
    std::optional<double> smThroughputPct;
    std::optional<double> dramThroughputPct;
    std::optional<double> l2HitRatePct;
    std::optional<int> registers;       // of the kernel that takes the most time
    std::optional<qint64> spillBytes;   // stores + loads, every kernel of the source
    std::optional<qint64> sharedBytes;  // of that kernel
    std::optional<double> kernelTimeMs; // CUPTI's sum of kernel time per run
    std::optional<double> launchesPerRun;
    std::optional<double> traceRuns;
    QList<MeasuredKernel> kernels; // longest total first
    QList<RooflineMark> rooflineKernels;
    std::optional<RooflineMark> rooflineTask; // from the task's FLOP and byte formulas
    std::optional<double> peakGbps;
    std::optional<double> peakGflops;
    QString deviceName;
    std::optional<qint64> seed; // the evaluation seed (Measurement::seed); empty for results without one
    // Why a part is absent (translated), empty when it is there.
    QString timingProblem;
    QString traceProblem;
    QString metricsProblem;

    bool isCorrect() const { return verdict == QLatin1String("correct"); }
    bool hasHardwareMetrics() const { return metricsProblem.isEmpty(); }

    static VariantMeasurement fromMeasurement(const Measurement &result, const DeviceInfo &device);
    // Measurement::fromJson and DeviceInfo::fromJson, then fromMeasurement().
    static VariantMeasurement fromResult(const QJsonObject &result, const QJsonObject &device = {});
    static VariantMeasurement fromEvaluation(const Evaluation &e);
};

} // namespace kforge
