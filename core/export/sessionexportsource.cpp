#include "core/export/sessionexportsource.h"

#include "core/eval/deviceinfo.h"
#include "core/eval/finite.h"
#include "core/eval/measurement.h"
#include "core/session/sessionstore.h"
#include "core/task/task.h"
#include "core/version.h"

#include <QFileInfo>
#include <QSet>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

qint64 SessionExportSource::resolveVariant(const SessionStore &store, const QString &which, QString *error)
{
    const QString w = which.trimmed().toLower();
    if (w == u"best"_s) {
        // The fastest correct variant other than the reference; a suspicious one only once the user accepted it.
        const Variant *best = nullptr;
        QStringList held;
        for (const Variant &v : store.population().variants()) {
            if (v.origin == VariantOrigin::Reference || !v.isCorrect() || !v.eval.speedup)
                continue;
            if (v.suspicious && !v.accepted) {
                held << u"#%1 (%2x)"_s.arg(v.id).arg(*v.eval.speedup, 0, 'f', 1);
                continue;
            }
            if (!best || *v.eval.speedup > *best->eval.speedup)
                best = &v;
        }
        if (best)
            return best->id;
        if (error)
            *error = held.isEmpty()
                         ? tr("the session has no correct variant besides the reference")
                         : tr("every correct variant is marked suspicious and not yet accepted: %1; review and accept one, or "
                              "name it explicitly")
                               .arg(held.join(u", "_s));
        return 0;
    }
    bool ok = false;
    const qint64 id = w.startsWith(u'#') ? w.mid(1).toLongLong(&ok) : w.toLongLong(&ok);
    if (!ok || !store.population().contains(id)) {
        if (error)
            *error = ok ? tr("the session has no variant %1").arg(id)
                        : tr("'%1' is neither a variant id nor 'best'").arg(which);
        return 0;
    }
    return id;
}

std::optional<ExportInput> SessionExportSource::build(const SessionStore &store, qint64 variantId, QString *error)
{
    const auto fail = [&](const QString &message) {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (!store.isOpen() || !store.hasTask())
        return fail(tr("the session has no task"));
    const Variant *variant = store.population().find(variantId);
    if (!variant)
        return fail(tr("the session has no variant %1").arg(variantId));

    ExportInput in;
    const TaskRecord &task = store.task();
    if (task.isTorch()) {
        // A PyTorch task is read as the evaluation queue reads it: the common fields; its tensors stay in taskJson.
        QMap<QString, QByteArray> files = task.files;
        files.insert(u"task.json"_s, task.taskJson.toUtf8());
        files.insert(task.referenceFile, task.referenceSource.toUtf8());
        const TaskLoadResult loaded = Task::fromFiles(task.name, files);
        if (!loaded.ok())
            return fail(tr("the session's task.json does not parse: %1").arg(loaded.error.message()));
        in.task = loaded.task->spec();
    } else {
        const runtime::TaskSpecResult parsed = runtime::parseTaskSpecText(task.taskJson.toStdString(),
                                                                          task.name.toStdString() + "/task.json");
        if (!parsed.ok())
            return fail(
                tr("the session's task.json does not parse: %1").arg(QString::fromStdString(parsed.error.message())));
        in.task = *parsed.spec;
    }
    in.task.referenceSource = task.referenceSource.toStdString();
    in.taskJson = task.taskJson;
    in.taskKind = task.kind;
    in.referenceSource = task.referenceSource;
    in.variantSource = store.variants().source(variantId);
    in.variantId = variantId;
    in.variantLabel = variant->label;
    in.variantNvccFlags = variant->nvccFlags;
    in.kforgeVersion = QStringLiteral(KFORGE_VERSION_STRING);

    const std::optional<Evaluation> eval = store.evaluations().latest(variantId);
    if (!eval)
        return fail(tr("variant %1 has not been evaluated").arg(variantId));
    if (!eval->summary.isCorrect())
        return fail(tr("variant %1 is not correct (its latest evaluation says %2); only verified kernels are exported")
                        .arg(variantId)
                        .arg(eval->summary.verdictName()));

    // Lineage through the first parent, oldest first; a cycle in hand-edited data must not hang us.
    QSet<qint64> seen;
    for (const Variant *v = variant; v && !seen.contains(v->id);
         v = v->parentIds.isEmpty() ? nullptr : store.population().find(v->parentIds.front())) {
        seen.insert(v->id);
        ExportLineageStep step;
        step.variantId = v->id;
        step.label = v->label;
        step.origin = toString(v->origin);
        if (v->roundId > 0)
            if (const auto r = store.rounds().find(v->roundId))
                step.round = r->number;
        step.speedup = v->eval.speedup;
        in.lineage.prepend(step);
    }

    ExportProvenance &p = in.provenance;
    const DeviceInfo device = DeviceInfo::fromJson(eval->device);
    const Measurement &result = eval->measurement();
    p.gpuName = device.name.isEmpty() ? result.deviceName : device.name;
    p.ccMajor = device.ccMajor;
    p.ccMinor = device.ccMinor;
    p.arch = device.smArch();
    p.driverVersion = device.driverVersion;
    p.runtimeVersion = device.runtimeVersion;
    p.nvccVersion = eval->nvccVersion;
    p.nvccFlags = eval->compileFlags;
    p.referenceMedianMs = finiteOrNone(result.reference.medianMs);
    p.candidateMedianMs = finiteOrNone(result.candidate.medianMs);
    p.referenceCv = finiteOrNone(result.reference.cv);
    p.candidateCv = finiteOrNone(result.candidate.cv);
    p.candidateKernelMs = result.traceSummary.candidate.kernelTimeMs;
    p.speedup = finiteOrNone(result.speedup);
    p.timingRuns = result.candidate.runs;
    p.seed = result.seed;
    p.speedOfLight = result.speedOfLight;
    p.speedOfLightPct = p.speedOfLight.percent();
    p.flags = result.flags;
    if (variant->suspicious && !variant->accepted)
        p.suspiciousReason = variant->suspiciousReason.isEmpty() ? tr("marked for review") : variant->suspiciousReason;
    p.variantCreated = variant->created;
    p.evaluated = eval->summary.created;
    p.sessionFile = QFileInfo(store.path()).fileName();
    if (variant->responseId > 0)
        if (const auto response = store.exchanges().response(variant->responseId))
            p.model = response->model;
    return in;
}

} // namespace kforge
