#pragma once
// The compact profile of one measured variant that a prompt shows the model: time, bound, achieved
// bandwidth or FLOP rate, percent of the speed-of-light floor, occupancy, registers, spills, launches.
// Read from the stored evaluation's typed Measurement (core/eval/measurement.h); a field the worker did not
// measure stays empty and is left out of lines().
#include "core/eval/measureformat.h" // formatMeasure, for the profile lines
#include "core/eval/measurement.h"
#include "core/eval/speedoflight.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace kforge {

// One kernel's place on the roofline (the profiler's RooflinePoint, docs/profiling.md).
struct KernelRoofline {
    QString name;                          // kernelDisplayName: "rowscale4", "Kernel2<cutlass_80_simt_...>"
    QString bound;                         // memory, compute, latency, unknown
    std::optional<double> pctOfAttainable; // on the roof that applies at the kernel's intensity
    std::optional<double> achievedGbps;
    std::optional<double> achievedGflops;
    double timeNs = 0;
};

struct ProfileSummary {
    std::optional<double> medianMs;
    std::optional<double> speedup;
    SpeedOfLight speedOfLight;             // the one computation (core/eval/speedoflight.h)
    std::optional<double> floorMs;         // speed-of-light floor of the whole task
    std::optional<double> speedOfLightPct; // speedOfLight.percent(): never above 100, empty below a floor
    QString bound;                         // memory, compute, latency...
    std::optional<double> achievedGbps;
    std::optional<double> achievedGflops;
    std::optional<double> dramThroughputPct;
    std::optional<double> smThroughputPct;
    std::optional<double> achievedOccupancyPct;
    std::optional<double> theoreticalOccupancyPct;
    std::optional<int> registers;      // per thread, of the kernel that takes the most time
    std::optional<qint64> spillBytes;  // spill stores + loads over every kernel of the source
    std::optional<qint64> sharedBytes; // static shared memory of that kernel
    std::optional<double> launchesPerRun;
    QStringList kernels;                   // names of the kernels that ran, longest first (at most 3)
    QList<KernelRoofline> rooflineKernels; // from the metrics pass, longest first (at most 3)

    bool isEmpty() const { return !medianMs && !speedup && kernels.isEmpty(); }

    static ProfileSummary fromMeasurement(const Measurement &m);
    static ProfileSummary fromResult(const QJsonObject &result); // Measurement::fromJson, then fromMeasurement()
    // One short line per measured field, e.g. "median time 0.412 ms", "memory-bound", "2870 GB/s achieved".
    QStringList lines() const;
};

} // namespace kforge
