#pragma once
// One kernel variant of a session as the views and the optimizer see it: everything but the large texts
// (source, analysis, design), which VariantRepository::texts() loads on demand so a session opens quickly.
#include "core/session/evaluationsummary.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace kforge {

enum class VariantOrigin { Reference, Manual, Model, Imported };

// The life of a candidate: model output becomes `Generated`, then the pipeline advances it. `Done`: measured
// and correct. `Failed`: anything else, with the reason in statusMessage (compile error, wrong answer, crash,
// no worker...); the verdict itself lives in the evaluation.
enum class VariantStatus { Generated, Compiling, Verifying, Timing, Profiling, Done, Failed };

QString toString(VariantOrigin origin);
VariantOrigin variantOriginFromString(const QString &s, bool *ok = nullptr);
QString toString(VariantStatus status);
VariantStatus variantStatusFromString(const QString &s, bool *ok = nullptr);
// True while the pipeline still owns the variant (an interrupted round re-queues these).
bool isInFlight(VariantStatus status);

struct Variant {
    qint64 id = 0;
    VariantOrigin origin = VariantOrigin::Model;
    qint64 roundId = 0;    // 0: not made by a round
    qint64 promptId = 0;   // the prompt that produced it (model variants)
    qint64 responseId = 0; // the response it was parsed from
    QList<qint64> parentIds;
    QString label;
    QStringList tags;
    QString notes;
    QStringList nvccFlags; // extra flags for this variant, on top of the task's
    bool pinned = false;   // always shown as an exemplar
    bool excluded = false; // never shown as an exemplar
    bool accepted = false; // the user reviewed a suspicious result and accepts it
    bool suspicious = false;
    QString suspiciousReason;
    VariantStatus status = VariantStatus::Generated;
    QString statusMessage;
    QDateTime created;
    EvaluationSummary eval; // the latest evaluation; eval.id == 0 when there is none

    bool hasEvaluation() const { return eval.id != 0; }
    bool isCorrect() const { return hasEvaluation() && eval.isCorrect(); }
    // What the sampler may show the model: measured correct, not excluded, and reviewed if suspicious.
    bool usableAsExemplar() const { return isCorrect() && !excluded && (!suspicious || accepted); }
};

// The large texts of a variant.
struct VariantTexts {
    QString source;
    QString analysis;
    QString design;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::Variant)
Q_DECLARE_METATYPE(kforge::VariantTexts)
