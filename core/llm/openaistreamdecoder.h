#pragma once
// Chat Completions streams (OpenAI and the servers that copy it: DeepSeek, OpenRouter, vLLM, Ollama,
// llama.cpp): "data: {chunk}" events ending with "data: [DONE]".
#include "core/llm/streamdecoder.h"

namespace kforge {

class OpenAiStreamDecoder : public StreamDecoder
{
protected:
    void handleEvent(const SseEvent &event) override;
    void handleJsonBody(const QJsonObject &body) override;
    bool endedImplicitly() const override { return m_sawFinishReason; }

private:
    void handleChunk(const QJsonObject &chunk, bool whole);
    bool handleError(const QJsonObject &chunk);
    void handleUsage(const QJsonObject &usage);

    bool m_sawFinishReason = false;
};

} // namespace kforge
