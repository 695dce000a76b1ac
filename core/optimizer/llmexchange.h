#pragma once
// One prompt sent to the model and its answer kept in the session's responses: the steps the round runner and
// WhyFaster share, so a round's answer and a "why is A faster" answer are recorded alike.
#include "core/llm/llmrequest.h"
#include "core/llm/llmresult.h"
#include "core/llm/pricetable.h"
#include "core/optimizer/parsedresponse.h"
#include "core/session/responserecord.h"

#include <QString>

namespace kforge {
class SessionStore;
}

namespace kforge::llmexchange {

// The request for `prompt`: the template's endpoint, model, key and overrides, the system prompt, and the
// prompt as the one user message.
LlmRequest request(const LlmRequest &base, const QString &prompt);
// The response row stored when the request is sent (finish status "streaming").
ResponseRecord started(const LlmRequest &request, qint64 promptId);
// Whether the answer can be read (complete, or cut off at the token limit).
bool usable(const LlmResult &result);
// The answer split into its parts, or the reason it is unusable.
ParsedResponse parse(const LlmResult &result);
// Stores the answer to the response row `responseId`: its text, its parse, its tokens and its cost. The row
// as stored.
ResponseRecord storeAnswer(SessionStore &store, qint64 responseId, const LlmResult &result,
                           const ParsedResponse &parsed, const PriceTable &prices);

} // namespace kforge::llmexchange
