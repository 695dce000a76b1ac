#include "core/optimizer/profilesummary.h"
#include "core/eval/kernelname.h"

#include <QJsonArray>
#include <cmath>

namespace kforge {

namespace {

QJsonValue at(const QJsonObject &root, const char *path)
{
    QJsonValue v(root);
    for (const QString &part : QString::fromLatin1(path).split(QLatin1Char('.'))) {
        if (!v.isObject())
            return {};
        v = v.toObject().value(part);
    }
    return v;
}

std::optional<double> numberAt(const QJsonObject &root, std::initializer_list<const char *> paths)
{
    for (const char *p : paths) {
        const QJsonValue v = at(root, p);
        if (v.isDouble() && std::isfinite(v.toDouble()))
            return v.toDouble();
    }
    return std::nullopt;
}

QString stringAt(const QJsonObject &root, std::initializer_list<const char *> paths)
{
    for (const char *p : paths) {
        const QJsonValue v = at(root, p);
        if (v.isString() && !v.toString().isEmpty())
            return v.toString();
    }
    return {};
}

QJsonArray arrayAt(const QJsonObject &root, std::initializer_list<const char *> paths)
{
    for (const char *p : paths) {
        const QJsonValue v = at(root, p);
        if (v.isArray() && !v.toArray().isEmpty())
            return v.toArray();
    }
    return {};
}

// The entry of `list` with the largest `key`.
QJsonObject heaviest(const QJsonArray &list, QLatin1String key)
{
    QJsonObject best;
    double bestValue = -1;
    for (const auto &e : list) {
        const QJsonObject o = e.toObject();
        const double v = o.value(key).toDouble(-1);
        if (v > bestValue) {
            bestValue = v;
            best = o;
        }
    }
    return best;
}

// "unknown" (no time, FLOPs or bytes) tells a reader nothing: leave it out like a missing value.
QString knownBound(const QString &bound)
{
    return bound == QLatin1String("unknown") ? QString() : bound;
}

} // namespace

ProfileSummary ProfileSummary::fromResult(const QJsonObject &r)
{
    ProfileSummary p;
    p.medianMs = numberAt(r, {"timing.candidate.median_ms"});
    p.speedup = numberAt(r, {"timing.speedup"});
    // The profiler's roofline report: where the worker writes it (roofline.profile.candidate), then where
    // early sessions and fixtures have it (roofline.candidate); the worker's flat task-level fields last.
    const QJsonObject roofline = r.value(QLatin1String("roofline")).toObject();
    QJsonObject report = at(roofline, "profile.candidate").toObject();
    if (report.isEmpty())
        report = roofline.value(QLatin1String("candidate")).toObject();
    if (report.isEmpty() && (roofline.contains(QLatin1String("task")) || roofline.contains(QLatin1String("total"))))
        report = roofline;
    p.speedOfLight = SpeedOfLight::fromResult(r);
    p.floorMs = p.speedOfLight.floorMs;
    p.speedOfLightPct = p.speedOfLight.percent();
    p.achievedGbps = numberAt(report, {"total.achieved_gbps"});
    if (!p.achievedGbps)
        p.achievedGbps = numberAt(roofline, {"candidate_gbps"});
    p.achievedGflops = numberAt(report, {"total.achieved_gflops"});
    if (!p.achievedGflops)
        p.achievedGflops = numberAt(roofline, {"candidate_gflops"});

    QList<KernelRoofline> points;
    for (const auto &e : report.value(QLatin1String("kernels")).toArray()) {
        const QJsonObject k = e.toObject();
        KernelRoofline point;
        point.name = kernelDisplayName(k.value(QLatin1String("name")).toString());
        if (point.name.isEmpty())
            point.name = QStringLiteral("kernel #%1").arg(k.value(QLatin1String("index")).toInt());
        point.bound = knownBound(k.value(QLatin1String("bound")).toString());
        point.pctOfAttainable = numberAt(k, {"pct_of_attainable"});
        point.achievedGbps = numberAt(k, {"achieved_gbps"});
        point.achievedGflops = numberAt(k, {"achieved_gflops"});
        point.timeNs = k.value(QLatin1String("time_ns")).toDouble();
        points.append(point);
    }
    std::stable_sort(points.begin(), points.end(), [](const auto &a, const auto &b) { return a.timeNs > b.timeNs; });
    p.rooflineKernels = points.mid(0, 3);
    p.bound = knownBound(stringAt(report, {"total.bound"}));
    if (p.bound.isEmpty() && !p.rooflineKernels.isEmpty())
        p.bound = p.rooflineKernels.constFirst().bound; // the kernel that takes the time
    if (p.bound.isEmpty())
        p.bound = knownBound(stringAt(roofline, {"bound"}));

    const QJsonObject metricsKernel =
        heaviest(arrayAt(r, {"metrics.candidate.kernels", "metrics.kernels"}), QLatin1String("time_ns"));
    auto metric = [&](const char *key) -> std::optional<double> {
        const QJsonValue v = metricsKernel.value(QLatin1String(key));
        return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
    };
    p.dramThroughputPct = metric("dram_throughput_pct");
    p.smThroughputPct = metric("sm_throughput_pct");
    p.achievedOccupancyPct = metric("achieved_occupancy_pct");

    const QJsonArray traced = arrayAt(r, {"trace.candidate.kernels", "trace.kernels"});
    const QJsonObject top = heaviest(traced, QLatin1String("total_us"));
    const QJsonObject launch = top.value(QLatin1String("launch")).toObject();
    if (launch.value(QLatin1String("registers")).isDouble())
        p.registers = launch.value(QLatin1String("registers")).toInt();
    else if (metricsKernel.value(QLatin1String("launch")).toObject().value(QLatin1String("registers")).isDouble())
        p.registers = metricsKernel.value(QLatin1String("launch")).toObject().value(QLatin1String("registers")).toInt();
    if (launch.value(QLatin1String("static_smem")).isDouble())
        p.sharedBytes = qint64(launch.value(QLatin1String("static_smem")).toDouble());
    const QJsonValue occ = top.value(QLatin1String("theoretical_occupancy")).toObject().value(QLatin1String("pct"));
    if (occ.isDouble())
        p.theoreticalOccupancyPct = occ.toDouble();
    // The worker reports launches per run as statistics over the traced runs ({"median", "min", ...}).
    p.launchesPerRun = numberAt(r, {"trace.candidate.launches_per_run.median", "trace.candidate.launches_per_run",
                                    "trace.launches_per_run.median", "trace.launches_per_run"});
    QList<QPair<double, QString>> byTime;
    for (const auto &k : traced) {
        const QJsonObject o = k.toObject();
        byTime.append({o.value(QLatin1String("total_us")).toDouble(), kernelDisplayName(o.value(QLatin1String("name")).toString())});
    }
    std::stable_sort(byTime.begin(), byTime.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (const auto &k : std::as_const(byTime))
        if (!k.second.isEmpty() && !p.kernels.contains(k.second) && p.kernels.size() < 3)
            p.kernels << k.second;

    // ptxas resource usage, which RoundRunner stores beside the worker's result.
    const QJsonArray resources = arrayAt(r, {"compile.resources"});
    if (!resources.isEmpty()) {
        qint64 spills = 0;
        int regs = 0;
        for (const auto &e : resources) {
            const QJsonObject o = e.toObject();
            spills += qint64(o.value(QLatin1String("spill_store_bytes")).toDouble())
                      + qint64(o.value(QLatin1String("spill_load_bytes")).toDouble());
            regs = std::max(regs, o.value(QLatin1String("registers")).toInt());
        }
        p.spillBytes = spills;
        if (!p.registers && regs > 0)
            p.registers = regs;
    }
    return p;
}

QStringList ProfileSummary::lines() const
{
    // These lines are model input, not interface text: they stay English like the templates around them.
    QStringList out;
    if (medianMs)
        out << QStringLiteral("median time %1 ms").arg(formatMeasure(*medianMs));
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
            parts << QStringLiteral("%1% of its attainable roofline").arg(formatMeasure(*k.pctOfAttainable));
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
