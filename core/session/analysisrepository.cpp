// AnalysisRepository: pair analyses and session notes.
#include "core/session/analysisrepository.h"
#include "core/session/sessionrows.h"
#include "core/session/sessionstore.h"

#include <QSqlQuery>

namespace kforge {

using namespace sessionrows;

qint64 AnalysisRepository::addPairAnalysis(const PairAnalysis &a)
{
    const auto q = m_store.write(QStringLiteral("INSERT INTO pair_analyses (variant_a, variant_b, question, answer, "
                                                "response_id, created) VALUES (?, ?, ?, ?, ?, ?)"),
                                 {a.variantA, a.variantB, text(a.question), text(a.answer), idOrNull(a.responseId),
                                  stamp(a.created)});
    if (!q)
        return 0;
    const qint64 id = q->lastInsertId().toLongLong();
    Q_EMIT m_store.pairAnalysisChanged(id);
    return id;
}

bool AnalysisRepository::setPairAnswer(qint64 analysisId, const QString &answer, qint64 responseId)
{
    if (!m_store.write(QStringLiteral("UPDATE pair_analyses SET answer = ?, response_id = ? WHERE id = ?"),
                       {text(answer), idOrNull(responseId), analysisId}))
        return false;
    Q_EMIT m_store.pairAnalysisChanged(analysisId);
    return true;
}

QList<PairAnalysis> AnalysisRepository::pairAnalyses(qint64 variantA, qint64 variantB) const
{
    const QString sql = QStringLiteral("SELECT id, variant_a, variant_b, question, answer, response_id, created "
                                       "FROM pair_analyses WHERE (? = 0 OR variant_a = ?) AND (? = 0 OR variant_b = ?) "
                                       "ORDER BY id");
    return selectRows(m_store.m_connection, sql, {variantA, variantA, variantB, variantB}, [](const QSqlQuery &q) {
        return PairAnalysis{q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong(),
                            q.value(3).toString(),   q.value(4).toString(),   q.value(5).toLongLong(),
                            parseStamp(q.value(6))};
    });
}

qint64 AnalysisRepository::addNote(const SessionNote &n)
{
    const auto q = m_store.write(QStringLiteral("INSERT INTO notes (variant_id, round_id, text, created) VALUES (?, ?, ?, ?)"),
                                 {idOrNull(n.variantId), idOrNull(n.roundId), text(n.text), stamp(n.created)});
    if (!q)
        return 0;
    Q_EMIT m_store.notesChanged();
    return q->lastInsertId().toLongLong();
}

bool AnalysisRepository::removeNote(qint64 noteId)
{
    if (!m_store.write(QStringLiteral("DELETE FROM notes WHERE id = ?"), {noteId}))
        return false;
    Q_EMIT m_store.notesChanged();
    return true;
}

QList<SessionNote> AnalysisRepository::notes() const
{
    const QString sql = QStringLiteral("SELECT id, variant_id, round_id, text, created FROM notes ORDER BY id");
    return selectRows(m_store.m_connection, sql, {}, [](const QSqlQuery &q) {
        return SessionNote{q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong(),
                           q.value(3).toString(), parseStamp(q.value(4))};
    });
}

} // namespace kforge
