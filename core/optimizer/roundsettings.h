#pragma once
// What one optimization round does and may spend; stored with the round (rounds.settings_json) so an
// interrupted round resumes with the settings it started with.
#include "core/eval/evaloptions.h"
#include "core/optimizer/exemplarsampler.h"
#include "core/session/roundrecord.h"

#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace kforge {

// Limits on requests, tokens and cost; 0 means no limit.
struct Budget {
    int maxRequests = 0;
    qint64 maxTokens = 0;
    double maxCost = 0;

    bool isUnlimited() const { return maxRequests <= 0 && maxTokens <= 0 && maxCost <= 0; }
    // Why `used` leaves no room for another request, or empty.
    QString exhaustedBy(const RoundUsage &used) const;

    QJsonObject toJson() const;
    static Budget fromJson(const QJsonObject &o);
};

// Whether each candidate gets its own exemplar draw (CUDA-L1 samples per generation) or the round renders one
// prompt for all. Auto: per candidate when the population has more usable exemplars than slots, so that the
// draws can differ.
enum class ExemplarMode { Auto, PerCandidate, PerRound };
QString toString(ExemplarMode m);
ExemplarMode exemplarModeFromString(const QString &s, bool *ok = nullptr);

struct RoundSettings {
    int candidates = 4;      // N: contrastive requests per round, sent concurrently
    int maxConcurrent = 0;   // requests in flight at once; 0: all N
    SamplerSettings sampler; // K = sampler.count exemplars (default 2)
    ExemplarMode exemplarMode = ExemplarMode::Auto;
    quint64 seed = 0;       // exemplar sampling; 0: derived from the round's id
    int repairAttempts = 1; // per candidate: how often a compile error or failed check is sent back
    Budget budget;          // this round
    QString hint;           // the user's guidance, rendered into the prompt
    QString templateName = QStringLiteral("contrastive");
    EvalOptions evalOptions;
    // A round's new best correct variant is measured once more with the source-level pass (PC sampling, about
    // a second) so its hottest lines reach the next prompt and the report; rounds themselves run without it.
    // Off by default for now: the re-measurement puts the variant back to "compiling" in the round's progress.
    bool profileNewBest = false;
    // Headless runs have nobody to review what the deep check could not clear; this accepts those held and correct,
    // of this round and of earlier ones (never a result under the speed-of-light floor).
    bool acceptSuspicious = false;
    // Informational, recorded with the round: where the answers came from.
    QString endpoint;
    QString model;

    // The mode a round with `usable` exemplar candidates (correct, measured, not excluded) runs in: never Auto.
    ExemplarMode effectiveExemplarMode(int usable) const;

    QJsonObject toJson() const;
    static RoundSettings fromJson(const QJsonObject &o);
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::RoundSettings)
