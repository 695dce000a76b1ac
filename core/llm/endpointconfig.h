#pragma once
// Where and how to reach one language model service. Saved in QSettings; the API key is deliberately not a
// member, so it cannot end up in a settings file (it lives in the keychain or an environment variable).
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <optional>
#include <utility>

class QSettings;

namespace kforge {

enum class LlmProtocol {
    OpenAi,    // Chat Completions (OpenAI, DeepSeek, OpenRouter, vLLM, Ollama, llama.cpp server...)
    Anthropic, // Messages API
};
QString protocolName(LlmProtocol protocol);
std::optional<LlmProtocol> protocolFromString(const QString &name);

struct LlmLimits {
    int connectTimeoutMs = 15'000;
    int idleTimeoutMs = 120'000;    // no byte for this long: give up (reasoning models may think quietly)
    int totalTimeoutMs = 1'800'000; // over all attempts
    int maxAttempts = 4;            // 1 = no retries
    int backoffBaseMs = 1'000;      // doubled per attempt, with jitter
    int backoffMaxMs = 30'000;
    int maxRetryAfterMs = 120'000; // a longer Retry-After fails the request instead of waiting

    bool operator==(const LlmLimits &) const = default;
};

struct EndpointConfig {
    QString id; // stable name: settings group, `kforge-cli chat --endpoint <id>`
    QString displayName;
    QString presetId = QStringLiteral("custom");
    QString baseUrl; // up to and including the API version: https://api.openai.com/v1
    LlmProtocol protocol = LlmProtocol::OpenAi;
    QString defaultModel;
    QList<std::pair<QString, QString>> extraHeaders;
    QJsonObject extraFields; // merged into every request body last, so they win
    std::optional<double> temperature;
    std::optional<int> maxTokens;
    QString reasoningEffort;                               // low / medium / high, empty = not sent
    QString maxTokensField = QStringLiteral("max_tokens"); // OpenAI's newer models want max_completion_tokens
    QString reasoningEffortField = QStringLiteral("reasoning_effort"); // dotted path: OpenRouter uses reasoning.effort
    QString apiKeyEnv;        // environment variable holding the key, e.g. OPENAI_API_KEY
    QString keychainEntry;    // key name under the "KForge" service in the system keychain
    bool requiresKey = false; // a remote service that refuses requests without a key; see needsKey()
    QString caBundle;         // PEM file with extra CA certificates; TLS verification itself is always on
    LlmLimits limits;

    // A server on this machine (localhost, 127.0.0.1, ::1) or one of the presets for local servers (vLLM, Ollama,
    // llama.cpp): a key is sent when there is one, never demanded.
    bool isLocal() const;
    // Whether a request cannot go without a key.
    bool needsKey() const { return requiresKey && !isLocal(); }

    // Writes/reads the members under the current group of settings.
    void save(QSettings &settings) const;
    static EndpointConfig load(QSettings &settings);
    // All saved endpoints, under "llm/endpoints/<id>".
    static void saveAll(QSettings &settings, const QList<EndpointConfig> &endpoints);
    static QList<EndpointConfig> loadAll(QSettings &settings);

    bool operator==(const EndpointConfig &) const = default;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::EndpointConfig)
