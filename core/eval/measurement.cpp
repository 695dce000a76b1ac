#include "core/eval/measurement.h"
#include "core/eval/sourceprofile.h"

#include "core/eval/jsonfields.h"

#include <QJsonArray>
#include <algorithm>
#include <atomic>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// A finite number, or the median of the statistics object the profiler writes for some per-run figures
// ({"n", "median", "mean", ...}).
std::optional<double> number(const QJsonValue &v)
{
    if (v.isDouble() && std::isfinite(v.toDouble()))
        return v.toDouble();
    if (v.isObject()) {
        const QJsonValue m = v.toObject().value("median"_L1);
        if (m.isDouble() && std::isfinite(m.toDouble()))
            return m.toDouble();
    }
    return std::nullopt;
}

std::optional<double> positive(const QJsonValue &v)
{
    const auto n = number(v);
    return n && *n > 0 ? n : std::nullopt;
}

std::optional<int> integer(const QJsonValue &v)
{
    return v.isDouble() ? std::optional<int>(v.toInt()) : std::nullopt;
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
    QString s = problem.value("reason"_L1).toString();
    if (s.isEmpty())
        s = problem.value("error"_L1).toString();
    const QString hint = problem.value("hint"_L1).toString();
    if (!hint.isEmpty())
        s += (s.isEmpty() ? QString() : u" "_s) + hint;
    return s;
}

bool saysUnavailable(const QJsonObject &o)
{
    const QJsonValue a = o.value("available"_L1);
    return a.isBool() && !a.toBool();
}

RooflineSummary rooflineOf(const QJsonObject &roof)
{
    RooflineSummary s;
    QJsonObject report = roof.value("profile"_L1).toObject().value("candidate"_L1).toObject();
    if (report.isEmpty())
        report = roof.value("candidate"_L1).toObject();
    if (report.isEmpty() && (roof.contains("task"_L1) || roof.contains("total"_L1)))
        report = roof;
    s.hasReport = !report.isEmpty();
    const QJsonObject total = report.value("total"_L1).toObject();
    s.bound = total.value("bound"_L1).toString();
    s.achievedGbps = number(total.value("achieved_gbps"_L1));
    s.achievedGflops = number(total.value("achieved_gflops"_L1));
    const QJsonObject peaks = report.value("peaks"_L1).toObject();
    s.peakCopyGbps = positive(peaks.value("copy_gbps"_L1));
    s.peakFmaGflops = positive(peaks.value("fma_gflops"_L1));
    if (!s.peakCopyGbps)
        s.peakCopyGbps = positive(roof.value("peak_copy_gbps"_L1));
    if (!s.peakFmaGflops)
        s.peakFmaGflops = positive(roof.value("peak_fma_gflops"_L1));
    const QJsonObject task = report.value("task"_L1).toObject();
    s.taskFlops = positive(task.value("flops"_L1));
    s.taskBytes = positive(task.value("bytes"_L1));
    for (const auto &e : report.value("kernels"_L1).toArray()) {
        const QJsonObject k = e.toObject();
        RooflineKernel r;
        r.name = k.value("name"_L1).toString();
        r.index = k.value("index"_L1).toInt();
        r.bound = k.value("bound"_L1).toString();
        r.pctOfAttainable = number(k.value("pct_of_attainable"_L1));
        r.achievedGbps = number(k.value("achieved_gbps"_L1));
        r.achievedGflops = number(k.value("achieved_gflops"_L1));
        r.arithmeticIntensity = number(k.value("arithmetic_intensity"_L1));
        r.timeNs = k.value("time_ns"_L1).toDouble();
        s.kernels << r;
    }
    s.flatBound = roof.value("bound"_L1).toString();
    s.candidateGbps = number(roof.value("candidate_gbps"_L1));
    s.candidateGflops = number(roof.value("candidate_gflops"_L1));
    s.arithmeticIntensity = number(roof.value("arithmetic_intensity"_L1));
    s.flops = number(roof.value("flops"_L1));
    s.bytes = number(roof.value("bytes"_L1));
    return s;
}

TraceSide traceSideOf(const QJsonObject &side)
{
    TraceSide s;
    s.kernelTimeMs = number(side.value("kernel_time_ms"_L1));
    s.launchesPerRun = number(side.value("launches_per_run"_L1));
    s.runs = number(side.value("runs"_L1));
    s.eventTimeMs = number(side.value("event_time_ms"_L1));
    s.lateWork = side.value("late_work"_L1).toBool();
    s.maxLateUs = number(side.value("max_late_us"_L1));
    s.sideStreamWork = side.value("side_stream_work"_L1).toBool();
    for (const auto &e : side.value("side_streams"_L1).toArray())
        s.sideStreams << qint64(e.toDouble());
    for (const auto &e : side.value("kernels"_L1).toArray()) {
        const QJsonObject k = e.toObject();
        TraceKernel t;
        t.name = k.value("name"_L1).toString();
        t.count = qint64(k.value("count"_L1).toDouble());
        t.perRun = number(k.value("per_run"_L1));
        t.totalUs = number(k.value("total_us"_L1));
        const QJsonValue duration = k.value("duration_us"_L1);
        t.meanUs = duration.isObject() ? number(duration.toObject().value("mean"_L1)) : number(duration);
        if (!t.meanUs && t.totalUs && t.count > 0)
            t.meanUs = *t.totalUs / double(t.count);
        if (duration.isObject())
            t.medianUs = number(duration.toObject().value("median"_L1));
        const QJsonObject launch = k.value("launch"_L1).toObject();
        t.grid = ints(launch.value("grid"_L1));
        t.block = ints(launch.value("block"_L1));
        t.registers = integer(launch.value("registers"_L1));
        if (launch.value("static_smem"_L1).isDouble())
            t.staticSmem = launch.value("static_smem"_L1).toDouble();
        if (launch.value("dynamic_smem"_L1).isDouble())
            t.dynamicSmem = launch.value("dynamic_smem"_L1).toDouble();
        t.theoreticalOccupancyPct = number(k.value("theoretical_occupancy"_L1).toObject().value("pct"_L1));
        s.kernels << t;
    }
    return s;
}

TraceSummary traceOf(const QJsonObject &trace)
{
    TraceSummary s;
    s.present = !trace.isEmpty();
    if (saysUnavailable(trace)) {
        s.unavailable = true;
        s.problem = diagnosis(trace.value("problem"_L1).toObject());
        return s;
    }
    const QJsonObject candidate = trace.value("candidate"_L1).toObject();
    s.candidate = traceSideOf(candidate.isEmpty() ? trace : candidate);
    s.reference = traceSideOf(trace.value("reference"_L1).toObject());
    return s;
}

MetricsSummary metricsOf(const QJsonValue &value)
{
    MetricsSummary s;
    s.present = !value.isUndefined();
    QJsonObject m = value.toObject().value("candidate"_L1).toObject();
    if (m.isEmpty() && value.isObject()
        && (value.toObject().contains("kernels"_L1) || value.toObject().contains("available"_L1)))
        m = value.toObject();
    s.hasCandidate = !m.isEmpty();
    if (saysUnavailable(m)) {
        s.unavailable = true;
        s.problem = diagnosis(m.value("problem"_L1).toObject());
        return s;
    }
    s.totalDramBytes = number(m.value("total_dram_bytes"_L1));
    s.totalTimeNs = number(m.value("total_time_ns"_L1));
    for (const auto &e : m.value("kernels"_L1).toArray()) {
        const QJsonObject k = e.toObject();
        MetricsKernel mk;
        mk.name = k.value("name"_L1).toString();
        mk.timeNs = number(k.value("time_ns"_L1));
        mk.dramBytes = number(k.value("dram_bytes"_L1));
        mk.flopsFp32 = number(k.value("flops_fp32"_L1));
        mk.achievedGflops = number(k.value("achieved_gflops"_L1));
        mk.achievedOccupancyPct = number(k.value("achieved_occupancy_pct"_L1));
        mk.smThroughputPct = number(k.value("sm_throughput_pct"_L1));
        mk.dramThroughputPct = number(k.value("dram_throughput_pct"_L1));
        mk.l2HitRatePct = number(k.value("l2_hit_rate_pct"_L1));
        mk.registers = integer(k.value("launch"_L1).toObject().value("registers"_L1));
        s.kernels << mk;
    }
    return s;
}

} // namespace

std::optional<qint64> CompileSummary::spillBytes() const
{
    if (resources.isEmpty())
        return std::nullopt;
    qint64 spills = 0;
    for (const KernelResources &r : resources)
        spills += r.spillStoreBytes + r.spillLoadBytes;
    return spills;
}

std::optional<qint64> TraceKernel::sharedBytes() const
{
    if (!staticSmem && !dynamicSmem)
        return std::nullopt;
    return qint64(staticSmem.value_or(0) + dynamicSmem.value_or(0));
}

std::optional<double> TraceKernel::msPerRun(std::optional<double> runs) const
{
    // The total over the timed runs is exact; launches per run times the mean duration is the fallback.
    if (totalUs && runs && *runs > 0)
        return *totalUs / *runs / 1000.0;
    if (perRun && meanUs)
        return *perRun * *meanUs / 1000.0;
    return std::nullopt;
}

int CompileSummary::maxRegisters() const
{
    int regs = 0;
    for (const KernelResources &r : resources)
        regs = std::max(regs, r.registers);
    return regs;
}

CompileSummary CompileSummary::fromJson(const QJsonObject &o)
{
    CompileSummary c;
    c.present = true;
    c.raw = o;
    c.ok = o.value("ok"_L1).toBool();
    c.cacheHit = o.value("cache_hit"_L1).toBool();
    c.resources = KernelResources::listFromJson(o.value("resources"_L1).toArray());
    c.diagnostics = Diagnostic::listFromJson(o.value("diagnostics"_L1).toArray());
    c.log = o.value("log"_L1).toString();
    c.command = o.value("command"_L1).toString();
    c.nvccVersion = o.value("nvcc_version"_L1).toString();
    c.arch = o.value("arch"_L1).toString();
    c.elapsedMs = json::number(o, "elapsed_ms"_L1);
    return c;
}

QJsonObject CompileSummary::toJson() const
{
    QJsonObject o = raw;
    o.insert(u"ok"_s, ok);
    o.insert(u"cache_hit"_s, cacheHit);
    o.insert(u"resources"_s, KernelResources::listToJson(resources));
    o.insert(u"diagnostics"_s, Diagnostic::listToJson(diagnostics));
    o.insert(u"log"_s, log);
    o.insert(u"command"_s, command);
    o.insert(u"nvcc_version"_s, nvccVersion);
    o.insert(u"arch"_s, arch);
    o.insert(u"elapsed_ms"_s, elapsedMs);
    return o;
}

Measurement::Measurement(const EvalResult &r, const CompileSummary &compiled)
    : EvalResult(r)
    , compile(compiled)
{
    compile.present = compile.present || !compiled.raw.isEmpty();
    parseViews(typedJson());
}

namespace {
std::atomic<qint64> g_measurementParses{0};
} // namespace

Measurement Measurement::fromJson(const QJsonObject &o)
{
    g_measurementParses.fetch_add(1, std::memory_order_relaxed);
    return parse(o);
}

qint64 Measurement::parseCount()
{
    return g_measurementParses.load(std::memory_order_relaxed);
}

Measurement Measurement::parse(const QJsonObject &o)
{
    Measurement m;
    static_cast<EvalResult &>(m) = EvalResult::fromJson(o);
    // The compile object is the client's, not the worker's: typed here, not left among the unknown fields.
    if (const QJsonValue c = m.extra.take(u"compile"_s); c.isObject())
        m.compile = CompileSummary::fromJson(c.toObject());
    m.m_source = o;
    m.m_storedVerdict = o.value("verdict"_L1).toString();
    m.parseViews(o);
    return m;
}

QString Measurement::verdictName() const
{
    if (!m_source.isEmpty() && verdict == Verdict::Error && !verdictFromString(m_storedVerdict))
        return m_storedVerdict;
    return verdictToString(verdict);
}

void Measurement::parseViews(const QJsonObject &o)
{
    rooflineSummary = rooflineOf(roofline);
    traceSummary = traceOf(trace);
    metricsSummary = metricsOf(o.value("metrics"_L1));
    speedOfLight = SpeedOfLight::fromResult(o);
    sourceProfile = SourceProfile::fromResult(o);
    seed.reset();
    if (const QJsonValue v = o.value("seed"_L1); v.isDouble() && v.toInteger(-1) >= 0)
        seed = v.toInteger(); // exact up to 2^63 - 1: QJsonValue keeps integers as qint64
}

QJsonObject Measurement::typedJson() const
{
    QJsonObject o = EvalResult::toJson();
    if (compile.present)
        o.insert(u"compile"_s, compile.toJson());
    return o;
}

QJsonObject Measurement::toJson() const
{
    const QJsonObject typed = typedJson();
    if (m_source.isEmpty())
        return typed;
    // What the typed fields write for the document as it was read: a key whose typed form is unchanged keeps
    // the document's own form (an absent default stays absent, an integer stays an integer, null stays null).
    const QJsonObject asRead = parse(m_source).typedJson();
    QJsonObject out = m_source;
    for (auto it = typed.begin(); it != typed.end(); ++it)
        if (asRead.value(it.key()) != it.value())
            out.insert(it.key(), it.value());
    for (auto it = asRead.begin(); it != asRead.end(); ++it)
        if (!typed.contains(it.key()))
            out.remove(it.key());
    return out;
}

} // namespace kforge
