#include "core/llm/streamdecoder.h"

#include "core/llm/anthropicstreamdecoder.h"
#include "core/llm/llmerrors.h"
#include "core/llm/openaistreamdecoder.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

namespace kforge {

namespace {
constexpr qsizetype kMaxJsonBody = 64 * 1024 * 1024;
}

std::unique_ptr<StreamDecoder> StreamDecoder::create(LlmProtocol protocol)
{
    if (protocol == LlmProtocol::Anthropic)
        return std::make_unique<AnthropicStreamDecoder>();
    return std::make_unique<OpenAiStreamDecoder>();
}

void StreamDecoder::feed(const char *data, qsizetype size)
{
    if (m_error != LlmErrorKind::None || m_finished)
        return;
    if (m_jsonBody) {
        if (m_body.size() + size > kMaxJsonBody) {
            fail(LlmErrorKind::MalformedStream,
                 QCoreApplication::translate("kforge::StreamDecoder", "the response body is larger than %1 MiB")
                     .arg(kMaxJsonBody / (1024 * 1024)));
            return;
        }
        m_body.append(data, size);
        return;
    }
    m_parser.feed(data, size, m_events);
    for (const SseEvent &e : m_events) {
        if (m_error != LlmErrorKind::None || m_ended)
            break; // nothing after the end marker or an error counts
        handleEvent(e);
    }
    m_events.clear();
    if (m_parser.overflowed() && m_error == LlmErrorKind::None)
        fail(LlmErrorKind::MalformedStream,
             QCoreApplication::translate("kforge::StreamDecoder", "a stream event is larger than %1 MiB")
                 .arg(SseParser::kMaxEventBytes / (1024 * 1024)));
}

void StreamDecoder::finish(bool bodyComplete)
{
    if (m_finished)
        return;
    if (!bodyComplete) {
        if (m_error == LlmErrorKind::None && !m_ended && !m_jsonBody && endedImplicitly())
            m_ended = true;
    } else if (m_error == LlmErrorKind::None && m_jsonBody) {
        QJsonObject body;
        if (parseObject(m_body, body)) {
            handleJsonBody(body);
            if (m_error == LlmErrorKind::None)
                m_ended = true;
        }
    } else if (m_error == LlmErrorKind::None && !m_ended) {
        m_parser.finish(m_events);
        for (const SseEvent &e : m_events) {
            if (m_error != LlmErrorKind::None || m_ended)
                break;
            handleEvent(e);
        }
        m_events.clear();
        if (m_error == LlmErrorKind::None && !m_ended && endedImplicitly())
            m_ended = true;
    }
    m_finished = true;
    if (m_error == LlmErrorKind::None && !m_ended)
        m_error = LlmErrorKind::StreamIncomplete;
}

void StreamDecoder::appendText(const QString &t)
{
    appendDelta(StreamDelta::Text, t);
    m_text += t;
}

void StreamDecoder::appendReasoning(const QString &t)
{
    appendDelta(StreamDelta::Reasoning, t);
    m_reasoning += t;
}

void StreamDecoder::appendDelta(StreamDelta::Kind kind, const QString &t)
{
    if (t.isEmpty())
        return;
    if (!m_deltas.empty() && m_deltas.back().kind == kind)
        m_deltas.back().text += t;
    else
        m_deltas.push_back({kind, t});
}

void StreamDecoder::setStop(const QString &reason, bool truncatedByLimit)
{
    if (reason.isEmpty())
        return;
    m_stopReason = reason;
    m_truncated = truncatedByLimit;
}

void StreamDecoder::setUsage(const LlmUsage &u)
{
    if (u == m_usage)
        return;
    m_usage = u;
    m_usageChanged = true;
}

void StreamDecoder::fail(LlmErrorKind kind, const QString &detail)
{
    if (m_error != LlmErrorKind::None)
        return;
    m_error = kind;
    m_errorDetail = detail;
}

bool StreamDecoder::parseObject(const QByteArray &data, QJsonObject &out)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(data, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject()) {
        QString snippet = QString::fromUtf8(data.left(160)).simplified();
        if (data.size() > 160)
            snippet += QStringLiteral("…");
        fail(LlmErrorKind::MalformedStream,
             QCoreApplication::translate("kforge::StreamDecoder", "invalid JSON (%1) in \"%2\"")
                 .arg(err.error != QJsonParseError::NoError
                          ? err.errorString()
                          : QCoreApplication::translate("kforge::StreamDecoder", "not an object"),
                      snippet));
        return false;
    }
    out = doc.object();
    return true;
}

} // namespace kforge
