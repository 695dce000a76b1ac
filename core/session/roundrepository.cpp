// RoundRepository: the session's rounds and what they spent.
#include "core/session/roundrepository.h"
#include "core/session/sessionrows.h"
#include "core/session/sessionstore.h"

#include <QSqlQuery>

namespace kforge {

using namespace sessionrows;

qint64 RoundRepository::add(const QJsonObject &settings)
{
    const auto q = m_store.write(QStringLiteral("INSERT INTO rounds (number, settings_json, state, started) VALUES "
                                                "((SELECT COALESCE(MAX(number), 0) + 1 FROM rounds), ?, 'running', ?)"),
                                 {jsonText(settings), now()});
    if (!q)
        return 0;
    const qint64 id = q->lastInsertId().toLongLong();
    Q_EMIT m_store.roundChanged(id);
    return id;
}

bool RoundRepository::setState(qint64 roundId, RoundState state, const QString &message)
{
    const auto q = m_store.write(QStringLiteral("UPDATE rounds SET state = ?, message = ?, finished = ? WHERE id = ?"),
                                 {toString(state), text(message),
                                  isActive(state) ? QVariant(QMetaType::fromType<QString>()) : QVariant(now()), roundId});
    if (!q)
        return false;
    if (q->numRowsAffected() != 1)
        return m_store.fail(SessionStore::tr("No round %1 in this session").arg(roundId));
    m_store.m_interrupted.removeAll(roundId);
    Q_EMIT m_store.roundChanged(roundId);
    return true;
}

bool RoundRepository::addUsage(qint64 roundId, const RoundUsage &u)
{
    if (!m_store.write(QStringLiteral("UPDATE rounds SET requests = requests + ?, prompt_tokens = prompt_tokens + ?, "
                                      "completion_tokens = completion_tokens + ?, cost = cost + ? WHERE id = ?"),
                       {u.requests, u.promptTokens, u.completionTokens, u.cost, roundId}))
        return false;
    Q_EMIT m_store.roundChanged(roundId);
    return true;
}

std::optional<RoundRecord> RoundRepository::find(qint64 roundId) const
{
    const QString sql = QStringLiteral("SELECT %1 FROM rounds WHERE id = ?").arg(QLatin1String(kRoundColumns));
    return selectRow(m_store.m_connection, sql, {roundId}, roundOf);
}

QList<RoundRecord> RoundRepository::all() const
{
    const QString sql = QStringLiteral("SELECT %1 FROM rounds ORDER BY id").arg(QLatin1String(kRoundColumns));
    return selectRows(m_store.m_connection, sql, {}, roundOf);
}

RoundUsage RoundRepository::sessionUsage() const
{
    RoundUsage total;
    if (!m_store.isOpen())
        return total;
    QSqlQuery q(QSqlDatabase::database(m_store.m_connection, false));
    if (q.exec(QStringLiteral("SELECT COALESCE(SUM(requests), 0), COALESCE(SUM(prompt_tokens), 0), "
                              "COALESCE(SUM(completion_tokens), 0), COALESCE(SUM(cost), 0) FROM rounds"))
        && q.next()) {
        total.requests = q.value(0).toInt();
        total.promptTokens = q.value(1).toLongLong();
        total.completionTokens = q.value(2).toLongLong();
        total.cost = q.value(3).toDouble();
    }
    return total;
}

} // namespace kforge
