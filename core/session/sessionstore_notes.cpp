// SessionStore: pair analyses, session notes and meta values; the class's other parts are in sessionstore*.cpp.
#include "core/session/sessionrows.h"
#include "core/session/sessionstore.h"

#include <QSqlQuery>

namespace kforge {

using namespace sessionrows;

qint64 SessionStore::addPairAnalysis(const PairAnalysis &a)
{
    if (!isOpen())
        return failId(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO pair_analyses (variant_a, variant_b, question, answer, response_id, created) "
                             "VALUES (?, ?, ?, ?, ?, ?)"));
    q.addBindValue(a.variantA);
    q.addBindValue(a.variantB);
    q.addBindValue(text(a.question));
    q.addBindValue(text(a.answer));
    q.addBindValue(idOrNull(a.responseId));
    q.addBindValue(stamp(a.created));
    if (!q.exec())
        return sqlFailId(q);
    const qint64 id = q.lastInsertId().toLongLong();
    Q_EMIT pairAnalysisChanged(id);
    return id;
}

bool SessionStore::setPairAnswer(qint64 analysisId, const QString &answer, qint64 responseId)
{
    if (!isOpen())
        return fail(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE pair_analyses SET answer = ?, response_id = ? WHERE id = ?"));
    q.addBindValue(text(answer));
    q.addBindValue(idOrNull(responseId));
    q.addBindValue(analysisId);
    if (!q.exec())
        return sqlFail(q);
    Q_EMIT pairAnalysisChanged(analysisId);
    return true;
}

QList<PairAnalysis> SessionStore::pairAnalyses(qint64 variantA, qint64 variantB) const
{
    const QString sql = QStringLiteral("SELECT id, variant_a, variant_b, question, answer, response_id, created "
                                       "FROM pair_analyses WHERE (? = 0 OR variant_a = ?) AND (? = 0 OR variant_b = ?) "
                                       "ORDER BY id");
    return selectRows(m_connection, sql, {variantA, variantA, variantB, variantB}, [](const QSqlQuery &q) {
        return PairAnalysis{q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong(),
                            q.value(3).toString(),   q.value(4).toString(),   q.value(5).toLongLong(),
                            parseStamp(q.value(6))};
    });
}

qint64 SessionStore::addNote(const SessionNote &n)
{
    if (!isOpen())
        return failId(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO notes (variant_id, round_id, text, created) VALUES (?, ?, ?, ?)"));
    q.addBindValue(idOrNull(n.variantId));
    q.addBindValue(idOrNull(n.roundId));
    q.addBindValue(text(n.text));
    q.addBindValue(stamp(n.created));
    if (!q.exec())
        return sqlFailId(q);
    Q_EMIT notesChanged();
    return q.lastInsertId().toLongLong();
}

bool SessionStore::removeNote(qint64 noteId)
{
    if (!isOpen())
        return fail(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("DELETE FROM notes WHERE id = ?"));
    q.addBindValue(noteId);
    if (!q.exec())
        return sqlFail(q);
    Q_EMIT notesChanged();
    return true;
}

QList<SessionNote> SessionStore::notes() const
{
    const QString sql = QStringLiteral("SELECT id, variant_id, round_id, text, created FROM notes ORDER BY id");
    return selectRows(m_connection, sql, {}, [](const QSqlQuery &q) {
        return SessionNote{q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong(),
                           q.value(3).toString(), parseStamp(q.value(4))};
    });
}

QString SessionStore::meta(const QString &key) const
{
    if (!isOpen())
        return {};
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT value FROM meta WHERE key = ?"));
    q.addBindValue(text(key));
    if (!q.exec() || !q.next())
        return {};
    return q.value(0).toString();
}

bool SessionStore::setMeta(const QString &key, const QString &value)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO meta (key, value) VALUES (?, ?) "
                             "ON CONFLICT(key) DO UPDATE SET value = excluded.value"));
    q.addBindValue(text(key));
    q.addBindValue(text(value));
    return q.exec() || sqlFail(q);
}

} // namespace kforge
