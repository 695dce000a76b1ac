// ExchangeRepository: the prompts and responses of the session's exchanges with the model.
#include "core/session/exchangerepository.h"
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

qint64 ExchangeRepository::addPrompt(const PromptRecord &p)
{
    if (!m_store.isOpen())
        return m_store.failId(SessionStore::tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_store.m_connection, false));
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
        return m_store.sqlFailId(q);
    const qint64 id = q.lastInsertId().toLongLong();
    Q_EMIT m_store.promptAdded(id);
    return id;
}

std::optional<PromptRecord> ExchangeRepository::prompt(qint64 promptId) const
{
    const QString sql = QStringLiteral("SELECT %1 FROM prompts WHERE id = ?").arg(QLatin1String(kPromptColumns));
    return selectRow(m_store.m_connection, sql, {promptId}, promptOf);
}

QList<PromptRecord> ExchangeRepository::prompts(qint64 roundId) const
{
    const QString sql =
        QStringLiteral("SELECT %1 FROM prompts WHERE round_id = ? ORDER BY id").arg(QLatin1String(kPromptColumns));
    return selectRows(m_store.m_connection, sql, {roundId}, promptOf);
}

qint64 ExchangeRepository::addResponse(const ResponseRecord &r)
{
    if (!m_store.isOpen())
        return m_store.failId(SessionStore::tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_store.m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO responses (prompt_id, raw_text, reasoning_text, parse_status, parse_message, "
                             "prompt_tokens, completion_tokens, reasoning_tokens, cost, endpoint, model, finish_status, "
                             "error, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(r.promptId);
    bindResponseFields(q, r);
    q.addBindValue(stamp(r.created));
    if (!q.exec())
        return m_store.sqlFailId(q);
    const qint64 id = q.lastInsertId().toLongLong();
    Q_EMIT m_store.responseChanged(id);
    return id;
}

bool ExchangeRepository::updateResponse(const ResponseRecord &r)
{
    if (!m_store.isOpen())
        return m_store.fail(SessionStore::tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_store.m_connection, false));
    q.prepare(QStringLiteral("UPDATE responses SET raw_text = ?, reasoning_text = ?, parse_status = ?, "
                             "parse_message = ?, prompt_tokens = ?, completion_tokens = ?, reasoning_tokens = ?, "
                             "cost = ?, endpoint = ?, model = ?, finish_status = ?, error = ? WHERE id = ?"));
    bindResponseFields(q, r);
    q.addBindValue(r.id);
    if (!q.exec())
        return m_store.sqlFail(q);
    if (q.numRowsAffected() != 1)
        return m_store.fail(SessionStore::tr("No response %1 in this session").arg(r.id));
    Q_EMIT m_store.responseChanged(r.id);
    return true;
}

std::optional<ResponseRecord> ExchangeRepository::response(qint64 responseId) const
{
    const QString sql = QStringLiteral("SELECT %1 FROM responses WHERE id = ?").arg(QLatin1String(kResponseColumns));
    return selectRow(m_store.m_connection, sql, {responseId}, responseOf);
}

QList<ResponseRecord> ExchangeRepository::responses(qint64 promptId) const
{
    const QString sql =
        QStringLiteral("SELECT %1 FROM responses WHERE prompt_id = ? ORDER BY id").arg(QLatin1String(kResponseColumns));
    return selectRows(m_store.m_connection, sql, {promptId}, responseOf);
}

} // namespace kforge
