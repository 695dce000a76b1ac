#include "core/eval/measurementfigures.h"

#include "core/eval/deviceinfo.h"
#include "core/eval/finite.h"
#include "core/eval/kernelname.h"
#include "core/eval/measureformat.h"

#include <algorithm>
#include <initializer_list>
#include <utility>

namespace kforge {

namespace {

std::optional<double> positiveOrNone(std::optional<double> v)
{
    return v && *v > 0 ? v : std::nullopt;
}

// "unknown" (no time, FLOPs or bytes) tells a reader nothing: it is left out like a missing value.
QString knownBound(const QString &bound)
{
    return bound == QLatin1String("unknown") ? QString() : bound;
}

// The mean of `field` over the kernels, weighted by their time (equal weights where no time is known).
std::optional<double> timeWeighted(const QList<MetricsKernel> &kernels, std::optional<double> MetricsKernel::*field)
{
    double sum = 0, weights = 0;
    for (const MetricsKernel &k : kernels) {
        const auto v = k.*field;
        if (!v)
            continue;
        const double w = k.timeNs.value_or(1.0);
        sum += *v * w;
        weights += w;
    }
    return weights > 0 ? std::optional<double>(sum / weights) : std::nullopt;
}

// Why a part of a failed evaluation is missing: it was not measured at all.
QString notMeasuredText(const Measurement &m)
{
    const QString wire = m.verdictName();
    if (wire == QLatin1String("correct"))
        return {};
    const std::optional<Verdict> v = verdictFromString(wire);
    const QString verdict = v ? verdictDisplayName(*v) : wire;
    return MeasurementFigures::tr("the candidate was not measured (%1)")
        .arg(m.message.isEmpty() ? verdict : verdict + QLatin1String(": ") + m.message.section(QLatin1Char('\n'), 0, 0));
}

void readTiming(const Measurement &r, const QString &notMeasured, MeasurementFigures &f)
{
    f.medianMs = finiteOrNone(r.candidate.medianMs);
    f.referenceMs = finiteOrNone(r.reference.medianMs);
    f.speedup = finiteOrNone(r.speedup);
    f.cv = finiteOrNone(r.candidate.cv);
    f.runs = positiveOrNone(r.candidate.isValid() ? std::optional<double>(double(r.candidate.runs)) : std::nullopt);
    f.p10Ms = positiveOrNone(finiteOrNone(r.candidate.p10Ms));
    f.p90Ms = positiveOrNone(finiteOrNone(r.candidate.p90Ms));
    if (!f.medianMs)
        f.timingProblem = notMeasured.isEmpty() ? MeasurementFigures::tr("the result holds no timing") : notMeasured;
}

void readRoofline(const RooflineSummary &roof, const DeviceInfo &device, MeasurementFigures &f)
{
    f.peakGbps = roof.peakCopyGbps;
    f.peakGflops = roof.peakFmaGflops;
    if (!f.peakGbps && device.peakCopyGbps > 0)
        f.peakGbps = device.peakCopyGbps;
    if (!f.peakGflops && device.peakFmaGflops > 0)
        f.peakGflops = device.peakFmaGflops;
    f.achievedGbps = roof.achievedGbps ? roof.achievedGbps : roof.candidateGbps;
    f.achievedGflops = roof.achievedGflops ? roof.achievedGflops : roof.candidateGflops;
    f.rooflineKernels = roof.kernels;
    std::stable_sort(f.rooflineKernels.begin(), f.rooflineKernels.end(),
                     [](const RooflineKernel &a, const RooflineKernel &b) { return a.timeNs > b.timeNs; });
    f.bound = knownBound(roof.bound);
    if (f.bound.isEmpty() && !f.rooflineKernels.isEmpty())
        f.bound = knownBound(f.rooflineKernels.constFirst().bound); // the kernel that takes the time
    if (f.bound.isEmpty())
        f.bound = knownBound(roof.flatBound);

    // The whole task by its FLOP and byte formulas: where the user's own definition of work puts it.
    auto x = positiveOrNone(roof.arithmeticIntensity);
    auto y = positiveOrNone(roof.candidateGflops);
    if (!x && roof.taskFlops && roof.taskBytes)
        x = *roof.taskFlops / *roof.taskBytes;
    if (!y && roof.taskFlops && f.medianMs && *f.medianMs > 0)
        y = *roof.taskFlops / (*f.medianMs * 1e6);
    if (!x) {
        const auto flops = positiveOrNone(roof.flops);
        const auto bytes = positiveOrNone(roof.bytes);
        if (flops && bytes)
            x = *flops / *bytes;
    }
    if (x && y) {
        RooflineKernel task;
        task.arithmeticIntensity = x;
        task.achievedGflops = y;
        task.bound = f.bound;
        f.rooflineTask = task;
    }
}

void readMetrics(const Measurement &r, const QString &notMeasured, MeasurementFigures &f)
{
    const MetricsSummary &metrics = r.metricsSummary;
    if (!metrics.hasCandidate) {
        f.metricsProblem = !notMeasured.isEmpty()        ? notMeasured
                           : !r.metricsSkipped.isEmpty() ? metricsSkippedText(r.metricsSkipped)
                           : !metrics.present ? MeasurementFigures::tr("the evaluation ran without the metrics pass")
                                              : MeasurementFigures::tr("the worker sent no metrics for the candidate");
        return;
    }
    if (metrics.unavailable) {
        f.metricsProblem = metrics.problem.isEmpty() ? MeasurementFigures::tr("the profiler gave no reason")
                                                     : metrics.problem;
        return;
    }
    const QList<MetricsKernel> &kernels = metrics.kernels;
    if (kernels.isEmpty())
        f.metricsProblem = MeasurementFigures::tr("no kernel was profiled");
    f.dramBytes = metrics.totalDramBytes;
    if (!f.dramBytes) {
        double sum = 0;
        bool any = false;
        for (const MetricsKernel &k : kernels)
            if (k.dramBytes) {
                sum += *k.dramBytes;
                any = true;
            }
        if (any)
            f.dramBytes = sum;
    }
    f.achievedOccupancyPct = timeWeighted(kernels, &MetricsKernel::achievedOccupancyPct);
    f.smThroughputPct = timeWeighted(kernels, &MetricsKernel::smThroughputPct);
    f.dramThroughputPct = timeWeighted(kernels, &MetricsKernel::dramThroughputPct);
    f.l2HitRatePct = timeWeighted(kernels, &MetricsKernel::l2HitRatePct);
    if (!f.achievedGbps) {
        const auto t = positiveOrNone(metrics.totalTimeNs);
        if (t && f.dramBytes)
            f.achievedGbps = *f.dramBytes / *t;
    }
    if (!f.rooflineKernels.isEmpty())
        return;
    // Without the profiler's roofline report, the metrics pass's FP32 FLOPs and DRAM bytes place each kernel.
    for (const MetricsKernel &k : kernels) {
        const auto flops = positiveOrNone(k.flopsFp32);
        const auto bytes = positiveOrNone(k.dramBytes);
        const auto gflops = positiveOrNone(k.achievedGflops);
        if (!flops || !bytes || !gflops)
            continue;
        RooflineKernel point;
        point.name = k.name;
        point.arithmeticIntensity = *flops / *bytes;
        point.achievedGflops = gflops;
        point.timeNs = k.timeNs.value_or(0);
        f.rooflineKernels << point;
    }
    std::stable_sort(f.rooflineKernels.begin(), f.rooflineKernels.end(),
                     [](const RooflineKernel &a, const RooflineKernel &b) { return a.timeNs > b.timeNs; });
}

void readTrace(const TraceSummary &trace, const QString &notMeasured, MeasurementFigures &f)
{
    if (!trace.present) {
        f.traceProblem = !notMeasured.isEmpty() ? notMeasured
                                                : MeasurementFigures::tr("the evaluation ran without a kernel trace");
        return;
    }
    if (trace.unavailable) {
        f.traceProblem = trace.problem.isEmpty() ? MeasurementFigures::tr("the tracer gave no reason") : trace.problem;
        return;
    }
    const TraceSide &side = trace.candidate;
    f.kernelTimeMs = side.kernelTimeMs;
    f.launchesPerRun = side.launchesPerRun;
    f.traceRuns = positiveOrNone(side.runs);
    f.kernels = side.kernels;
    std::stable_sort(f.kernels.begin(), f.kernels.end(), [](const TraceKernel &a, const TraceKernel &b) {
        return a.totalUs.value_or(0) > b.totalUs.value_or(0);
    });
    if (f.kernels.isEmpty())
        return;
    const TraceKernel &heaviest = f.kernels.constFirst();
    f.heaviestKernel = heaviest.name;
    f.registers = heaviest.registers;
    f.sharedBytes = heaviest.sharedBytes();
    f.theoreticalOccupancyPct = heaviest.theoreticalOccupancyPct;
}

// The registers where the trace has none: the metrics pass's longest kernel's launch, else ptxas's most.
std::optional<int> fallbackRegisters(const Measurement &r)
{
    const MetricsKernel *longest = nullptr;
    for (const MetricsKernel &k : r.metricsSummary.kernels)
        if (k.registers && (!longest || k.timeNs.value_or(0) > longest->timeNs.value_or(0)))
            longest = &k;
    if (longest)
        return longest->registers;
    if (r.compile.maxRegisters() > 0)
        return r.compile.maxRegisters();
    return std::nullopt;
}

// "throughput of peak: DRAM 80.0%, SM 22.8%": `lead`, then the percentages that were measured; nothing without any.
void percentLine(QStringList &out, const QString &lead,
                 std::initializer_list<std::pair<std::optional<double>, const char *>> parts)
{
    QStringList shown;
    for (const auto &[value, format] : parts)
        if (value)
            shown << QLatin1String(format).arg(formatMeasure(*value));
    if (!shown.isEmpty())
        out << lead + shown.join(QLatin1String(", "));
}

} // namespace

MeasurementFigures MeasurementFigures::fromResult(const QJsonObject &result, const QJsonObject &device)
{
    return of(Measurement::fromJson(result), DeviceInfo::fromJson(device));
}

MeasurementFigures MeasurementFigures::of(const Measurement &m)
{
    return of(m, DeviceInfo());
}

MeasurementFigures MeasurementFigures::of(const Measurement &r, const DeviceInfo &device)
{
    MeasurementFigures f;
    f.verdict = r.verdictName();
    f.correct = r.isCorrect();
    f.message = r.message;
    f.flags = r.flags;
    f.deviceName = device.name;
    f.seed = r.seed;
    f.speedOfLight = r.speedOfLight;
    const QString notMeasured = notMeasuredText(r);
    readTiming(r, notMeasured, f);
    readRoofline(r.rooflineSummary, device, f);
    readMetrics(r, notMeasured, f);
    readTrace(r.traceSummary, notMeasured, f);
    if (!f.registers)
        f.registers = fallbackRegisters(r);
    f.spillBytes = r.compile.spillBytes();
    return f;
}

QStringList MeasurementFigures::profileLines() const
{
    // Model input and report text, not interface text: English like the prompt templates around them.
    QStringList out;
    if (medianMs)
        // The event time by its name in the panels and the report (core/eval/measureformat.h), in its unit.
        out << TimeNames::eventTimeEnglish().toLower() + QLatin1Char(' ') + formatDuration(*medianMs);
    if (speedOfLight.isKnown())
        out << speedOfLight.promptLine();
    if (!bound.isEmpty())
        out << QStringLiteral("%1-bound").arg(bound);
    if (achievedGbps)
        out << QStringLiteral("%1 GB/s achieved DRAM bandwidth").arg(formatMeasure(*achievedGbps));
    if (achievedGflops && *achievedGflops > 0)
        out << QStringLiteral("%1 GFLOP/s").arg(formatMeasure(*achievedGflops));
    percentLine(out, QStringLiteral("throughput of peak: "),
                {{dramThroughputPct, "DRAM %1%"}, {smThroughputPct, "SM %1%"}});
    percentLine(out, QStringLiteral("occupancy "),
                {{achievedOccupancyPct, "%1% achieved"}, {theoreticalOccupancyPct, "%1% theoretical"}});
    if (registers || spillBytes || (sharedBytes && *sharedBytes > 0)) {
        QStringList parts;
        if (registers)
            parts << QStringLiteral("%1 registers per thread").arg(*registers);
        if (sharedBytes && *sharedBytes > 0)
            parts << QStringLiteral("%1 bytes of shared memory per block").arg(*sharedBytes);
        if (spillBytes)
            parts << (*spillBytes > 0 ? QStringLiteral("%1 bytes of register spills").arg(*spillBytes)
                                      : QStringLiteral("no spills"));
        out << parts.join(QLatin1String(", "));
    }
    for (const RooflineKernel &k : rooflineKernels.mid(0, 3)) {
        QStringList parts;
        if (const QString b = knownBound(k.bound); !b.isEmpty())
            parts << QStringLiteral("%1-bound").arg(b);
        if (k.pctOfAttainable)
            // Measured peaks and timing noise can put a kernel a little over its roof: never more than 100 %.
            parts << QStringLiteral("%1% of its attainable roofline").arg(formatMeasure(std::min(100.0, *k.pctOfAttainable)));
        if (k.achievedGbps)
            parts << QStringLiteral("%1 GB/s").arg(formatMeasure(*k.achievedGbps));
        if (k.achievedGflops && *k.achievedGflops > 0)
            parts << QStringLiteral("%1 GFLOP/s").arg(formatMeasure(*k.achievedGflops));
        QString name = kernelDisplayName(k.name);
        if (name.isEmpty())
            name = QStringLiteral("kernel #%1").arg(k.index);
        if (!parts.isEmpty())
            out << QStringLiteral("roofline of %1: %2").arg(name, parts.join(QLatin1String(", ")));
    }
    QStringList names;
    for (const TraceKernel &k : kernels)
        if (const QString name = kernelDisplayName(k.name); !name.isEmpty() && !names.contains(name) && names.size() < 3)
            names << name;
    if (!names.isEmpty()) {
        QString s = QStringLiteral("kernels: ") + names.join(QLatin1String(", "));
        if (launchesPerRun)
            s += QStringLiteral(" (%1 launches per call)").arg(formatMeasure(*launchesPerRun));
        out << s;
    }
    return out;
}

} // namespace kforge
