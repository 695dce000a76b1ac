#include "views/variants/variantmeasurement.h"

#include "core/eval/deviceinfo.h"
#include "core/session/evaluation.h"
#include "views/variants/measurementtext.h"

#include <cmath>

namespace kforge {

namespace {

std::optional<double> finite(double v)
{
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::optional<double> positive(std::optional<double> v)
{
    return v && *v > 0 ? v : std::nullopt;
}

// The mean of `field` over the kernels, weighted by their time (equal weights where no time is known).
std::optional<double> weighted(const QList<MetricsKernel> &kernels, std::optional<double> MetricsKernel::*field)
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

} // namespace

std::optional<double> MeasuredKernel::msPerRun(std::optional<double> runs) const
{
    // The total over the timed runs is exact; launches per run times the mean duration is the fallback.
    if (totalUs && runs && *runs > 0)
        return *totalUs / *runs / 1000.0;
    if (perRun && meanUs)
        return *perRun * *meanUs / 1000.0;
    return std::nullopt;
}

VariantMeasurement VariantMeasurement::fromEvaluation(const Evaluation &e)
{
    VariantMeasurement m = fromMeasurement(e.measurement(), DeviceInfo::fromJson(e.device));
    if (m.verdict.isEmpty())
        m.verdict = e.summary.verdict;
    return m;
}

VariantMeasurement VariantMeasurement::fromResult(const QJsonObject &result, const QJsonObject &device)
{
    return fromMeasurement(Measurement::fromJson(result), DeviceInfo::fromJson(device));
}

VariantMeasurement VariantMeasurement::fromMeasurement(const Measurement &r, const DeviceInfo &device)
{
    VariantMeasurement m;
    m.verdict = r.verdictName();
    m.message = r.message;
    m.flags = r.flags;
    m.deviceName = device.name;
    m.seed = r.seed;
    const QString notMeasured = m.isCorrect() ? QString()
                                              : tr("the candidate was not measured (%1)")
                                                    .arg(m.message.isEmpty()
                                                             ? MeasurementText::verdict(m.verdict)
                                                             : MeasurementText::verdict(m.verdict) + QLatin1String(": ")
                                                                   + m.message.section(QLatin1Char('\n'), 0, 0));

    // ---- timing
    m.medianMs = finite(r.candidate.medianMs);
    m.referenceMs = finite(r.reference.medianMs);
    m.speedup = finite(r.speedup);
    m.cv = finite(r.candidate.cv);
    m.runs = positive(r.candidate.isValid() ? std::optional<double>(double(r.candidate.runs)) : std::nullopt);
    m.p10Ms = positive(finite(r.candidate.p10Ms));
    m.p90Ms = positive(finite(r.candidate.p90Ms));
    if (!m.medianMs)
        m.timingProblem = notMeasured.isEmpty() ? tr("the result holds no timing") : notMeasured;

    // ---- roofline: the profiler's report per side, or the worker's flat task-level summary
    const RooflineSummary &roof = r.rooflineSummary;
    m.speedOfLight = r.speedOfLight;
    m.floorMs = m.speedOfLight.floorMs;
    m.solPct = m.speedOfLight.percent();
    m.bound = roof.bound;
    m.peakGbps = roof.peakCopyGbps;
    m.peakGflops = roof.peakFmaGflops;
    if (!m.peakGbps && device.peakCopyGbps > 0)
        m.peakGbps = device.peakCopyGbps;
    if (!m.peakGflops && device.peakFmaGflops > 0)
        m.peakGflops = device.peakFmaGflops;
    m.achievedGbps = roof.achievedGbps;
    m.achievedGflops = roof.achievedGflops;
    for (const RooflineKernel &k : roof.kernels) {
        const auto x = positive(k.arithmeticIntensity);
        const auto y = positive(k.achievedGflops);
        if (x && y)
            m.rooflineKernels << RooflineMark{k.name, *x, *y, k.bound};
    }
    {
        // The whole task by its FLOP and byte formulas: where the user's own definition of work puts it.
        auto x = positive(roof.arithmeticIntensity);
        auto y = positive(roof.candidateGflops);
        if (!x && roof.taskFlops && roof.taskBytes)
            x = *roof.taskFlops / *roof.taskBytes;
        if (!y && roof.taskFlops && m.medianMs && *m.medianMs > 0)
            y = *roof.taskFlops / (*m.medianMs * 1e6);
        if (!x) {
            const auto f = positive(roof.flops);
            const auto b = positive(roof.bytes);
            if (f && b)
                x = *f / *b;
        }
        if (x && y)
            m.rooflineTask = RooflineMark{QString(), *x, *y, m.bound};
    }
    if (!m.achievedGbps)
        m.achievedGbps = roof.candidateGbps;
    if (!m.achievedGflops)
        m.achievedGflops = roof.candidateGflops;

    // ---- hardware metrics
    const MetricsSummary &metrics = r.metricsSummary;
    if (!metrics.hasCandidate) {
        m.metricsProblem = !notMeasured.isEmpty()        ? notMeasured
                           : !r.metricsSkipped.isEmpty() ? metricsSkippedText(r.metricsSkipped)
                           : !metrics.present            ? tr("the evaluation ran without the metrics pass")
                                                         : tr("the worker sent no metrics for the candidate");
    } else if (metrics.unavailable) {
        m.metricsProblem = metrics.problem;
        if (m.metricsProblem.isEmpty())
            m.metricsProblem = tr("the profiler gave no reason");
    } else {
        const QList<MetricsKernel> &kernels = metrics.kernels;
        if (kernels.isEmpty())
            m.metricsProblem = tr("no kernel was profiled");
        m.dramBytes = metrics.totalDramBytes;
        if (!m.dramBytes) {
            double sum = 0;
            bool any = false;
            for (const MetricsKernel &k : kernels)
                if (k.dramBytes) {
                    sum += *k.dramBytes;
                    any = true;
                }
            if (any)
                m.dramBytes = sum;
        }
        m.achievedOccupancyPct = weighted(kernels, &MetricsKernel::achievedOccupancyPct);
        m.smThroughputPct = weighted(kernels, &MetricsKernel::smThroughputPct);
        m.dramThroughputPct = weighted(kernels, &MetricsKernel::dramThroughputPct);
        m.l2HitRatePct = weighted(kernels, &MetricsKernel::l2HitRatePct);
        if (!m.achievedGbps) {
            const auto t = positive(metrics.totalTimeNs);
            if (t && m.dramBytes)
                m.achievedGbps = *m.dramBytes / *t;
        }
        if (m.rooflineKernels.isEmpty())
            for (const MetricsKernel &k : kernels) {
                const auto flops = positive(k.flopsFp32);
                const auto bytes = positive(k.dramBytes);
                const auto gflops = positive(k.achievedGflops);
                if (flops && bytes && gflops)
                    m.rooflineKernels << RooflineMark{k.name, *flops / *bytes, *gflops, QString()};
            }
    }

    // ---- CUPTI trace
    const TraceSummary &trace = r.traceSummary;
    if (!trace.present) {
        m.traceProblem = !notMeasured.isEmpty() ? notMeasured : tr("the evaluation ran without a kernel trace");
    } else if (trace.unavailable) {
        m.traceProblem = trace.problem;
        if (m.traceProblem.isEmpty())
            m.traceProblem = tr("the tracer gave no reason");
    } else {
        const TraceSide &side = trace.candidate;
        m.kernelTimeMs = side.kernelTimeMs;
        m.launchesPerRun = side.launchesPerRun;
        m.traceRuns = positive(side.runs);
        const TraceKernel *heaviest = nullptr;
        for (const TraceKernel &k : side.kernels) {
            MeasuredKernel mk;
            mk.name = k.name;
            mk.count = k.count;
            mk.perRun = k.perRun;
            mk.totalUs = k.totalUs;
            mk.meanUs = k.meanUs;
            mk.grid = k.grid;
            mk.block = k.block;
            mk.registers = k.registers;
            if (k.staticSmem || k.dynamicSmem)
                mk.sharedBytes = qint64(k.staticSmem.value_or(0) + k.dynamicSmem.value_or(0));
            m.kernels << mk;
        }
        std::stable_sort(m.kernels.begin(), m.kernels.end(), [](const MeasuredKernel &a, const MeasuredKernel &b) {
            return a.totalUs.value_or(0) > b.totalUs.value_or(0);
        });
        if (!m.kernels.isEmpty()) {
            m.registers = m.kernels.constFirst().registers;
            m.sharedBytes = m.kernels.constFirst().sharedBytes;
            // The heaviest kernel's theoretical occupancy (what its launch configuration allows).
            for (const TraceKernel &k : side.kernels)
                if (k.name == m.kernels.constFirst().name) {
                    heaviest = &k;
                    break;
                }
            if (heaviest)
                m.theoreticalOccupancyPct = heaviest->theoreticalOccupancyPct;
        }
    }
    if (m.bound.isEmpty() && !m.rooflineKernels.isEmpty())
        m.bound = m.rooflineKernels.constFirst().bound;

    // ---- ptxas resource usage that the client stores with the result
    if (const auto spills = r.compile.spillBytes()) {
        m.spillBytes = spills;
        if (!m.registers && r.compile.maxRegisters() > 0)
            m.registers = r.compile.maxRegisters();
    }
    return m;
}

} // namespace kforge
