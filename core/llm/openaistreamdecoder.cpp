#include "core/llm/openaistreamdecoder.h"

#include "core/llm/llmerrors.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace kforge {

void OpenAiStreamDecoder::handleEvent(const SseEvent &event)
{
    const QByteArray data = event.data.trimmed();
    if (data == "[DONE]") {
        markEnded();
        return;
    }
    if (data.isEmpty())
        return;
    if (event.event == "error" && !data.startsWith('{')) {
        fail(LlmErrorKind::ProviderError, LlmErrors::providerMessage(data));
        return;
    }
    QJsonObject chunk;
    if (!parseObject(data, chunk))
        return;
    handleChunk(chunk, false);
}

void OpenAiStreamDecoder::handleJsonBody(const QJsonObject &body)
{
    handleChunk(body, true);
}

void OpenAiStreamDecoder::handleChunk(const QJsonObject &chunk, bool whole)
{
    if (handleError(chunk))
        return;
    setModel(chunk.value(QLatin1String("model")).toString());
    const QJsonValue usage = chunk.value(QLatin1String("usage"));
    if (usage.isObject())
        handleUsage(usage.toObject());
    // Usage-only chunks (stream_options.include_usage) and Azure's prompt-filter chunks have no choices.
    const QJsonArray choices = chunk.value(QLatin1String("choices")).toArray();
    for (const QJsonValue &cv : choices) {
        const QJsonObject choice = cv.toObject();
        if (choice.value(QLatin1String("index")).toInt(0) != 0)
            continue; // KForge asks for one choice; others would be another answer
        const QJsonObject delta = choice.value(whole ? QLatin1String("message") : QLatin1String("delta")).toObject();
        // DeepSeek and older vLLM call it reasoning_content, OpenRouter and newer vLLM reasoning.
        const QJsonValue rc = delta.value(QLatin1String("reasoning_content"));
        if (rc.isString() && !rc.toString().isEmpty())
            appendReasoning(rc.toString());
        else if (const QJsonValue r = delta.value(QLatin1String("reasoning")); r.isString())
            appendReasoning(r.toString());
        const QJsonValue content = delta.value(QLatin1String("content"));
        if (content.isString())
            appendText(content.toString());
        const QJsonValue finish = choice.value(QLatin1String("finish_reason"));
        if (finish.isString() && !finish.toString().isEmpty()) {
            const QString reason = finish.toString();
            m_sawFinishReason = true;
            setStop(reason, reason == QLatin1String("length"));
            if (reason == QLatin1String("content_filter"))
                fail(LlmErrorKind::ContentFiltered, {});
        }
    }
}

bool OpenAiStreamDecoder::handleError(const QJsonObject &chunk)
{
    const QJsonValue error = chunk.value(QLatin1String("error"));
    if (error.isUndefined() || error.isNull())
        return false;
    const QJsonObject e = error.toObject();
    const QString type = e.value(QLatin1String("type")).toString() + QLatin1Char(' ')
                         + e.value(QLatin1String("code")).toVariant().toString();
    const int code = e.value(QLatin1String("code")).toInt(0);
    LlmErrorKind kind = LlmErrorKind::ProviderError;
    if (code == 429 || type.contains(QLatin1String("rate_limit")))
        kind = LlmErrorKind::RateLimited;
    else if ((code >= 500 && code < 600) || type.contains(QLatin1String("server_error"))
             || type.contains(QLatin1String("overloaded")))
        kind = LlmErrorKind::ServerError;
    fail(kind, LlmErrors::providerMessage(QJsonDocument(chunk).toJson(QJsonDocument::Compact)));
    return true;
}

void OpenAiStreamDecoder::handleUsage(const QJsonObject &u)
{
    LlmUsage usage;
    usage.reported = true;
    usage.promptTokens = u.value(QLatin1String("prompt_tokens")).toInteger();
    usage.completionTokens = u.value(QLatin1String("completion_tokens")).toInteger();
    const QJsonObject details = u.value(QLatin1String("completion_tokens_details")).toObject();
    usage.reasoningTokens =
        details.value(QLatin1String("reasoning_tokens")).toInteger(u.value(QLatin1String("reasoning_tokens")).toInteger());
    setUsage(usage);
}

} // namespace kforge
