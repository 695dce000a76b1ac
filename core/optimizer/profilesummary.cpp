#include "core/optimizer/profilesummary.h"
#include "core/eval/finite.h"
#include "core/eval/kernelname.h"

#include <cmath>

namespace kforge {

namespace {

// "unknown" (no time, FLOPs or bytes) tells a reader nothing: leave it out like a missing value.
QString knownBound(const QString &bound)
{
    return bound == QLatin1String("unknown") ? QString() : bound;
}

// The entry of `list` with the largest `field`; none where no entry has it.
template <typename T>
const T *heaviest(const QList<T> &list, std::optional<double> T::*field)
{
    const T *best = nullptr;
    double bestValue = -1;
    for (const T &e : list)
        if ((e.*field).value_or(-1) > bestValue) {
            bestValue = *(e.*field);
            best = &e;
        }
    return best;
}

} // namespace

ProfileSummary ProfileSummary::fromResult(const QJsonObject &r)
{
    return fromMeasurement(Measurement::fromJson(r));
}

ProfileSummary ProfileSummary::fromMeasurement(const Measurement &m)
{
    ProfileSummary p;
    p.medianMs = finiteOrNone(m.candidate.medianMs);
    p.speedup = finiteOrNone(m.speedup);
    const RooflineSummary &roof = m.rooflineSummary;
    p.speedOfLight = m.speedOfLight;
    p.floorMs = p.speedOfLight.floorMs;
    p.speedOfLightPct = p.speedOfLight.percent();
    p.achievedGbps = roof.achievedGbps ? roof.achievedGbps : roof.candidateGbps;
    p.achievedGflops = roof.achievedGflops ? roof.achievedGflops : roof.candidateGflops;

    QList<KernelRoofline> points;
    for (const RooflineKernel &k : roof.kernels) {
        KernelRoofline point;
        point.name = kernelDisplayName(k.name);
        if (point.name.isEmpty())
            point.name = QStringLiteral("kernel #%1").arg(k.index);
        point.bound = knownBound(k.bound);
        point.pctOfAttainable = k.pctOfAttainable;
        point.achievedGbps = k.achievedGbps;
        point.achievedGflops = k.achievedGflops;
        point.timeNs = k.timeNs;
        points.append(point);
    }
    std::stable_sort(points.begin(), points.end(), [](const auto &a, const auto &b) { return a.timeNs > b.timeNs; });
    p.rooflineKernels = points.mid(0, 3);
    p.bound = knownBound(roof.bound);
    if (p.bound.isEmpty() && !p.rooflineKernels.isEmpty())
        p.bound = p.rooflineKernels.constFirst().bound; // the kernel that takes the time
    if (p.bound.isEmpty())
        p.bound = knownBound(roof.flatBound);

    // The metrics of the kernel that takes the most time.
    const MetricsKernel *metricsKernel = heaviest(m.metricsSummary.kernels, &MetricsKernel::timeNs);
    if (metricsKernel) {
        p.dramThroughputPct = metricsKernel->dramThroughputPct;
        p.smThroughputPct = metricsKernel->smThroughputPct;
        p.achievedOccupancyPct = metricsKernel->achievedOccupancyPct;
    }

    const TraceSide &traced = m.traceSummary.candidate;
    const TraceKernel *top = heaviest(traced.kernels, &TraceKernel::totalUs);
    if (top && top->registers)
        p.registers = top->registers;
    else if (metricsKernel && metricsKernel->registers)
        p.registers = metricsKernel->registers;
    if (top && top->staticSmem)
        p.sharedBytes = qint64(*top->staticSmem);
    if (top)
        p.theoreticalOccupancyPct = top->theoreticalOccupancyPct;
    // The worker reports launches per run as statistics over the traced runs ({"median", "min", ...}).
    p.launchesPerRun = traced.launchesPerRun;
    QList<QPair<double, QString>> byTime;
    for (const TraceKernel &k : traced.kernels)
        byTime.append({k.totalUs.value_or(0), kernelDisplayName(k.name)});
    std::stable_sort(byTime.begin(), byTime.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (const auto &k : std::as_const(byTime))
        if (!k.second.isEmpty() && !p.kernels.contains(k.second) && p.kernels.size() < 3)
            p.kernels << k.second;

    // ptxas resource usage, which the client stores beside the worker's result.
    if (const auto spills = m.compile.spillBytes()) {
        p.spillBytes = spills;
        if (!p.registers && m.compile.maxRegisters() > 0)
            p.registers = m.compile.maxRegisters();
    }
    return p;
}

QStringList ProfileSummary::lines() const
{
    // These lines are model input, not interface text: they stay English like the templates around them.
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
    if (dramThroughputPct || smThroughputPct) {
        QStringList parts;
        if (dramThroughputPct)
            parts << QStringLiteral("DRAM %1%").arg(formatMeasure(*dramThroughputPct));
        if (smThroughputPct)
            parts << QStringLiteral("SM %1%").arg(formatMeasure(*smThroughputPct));
        out << QStringLiteral("throughput of peak: ") + parts.join(QLatin1String(", "));
    }
    if (achievedOccupancyPct || theoreticalOccupancyPct) {
        QStringList parts;
        if (achievedOccupancyPct)
            parts << QStringLiteral("%1% achieved").arg(formatMeasure(*achievedOccupancyPct));
        if (theoreticalOccupancyPct)
            parts << QStringLiteral("%1% theoretical").arg(formatMeasure(*theoreticalOccupancyPct));
        out << QStringLiteral("occupancy ") + parts.join(QLatin1String(", "));
    }
    if (registers || spillBytes || sharedBytes) {
        QStringList parts;
        if (registers)
            parts << QStringLiteral("%1 registers per thread").arg(*registers);
        if (sharedBytes && *sharedBytes > 0)
            parts << QStringLiteral("%1 bytes static shared memory").arg(*sharedBytes);
        if (spillBytes)
            parts << (*spillBytes > 0 ? QStringLiteral("%1 bytes of register spills").arg(*spillBytes)
                                      : QStringLiteral("no spills"));
        out << parts.join(QLatin1String(", "));
    }
    for (const KernelRoofline &k : rooflineKernels) {
        QStringList parts;
        if (!k.bound.isEmpty())
            parts << QStringLiteral("%1-bound").arg(k.bound);
        if (k.pctOfAttainable)
            // Measured peaks and timing noise can put a kernel a little over its roof: never more than 100 %.
            parts << QStringLiteral("%1% of its attainable roofline").arg(formatMeasure(std::min(100.0, *k.pctOfAttainable)));
        if (k.achievedGbps)
            parts << QStringLiteral("%1 GB/s").arg(formatMeasure(*k.achievedGbps));
        if (k.achievedGflops && *k.achievedGflops > 0)
            parts << QStringLiteral("%1 GFLOP/s").arg(formatMeasure(*k.achievedGflops));
        if (!parts.isEmpty())
            out << QStringLiteral("roofline of %1: %2").arg(k.name, parts.join(QLatin1String(", ")));
    }
    if (!kernels.isEmpty()) {
        QString s = QStringLiteral("kernels: ") + kernels.join(QLatin1String(", "));
        if (launchesPerRun)
            s += QStringLiteral(" (%1 launches per call)").arg(formatMeasure(*launchesPerRun));
        out << s;
    }
    return out;
}

} // namespace kforge
