#include "core/llm/requestbuilder.h"

#include "core/llm/llmerrors.h"
#include "core/version.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>
#include <algorithm>

namespace kforge {

namespace {

QString trimmedBase(const LlmRequest &r)
{
    QString base = r.endpoint.baseUrl.trimmed();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    return base;
}

// "reasoning.effort" -> {"reasoning": {"effort": value}}, merged with what is there.
void setPath(QJsonObject &obj, const QString &dottedPath, const QJsonValue &value)
{
    const qsizetype dot = dottedPath.indexOf(QLatin1Char('.'));
    if (dot < 0) {
        obj.insert(dottedPath, value);
        return;
    }
    const QString head = dottedPath.left(dot);
    QJsonObject child = obj.value(head).toObject();
    setPath(child, dottedPath.mid(dot + 1), value);
    obj.insert(head, child);
}

void merge(QJsonObject &into, const QJsonObject &extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        if (it.value().isObject() && into.value(it.key()).isObject()) {
            QJsonObject child = into.value(it.key()).toObject();
            merge(child, it.value().toObject());
            into.insert(it.key(), child);
        } else {
            into.insert(it.key(), it.value());
        }
    }
}

// Extended thinking needs an explicit budget below max_tokens; effort names map onto budgets.
int thinkingBudget(const QString &effort, int maxTokens)
{
    const QString e = effort.toLower();
    int budget = e == QLatin1String("low") ? 2'048 : e == QLatin1String("high") ? 24'576 : 8'192;
    budget = std::min(budget, maxTokens - 1'024);
    return budget >= 1'024 ? budget : 0;
}

bool isCredentialHeader(const QByteArray &name)
{
    const QByteArray n = name.trimmed().toLower();
    return n == "authorization" || n == "x-api-key" || n == "api-key" || n == "proxy-authorization" || n == "cookie"
           || n.contains("token") || n.contains("secret");
}

} // namespace

QByteArray RequestBuilder::url(const LlmRequest &r)
{
    const QString base = trimmedBase(r);
    const QLatin1String suffix = r.endpoint.protocol == LlmProtocol::Anthropic ? QLatin1String("/messages")
                                                                               : QLatin1String("/chat/completions");
    // A base URL that already names the full endpoint is taken as is.
    if (base.endsWith(suffix))
        return base.toUtf8();
    return (base + suffix).toUtf8();
}

QList<QByteArray> RequestBuilder::headers(const LlmRequest &r)
{
    QList<QByteArray> h;
    h << QByteArray("Content-Type: application/json") << QByteArray("Accept: text/event-stream")
      << QByteArray("User-Agent: KForge/" KFORGE_VERSION_STRING)
      // libcurl would send Expect: 100-continue for large prompts and wait for a reply that some servers never send.
      << QByteArray("Expect:");
    const QByteArray key = r.apiKey.trimmed().toUtf8();
    if (r.endpoint.protocol == LlmProtocol::Anthropic) {
        h << QByteArray("anthropic-version: 2023-06-01");
        if (!key.isEmpty())
            h << "x-api-key: " + key;
    } else if (!key.isEmpty()) {
        h << "Authorization: Bearer " + key;
    }
    for (const auto &[name, value] : r.endpoint.extraHeaders)
        h << name.trimmed().toUtf8() + ": " + value.trimmed().toUtf8();
    return h;
}

QByteArray RequestBuilder::body(const LlmRequest &r)
{
    const EndpointConfig &e = r.endpoint;
    const std::optional<int> maxTokens = r.maxTokens ? r.maxTokens : e.maxTokens;
    const std::optional<double> temperature = r.temperature ? r.temperature : e.temperature;
    const QString effort = r.reasoningEffort.isEmpty() ? e.reasoningEffort : r.reasoningEffort;

    QJsonObject o;
    o.insert(QStringLiteral("model"), r.effectiveModel());
    QJsonArray messages;
    if (e.protocol == LlmProtocol::OpenAi && !r.system.isEmpty())
        messages.append(
            QJsonObject{{QStringLiteral("role"), QStringLiteral("system")}, {QStringLiteral("content"), r.system}});
    for (const LlmMessage &m : r.messages)
        messages.append(QJsonObject{{QStringLiteral("role"), m.role}, {QStringLiteral("content"), m.content}});
    o.insert(QStringLiteral("messages"), messages);
    o.insert(QStringLiteral("stream"), true);
    if (temperature)
        o.insert(QStringLiteral("temperature"), *temperature);

    if (e.protocol == LlmProtocol::Anthropic) {
        if (!r.system.isEmpty())
            o.insert(QStringLiteral("system"), r.system);
        const int max = maxTokens.value_or(16'000);
        o.insert(QStringLiteral("max_tokens"), max);
        if (!effort.isEmpty()) {
            if (const int budget = thinkingBudget(effort, max))
                o.insert(QStringLiteral("thinking"), QJsonObject{{QStringLiteral("type"), QStringLiteral("enabled")},
                                                                 {QStringLiteral("budget_tokens"), budget}});
        }
    } else {
        // Without it, OpenAI-compatible servers send no token counts in a stream.
        o.insert(QStringLiteral("stream_options"), QJsonObject{{QStringLiteral("include_usage"), true}});
        if (maxTokens)
            setPath(o, e.maxTokensField.isEmpty() ? QStringLiteral("max_tokens") : e.maxTokensField, *maxTokens);
        if (!effort.isEmpty())
            setPath(o, e.reasoningEffortField.isEmpty() ? QStringLiteral("reasoning_effort") : e.reasoningEffortField,
                    effort);
    }
    merge(o, e.extraFields);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString RequestBuilder::dump(const LlmRequest &r)
{
    QString out = QLatin1String("POST ") + QString::fromUtf8(url(r)) + QLatin1Char('\n');
    for (const QByteArray &line : headers(r)) {
        const qsizetype colon = line.indexOf(':');
        const QByteArray name = line.left(colon);
        if (isCredentialHeader(name))
            out += QString::fromUtf8(name) + QLatin1String(": [redacted]\n");
        else
            out += QString::fromUtf8(line) + QLatin1Char('\n');
    }
    out += QLatin1Char('\n') + QString::fromUtf8(body(r));
    return LlmErrors::redact(out, r.apiKey);
}

QString RequestBuilder::validate(const LlmRequest &r)
{
    const QUrl u(QString::fromUtf8(url(r)), QUrl::StrictMode);
    if (r.endpoint.baseUrl.trimmed().isEmpty())
        return QCoreApplication::translate("kforge::RequestBuilder", "The endpoint has no base URL.");
    if (!u.isValid() || u.host().isEmpty() || (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https")))
        return QCoreApplication::translate("kforge::RequestBuilder", "'%1' is not an http:// or https:// URL.")
            .arg(r.endpoint.baseUrl);
    if (r.effectiveModel().isEmpty())
        return QCoreApplication::translate("kforge::RequestBuilder", "No model given, and endpoint '%1' has no default model.")
            .arg(r.endpoint.displayName.isEmpty() ? r.endpoint.id : r.endpoint.displayName);
    if (r.messages.isEmpty())
        return QCoreApplication::translate("kforge::RequestBuilder", "The request has no message.");
    if (r.endpoint.needsKey() && r.apiKey.trimmed().isEmpty())
        return QCoreApplication::translate("kforge::RequestBuilder", "No API key for endpoint '%1'.")
            .arg(r.endpoint.displayName.isEmpty() ? r.endpoint.id : r.endpoint.displayName);
    return {};
}

} // namespace kforge
