// ExchangeRepository: the prompts and responses of the session's exchanges with the model.
#include "core/session/exchangerepository.h"
#include "core/session/sessionrows.h"
#include "core/session/sessionstore.h"

#include <QSqlQuery>

namespace kforge {

using namespace sessionrows;

namespace {

// A response's fields from raw_text to error, in the column order both its INSERT and its UPDATE name them.
QVariantList responseFields(const ResponseRecord &r)
{
    return {text(r.rawText),  text(r.reasoningText), text(r.parseStatus), text(r.parseMessage),
            r.promptTokens,   r.completionTokens,    r.reasoningTokens,   r.cost,
            text(r.endpoint), text(r.model),         text(r.finishStatus), text(r.error)};
}

} // namespace

qint64 ExchangeRepository::addPrompt(const PromptRecord &p)
{
    const auto q = m_store.write(QStringLiteral("INSERT INTO prompts (round_id, kind, template, rendered, exemplar_ids, "
                                                "hint, created) VALUES (?, ?, ?, ?, ?, ?, ?)"),
                                 {idOrNull(p.roundId), text(p.kind), text(p.templateName), text(p.rendered),
                                  jsonText(p.exemplarIds), text(p.hint), stamp(p.created)});
    if (!q)
        return 0;
    const qint64 id = q->lastInsertId().toLongLong();
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
    const auto q = m_store.write(
        QStringLiteral("INSERT INTO responses (prompt_id, raw_text, reasoning_text, parse_status, parse_message, "
                       "prompt_tokens, completion_tokens, reasoning_tokens, cost, endpoint, model, finish_status, "
                       "error, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        QVariantList{r.promptId} + responseFields(r) + QVariantList{stamp(r.created)});
    if (!q)
        return 0;
    const qint64 id = q->lastInsertId().toLongLong();
    Q_EMIT m_store.responseChanged(id);
    return id;
}

bool ExchangeRepository::updateResponse(const ResponseRecord &r)
{
    const auto q = m_store.write(
        QStringLiteral("UPDATE responses SET raw_text = ?, reasoning_text = ?, parse_status = ?, parse_message = ?, "
                       "prompt_tokens = ?, completion_tokens = ?, reasoning_tokens = ?, cost = ?, endpoint = ?, "
                       "model = ?, finish_status = ?, error = ? WHERE id = ?"),
        responseFields(r) + QVariantList{r.id});
    if (!q)
        return false;
    if (q->numRowsAffected() != 1)
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
