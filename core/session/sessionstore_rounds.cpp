// SessionStore: prompts, responses and rounds; the class's other parts are in sessionstore*.cpp.
#include "core/session/sessionrows.h"
#include "core/session/sessionstore.h"

#include <QSqlQuery>

namespace kforge {

using namespace sessionrows;

namespace {

// A response's fields from raw_text to error, in the column order both its INSERT and its UPDATE name them.
void bindResponseFields(QSqlQuery &q, const ResponseRecord &r)
{
    q.addBindValue(text(r.rawText));
    q.addBindValue(text(r.reasoningText));
    q.addBindValue(text(r.parseStatus));
    q.addBindValue(text(r.parseMessage));
    q.addBindValue(r.promptTokens);
    q.addBindValue(r.completionTokens);
    q.addBindValue(r.reasoningTokens);
    q.addBindValue(r.cost);
    q.addBindValue(text(r.endpoint));
    q.addBindValue(text(r.model));
    q.addBindValue(text(r.finishStatus));
    q.addBindValue(text(r.error));
}

} // namespace

qint64 SessionStore::addPrompt(const PromptRecord &p)
{
    if (!isOpen())
        return failId(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO prompts (round_id, kind, template, rendered, exemplar_ids, hint, created) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(idOrNull(p.roundId));
    q.addBindValue(text(p.kind));
    q.addBindValue(text(p.templateName));
    q.addBindValue(text(p.rendered));
    q.addBindValue(jsonText(p.exemplarIds));
    q.addBindValue(text(p.hint));
    q.addBindValue(stamp(p.created));
    if (!q.exec())
        return sqlFailId(q);
    const qint64 id = q.lastInsertId().toLongLong();
    Q_EMIT promptAdded(id);
    return id;
}

std::optional<PromptRecord> SessionStore::prompt(qint64 promptId) const
{
    const QString sql = QStringLiteral("SELECT %1 FROM prompts WHERE id = ?").arg(QLatin1String(kPromptColumns));
    return selectRow(m_connection, sql, {promptId}, promptOf);
}

QList<PromptRecord> SessionStore::prompts(qint64 roundId) const
{
    const QString sql =
        QStringLiteral("SELECT %1 FROM prompts WHERE round_id = ? ORDER BY id").arg(QLatin1String(kPromptColumns));
    return selectRows(m_connection, sql, {roundId}, promptOf);
}

qint64 SessionStore::addResponse(const ResponseRecord &r)
{
    if (!isOpen())
        return failId(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO responses (prompt_id, raw_text, reasoning_text, parse_status, parse_message, "
                             "prompt_tokens, completion_tokens, reasoning_tokens, cost, endpoint, model, finish_status, "
                             "error, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(r.promptId);
    bindResponseFields(q, r);
    q.addBindValue(stamp(r.created));
    if (!q.exec())
        return sqlFailId(q);
    const qint64 id = q.lastInsertId().toLongLong();
    Q_EMIT responseChanged(id);
    return id;
}

bool SessionStore::updateResponse(const ResponseRecord &r)
{
    if (!isOpen())
        return fail(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE responses SET raw_text = ?, reasoning_text = ?, parse_status = ?, "
                             "parse_message = ?, prompt_tokens = ?, completion_tokens = ?, reasoning_tokens = ?, "
                             "cost = ?, endpoint = ?, model = ?, finish_status = ?, error = ? WHERE id = ?"));
    bindResponseFields(q, r);
    q.addBindValue(r.id);
    if (!q.exec())
        return sqlFail(q);
    if (q.numRowsAffected() != 1)
        return fail(tr("No response %1 in this session").arg(r.id));
    Q_EMIT responseChanged(r.id);
    return true;
}

std::optional<ResponseRecord> SessionStore::response(qint64 responseId) const
{
    const QString sql = QStringLiteral("SELECT %1 FROM responses WHERE id = ?").arg(QLatin1String(kResponseColumns));
    return selectRow(m_connection, sql, {responseId}, responseOf);
}

QList<ResponseRecord> SessionStore::responses(qint64 promptId) const
{
    const QString sql =
        QStringLiteral("SELECT %1 FROM responses WHERE prompt_id = ? ORDER BY id").arg(QLatin1String(kResponseColumns));
    return selectRows(m_connection, sql, {promptId}, responseOf);
}

// ---------------------------------------------------------------------------------------------- rounds

qint64 SessionStore::addRound(const QJsonObject &settings)
{
    if (!isOpen())
        return failId(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO rounds (number, settings_json, state, started) "
                             "VALUES ((SELECT COALESCE(MAX(number), 0) + 1 FROM rounds), ?, 'running', ?)"));
    q.addBindValue(jsonText(settings));
    q.addBindValue(now());
    if (!q.exec())
        return sqlFailId(q);
    const qint64 id = q.lastInsertId().toLongLong();
    Q_EMIT roundChanged(id);
    return id;
}

bool SessionStore::setRoundState(qint64 roundId, RoundState state, const QString &message)
{
    if (!isOpen())
        return fail(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE rounds SET state = ?, message = ?, finished = ? WHERE id = ?"));
    q.addBindValue(toString(state));
    q.addBindValue(text(message));
    q.addBindValue(isActive(state) ? QVariant(QMetaType::fromType<QString>()) : QVariant(now()));
    q.addBindValue(roundId);
    if (!q.exec())
        return sqlFail(q);
    if (q.numRowsAffected() != 1)
        return fail(tr("No round %1 in this session").arg(roundId));
    m_interrupted.removeAll(roundId);
    Q_EMIT roundChanged(roundId);
    return true;
}

bool SessionStore::addRoundUsage(qint64 roundId, const RoundUsage &u)
{
    if (!isOpen())
        return fail(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE rounds SET requests = requests + ?, prompt_tokens = prompt_tokens + ?, "
                             "completion_tokens = completion_tokens + ?, cost = cost + ? WHERE id = ?"));
    q.addBindValue(u.requests);
    q.addBindValue(u.promptTokens);
    q.addBindValue(u.completionTokens);
    q.addBindValue(u.cost);
    q.addBindValue(roundId);
    if (!q.exec())
        return sqlFail(q);
    Q_EMIT roundChanged(roundId);
    return true;
}

std::optional<RoundRecord> SessionStore::round(qint64 roundId) const
{
    const QString sql = QStringLiteral("SELECT %1 FROM rounds WHERE id = ?").arg(QLatin1String(kRoundColumns));
    return selectRow(m_connection, sql, {roundId}, roundOf);
}

QList<RoundRecord> SessionStore::rounds() const
{
    const QString sql = QStringLiteral("SELECT %1 FROM rounds ORDER BY id").arg(QLatin1String(kRoundColumns));
    return selectRows(m_connection, sql, {}, roundOf);
}

RoundUsage SessionStore::sessionUsage() const
{
    RoundUsage total;
    if (!isOpen())
        return total;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
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

QList<qint64> SessionStore::variantsOfRound(qint64 roundId) const
{
    QList<qint64> out;
    for (const auto &v : m_population.variants())
        if (v.roundId == roundId)
            out << v.id;
    return out;
}

} // namespace kforge
