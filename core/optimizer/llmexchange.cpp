#include "core/optimizer/llmexchange.h"

#include "core/optimizer/promptbuilder.h"
#include "core/optimizer/responseparser.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>

namespace kforge::llmexchange {

LlmRequest request(const LlmRequest &base, const QString &prompt)
{
    QString error;
    LlmRequest r = base;
    r.system = PromptBuilder::system(&error);
    r.messages = {LlmMessage{QStringLiteral("user"), prompt}};
    return r;
}

ResponseRecord started(const LlmRequest &r, qint64 promptId)
{
    ResponseRecord rec;
    rec.promptId = promptId;
    rec.finishStatus = QStringLiteral("streaming");
    rec.endpoint = r.endpoint.baseUrl.isEmpty() ? r.endpoint.id : r.endpoint.baseUrl;
    rec.model = r.effectiveModel();
    return rec;
}

bool usable(const LlmResult &result)
{
    return result.status == LlmStatus::Complete || result.status == LlmStatus::Truncated;
}

ParsedResponse parse(const LlmResult &result)
{
    ParsedResponse parsed;
    if (usable(result))
        parsed = ResponseParser::parse(result.text, result.status == LlmStatus::Truncated);
    else
        parsed.problems << (result.errorMessage.isEmpty()
                                ? QCoreApplication::translate("kforge::RoundRunner", "the answer did not arrive complete")
                                : result.errorMessage);
    return parsed;
}

ResponseRecord storeAnswer(SessionStore &store, qint64 responseId, const LlmResult &result,
                           const ParsedResponse &parsed, const PriceTable &prices)
{
    ResponseRecord rec = store.exchanges().response(responseId).value_or(ResponseRecord{});
    rec.id = responseId;
    rec.rawText = result.text;
    rec.reasoningText = parsed.reasoning.isEmpty()   ? result.reasoning
                        : result.reasoning.isEmpty() ? parsed.reasoning
                                                     : result.reasoning + QLatin1String("\n\n") + parsed.reasoning;
    rec.parseStatus = parsed.statusName();
    rec.parseMessage = parsed.message();
    rec.promptTokens = result.usage.promptTokens;
    rec.completionTokens = result.usage.completionTokens;
    rec.reasoningTokens = result.usage.reasoningTokens;
    const QString model = result.model.isEmpty() ? rec.model : result.model;
    rec.cost = prices.cost(model, result.usage).value_or(0.0);
    rec.model = model;
    rec.finishStatus = llmStatusName(result.status);
    rec.error = result.errorMessage;
    store.exchanges().updateResponse(rec);
    return rec;
}

} // namespace kforge::llmexchange
