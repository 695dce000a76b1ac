#pragma once
// Built-in starting points for the services KForge knows: base URL, protocol, default model, key variable.
#include "core/llm/endpointconfig.h"

#include <QList>
#include <optional>

namespace kforge {

class EndpointPresets
{
public:
    // openai, deepseek, openrouter, anthropic, vllm, ollama, llamacpp, custom, in that order.
    static QList<EndpointConfig> all();
    static std::optional<EndpointConfig> find(const QString &presetId);
    // An endpoint for a bare URL (`--endpoint http://host:8000/v1`): the custom preset with that base URL.
    static EndpointConfig forUrl(const QString &baseUrl, LlmProtocol protocol);
    // The presets for servers people run themselves (vllm, ollama, llamacpp): a key is optional there.
    static bool isLocalPreset(const QString &presetId);
};

} // namespace kforge
