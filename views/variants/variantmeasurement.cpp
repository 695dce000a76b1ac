#include "views/variants/variantmeasurement.h"

#include "core/session/evaluation.h"
#include "views/variants/measurementtext.h"

#include <QJsonArray>
#include <cmath>

namespace kforge {

namespace {

QJsonValue at(const QJsonObject &root, QLatin1String path)
{
    QJsonValue v(root);
    qsizetype start = 0;
    for (;;) {
        const qsizetype dot = path.indexOf(QLatin1Char('.'), start);
        const QLatin1String part = dot < 0 ? path.mid(start) : path.mid(start, dot - start);
        if (!v.isObject())
            return {};
        v = v.toObject().value(part);
        if (dot < 0)
            return v;
        start = dot + 1;
    }
}

std::optional<double> number(const QJsonValue &v)
{
    if (v.isDouble() && std::isfinite(v.toDouble()))
        return v.toDouble();
    // The profiler writes some per-run figures as statistics ({"n","median","mean",...}).
    if (v.isObject()) {
        const QJsonValue m = v.toObject().value(QLatin1String("median"));
        if (m.isDouble() && std::isfinite(m.toDouble()))
            return m.toDouble();
    }
    return std::nullopt;
}

std::optional<double> number(const QJsonObject &o, QLatin1String path)
{
    return number(at(o, path));
}

QString text(const QJsonObject &o, QLatin1String path)
{
    const QJsonValue v = at(o, path);
    return v.isString() ? v.toString() : QString();
}

QJsonObject object(const QJsonObject &o, QLatin1String path)
{
    return at(o, path).toObject();
}

QList<int> ints(const QJsonValue &v)
{
    QList<int> out;
    for (const auto &e : v.toArray())
        out << e.toInt();
    return out;
}

// A CUPTI diagnosis as one sentence: the reason, then the remedy.
QString diagnosis(const QJsonObject &problem)
{
    QString s = problem.value(QLatin1String("reason")).toString();
    if (s.isEmpty())
        s = problem.value(QLatin1String("error")).toString();
    const QString hint = problem.value(QLatin1String("hint")).toString();
    if (!hint.isEmpty())
        s += (s.isEmpty() ? QString() : QStringLiteral(" ")) + hint;
    return s;
}

// The mean of `key` over the kernels, weighted by their time (equal weights where no time is known).
std::optional<double> weighted(const QJsonArray &kernels, QLatin1String key)
{
    double sum = 0, weights = 0;
    for (const auto &e : kernels) {
        const QJsonObject k = e.toObject();
        const auto v = number(k.value(key));
        if (!v)
            continue;
        const double w = number(k.value(QLatin1String("time_ns"))).value_or(1.0);
        sum += *v * w;
        weights += w;
    }
    return weights > 0 ? std::optional<double>(sum / weights) : std::nullopt;
}

std::optional<double> positive(std::optional<double> v)
{
    return v && *v > 0 ? v : std::nullopt;
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
    VariantMeasurement m = fromResult(e.result, e.device);
    if (m.verdict.isEmpty())
        m.verdict = e.summary.verdict;
    return m;
}

VariantMeasurement VariantMeasurement::fromResult(const QJsonObject &r, const QJsonObject &device)
{
    VariantMeasurement m;
    m.verdict = r.value(QLatin1String("verdict")).toString();
    m.message = r.value(QLatin1String("message")).toString();
    for (const auto &f : r.value(QLatin1String("flags")).toArray())
        m.flags << f.toString();
    m.deviceName = device.value(QLatin1String("name")).toString();
    const QString notMeasured = m.isCorrect() ? QString()
                                              : tr("the candidate was not measured (%1)")
                                                    .arg(m.message.isEmpty() ? MeasurementText::verdict(m.verdict)
                                                                             : MeasurementText::verdict(m.verdict) + QLatin1String(": ")
                                                                                   + m.message.section(QLatin1Char('\n'), 0, 0));

    // ---- timing
    m.medianMs = number(r, QLatin1String("timing.candidate.median_ms"));
    m.referenceMs = number(r, QLatin1String("timing.reference.median_ms"));
    m.speedup = number(r, QLatin1String("timing.speedup"));
    m.cv = number(r, QLatin1String("timing.candidate.cv"));
    m.runs = positive(number(r, QLatin1String("timing.candidate.runs")));
    m.p10Ms = positive(number(r, QLatin1String("timing.candidate.p10_ms")));
    m.p90Ms = positive(number(r, QLatin1String("timing.candidate.p90_ms")));
    if (!m.medianMs)
        m.timingProblem = notMeasured.isEmpty() ? tr("the result holds no timing") : notMeasured;

    // ---- roofline: the profiler's report per side, or the worker's flat task-level summary
    const QJsonObject roof = r.value(QLatin1String("roofline")).toObject();
    QJsonObject report = object(roof, QLatin1String("profile.candidate"));
    if (report.isEmpty())
        report = object(roof, QLatin1String("candidate"));
    if (report.isEmpty() && (roof.contains(QLatin1String("task")) || roof.contains(QLatin1String("total"))))
        report = roof;
    m.speedOfLight = SpeedOfLight::fromResult(r);
    m.floorMs = m.speedOfLight.floorMs;
    m.solPct = m.speedOfLight.percent();
    m.bound = text(report, QLatin1String("total.bound"));
    m.peakGbps = positive(number(report, QLatin1String("peaks.copy_gbps")));
    m.peakGflops = positive(number(report, QLatin1String("peaks.fma_gflops")));
    if (!m.peakGbps)
        m.peakGbps = positive(number(roof, QLatin1String("peak_copy_gbps")));
    if (!m.peakGflops)
        m.peakGflops = positive(number(roof, QLatin1String("peak_fma_gflops")));
    if (!m.peakGbps)
        m.peakGbps = positive(number(device, QLatin1String("peak_copy_gbps")));
    if (!m.peakGflops)
        m.peakGflops = positive(number(device, QLatin1String("peak_fma_gflops")));
    m.achievedGbps = number(report, QLatin1String("total.achieved_gbps"));
    m.achievedGflops = number(report, QLatin1String("total.achieved_gflops"));
    for (const auto &e : report.value(QLatin1String("kernels")).toArray()) {
        const QJsonObject k = e.toObject();
        const auto x = positive(number(k.value(QLatin1String("arithmetic_intensity"))));
        const auto y = positive(number(k.value(QLatin1String("achieved_gflops"))));
        if (x && y)
            m.rooflineKernels << RooflineMark{k.value(QLatin1String("name")).toString(), *x, *y,
                                              k.value(QLatin1String("bound")).toString()};
    }
    {
        // The whole task by its FLOP and byte formulas: where the user's own definition of work puts it.
        auto x = positive(number(roof, QLatin1String("arithmetic_intensity")));
        auto y = positive(number(roof, QLatin1String("candidate_gflops")));
        const auto flops = positive(number(report, QLatin1String("task.flops")));
        const auto bytes = positive(number(report, QLatin1String("task.bytes")));
        if (!x && flops && bytes)
            x = *flops / *bytes;
        if (!y && flops && m.medianMs && *m.medianMs > 0)
            y = *flops / (*m.medianMs * 1e6);
        if (!x) {
            const auto f = positive(number(roof, QLatin1String("flops")));
            const auto b = positive(number(roof, QLatin1String("bytes")));
            if (f && b)
                x = *f / *b;
        }
        if (x && y)
            m.rooflineTask = RooflineMark{QString(), *x, *y, m.bound};
    }
    if (!m.achievedGbps)
        m.achievedGbps = number(roof, QLatin1String("candidate_gbps"));
    if (!m.achievedGflops)
        m.achievedGflops = number(roof, QLatin1String("candidate_gflops"));

    // ---- hardware metrics
    const QJsonValue metricsValue = r.value(QLatin1String("metrics"));
    QJsonObject metrics = object(r, QLatin1String("metrics.candidate"));
    if (metrics.isEmpty() && metricsValue.isObject()
        && (metricsValue.toObject().contains(QLatin1String("kernels"))
            || metricsValue.toObject().contains(QLatin1String("available"))))
        metrics = metricsValue.toObject();
    if (metrics.isEmpty()) {
        m.metricsProblem = !notMeasured.isEmpty() ? notMeasured
                           : metricsValue.isUndefined() ? tr("the evaluation ran without the metrics pass")
                                                        : tr("the worker sent no metrics for the candidate");
    } else if (metrics.value(QLatin1String("available")).isBool() && !metrics.value(QLatin1String("available")).toBool()) {
        m.metricsProblem = diagnosis(metrics.value(QLatin1String("problem")).toObject());
        if (m.metricsProblem.isEmpty())
            m.metricsProblem = tr("the profiler gave no reason");
    } else {
        const QJsonArray kernels = metrics.value(QLatin1String("kernels")).toArray();
        if (kernels.isEmpty())
            m.metricsProblem = tr("no kernel was profiled");
        m.dramBytes = number(metrics.value(QLatin1String("total_dram_bytes")));
        if (!m.dramBytes) {
            double sum = 0;
            bool any = false;
            for (const auto &e : kernels)
                if (const auto b = number(e.toObject().value(QLatin1String("dram_bytes")))) {
                    sum += *b;
                    any = true;
                }
            if (any)
                m.dramBytes = sum;
        }
        m.achievedOccupancyPct = weighted(kernels, QLatin1String("achieved_occupancy_pct"));
        m.smThroughputPct = weighted(kernels, QLatin1String("sm_throughput_pct"));
        m.dramThroughputPct = weighted(kernels, QLatin1String("dram_throughput_pct"));
        m.l2HitRatePct = weighted(kernels, QLatin1String("l2_hit_rate_pct"));
        if (!m.achievedGbps) {
            const auto t = positive(number(metrics.value(QLatin1String("total_time_ns"))));
            if (t && m.dramBytes)
                m.achievedGbps = *m.dramBytes / *t;
        }
        if (m.rooflineKernels.isEmpty())
            for (const auto &e : kernels) {
                const QJsonObject k = e.toObject();
                const auto flops = positive(number(k.value(QLatin1String("flops_fp32"))));
                const auto bytes = positive(number(k.value(QLatin1String("dram_bytes"))));
                const auto gflops = positive(number(k.value(QLatin1String("achieved_gflops"))));
                if (flops && bytes && gflops)
                    m.rooflineKernels << RooflineMark{k.value(QLatin1String("name")).toString(), *flops / *bytes,
                                                      *gflops, QString()};
            }
    }

    // ---- CUPTI trace
    const QJsonObject trace = r.value(QLatin1String("trace")).toObject();
    if (trace.isEmpty()) {
        m.traceProblem = !notMeasured.isEmpty() ? notMeasured : tr("the evaluation ran without a kernel trace");
    } else if (trace.value(QLatin1String("available")).isBool() && !trace.value(QLatin1String("available")).toBool()) {
        m.traceProblem = diagnosis(trace.value(QLatin1String("problem")).toObject());
        if (m.traceProblem.isEmpty())
            m.traceProblem = tr("the tracer gave no reason");
    } else {
        QJsonObject side = trace.value(QLatin1String("candidate")).toObject();
        if (side.isEmpty())
            side = trace;
        m.kernelTimeMs = number(side.value(QLatin1String("kernel_time_ms")));
        m.launchesPerRun = number(side.value(QLatin1String("launches_per_run")));
        m.traceRuns = positive(number(side.value(QLatin1String("runs"))));
        for (const auto &e : side.value(QLatin1String("kernels")).toArray()) {
            const QJsonObject k = e.toObject();
            MeasuredKernel mk;
            mk.name = k.value(QLatin1String("name")).toString();
            mk.count = qint64(k.value(QLatin1String("count")).toDouble());
            mk.perRun = number(k.value(QLatin1String("per_run")));
            mk.totalUs = number(k.value(QLatin1String("total_us")));
            const QJsonValue duration = k.value(QLatin1String("duration_us"));
            mk.meanUs = duration.isObject() ? number(duration.toObject().value(QLatin1String("mean"))) : number(duration);
            if (!mk.meanUs && mk.totalUs && mk.count > 0)
                mk.meanUs = *mk.totalUs / double(mk.count);
            const QJsonObject launch = k.value(QLatin1String("launch")).toObject();
            mk.grid = ints(launch.value(QLatin1String("grid")));
            mk.block = ints(launch.value(QLatin1String("block")));
            if (launch.value(QLatin1String("registers")).isDouble())
                mk.registers = launch.value(QLatin1String("registers")).toInt();
            if (launch.contains(QLatin1String("static_smem")) || launch.contains(QLatin1String("dynamic_smem")))
                mk.sharedBytes = qint64(launch.value(QLatin1String("static_smem")).toDouble()
                                        + launch.value(QLatin1String("dynamic_smem")).toDouble());
            m.kernels << mk;
        }
        std::stable_sort(m.kernels.begin(), m.kernels.end(), [](const MeasuredKernel &a, const MeasuredKernel &b) {
            return a.totalUs.value_or(0) > b.totalUs.value_or(0);
        });
        if (!m.kernels.isEmpty()) {
            m.registers = m.kernels.constFirst().registers;
            m.sharedBytes = m.kernels.constFirst().sharedBytes;
            // The heaviest kernel's theoretical occupancy (what its launch configuration allows).
            for (const auto &e : side.value(QLatin1String("kernels")).toArray()) {
                const QJsonObject k = e.toObject();
                if (k.value(QLatin1String("name")).toString() == m.kernels.constFirst().name) {
                    m.theoreticalOccupancyPct = number(at(k, QLatin1String("theoretical_occupancy.pct")));
                    break;
                }
            }
        }
    }
    if (m.bound.isEmpty() && !m.rooflineKernels.isEmpty())
        m.bound = m.rooflineKernels.constFirst().bound;

    // ---- ptxas resource usage that RoundRunner stores with the result
    const QJsonArray resources = at(r, QLatin1String("compile.resources")).toArray();
    if (!resources.isEmpty()) {
        qint64 spills = 0;
        int regs = 0;
        for (const auto &e : resources) {
            const QJsonObject o = e.toObject();
            spills += qint64(o.value(QLatin1String("spill_store_bytes")).toDouble())
                      + qint64(o.value(QLatin1String("spill_load_bytes")).toDouble());
            regs = std::max(regs, o.value(QLatin1String("registers")).toInt());
        }
        m.spillBytes = spills;
        if (!m.registers && regs > 0)
            m.registers = regs;
    }
    return m;
}

} // namespace kforge
