#pragma once
// Reads the body of one streamed chat response (bytes in any chunking) into text and reasoning deltas,
// usage, the stop reason and protocol-level errors. No networking: the transport feeds it, and so do the
// unit tests and the fuzzer.
#include "core/llm/endpointconfig.h"
#include "core/llm/llmresult.h"
#include "core/llm/sseparser.h"

#include <QString>
#include <memory>
#include <vector>

class QJsonObject;

namespace kforge {

struct StreamDelta {
    enum Kind { Text, Reasoning };
    Kind kind = Text;
    QString text;
};

class StreamDecoder
{
public:
    virtual ~StreamDecoder() = default;
    static std::unique_ptr<StreamDecoder> create(LlmProtocol protocol);

    // The server answered with one JSON document instead of a stream (it ignored "stream": true).
    void setJsonBody(bool json) { m_jsonBody = json; }
    void feed(const char *data, qsizetype size);
    // End of the body. Decides between complete and incomplete; a decoder that failed stays failed.
    // bodyComplete is false when the connection broke: a half-received last event is then dropped, not parsed.
    void finish(bool bodyComplete = true);

    // New deltas since the last call, consecutive ones of the same kind merged.
    std::vector<StreamDelta> takeDeltas() { return std::exchange(m_deltas, {}); }
    bool takeUsageChanged() { return std::exchange(m_usageChanged, false); }

    const QString &text() const { return m_text; }
    const QString &reasoning() const { return m_reasoning; }
    const LlmUsage &usage() const { return m_usage; }
    const QString &stopReason() const { return m_stopReason; }
    const QString &model() const { return m_model; }
    bool ended() const { return m_ended; }         // [DONE] / message_stop seen (or a whole JSON body read)
    bool truncated() const { return m_truncated; } // stopped by the token limit
    bool hasContent() const { return !m_text.isEmpty() || !m_reasoning.isEmpty(); }
    // Set once the stream is unusable; feeding stops having any effect.
    LlmErrorKind error() const { return m_error; }
    const QString &errorDetail() const { return m_errorDetail; }
    qint64 keepAlives() const { return m_parser.commentCount(); }

protected:
    virtual void handleEvent(const SseEvent &event) = 0;
    virtual void handleJsonBody(const QJsonObject &body) = 0;
    // finish() without an end marker: may the answer still count as whole? (OpenAI: a finish_reason arrived)
    virtual bool endedImplicitly() const { return false; }

    void appendText(const QString &t);
    void appendReasoning(const QString &t);
    void setStop(const QString &reason, bool truncatedByLimit);
    void setUsage(const LlmUsage &u);
    void setModel(const QString &m)
    {
        if (!m.isEmpty())
            m_model = m;
    }
    void markEnded() { m_ended = true; }
    void fail(LlmErrorKind kind, const QString &detail);
    // Parses one event's data as a JSON object; on failure fails the stream and returns false.
    bool parseObject(const QByteArray &data, QJsonObject &out);
    const LlmUsage &currentUsage() const { return m_usage; }

private:
    void appendDelta(StreamDelta::Kind kind, const QString &t);

    SseParser m_parser;
    std::vector<SseEvent> m_events;
    bool m_jsonBody = false;
    QByteArray m_body;
    std::vector<StreamDelta> m_deltas;
    QString m_text;
    QString m_reasoning;
    LlmUsage m_usage;
    bool m_usageChanged = false;
    QString m_stopReason;
    QString m_model;
    bool m_ended = false;
    bool m_truncated = false;
    bool m_finished = false;
    LlmErrorKind m_error = LlmErrorKind::None;
    QString m_errorDetail;
};

} // namespace kforge
