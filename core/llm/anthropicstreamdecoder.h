#pragma once
// Anthropic Messages streams: message_start, content_block_start/delta/stop (text and thinking),
// message_delta (stop reason, usage), message_stop, ping and error events.
#include "core/llm/streamdecoder.h"

namespace kforge {

class AnthropicStreamDecoder : public StreamDecoder
{
protected:
    void handleEvent(const SseEvent &event) override;
    void handleJsonBody(const QJsonObject &body) override;

private:
    void handleError(const QJsonObject &error);
    void handleUsage(const QJsonObject &usage);
    void handleStop(const QString &reason);
};

} // namespace kforge
