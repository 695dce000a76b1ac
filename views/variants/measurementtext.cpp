#include "views/variants/measurementtext.h"

#include "core/eval/evalresult.h"

using namespace Qt::StringLiterals;

namespace kforge {

QString MeasurementText::verdict(const QString &wire)
{
    if (const std::optional<Verdict> v = verdictFromString(wire))
        return verdictDisplayName(*v);
    return wire;
}

QString MeasurementText::bound(const QString &wire)
{
    // core/runtime/profiler/roofline.cpp boundName().
    if (wire == "memory"_L1)
        return tr("memory");
    if (wire == "compute"_L1)
        return tr("compute");
    if (wire == "latency"_L1)
        return tr("latency");
    if (wire == "unknown"_L1)
        return tr("unknown");
    return wire;
}

QString MeasurementText::boundPhrase(const QString &wire)
{
    if (wire == "memory"_L1)
        return tr("memory-bound");
    if (wire == "compute"_L1)
        return tr("compute-bound");
    if (wire == "latency"_L1)
        return tr("latency-bound");
    if (wire.isEmpty() || wire == "unknown"_L1)
        return tr("of unknown bound");
    return tr("%1-bound").arg(wire);
}

QString MeasurementText::flag(const QString &wire)
{
    // core/runtime/worker/judge.cpp, core/runtime/profiler/traceaggregator.cpp, ScriptedEvaluator.
    if (wire == "degenerate_output"_L1)
        return tr("degenerate");
    if (wire == "below_speed_of_light"_L1)
        return tr("below speed of light");
    if (wire == "beats_flop_floor"_L1)
        return tr("beats FLOP floor");
    if (wire == "side_stream_work"_L1)
        return tr("side-stream work");
    if (wire == "late_work"_L1)
        return tr("late work");
    if (wire == "device_state_changed"_L1)
        return tr("device settings changed");
    if (wire == "gpu_contention"_L1)
        return tr("GPU contention");
    if (wire == "profile_refused"_L1)
        return tr("profile refused");
    if (wire == "unstable_timing"_L1)
        return tr("unstable timing");
    if (wire == "reference_mutates_inputs"_L1)
        return tr("reference mutates its inputs");
    if (wire == "scripted"_L1)
        return tr("scripted");
    if (wire == "deep_checked"_L1)
        return tr("passed the deep check");
    if (wire == "held_for_review"_L1)
        return tr("held for review");
    return wire;
}

QStringList MeasurementText::verdicts()
{
    QStringList out;
    for (Verdict v : {Verdict::Correct, Verdict::Incorrect, Verdict::Crashed, Verdict::CudaError, Verdict::Timeout,
                      Verdict::LoadError, Verdict::CompileError, Verdict::Error})
        out << verdictToString(v);
    return out;
}

QStringList MeasurementText::bounds()
{
    return {u"memory"_s, u"compute"_s, u"latency"_s, u"unknown"_s};
}

QStringList MeasurementText::flags()
{
    return {u"degenerate_output"_s, u"below_speed_of_light"_s, u"beats_flop_floor"_s,         u"side_stream_work"_s,
            u"late_work"_s,         u"unstable_timing"_s,      u"reference_mutates_inputs"_s, u"scripted"_s};
}

} // namespace kforge
