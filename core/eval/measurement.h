#pragma once
// One stored evaluation, typed: the worker's EvalResult (verdict, verification, timing of both sides, flags,
// the CUPTI payloads) plus what the client stores beside it (the compile summary), with typed views of the
// roofline, the trace and the hardware metrics, and the speed of light computed once. Parsed once from the
// stored JSON (fromJson) and written back losslessly (toJson): a measurement nobody edited writes back the
// document it was read from, key for key. Every reader of an evaluation outside core/eval reads this type,
// never the JSON; the JSON layout (docs/worker-protocol.md, docs/profiling.md) is known only here.
//
// Measurement extends EvalResult rather than replacing it: EvalResult is the worker protocol's reply and
// what the worker client hands out; a Measurement is that reply as the session keeps it.
#include "core/eval/diagnostic.h"
#include "core/eval/evalresult.h"
#include "core/eval/kernelresources.h"
#include "core/eval/sourceprofile.h"
#include "core/eval/speedoflight.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

namespace kforge {

// What the compiler said about the measured source ("compile" in the stored result, written by the client).
struct CompileSummary {
    bool present = false; // the result came with a compile object
    bool ok = false;
    bool cacheHit = false;
    QList<KernelResources> resources; // ptxas, one entry per __global__ function
    QList<Diagnostic> diagnostics;
    QString log;     // the tools' output, without absolute paths, capped
    QString command; // the nvcc command line, program names without their folders
    QString nvccVersion;
    QString arch;
    double elapsedMs = 0;
    QJsonObject raw; // as stored; toJson() keeps fields this version does not know

    // Spill stores plus loads over every kernel of the source; empty without resources.
    std::optional<qint64> spillBytes() const;
    // The most registers any kernel of the source uses; 0 without resources.
    int maxRegisters() const;

    static CompileSummary fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
};

// One kernel of the profiler's roofline report (the profiler's RooflinePoint, docs/profiling.md).
struct RooflineKernel {
    QString name; // demangled, as the report gives it
    int index = 0;
    QString bound; // memory, compute, latency, unknown
    std::optional<double> pctOfAttainable;
    std::optional<double> achievedGbps;
    std::optional<double> achievedGflops;
    std::optional<double> arithmeticIntensity;
    double timeNs = 0;
};

// The roofline of the candidate: the profiler's report where the worker writes it (roofline.profile.candidate),
// where early sessions had it (roofline.candidate) or the whole object, plus the worker's flat task-level fields.
struct RooflineSummary {
    bool hasReport = false;
    QString bound;                      // report total.bound
    std::optional<double> achievedGbps; // report total
    std::optional<double> achievedGflops;
    std::optional<double> peakCopyGbps; // report peaks, else the flat peak_copy_gbps
    std::optional<double> peakFmaGflops;
    std::optional<double> taskFlops; // report task
    std::optional<double> taskBytes;
    QList<RooflineKernel> kernels; // in the report's order
    // The worker's flat fields.
    QString flatBound;
    std::optional<double> candidateGbps;
    std::optional<double> candidateGflops;
    std::optional<double> arithmeticIntensity;
    std::optional<double> flops;
    std::optional<double> bytes;
};

// One kernel of a side's CUPTI trace, grouped by name over the timed runs.
struct TraceKernel {
    QString name;     // demangled
    qint64 count = 0; // launches over every timed run
    std::optional<double> perRun;
    std::optional<double> totalUs;
    std::optional<double> meanUs; // one launch's mean duration (total / count where the trace has no mean)
    std::optional<double> medianUs;
    QList<int> grid;
    QList<int> block;
    std::optional<int> registers;
    std::optional<double> staticSmem;
    std::optional<double> dynamicSmem;
    std::optional<double> theoreticalOccupancyPct;

    // Shared memory per block, static + dynamic; empty where the trace gives neither.
    std::optional<qint64> sharedBytes() const;
    // The time this kernel costs per timed run, in ms: the total over `runs`, else launches per run times the mean.
    std::optional<double> msPerRun(std::optional<double> runs) const;
};

struct TraceSide {
    std::optional<double> kernelTimeMs;   // CUPTI's sum of kernel time per run (median over runs)
    std::optional<double> launchesPerRun; // median over runs
    std::optional<double> runs;
    std::optional<double> eventTimeMs; // the timed window as events saw it (median over runs)
    bool lateWork = false;             // work that ended after the timed window
    std::optional<double> maxLateUs;
    bool sideStreamWork = false; // kernels on streams other than the one handed to the entry
    QList<qint64> sideStreams;
    QList<TraceKernel> kernels; // in the trace's order
};

// The CUPTI trace: both sides, or why there is none.
struct TraceSummary {
    bool present = false;     // the result has a trace object
    bool unavailable = false; // the worker said the tracer could not run
    QString problem;          // the tracer's diagnosis when unavailable: the reason, then the remedy
    TraceSide candidate;      // trace.candidate, or the flat trace of early sessions
    TraceSide reference;
};

// One kernel of the hardware-metrics pass.
struct MetricsKernel {
    QString name;
    std::optional<double> timeNs;
    std::optional<double> dramBytes;
    std::optional<double> flopsFp32;
    std::optional<double> achievedGflops;
    std::optional<double> achievedOccupancyPct;
    std::optional<double> smThroughputPct;
    std::optional<double> dramThroughputPct;
    std::optional<double> l2HitRatePct;
    std::optional<int> registers; // of its launch
};

// The candidate's hardware metrics (metrics.candidate, or the flat object of early sessions), or why there are none.
struct MetricsSummary {
    bool present = false;      // the result has a metrics value at all
    bool hasCandidate = false; // ... and it holds the candidate's
    bool unavailable = false;  // the profiler said it could not run
    QString problem;           // its diagnosis
    std::optional<double> totalDramBytes;
    std::optional<double> totalTimeNs;
    QList<MetricsKernel> kernels;
};

struct Measurement : EvalResult {
    CompileSummary compile;
    RooflineSummary rooflineSummary;
    TraceSummary traceSummary;
    MetricsSummary metricsSummary;
    SpeedOfLight speedOfLight;   // the one computation (core/eval/speedoflight.h), from the stored result
    SourceProfile sourceProfile; // the source-level pass (core/eval/sourceprofile.h); status Absent when it did not run
    // The evaluation seed the worker used (the result's "seed"; `kforge-cli eval --seed S` reproduces the run);
    // empty for results of workers that did not record it (every session before issue 19: seed 1 then).
    std::optional<qint64> seed;

    Measurement() = default;
    // A fresh result from the worker client, with the compile summary the client adds.
    explicit Measurement(const EvalResult &r, const CompileSummary &compiled = {});

    // The verdict as the wire names it; for a stored document whose verdict this version does not know (or
    // that has none), the document's own word, so the session's columns show what was stored.
    QString verdictName() const;

    // The one place a stored document becomes a Measurement; each call counts one parse (parseCount()).
    static Measurement fromJson(const QJsonObject &o);
    // How many documents fromJson() has parsed in this process: what tests and benchmarks read to count the parses
    // of one evaluation on its way to the panels (the session store keeps what it parsed, EvaluationRepository::find()).
    static qint64 parseCount();
    // The stored document: the one it was read from where nothing changed, else the typed fields written over it
    // (top-level keys this version does not know are kept either way).
    QJsonObject toJson() const;

private:
    static Measurement parse(const QJsonObject &o); // fromJson() without counting, for toJson()'s comparison
    void parseViews(const QJsonObject &o);
    QJsonObject typedJson() const;
    QJsonObject m_source; // the document fromJson() read
    QString m_storedVerdict;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::Measurement)
