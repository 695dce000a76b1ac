#pragma once
// The specific, translated message for each way an LLM request can fail, and the helpers that keep
// provider error bodies readable and API keys out of every message.
#include "core/llm/llmresult.h"

#include <QByteArray>
#include <QString>

namespace kforge {

struct LlmErrorContext {
    QString url; // the endpoint URL asked (no credentials in it)
    QString model;
    int httpStatus = 0;
    QString detail; // the provider's own message or libcurl's, already redacted
    int attempts = 1;
    int timeoutMs = 0; // for the timeout kinds
    qsizetype receivedChars = 0;
    QString keyHint; // where the key came from, for 401/403 ("environment variable OPENAI_API_KEY")
};

class LlmErrors
{
public:
    static QString message(LlmErrorKind kind, const LlmErrorContext &context);
    // The human part of an error body: OpenAI/Anthropic/Ollama/FastAPI JSON shapes, else the text of an
    // HTML or plain page, whitespace collapsed and capped to a few hundred characters.
    static QString providerMessage(const QByteArray &body);
    static LlmErrorKind kindForHttpStatus(int status);
    // Worth another attempt when nothing has been streamed yet.
    static bool isRetryable(LlmErrorKind kind);
    // Removes the key, and the masked forms providers echo ("sk-abc1***wxyz"), from text.
    static QString redact(const QString &text, const QString &apiKey);
};

} // namespace kforge
