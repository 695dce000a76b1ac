#pragma once
// Internal to LlmClient: the thread that runs every transfer on one libcurl multi handle. It sleeps in
// curl_multi_poll and is woken by curl_multi_wakeup when a request is queued or cancelled.
#include "core/llm/llmrequest.h"
#include "core/llm/llmresult.h"

#include <QThread>
#include <curl/curl.h>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

namespace kforge {

class LlmClient;

// What the loop hands to the client's thread, in order, in batches.
struct LlmEvent {
    enum Type { Started, Retrying, Reasoning, Text, Usage, Finished };
    Type type = Text;
    quint64 id = 0;
    QString text; // delta text, or the reason for a retry
    int attempt = 0;
    int delayMs = 0;
    LlmUsage usage;
    LlmResult result;
};

class LlmTransferLoop : public QThread
{
public:
    explicit LlmTransferLoop(LlmClient *client);
    ~LlmTransferLoop() override;

    // All three are thread-safe; they queue a command and wake the loop.
    void submit(quint64 id, const LlmRequest &request);
    void cancel(quint64 id);
    void cancelAll();

    struct Transfer;

protected:
    void run() override;

private:
    struct Command {
        enum Kind { Submit, Cancel, CancelAll } kind = Submit;
        quint64 id = 0;
        LlmRequest request;
    };
    using Clock = std::chrono::steady_clock;

    void runCommands();
    void startAttempt(Transfer &t);
    void checkTimers();
    int pollTimeoutMs() const;
    void readDone();
    // The attempt is over (curl finished, or we stopped it): decide between retry and result.
    void attemptOver(Transfer &t, CURLcode code);
    void abortAttempt(Transfer &t, LlmErrorKind kind);
    void detach(Transfer &t);
    void finishTransfer(Transfer &t, LlmStatus status, LlmErrorKind kind, const QString &detail);
    void flush();

    static size_t onWrite(char *data, size_t size, size_t count, void *user);
    static size_t onHeader(char *data, size_t size, size_t count, void *user);
    void queueDelta(LlmEvent::Type type, quint64 id, const QString &text);
    void streamStarted(Transfer &t);
    // Turns what the decoder produced since the last call into events.
    void drain(Transfer &t);

    LlmClient *m_client;
    CURLM *m_multi = nullptr;
    std::mutex m_mutex; // guards m_commands and m_stop
    std::vector<Command> m_commands;
    bool m_stop = false;

    // Loop thread only.
    std::map<quint64, std::unique_ptr<Transfer>> m_transfers;
    std::vector<LlmEvent> m_batch;
    std::mt19937 m_random;
};

} // namespace kforge
