#include "core/llm/endpointconfig.h"

#include "core/llm/endpointpresets.h"

#include <QJsonDocument>
#include <QSettings>
#include <QUrl>

namespace kforge {

QString protocolName(LlmProtocol protocol)
{
    return protocol == LlmProtocol::Anthropic ? QStringLiteral("anthropic") : QStringLiteral("openai");
}

std::optional<LlmProtocol> protocolFromString(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("openai"))
        return LlmProtocol::OpenAi;
    if (n == QLatin1String("anthropic"))
        return LlmProtocol::Anthropic;
    return std::nullopt;
}

bool EndpointConfig::isLocal() const
{
    if (EndpointPresets::isLocalPreset(presetId))
        return true;
    const QString host = QUrl(baseUrl.trimmed()).host().toLower();
    return host == u"localhost" || host == u"127.0.0.1" || host == u"::1" || host == u"[::1]";
}

void EndpointConfig::save(QSettings &s) const
{
    s.setValue(QStringLiteral("id"), id);
    s.setValue(QStringLiteral("displayName"), displayName);
    s.setValue(QStringLiteral("preset"), presetId);
    s.setValue(QStringLiteral("baseUrl"), baseUrl);
    s.setValue(QStringLiteral("protocol"), protocolName(protocol));
    s.setValue(QStringLiteral("defaultModel"), defaultModel);
    QStringList headers;
    for (const auto &[name, value] : extraHeaders)
        headers << name + QLatin1String(": ") + value;
    s.setValue(QStringLiteral("extraHeaders"), headers);
    s.setValue(QStringLiteral("extraFields"), QString::fromUtf8(QJsonDocument(extraFields).toJson(QJsonDocument::Compact)));
    if (temperature)
        s.setValue(QStringLiteral("temperature"), *temperature);
    else
        s.remove(QStringLiteral("temperature"));
    if (maxTokens)
        s.setValue(QStringLiteral("maxTokens"), *maxTokens);
    else
        s.remove(QStringLiteral("maxTokens"));
    s.setValue(QStringLiteral("reasoningEffort"), reasoningEffort);
    s.setValue(QStringLiteral("maxTokensField"), maxTokensField);
    s.setValue(QStringLiteral("reasoningEffortField"), reasoningEffortField);
    s.setValue(QStringLiteral("apiKeyEnv"), apiKeyEnv);
    s.setValue(QStringLiteral("keychainEntry"), keychainEntry);
    s.setValue(QStringLiteral("requiresKey"), requiresKey);
    s.setValue(QStringLiteral("caBundle"), caBundle);
    s.setValue(QStringLiteral("connectTimeoutMs"), limits.connectTimeoutMs);
    s.setValue(QStringLiteral("idleTimeoutMs"), limits.idleTimeoutMs);
    s.setValue(QStringLiteral("totalTimeoutMs"), limits.totalTimeoutMs);
    s.setValue(QStringLiteral("maxAttempts"), limits.maxAttempts);
    s.setValue(QStringLiteral("backoffBaseMs"), limits.backoffBaseMs);
    s.setValue(QStringLiteral("backoffMaxMs"), limits.backoffMaxMs);
    s.setValue(QStringLiteral("maxRetryAfterMs"), limits.maxRetryAfterMs);
}

EndpointConfig EndpointConfig::load(QSettings &s)
{
    EndpointConfig c;
    const LlmLimits d;
    c.id = s.value(QStringLiteral("id")).toString();
    c.displayName = s.value(QStringLiteral("displayName"), c.id).toString();
    c.presetId = s.value(QStringLiteral("preset"), c.presetId).toString();
    c.baseUrl = s.value(QStringLiteral("baseUrl")).toString();
    c.protocol = protocolFromString(s.value(QStringLiteral("protocol")).toString()).value_or(LlmProtocol::OpenAi);
    c.defaultModel = s.value(QStringLiteral("defaultModel")).toString();
    for (const QString &h : s.value(QStringLiteral("extraHeaders")).toStringList()) {
        const qsizetype colon = h.indexOf(QLatin1Char(':'));
        if (colon > 0)
            c.extraHeaders.append({h.left(colon).trimmed(), h.mid(colon + 1).trimmed()});
    }
    c.extraFields = QJsonDocument::fromJson(s.value(QStringLiteral("extraFields")).toString().toUtf8()).object();
    if (s.contains(QStringLiteral("temperature")))
        c.temperature = s.value(QStringLiteral("temperature")).toDouble();
    if (s.contains(QStringLiteral("maxTokens")))
        c.maxTokens = s.value(QStringLiteral("maxTokens")).toInt();
    c.reasoningEffort = s.value(QStringLiteral("reasoningEffort")).toString();
    c.maxTokensField = s.value(QStringLiteral("maxTokensField"), c.maxTokensField).toString();
    c.reasoningEffortField = s.value(QStringLiteral("reasoningEffortField"), c.reasoningEffortField).toString();
    c.apiKeyEnv = s.value(QStringLiteral("apiKeyEnv")).toString();
    c.keychainEntry = s.value(QStringLiteral("keychainEntry")).toString();
    c.requiresKey = s.value(QStringLiteral("requiresKey"), false).toBool();
    c.caBundle = s.value(QStringLiteral("caBundle")).toString();
    c.limits.connectTimeoutMs = s.value(QStringLiteral("connectTimeoutMs"), d.connectTimeoutMs).toInt();
    c.limits.idleTimeoutMs = s.value(QStringLiteral("idleTimeoutMs"), d.idleTimeoutMs).toInt();
    c.limits.totalTimeoutMs = s.value(QStringLiteral("totalTimeoutMs"), d.totalTimeoutMs).toInt();
    c.limits.maxAttempts = s.value(QStringLiteral("maxAttempts"), d.maxAttempts).toInt();
    c.limits.backoffBaseMs = s.value(QStringLiteral("backoffBaseMs"), d.backoffBaseMs).toInt();
    c.limits.backoffMaxMs = s.value(QStringLiteral("backoffMaxMs"), d.backoffMaxMs).toInt();
    c.limits.maxRetryAfterMs = s.value(QStringLiteral("maxRetryAfterMs"), d.maxRetryAfterMs).toInt();
    return c;
}

void EndpointConfig::saveAll(QSettings &s, const QList<EndpointConfig> &endpoints)
{
    s.beginGroup(QStringLiteral("llm/endpoints"));
    s.remove(QString()); // drop endpoints that were deleted
    for (const EndpointConfig &e : endpoints) {
        s.beginGroup(e.id);
        e.save(s);
        s.endGroup();
    }
    s.endGroup();
}

QList<EndpointConfig> EndpointConfig::loadAll(QSettings &s)
{
    QList<EndpointConfig> out;
    s.beginGroup(QStringLiteral("llm/endpoints"));
    const QStringList ids = s.childGroups();
    for (const QString &id : ids) {
        s.beginGroup(id);
        EndpointConfig e = load(s);
        if (e.id.isEmpty())
            e.id = id;
        out.append(e);
        s.endGroup();
    }
    s.endGroup();
    return out;
}

} // namespace kforge
