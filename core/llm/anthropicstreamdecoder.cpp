#include "core/llm/anthropicstreamdecoder.h"

#include <QJsonArray>
#include <QJsonObject>

namespace kforge {

void AnthropicStreamDecoder::handleEvent(const SseEvent &event)
{
    if (event.data.trimmed().isEmpty())
        return;
    QJsonObject o;
    if (!parseObject(event.data, o))
        return;
    // The data carries its own type; the event name is the fallback.
    QString type = o.value(QLatin1String("type")).toString();
    if (type.isEmpty())
        type = QString::fromUtf8(event.event);

    if (type == QLatin1String("message_start")) {
        const QJsonObject message = o.value(QLatin1String("message")).toObject();
        setModel(message.value(QLatin1String("model")).toString());
        handleUsage(message.value(QLatin1String("usage")).toObject());
    } else if (type == QLatin1String("content_block_start")) {
        // Blocks usually start empty, but the protocol allows initial text.
        const QJsonObject block = o.value(QLatin1String("content_block")).toObject();
        const QString blockType = block.value(QLatin1String("type")).toString();
        if (blockType == QLatin1String("text"))
            appendText(block.value(QLatin1String("text")).toString());
        else if (blockType == QLatin1String("thinking"))
            appendReasoning(block.value(QLatin1String("thinking")).toString());
    } else if (type == QLatin1String("content_block_delta")) {
        const QJsonObject delta = o.value(QLatin1String("delta")).toObject();
        const QString deltaType = delta.value(QLatin1String("type")).toString();
        if (deltaType == QLatin1String("text_delta"))
            appendText(delta.value(QLatin1String("text")).toString());
        else if (deltaType == QLatin1String("thinking_delta"))
            appendReasoning(delta.value(QLatin1String("thinking")).toString());
        // signature_delta and input_json_delta carry nothing to show.
    } else if (type == QLatin1String("message_delta")) {
        handleStop(o.value(QLatin1String("delta")).toObject().value(QLatin1String("stop_reason")).toString());
        handleUsage(o.value(QLatin1String("usage")).toObject());
    } else if (type == QLatin1String("message_stop")) {
        markEnded();
    } else if (type == QLatin1String("error")) {
        handleError(o.value(QLatin1String("error")).toObject());
    }
    // ping, content_block_stop and event types added later need no action.
}

void AnthropicStreamDecoder::handleJsonBody(const QJsonObject &body)
{
    if (body.value(QLatin1String("type")).toString() == QLatin1String("error")) {
        handleError(body.value(QLatin1String("error")).toObject());
        return;
    }
    setModel(body.value(QLatin1String("model")).toString());
    for (const QJsonValue &bv : body.value(QLatin1String("content")).toArray()) {
        const QJsonObject block = bv.toObject();
        const QString blockType = block.value(QLatin1String("type")).toString();
        if (blockType == QLatin1String("text"))
            appendText(block.value(QLatin1String("text")).toString());
        else if (blockType == QLatin1String("thinking"))
            appendReasoning(block.value(QLatin1String("thinking")).toString());
    }
    handleStop(body.value(QLatin1String("stop_reason")).toString());
    handleUsage(body.value(QLatin1String("usage")).toObject());
}

void AnthropicStreamDecoder::handleError(const QJsonObject &error)
{
    const QString type = error.value(QLatin1String("type")).toString();
    QString message = error.value(QLatin1String("message")).toString();
    if (message.isEmpty())
        message = type;
    LlmErrorKind kind = LlmErrorKind::ProviderError;
    if (type == QLatin1String("overloaded_error") || type == QLatin1String("api_error"))
        kind = LlmErrorKind::ServerError;
    else if (type == QLatin1String("rate_limit_error"))
        kind = LlmErrorKind::RateLimited;
    fail(kind, message);
}

void AnthropicStreamDecoder::handleUsage(const QJsonObject &u)
{
    if (u.isEmpty())
        return;
    // message_start carries the input side, message_delta the running output count (and, lately, the input
    // again): keep what each one says and leave the rest.
    LlmUsage usage = currentUsage();
    usage.reported = true;
    if (u.contains(QLatin1String("input_tokens")))
        usage.promptTokens = u.value(QLatin1String("input_tokens")).toInteger()
                             + u.value(QLatin1String("cache_creation_input_tokens")).toInteger()
                             + u.value(QLatin1String("cache_read_input_tokens")).toInteger();
    if (u.contains(QLatin1String("output_tokens")))
        usage.completionTokens = u.value(QLatin1String("output_tokens")).toInteger();
    setUsage(usage);
}

void AnthropicStreamDecoder::handleStop(const QString &reason)
{
    if (reason.isEmpty())
        return;
    setStop(reason, reason == QLatin1String("max_tokens") || reason == QLatin1String("model_context_window_exceeded"));
    if (reason == QLatin1String("refusal"))
        fail(LlmErrorKind::ContentFiltered, {});
}

} // namespace kforge
