#include "core/llm/llmerrors.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUrl>

namespace kforge {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("kforge::LlmErrors", text);
}

// " after 3 attempts" when there were retries, else nothing.
QString afterAttempts(int attempts)
{
    return attempts > 1 ? QCoreApplication::translate("kforge::LlmErrors", " after %1 attempts").arg(attempts) : QString();
}

QString hostOf(const QString &url)
{
    const QUrl u(url);
    if (u.host().isEmpty())
        return url;
    return u.port() > 0 ? u.host() + QLatin1Char(':') + QString::number(u.port()) : u.host();
}

QString collapse(QString s)
{
    s = s.simplified();
    constexpr qsizetype cap = 400;
    if (s.size() > cap)
        s = s.left(cap) + QStringLiteral("…");
    return s;
}

QString messageOf(const QJsonValue &v);

QString messageOfObject(const QJsonObject &o)
{
    // {"error": {...}} (OpenAI, Anthropic) or {"error": "text"} (Ollama)
    if (o.contains(QLatin1String("error")))
        return messageOf(o.value(QLatin1String("error")));
    for (const char *field : {"message", "detail", "error_message", "msg"}) {
        const QJsonValue v = o.value(QLatin1String(field));
        if (!v.isUndefined() && !v.isNull())
            return messageOf(v);
    }
    return {};
}

QString messageOf(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isObject())
        return messageOfObject(v.toObject());
    if (v.isArray()) { // FastAPI validation errors: [{"loc": [...], "msg": "..."}]
        QStringList parts;
        for (const QJsonValue &e : v.toArray()) {
            const QString m = messageOf(e);
            if (!m.isEmpty())
                parts << m;
        }
        return parts.join(QLatin1String("; "));
    }
    return {};
}

QString withDetail(const QString &message, const QString &detail)
{
    if (detail.isEmpty())
        return message + QLatin1Char('.');
    return message + QLatin1String(": ") + detail;
}

QString seconds(int ms)
{
    return QString::number(ms / 1000.0, 'g', 3);
}

} // namespace

QString LlmErrors::message(LlmErrorKind kind, const LlmErrorContext &c)
{
    const QString host = hostOf(c.url);
    const QString detail = c.detail.trimmed();
    switch (kind) {
    case LlmErrorKind::None: return {};
    case LlmErrorKind::InvalidRequest: return withDetail(tr("The request was not sent"), detail);
    case LlmErrorKind::DnsFailure:
        return tr("Could not resolve the host name '%1'. Check the endpoint's base URL and the network or DNS "
                  "settings.")
            .arg(QUrl(c.url).host().isEmpty() ? c.url : QUrl(c.url).host());
    case LlmErrorKind::ConnectFailed:
        return tr("Could not connect to %1%2: nothing accepted the connection. Is the server running and is the "
                  "base URL right?")
            .arg(host, afterAttempts(c.attempts));
    case LlmErrorKind::ConnectTimeout:
        return tr("Connecting to %1 timed out after %2 s%3.").arg(host, seconds(c.timeoutMs), afterAttempts(c.attempts));
    case LlmErrorKind::TlsFailure:
        return tr("The secure connection (TLS) to %1 failed: %2. If the server uses a private certificate "
                  "authority, set the endpoint's CA bundle; verification stays on.")
            .arg(host, detail.isEmpty() ? tr("the certificate could not be verified") : detail);
    case LlmErrorKind::ConnectionLost:
        if (c.receivedChars > 0)
            return withDetail(tr("The connection to %1 broke in the middle of the answer, after %2 characters; "
                                 "the answer is incomplete")
                                  .arg(host)
                                  .arg(c.receivedChars),
                              detail);
        return withDetail(tr("The connection to %1 broke before the answer began%2").arg(host, afterAttempts(c.attempts)),
                          detail);
    case LlmErrorKind::IdleTimeout:
        return tr("%1 sent nothing for %2 s, so the request was abandoned (idle timeout).").arg(host, seconds(c.timeoutMs));
    case LlmErrorKind::TotalTimeout:
        return tr("The request to %1 took longer than the limit of %2 s.").arg(host, seconds(c.timeoutMs));
    case LlmErrorKind::AuthFailed:
        return withDetail(tr("%1 rejected the API key (HTTP %2). Check the key%3")
                              .arg(host)
                              .arg(c.httpStatus)
                              .arg(c.keyHint.isEmpty() ? QString()
                                                       : QString(QLatin1String(" (") + c.keyHint + QLatin1Char(')'))),
                          detail);
    case LlmErrorKind::NotFound:
        return withDetail(tr("Not found (HTTP 404) at %1: either the model '%2' does not exist there or the base URL "
                             "is wrong")
                              .arg(c.url, c.model),
                          detail);
    case LlmErrorKind::BadRequest:
        return withDetail(tr("%1 rejected the request (HTTP %2)").arg(host).arg(c.httpStatus), detail);
    case LlmErrorKind::RateLimited:
        return withDetail(tr("%1 is rate limiting the requests (HTTP 429)%2").arg(host, afterAttempts(c.attempts)), detail);
    case LlmErrorKind::ServerError:
        return withDetail(tr("%1 had a server error%2%3")
                              .arg(host, c.httpStatus > 0 ? QStringLiteral(" (HTTP %1)").arg(c.httpStatus) : QString(),
                                   afterAttempts(c.attempts)),
                          detail);
    case LlmErrorKind::HttpError:
        return withDetail(tr("%1 answered with the unexpected HTTP status %2").arg(host).arg(c.httpStatus), detail);
    case LlmErrorKind::StreamIncomplete:
        return tr("The stream from %1 ended without its end marker after %2 characters: the answer is incomplete.")
            .arg(host)
            .arg(c.receivedChars);
    case LlmErrorKind::MalformedStream:
        return withDetail(tr("%1 sent a stream that could not be read").arg(host), detail);
    case LlmErrorKind::ProviderError:
        return withDetail(tr("%1 reported an error in the middle of the stream").arg(host), detail);
    case LlmErrorKind::ContentFiltered: return tr("%1 stopped the answer with its content filter.").arg(host);
    case LlmErrorKind::Cancelled: return tr("Cancelled.");
    }
    return {};
}

QString LlmErrors::providerMessage(const QByteArray &body)
{
    const QByteArray trimmed = body.trimmed();
    if (trimmed.isEmpty())
        return {};
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(trimmed, &err);
    if (err.error == QJsonParseError::NoError) {
        QString m = doc.isObject() ? messageOfObject(doc.object()) : messageOf(doc.array());
        if (!m.isEmpty()) {
            // Providers put a machine code next to the text ("type": "invalid_request_error"); keep the text.
            return collapse(m);
        }
        return collapse(QString::fromUtf8(trimmed));
    }
    QString text = QString::fromUtf8(trimmed);
    if (text.contains(QLatin1String("<html"), Qt::CaseInsensitive) || text.startsWith(QLatin1Char('<'))) {
        static const QRegularExpression title(QStringLiteral("<title>(.*?)</title>"),
                                              QRegularExpression::CaseInsensitiveOption
                                                  | QRegularExpression::DotMatchesEverythingOption);
        const auto m = title.match(text);
        if (m.hasMatch())
            return collapse(m.captured(1));
        static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
        text.replace(tags, QStringLiteral(" "));
    }
    return collapse(text);
}

LlmErrorKind LlmErrors::kindForHttpStatus(int status)
{
    if (status >= 200 && status < 300)
        return LlmErrorKind::None;
    switch (status) {
    case 401:
    case 403: return LlmErrorKind::AuthFailed;
    case 404: return LlmErrorKind::NotFound;
    case 400:
    case 413:
    case 422: return LlmErrorKind::BadRequest;
    case 408: return LlmErrorKind::ServerError; // the server timed out waiting: worth another try
    case 429: return LlmErrorKind::RateLimited;
    case 529: return LlmErrorKind::ServerError; // Anthropic: overloaded
    default: break;
    }
    return status >= 500 && status < 600 ? LlmErrorKind::ServerError : LlmErrorKind::HttpError;
}

bool LlmErrors::isRetryable(LlmErrorKind kind)
{
    switch (kind) {
    case LlmErrorKind::ConnectFailed:
    case LlmErrorKind::ConnectTimeout:
    case LlmErrorKind::ConnectionLost:
    case LlmErrorKind::RateLimited:
    case LlmErrorKind::ServerError: return true;
    default: return false;
    }
}

QString LlmErrors::redact(const QString &text, const QString &apiKey)
{
    QString out = text;
    const QString key = apiKey.trimmed();
    if (key.size() >= 4)
        out.replace(key, QStringLiteral("[redacted]"));
    // Masked echoes such as OpenAI's "Incorrect API key provided: sk-proj-****...abcd" still give away part of
    // the key: drop any word that carries a run of mask characters and looks like a key. One linear pass, as
    // error bodies can be long.
    const auto inWord = [](QChar c) {
        return c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('-') || c == QLatin1Char('*')
               || c == QChar(0x2022);
    };
    const auto isMask = [](QChar c) {
        return c == QLatin1Char('*') || c == QChar(0x2022) || c == QLatin1Char('x') || c == QLatin1Char('X');
    };
    QString result;
    result.reserve(out.size());
    qsizetype i = 0;
    while (i < out.size()) {
        if (!inWord(out[i])) {
            result += out[i++];
            continue;
        }
        qsizetype end = i;
        int run = 0, longestRun = 0, stars = 0, starRun = 0;
        while (end < out.size() && inWord(out[end])) {
            const QChar c = out[end];
            run = isMask(c) ? run + 1 : 0;
            longestRun = std::max(longestRun, run);
            stars = c == QLatin1Char('*') || c == QChar(0x2022) ? stars + 1 : 0;
            starRun = std::max(starRun, stars);
            ++end;
        }
        const QStringView word = QStringView(out).mid(i, end - i);
        const bool prefixed = word.startsWith(QLatin1String("sk-")) || word.startsWith(QLatin1String("sk_"))
                              || (key.size() >= 6 && word.startsWith(QStringView(key).left(6)));
        if (starRun >= 4 || (longestRun >= 4 && prefixed))
            result += QStringLiteral("[redacted]");
        else
            result += word;
        i = end;
    }
    // Trailing fragments of the key ("...wxyz") are too short to look for alone, but a full key prefix is not.
    if (key.size() >= 12)
        result.replace(key.left(12), QStringLiteral("[redacted]"));
    return result;
}

} // namespace kforge
