#include "core/llm/endpointpresets.h"

#include <QCoreApplication>

namespace kforge {

namespace {

EndpointConfig preset(const char *id, const QString &name, const char *url, LlmProtocol protocol, const char *model,
                      const char *keyEnv, bool requiresKey)
{
    EndpointConfig c;
    c.id = QString::fromLatin1(id);
    c.presetId = c.id;
    c.displayName = name;
    c.baseUrl = QString::fromLatin1(url);
    c.protocol = protocol;
    c.defaultModel = QString::fromLatin1(model);
    c.apiKeyEnv = QString::fromLatin1(keyEnv);
    c.keychainEntry = c.id;
    c.requiresKey = requiresKey;
    return c;
}

} // namespace

QList<EndpointConfig> EndpointPresets::all()
{
    QList<EndpointConfig> out;

    // OpenAI's reasoning models reject max_tokens; max_completion_tokens works for all of its models.
    EndpointConfig openai = preset("openai", QStringLiteral("OpenAI"), "https://api.openai.com/v1", LlmProtocol::OpenAi,
                                   "gpt-4.1", "OPENAI_API_KEY", true);
    openai.maxTokensField = QStringLiteral("max_completion_tokens");
    out << openai;

    out << preset("deepseek", QStringLiteral("DeepSeek"), "https://api.deepseek.com/v1", LlmProtocol::OpenAi,
                  "deepseek-reasoner", "DEEPSEEK_API_KEY", true);

    EndpointConfig openrouter = preset("openrouter", QStringLiteral("OpenRouter"), "https://openrouter.ai/api/v1",
                                       LlmProtocol::OpenAi, "deepseek/deepseek-r1", "OPENROUTER_API_KEY", true);
    openrouter.reasoningEffortField = QStringLiteral("reasoning.effort");
    // OpenRouter attributes traffic by these two headers.
    openrouter.extraHeaders = {{QStringLiteral("HTTP-Referer"), QStringLiteral("https://github.com/kforge/kforge")},
                               {QStringLiteral("X-Title"), QStringLiteral("KForge")}};
    out << openrouter;

    // The Messages API requires max_tokens on every request.
    EndpointConfig anthropic = preset("anthropic", QStringLiteral("Anthropic"), "https://api.anthropic.com/v1",
                                      LlmProtocol::Anthropic, "claude-sonnet-4-5", "ANTHROPIC_API_KEY", true);
    anthropic.maxTokens = 16'000;
    out << anthropic;

    // Local servers: no key unless the server was started with one; models are whatever was loaded.
    out << preset("vllm", QStringLiteral("vLLM"), "http://localhost:8000/v1", LlmProtocol::OpenAi, "", "VLLM_API_KEY",
                  false);
    out << preset("ollama", QStringLiteral("Ollama"), "http://localhost:11434/v1", LlmProtocol::OpenAi, "", "", false);
    out << preset("llamacpp", QStringLiteral("llama.cpp server"), "http://localhost:8080/v1", LlmProtocol::OpenAi,
                  "default", "LLAMA_API_KEY", false);
    out << preset("custom", QCoreApplication::translate("kforge::EndpointPresets", "Custom endpoint"), "",
                  LlmProtocol::OpenAi, "", "", false);
    return out;
}

std::optional<EndpointConfig> EndpointPresets::find(const QString &presetId)
{
    for (const EndpointConfig &c : all())
        if (c.presetId.compare(presetId, Qt::CaseInsensitive) == 0)
            return c;
    return std::nullopt;
}

bool EndpointPresets::isLocalPreset(const QString &presetId)
{
    for (const char *local : {"vllm", "ollama", "llamacpp"})
        if (presetId.compare(QLatin1String(local), Qt::CaseInsensitive) == 0)
            return true;
    return false;
}

EndpointConfig EndpointPresets::forUrl(const QString &baseUrl, LlmProtocol protocol)
{
    EndpointConfig c = *find(QStringLiteral("custom"));
    c.id = QStringLiteral("custom");
    c.displayName = baseUrl;
    c.baseUrl = baseUrl;
    c.protocol = protocol;
    c.keychainEntry.clear(); // a one-off URL has no stored key; one comes from an environment variable if at all
    if (protocol == LlmProtocol::Anthropic)
        c.maxTokens = 16'000;
    return c;
}

} // namespace kforge
