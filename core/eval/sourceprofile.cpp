#include "core/eval/sourceprofile.h"

#include "core/eval/jsonfields.h"

#include <QCoreApplication>
#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace kforge {

qint64 SourceProfile::totalSamples(const QString &side) const
{
    qint64 n = 0;
    for (const Kernel &k : kernels) {
        if (k.side == side)
            n += k.samples;
    }
    return n;
}

bool SourceProfile::hasLines(const QString &side) const
{
    for (const Kernel &k : kernels) {
        if (k.side != side)
            continue;
        for (const Pc &pc : k.pcs) {
            if (pc.line > 0)
                return true;
        }
    }
    return false;
}

double SourceProfile::Pc::threadEfficiency() const
{
    if (executed <= 0 || threadsExecuted < 0)
        return -1;
    return double(threadsExecuted) / (32.0 * double(executed));
}

bool SourceProfile::hasExecutionCounts(const QString &side) const
{
    for (const Kernel &k : kernels) {
        if (k.side != side)
            continue;
        for (const Pc &pc : k.pcs) {
            if (pc.hasExecuted())
                return true;
        }
    }
    return false;
}

QString SourceProfile::executionCountsProblem() const
{
    if (status == Status::Absent || hasExecutionCounts())
        return {};
    // The worker's SASS metrics sentences come last in its reason, each starting with "SASS metrics".
    const qsizetype at = reason.indexOf("SASS metrics"_L1);
    const QString why = at >= 0 ? reason.mid(at) : QString();
    if (missing.contains(u"sass_metrics"_s) || !why.isEmpty())
        return QCoreApplication::translate("kforge::SourceProfile", "No instruction execution counts: %1")
            .arg(why.isEmpty() ? reason : why);
    if (sassRuns == 0)
        return QCoreApplication::translate("kforge::SourceProfile",
                                           "No instruction execution counts: the worker did not run CUPTI's SASS "
                                           "metrics (a worker from before they were added).");
    return QCoreApplication::translate("kforge::SourceProfile",
                                       "No instruction execution counts: the SASS metrics launch counted no "
                                       "instruction of the candidate's kernels.");
}

QString SourceProfile::problem() const
{
    switch (status) {
    case Status::Absent:
        return QCoreApplication::translate("kforge::SourceProfile",
                                           "No source-level profile: the evaluation ran without the PC-sampling pass. Use \"Profile "
                                           "source lines\" on the variant to run it.");
    case Status::Unavailable:
    case Status::Failed: {
        QString text = status == Status::Failed
                           ? QCoreApplication::translate("kforge::SourceProfile", "The PC-sampling pass failed.")
                           : QCoreApplication::translate("kforge::SourceProfile",
                                                         "The worker cannot sample this GPU's program counters.");
        if (!reason.isEmpty())
            text += u' ' + reason;
        if (missing.contains(u"counters_permission"_s) && !reason.contains(u"NVreg_RestrictProfilingToAdminUsers"_s))
            text += u' '
                    + QCoreApplication::translate(
                        "kforge::SourceProfile",
                        "GPU performance counters are restricted to administrators on the worker host: set the "
                        "nvidia module option NVreg_RestrictProfilingToAdminUsers=0 or run the worker as root.");
        if (missing.contains(u"line_info"_s))
            text += u' '
                    + QCoreApplication::translate("kforge::SourceProfile",
                                                  "The kernel was built without line information: compile with -lineinfo.");
        if (missing.contains(u"pc_sampling_unsupported"_s))
            text += u' '
                    + QCoreApplication::translate("kforge::SourceProfile",
                                                  "This GPU or driver does not support CUPTI PC sampling.");
        return text;
    }
    case Status::Ok: break;
    }
    if (totalSamples() == 0)
        return QCoreApplication::translate("kforge::SourceProfile",
                                           "The PC-sampling pass collected no samples of the candidate's kernels (the kernels may be too "
                                           "short): lower the sampling period or use a larger problem size.");
    if (!hasLines()) {
        // Samples, but no way to map them: the worker host lacks the toolkit's cuobjdump, or the cubins
        // could not be taken out of the library; the worker's reason names the tool and the search path.
        if (missing.contains(u"no_disassembler"_s) || missing.contains(u"cubin"_s))
            return QCoreApplication::translate("kforge::SourceProfile",
                                               "The samples cannot be mapped to source lines: the worker host has no "
                                               "cuobjdump to take the kernels' cubins out of the library. Install the "
                                               "CUDA toolkit's binary tools there, or put them on the worker's PATH "
                                               "(or CUDA_HOME).")
                   + (reason.isEmpty() ? QString() : u' ' + reason);
        return QCoreApplication::translate("kforge::SourceProfile",
                                           "The samples carry no source lines: the kernel was built without line information; compile "
                                           "with -lineinfo (KForge's default flags include it).");
    }
    return {};
}

SourceProfile SourceProfile::fromResult(const QJsonObject &evaluation)
{
    const QJsonValue v = evaluation.value("source_profile"_L1);
    return v.isObject() ? fromJson(v.toObject()) : SourceProfile{};
}

SourceProfile SourceProfile::fromJson(const QJsonObject &o)
{
    SourceProfile p;
    const QString status = o.value("status"_L1).toString();
    p.status = status == u"ok" ? Status::Ok : status == u"unavailable" ? Status::Unavailable : Status::Failed;
    p.reason = o.value("reason"_L1).toString();
    if (p.status == Status::Failed && p.reason.isEmpty() && status != u"failed")
        p.reason = QCoreApplication::translate("kforge::SourceProfile",
                                               "The worker sent an unknown source-profile status \"%1\".")
                       .arg(status);
    for (const QJsonValue &m : o.value("missing"_L1).toArray())
        p.missing.append(m.toString());
    p.costMs = json::number(o, "cost_ms"_L1);
    p.period = int(json::number(o, "period"_L1));
    p.sassRuns = int(json::number(o, "sass_runs"_L1));
    for (const QJsonValue &s : o.value("stall_reasons"_L1).toArray())
        p.stallReasons.append(s.toString());
    for (const QJsonValue &kv : o.value("kernels"_L1).toArray()) {
        const QJsonObject ko = kv.toObject();
        Kernel k;
        k.name = ko.value("name"_L1).toString();
        k.side = ko.value("side"_L1).toString(u"candidate"_s);
        k.samples = qint64(json::number(ko, "samples"_L1));
        k.dropped = qint64(json::number(ko, "dropped"_L1));
        qint64 sum = 0;
        for (const QJsonValue &pv : ko.value("pcs"_L1).toArray()) {
            const QJsonObject po = pv.toObject();
            Pc pc;
            pc.offset = qint64(json::number(po, "offset"_L1));
            pc.samples = qint64(json::number(po, "samples"_L1));
            const QJsonObject stalls = po.value("stalls"_L1).toObject();
            for (auto it = stalls.begin(); it != stalls.end(); ++it)
                pc.stalls.append({it.key(), qint64(it.value().toDouble())});
            pc.file = po.value("file"_L1).toString();
            pc.line = int(json::number(po, "line"_L1));
            if (po.contains("executed"_L1))
                pc.executed = qint64(json::number(po, "executed"_L1));
            if (po.contains("threads_executed"_L1))
                pc.threadsExecuted = qint64(json::number(po, "threads_executed"_L1));
            sum += pc.samples;
            k.pcs.append(std::move(pc));
        }
        if (!ko.contains("samples"_L1))
            k.samples = sum;
        p.kernels.append(std::move(k));
    }
    return p;
}

QJsonObject SourceProfile::toJson() const
{
    QJsonObject o{{u"status"_s, statusName(status)}};
    if (!reason.isEmpty())
        o.insert(u"reason"_s, reason);
    if (!missing.isEmpty())
        o.insert(u"missing"_s, QJsonArray::fromStringList(missing));
    o.insert(u"cost_ms"_s, json::toValue(costMs));
    o.insert(u"period"_s, period);
    if (sassRuns > 0)
        o.insert(u"sass_runs"_s, sassRuns);
    o.insert(u"stall_reasons"_s, QJsonArray::fromStringList(stallReasons));
    QJsonArray ks;
    for (const Kernel &k : kernels) {
        QJsonArray pcs;
        for (const Pc &pc : k.pcs) {
            QJsonObject stalls;
            for (const auto &[name, n] : pc.stalls)
                stalls.insert(name, double(n));
            QJsonObject po{{u"offset"_s, double(pc.offset)}, {u"samples"_s, double(pc.samples)}, {u"stalls"_s, stalls}};
            if (!pc.file.isEmpty())
                po.insert(u"file"_s, pc.file);
            if (pc.line > 0)
                po.insert(u"line"_s, pc.line);
            if (pc.executed >= 0)
                po.insert(u"executed"_s, double(pc.executed));
            if (pc.threadsExecuted >= 0)
                po.insert(u"threads_executed"_s, double(pc.threadsExecuted));
            pcs.append(po);
        }
        ks.append(QJsonObject{{u"name"_s, k.name},
                              {u"side"_s, k.side},
                              {u"samples"_s, double(k.samples)},
                              {u"dropped"_s, double(k.dropped)},
                              {u"pcs"_s, pcs}});
    }
    o.insert(u"kernels"_s, ks);
    return o;
}

QString SourceProfile::statusName(Status s)
{
    switch (s) {
    case Status::Ok: return u"ok"_s;
    case Status::Unavailable: return u"unavailable"_s;
    case Status::Failed: return u"failed"_s;
    case Status::Absent: break;
    }
    return u"absent"_s;
}

} // namespace kforge
