#include "core/export/reportinput.h"

#include "core/eval/deviceinfo.h"
#include "core/eval/measurementfigures.h"
#include "core/export/sessionexportsource.h"
#include "core/session/sessionstore.h"
#include "core/sourcelevel/sourceheat.h"
#include "core/version.h"

#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

const ReportVariant *ReportInput::find(qint64 id) const
{
    for (const auto &v : variants)
        if (v.id == id)
            return &v;
    return nullptr;
}

std::optional<ReportInput> ReportSource::build(const SessionStore &store, int top, QString *error)
{
    if (!store.isOpen() || !store.hasTask()) {
        if (error)
            *error = tr("the session has no task");
        return std::nullopt;
    }
    ReportInput r;
    const TaskRecord &task = store.task();
    r.sessionFile = QFileInfo(store.path()).fileName();
    r.taskName = task.name;
    r.taskTitle = task.json().value(u"title"_s).toString();
    r.taskDescription = task.description();
    r.taskDegenerate = task.isDegenerate();
    r.referenceSource = task.referenceSource;
    r.kforgeVersion = QStringLiteral(KFORGE_VERSION_STRING);
    r.generated = QDateTime::currentDateTimeUtc();

    QHash<qint64, int> roundNumber;
    for (const RoundRecord &rr : store.rounds().all()) {
        roundNumber.insert(rr.id, rr.number);
        ReportRound round;
        round.number = rr.number;
        round.state = toString(rr.state);
        round.started = rr.started;
        round.finished = rr.finished;
        round.usage = rr.usage;
        r.rounds << round;
    }
    r.usage = store.rounds().sessionUsage();

    for (const Variant &v : store.population().variants()) {
        ReportVariant rv;
        rv.id = v.id;
        rv.label = v.label;
        rv.origin = toString(v.origin);
        rv.round = roundNumber.value(v.roundId, 0);
        rv.verdict = v.hasEvaluation() ? v.eval.verdictName() : QString();
        rv.correct = v.isCorrect();
        rv.statusMessage = v.statusMessage;
        rv.speedup = v.eval.speedup;
        rv.suspicious = v.suspicious;
        rv.accepted = v.accepted;
        rv.suspiciousReason = v.suspiciousReason;
        rv.parentIds = v.parentIds;
        rv.created = v.created;
        r.variants << rv;
        for (ReportRound &round : r.rounds)
            if (round.number == rv.round && rv.round > 0) {
                ++round.variants;
                if (rv.isCorrect()) {
                    ++round.correct;
                    if (rv.speedup && (!round.bestSpeedup || *rv.speedup > *round.bestSpeedup))
                        round.bestSpeedup = rv.speedup;
                }
            }
    }

    QList<const ReportVariant *> ranked;
    for (const auto &v : r.variants)
        if (v.isCorrect() && !v.isReference() && v.speedup)
            ranked << &v;
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto *a, const auto *b) { return *a->speedup > *b->speedup; });
    for (const ReportVariant *v : ranked.mid(0, std::max(0, top))) {
        ReportDetail d;
        d.variant = *v;
        const VariantTexts texts = store.variants().texts(v->id);
        d.source = texts.source;
        d.analysis = texts.analysis;
        d.design = texts.design;
        const Variant *sv = store.population().find(v->id);
        if (sv && sv->responseId > 0)
            if (const auto response = store.exchanges().response(sv->responseId))
                d.model = response->model;
        if (const auto eval = store.evaluations().latest(v->id)) {
            const MeasurementFigures &figures = eval->figures();
            d.referenceMs = figures.referenceMs;
            d.candidateMs = figures.medianMs;
            d.candidateCv = figures.cv;
            d.candidateKernelMs = figures.kernelTimeMs;
            d.speedOfLight = figures.speedOfLight;
            d.speedOfLightPct = d.speedOfLight.percent();
            d.profile = figures.profileLines();
            d.hotLines = SourceHeat::promptLines(eval->measurement().sourceProfile, d.source);
            d.flags = figures.flags;
            d.nvccVersion = eval->nvccVersion;
            d.nvccFlags = eval->compileFlags;
            d.evaluated = eval->summary.created;
            if (r.gpu.isEmpty())
                r.gpu = DeviceInfo::fromJson(eval->device).name;
        }
        QSet<qint64> seen;
        for (const ReportVariant *s = v; s && !seen.contains(s->id);
             s = s->parentIds.isEmpty() ? nullptr : r.find(s->parentIds.front())) {
            seen.insert(s->id);
            d.lineage.prepend(s->id);
        }
        r.best << d;
    }
    if (r.gpu.isEmpty())
        for (auto it = r.variants.crbegin(); it != r.variants.crend() && r.gpu.isEmpty(); ++it)
            if (!it->verdict.isEmpty())
                if (const auto eval = store.evaluations().latest(it->id))
                    r.gpu = DeviceInfo::fromJson(eval->device).name;
    return r;
}

} // namespace kforge
