#pragma once
// One chat request: the endpoint it goes to, the conversation, per-request overrides and the key to use.
#include "core/llm/endpointconfig.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <optional>

namespace kforge {

struct LlmMessage {
    QString role; // "user" or "assistant"; the system prompt goes in LlmRequest::system
    QString content;
};

struct LlmRequest {
    EndpointConfig endpoint;
    QString model; // empty: endpoint.defaultModel
    QString system;
    QList<LlmMessage> messages;
    std::optional<int> maxTokens;      // overrides endpoint.maxTokens
    std::optional<double> temperature; // overrides endpoint.temperature
    QString reasoningEffort;           // overrides endpoint.reasoningEffort
    // Held only in memory for the transfer; never stored, logged or reported (see RequestBuilder::dump).
    QString apiKey;

    QString effectiveModel() const { return model.isEmpty() ? endpoint.defaultModel : model; }
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::LlmRequest)
