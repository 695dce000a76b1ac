#pragma once
// Streams chat answers from OpenAI-compatible and Anthropic endpoints. Requests run concurrently on one
// libcurl multi loop in a thread of its own; everything arrives here as queued signals in this object's thread.
#include "core/llm/llmrequest.h"
#include "core/llm/llmresult.h"
#include "core/llm/llmusage.h"

#include <QObject>
#include <QSet>
#include <memory>

namespace kforge {

class LlmTransferLoop;
struct LlmEvent;

class LlmClient : public QObject
{
    Q_OBJECT
public:
    explicit LlmClient(QObject *parent = nullptr);
    ~LlmClient() override; // cancels what is running and joins the thread; no signal follows

    // Queues a request and returns its id (never 0). A request that cannot be sent still gets finished().
    quint64 send(const LlmRequest &request);
    void cancel(quint64 id);
    void cancelAll();

    int activeCount() const { return int(m_active.size()); }
    bool isActive(quint64 id) const { return m_active.contains(id); }
    // Sum over every finished request of this client.
    LlmUsage totalUsage() const { return m_total; }

Q_SIGNALS:
    // The server accepted the request (2xx) and the answer is about to stream.
    void started(quint64 id);
    // Another attempt follows in delayMs; reason is the translated message of the failed one.
    void retrying(quint64 id, int nextAttempt, int delayMs, const QString &reason);
    void reasoningDelta(quint64 id, const QString &text);
    void textDelta(quint64 id, const QString &text);
    void usageUpdated(quint64 id, const kforge::LlmUsage &usage);
    // Exactly once per id, last.
    void finished(quint64 id, const kforge::LlmResult &result);

private:
    friend class LlmTransferLoop;
    void deliver(const std::vector<LlmEvent> &events);

    std::unique_ptr<LlmTransferLoop> m_loop;
    QSet<quint64> m_active;
    LlmUsage m_total;
    quint64 m_nextId = 1;
};

} // namespace kforge
