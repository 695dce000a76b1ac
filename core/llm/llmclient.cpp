#include "core/llm/llmclient.h"

#include "core/llm/llmtransferloop.h"

#include <QPointer>

namespace kforge {

LlmClient::LlmClient(QObject *parent)
    : QObject(parent)
    , m_loop(std::make_unique<LlmTransferLoop>(this))
{
    qRegisterMetaType<kforge::LlmResult>();
    qRegisterMetaType<kforge::LlmUsage>();
    m_loop->start();
}

LlmClient::~LlmClient() = default; // the loop's destructor stops and joins the thread

quint64 LlmClient::send(const LlmRequest &request)
{
    const quint64 id = m_nextId++;
    m_active.insert(id);
    m_loop->submit(id, request);
    return id;
}

void LlmClient::cancel(quint64 id)
{
    if (m_active.contains(id))
        m_loop->cancel(id);
}

void LlmClient::cancelAll()
{
    if (!m_active.isEmpty())
        m_loop->cancelAll();
}

void LlmClient::deliver(const std::vector<LlmEvent> &events)
{
    const QPointer<LlmClient> self(this); // a slot may delete the client
    for (const LlmEvent &e : events) {
        if (!self)
            return;
        switch (e.type) {
        case LlmEvent::Started: Q_EMIT started(e.id); break;
        case LlmEvent::Retrying: Q_EMIT retrying(e.id, e.attempt, e.delayMs, e.text); break;
        case LlmEvent::Reasoning: Q_EMIT reasoningDelta(e.id, e.text); break;
        case LlmEvent::Text: Q_EMIT textDelta(e.id, e.text); break;
        case LlmEvent::Usage: Q_EMIT usageUpdated(e.id, e.usage); break;
        case LlmEvent::Finished:
            m_active.remove(e.id);
            m_total += e.result.usage;
            Q_EMIT finished(e.id, e.result);
            break;
        }
    }
}

} // namespace kforge
