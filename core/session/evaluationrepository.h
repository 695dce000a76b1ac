#pragma once
// The session's evaluations: storing one (which becomes its variant's latest and may mark the variant
// suspicious), reading one in full or a variant's list of summaries, and the rule that makes a result suspicious.
// Keeps the typed evaluations it stored or read (KeptEvaluations), so an evaluation is parsed at most once while
// kept. Each one stored is announced by the store's evaluationAdded().
#include "core/session/evaluation.h"
#include "core/session/keptevaluations.h"
#include "core/session/sessionrepository.h"

#include <QList>
#include <QString>
#include <optional>

namespace kforge {

class EvaluationRepository : public SessionRepository
{
public:
    static constexpr double kDefaultSuspiciousSpeedup = 10.0;

    using SessionRepository::SessionRepository;

    // Stores an evaluation and makes it the variant's latest; marks the variant suspicious (or clears the mark)
    // by suspicionReason(). Returns its id, 0 on error. The file gets its document (`e.result`); the repository
    // keeps `e` itself, with the Measurement it was built from (Evaluation::fromMeasurement), for find().
    qint64 add(const Evaluation &e);
    // One evaluation in full. What was added or read in this session comes from memory (the last
    // KeptEvaluations::kDefaultCapacity), its Measurement and figures shared; anything else is read from the file
    // and parsed once (Measurement::fromJson), then kept: an evaluation is parsed at most once while it is kept.
    std::optional<Evaluation> find(qint64 evaluationId) const;
    std::optional<Evaluation> latest(qint64 variantId) const;
    QList<EvaluationSummary> ofVariant(qint64 variantId) const;
    int count() const;

    // A result faster than this many times the reference, on a task not flagged degenerate, is suspicious: the
    // evaluation queue checks it deeper and holds it for review unless it passes (flag deep_checked).
    void setSuspiciousSpeedup(double factor) { m_suspiciousSpeedup = factor; }
    double suspiciousSpeedup() const { return m_suspiciousSpeedup; }
    // Why a result must be checked deeper (or reviewed) before it is trusted, or empty (also for deep_checked).
    QString suspicionReason(const EvaluationSummary &e) const;

private:
    friend class SessionStore; // forgets the kept evaluations when a session opens or closes

    double m_suspiciousSpeedup = kDefaultSuspiciousSpeedup;
    mutable KeptEvaluations m_kept; // find(): the typed evaluations of this session, by id
};

} // namespace kforge
