#include "core/eval/speedoflight.h"
#include "core/eval/measureformat.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

std::optional<double> positive(const QJsonObject &o, const char *dottedPath)
{
    QJsonValue v(o);
    for (const QString &part : QString::fromLatin1(dottedPath).split(u'.')) {
        if (!v.isObject())
            return std::nullopt;
        v = v.toObject().value(part);
    }
    return v.isDouble() && std::isfinite(v.toDouble()) && v.toDouble() > 0 ? std::optional<double>(v.toDouble())
                                                                           : std::nullopt;
}

std::optional<double> pctOf(std::optional<double> floorMs, std::optional<double> timeMs)
{
    if (!floorMs || !timeMs || *timeMs <= 0 || *timeMs < SpeedOfLight::kTolerance * *floorMs)
        return std::nullopt;
    return std::min(100.0, 100.0 * *floorMs / *timeMs);
}

} // namespace

QString speedOfLightFigure(double pct)
{
    if (pct >= 99.95)
        return u"100"_s;
    if (pct >= 10)
        return QString::number(pct, 'f', 1);
    if (pct >= 1)
        return QString::number(pct, 'f', 2);
    return formatMeasure(pct);
}

QString speedOfLightReportText(const SpeedOfLight &s, std::optional<double> recordedPct, const QString &none)
{
    if (s.isKnown())
        return s.reportText();
    if (recordedPct && std::isfinite(*recordedPct))
        return u"%1% of the roofline bound"_s.arg(speedOfLightFigure(std::min(100.0, *recordedPct)));
    return none;
}

std::optional<double> SpeedOfLight::bytePct() const
{
    return pctOf(byteFloorMs, timeMs);
}

std::optional<double> SpeedOfLight::flopPct() const
{
    return pctOf(flopFloorMs, timeMs);
}

std::optional<double> SpeedOfLight::percent() const
{
    switch (state) {
    case State::WithinFloors:
        if (m_ratio)
            return std::min(100.0, 100.0 / *m_ratio);
        return pctOf(floorMs, timeMs);
    case State::BeatsFlopFloor: return bytePct();
    case State::BelowByteFloor:
    case State::Unknown: break;
    }
    return std::nullopt;
}

SpeedOfLight SpeedOfLight::compute(double flops, double bytes, double copyGbps, double fmaGflops, std::optional<double> timeMs)
{
    SpeedOfLight s;
    if (timeMs && *timeMs > 0 && std::isfinite(*timeMs))
        s.timeMs = timeMs;
    // GB/s = 1e6 byte/ms; GFLOP/s = 1e6 FLOP/ms.
    if (bytes > 0 && copyGbps > 0)
        s.byteFloorMs = bytes / (copyGbps * 1e6);
    if (flops > 0 && fmaGflops > 0)
        s.flopFloorMs = flops / (fmaGflops * 1e6);
    if (s.byteFloorMs || s.flopFloorMs)
        s.floorMs = std::max(s.byteFloorMs.value_or(0), s.flopFloorMs.value_or(0));
    if (!s.timeMs || !s.floorMs)
        return s;
    const double t = *s.timeMs;
    if (s.byteFloorMs && t < kTolerance * *s.byteFloorMs)
        s.state = State::BelowByteFloor;
    else if (s.flopFloorMs && t < kTolerance * *s.flopFloorMs)
        s.state = State::BeatsFlopFloor;
    else
        s.state = State::WithinFloors;
    return s;
}

SpeedOfLight SpeedOfLight::fromResult(const QJsonObject &r)
{
    const QJsonObject roof = r.value(u"roofline"_s).toObject();
    // The profiler's report: where the worker writes it, where early sessions had it, or the whole object.
    QJsonObject task = roof.value(u"profile"_s).toObject().value(u"candidate"_s).toObject().value(u"task"_s).toObject();
    if (task.isEmpty())
        task = roof.value(u"candidate"_s).toObject().value(u"task"_s).toObject();
    if (task.isEmpty())
        task = roof.value(u"task"_s).toObject();

    std::optional<double> time = positive(r, "timing.candidate.median_ms");
    if (!time)
        time = positive(task, "time_ms");

    SpeedOfLight s;
    // The worker's own inputs first: the floors follow from them by the one definition above.
    const auto flops = positive(roof, "flops"), bytes = positive(roof, "bytes");
    // The FLOP peak the worker used for the task's dtype; the FP32 FMA rate where the result predates it.
    // The bandwidth the worker's byte floor used (the read bandwidth for a read-mostly task); the copy bandwidth
    // where the result predates it.
    const auto copy = positive(roof, "peak_bytes_gbps") ? positive(roof, "peak_bytes_gbps")
                                                        : positive(roof, "peak_copy_gbps");
    const auto fma = positive(roof, "peak_flops_gflops") ? positive(roof, "peak_flops_gflops")
                                                         : positive(roof, "peak_fma_gflops");
    if ((flops && fma) || (bytes && copy))
        s = compute(flops.value_or(0), bytes.value_or(0), copy.value_or(0), fma.value_or(0), time);
    s.timeMs = time;
    s.flopsPeakKind = roof.value(u"flops_peak_kind"_s).toString(u"fp32_fma"_s);
    s.bytesPeakKind = roof.value(u"bytes_peak_kind"_s).toString(u"copy"_s);
    s.flopsPeakSource = roof.value(u"flops_peak_source"_s).toString(u"probe"_s);
    if (!s.byteFloorMs)
        s.byteFloorMs = positive(roof, "bytes_floor_ms");
    if (!s.byteFloorMs)
        s.byteFloorMs = positive(task, "memory_floor_ms");
    if (!s.flopFloorMs)
        s.flopFloorMs = positive(roof, "flops_floor_ms");
    if (!s.flopFloorMs)
        s.flopFloorMs = positive(task, "compute_floor_ms");
    // The task's floor as the worker wrote it, so the figure is the worker's own ratio.
    if (const auto f = positive(task, "floor_ms"))
        s.floorMs = f;
    else if (const auto f = positive(roof, "floor_ms"))
        s.floorMs = f;
    else if (s.byteFloorMs || s.flopFloorMs)
        s.floorMs = std::max(s.byteFloorMs.value_or(0), s.flopFloorMs.value_or(0));
    if (const auto over = positive(task, "time_over_floor"))
        s.m_ratio = over;
    else if (const auto frac = positive(roof, "fraction_of_floor"))
        s.m_ratio = 1.0 / *frac;
    else if (s.floorMs && s.timeMs)
        s.m_ratio = *s.timeMs / *s.floorMs;
    if (!s.timeMs && s.m_ratio && s.floorMs)
        s.timeMs = *s.m_ratio * *s.floorMs;

    s.state = State::Unknown;
    if (!s.m_ratio)
        return s;
    const double t = *s.m_ratio; // in units of the task's floor
    const auto under = [&](std::optional<double> floor) {
        return floor && s.floorMs && t * *s.floorMs < kTolerance * *floor;
    };
    if (s.byteFloorMs || s.flopFloorMs) {
        if (under(s.byteFloorMs))
            s.state = State::BelowByteFloor;
        else if (under(s.flopFloorMs))
            s.state = State::BeatsFlopFloor;
        else
            s.state = State::WithinFloors;
    } else if (t < kTolerance) {
        if (!s.floorMs)
            return s; // under a floor nobody named: nothing honest to say
        // Which floor it beats is not recorded; the worker flags only the byte floor.
        bool flagged = false;
        for (const auto &f : r.value(u"flags"_s).toArray())
            flagged = flagged || f.toString() == u"below_speed_of_light"_s;
        s.state = flagged ? State::BelowByteFloor : State::BeatsFlopFloor;
        (flagged ? s.byteFloorMs : s.flopFloorMs) = s.floorMs;
    } else {
        s.state = State::WithinFloors;
    }
    return s;
}

bool SpeedOfLight::fp32Peak() const
{
    return flopsPeakKind.isEmpty() || flopsPeakKind == u"fp32_fma"_s;
}

QString SpeedOfLight::bytesPeakWords() const
{
    if (bytesPeakKind == u"dram"_s)
        return u"the DRAM's peak bandwidth"_s;
    return bytesPeakKind == u"read"_s ? u"the measured read bandwidth"_s : u"the measured copy bandwidth"_s;
}

QString SpeedOfLight::flopsPeakWords() const
{
    if (fp32Peak())
        return u"the measured FP32 FMA peak"_s;
    return flopsPeakSource == u"spec"_s ? u"the %1 tensor cores' datasheet peak"_s.arg(flopsPeakKind)
                                        : u"the measured %1 tensor-core peak"_s.arg(flopsPeakKind);
}

QString SpeedOfLight::bytesPeakText() const
{
    if (bytesPeakKind == u"dram"_s)
        return tr("the DRAM's peak bandwidth");
    return bytesPeakKind == u"read"_s ? tr("the measured read bandwidth") : tr("the measured copy bandwidth");
}

QString SpeedOfLight::flopsPeakText() const
{
    if (fp32Peak())
        return tr("the measured FP32 FMA rate");
    return flopsPeakSource == u"spec"_s ? tr("the %1 tensor cores' datasheet peak").arg(flopsPeakKind)
                                        : tr("the measured %1 tensor-core peak").arg(flopsPeakKind);
}

QString SpeedOfLight::promptLine() const
{
    // Model input, not interface text: English like the templates around it.
    switch (state) {
    case State::Unknown: break;
    case State::WithinFloors: {
        QString line = u"%1% of speed of light"_s.arg(speedOfLightFigure(*percent()));
        if (floorMs)
            line += u" (the task's floor is %1)"_s.arg(formatDuration(*floorMs));
        return line;
    }
    case State::BeatsFlopFloor: {
        QString line = u"faster than the task's declared arithmetic allows: %1 is under the FLOP floor of %2 "
                       "(the task's flops at %3); either work is skipped or the task's `flops` counts avoidable "
                       "work, such as an algebraic rewrite"_s.arg(formatDuration(*timeMs), formatDuration(*flopFloorMs),
                                                                  flopsPeakWords());
        if (const auto pct = bytePct())
            line += u"; %1% of the byte floor (%2)"_s.arg(speedOfLightFigure(*pct), formatDuration(*byteFloorMs));
        return line;
    }
    case State::BelowByteFloor:
        return u"below the task's byte floor: %1 is under the %2 needed to move the task's bytes at %3, which is "
               "impossible: it cannot have done all the work the task describes"_s.arg(
                   formatDuration(*timeMs), formatDuration(*byteFloorMs), bytesPeakWords());
    }
    return {};
}

QString SpeedOfLight::reportText() const
{
    switch (state) {
    case State::Unknown: break;
    case State::WithinFloors: return u"%1% of the roofline bound"_s.arg(speedOfLightFigure(*percent()));
    case State::BeatsFlopFloor:
        return bytePct()
                   ? u"beats the task's FLOP floor (%1 < %2: work is skipped or the task's flops count "
                     "avoidable work); %3% of the byte floor"_s.arg(formatDuration(*timeMs), formatDuration(*flopFloorMs),
                                                                    speedOfLightFigure(*bytePct()))
                   : u"beats the task's FLOP floor (%1 < %2: work is skipped or the task's flops count "
                     "avoidable work)"_s.arg(formatDuration(*timeMs), formatDuration(*flopFloorMs));
    case State::BelowByteFloor:
        return u"below the byte floor (%1 < %2): impossible"_s.arg(formatDuration(*timeMs), formatDuration(*byteFloorMs));
    }
    return {};
}

QString SpeedOfLight::cellText() const
{
    switch (state) {
    case State::Unknown: break;
    case State::WithinFloors: return tr("%1%").arg(speedOfLightFigure(*percent()));
    case State::BeatsFlopFloor: return tr("beats FLOP floor");
    case State::BelowByteFloor: return tr("impossible");
    }
    return {};
}

QString SpeedOfLight::explanation() const
{
    QStringList parts;
    switch (state) {
    case State::Unknown:
        return tr("No speed of light: the task has no FLOP or byte formula, or the device's peaks were not measured");
    case State::WithinFloors:
        parts << (floorMs ? tr("%1% of the task's speed-of-light floor (%2)")
                                .arg(speedOfLightFigure(*percent()), formatDuration(*floorMs))
                          : tr("%1% of the task's speed-of-light floor").arg(speedOfLightFigure(*percent())));
        break;
    case State::BeatsFlopFloor:
        parts << tr("Faster than the task's declared arithmetic allows: %1 is under the FLOP floor of %2. Either "
                    "work is skipped or the task's flops formula counts avoidable work, such as an algebraic rewrite.")
                     .arg(formatDuration(*timeMs), formatDuration(*flopFloorMs));
        if (fp32Peak())
            parts << tr("Tensor cores can beat this floor too: it is set by the FP32 FMA rate.");
        break;
    case State::BelowByteFloor:
        parts << tr("Impossible: %1 is under the %2 needed to move the task's bytes at %3; the variant cannot "
                    "have done all the work the task describes.")
                     .arg(formatDuration(*timeMs), formatDuration(*byteFloorMs), bytesPeakText());
        break;
    }
    if (byteFloorMs)
        parts << tr("Byte floor %1 (the task's bytes at %2)").arg(formatDuration(*byteFloorMs), bytesPeakText());
    if (flopFloorMs)
        parts << tr("FLOP floor %1 (the task's FLOPs at %2)").arg(formatDuration(*flopFloorMs), flopsPeakText());
    return parts.join(u'\n');
}

} // namespace kforge
