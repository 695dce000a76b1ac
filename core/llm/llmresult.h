#pragma once
// The outcome of one streamed LLM request: what arrived (kept even when the stream broke), why it stopped,
// and a specific translated message when it failed.
#include "core/llm/llmusage.h"

#include <QMetaType>
#include <QString>

namespace kforge {

enum class LlmStatus {
    Complete,  // the stream ended properly and the model stopped on its own
    Truncated, // the stream ended properly but the model hit its token limit
    Cancelled, // cancelled by the caller; what arrived is kept
    Failed,    // an error before any content arrived
    Partial,   // an error after some content arrived: the text is kept but is not the whole answer
};

enum class LlmErrorKind {
    None,
    InvalidRequest, // bad URL, no model: nothing was sent
    DnsFailure,
    ConnectFailed, // refused or unreachable
    ConnectTimeout,
    TlsFailure,
    ConnectionLost, // the connection broke while sending or receiving
    IdleTimeout,    // the server went silent
    TotalTimeout,
    AuthFailed,       // 401/403
    NotFound,         // 404
    BadRequest,       // 400/413/422
    RateLimited,      // 429
    ServerError,      // 5xx, 529, provider "overloaded"
    HttpError,        // any other non-2xx status
    StreamIncomplete, // the body ended without [DONE] / message_stop
    MalformedStream,  // an event that is not valid JSON, or an oversized line
    ProviderError,    // an error object inside the stream
    ContentFiltered,  // the provider's filter stopped the answer
    Cancelled,
};

struct LlmResult {
    quint64 id = 0;
    LlmStatus status = LlmStatus::Failed;
    LlmErrorKind error = LlmErrorKind::None;
    QString errorMessage; // translated, specific, never contains the API key
    int httpStatus = 0;   // of the last attempt; 0 when no response arrived
    QString stopReason;   // as the provider named it: stop, length, end_turn, max_tokens...
    QString text;
    QString reasoning;
    QString model; // as the server reported it (may differ from the one asked for)
    LlmUsage usage;
    int attempts = 0;
    qint64 timeToFirstTokenMs = -1; // from send() to the first text or reasoning; -1 when none came
    qint64 totalMs = 0;

    bool succeeded() const { return status == LlmStatus::Complete; }
    bool hasContent() const { return !text.isEmpty() || !reasoning.isEmpty(); }
};

// Stable identifiers for JSON and the session store ("complete", "dns_failure"...).
QString llmStatusName(LlmStatus status);
QString llmErrorKindName(LlmErrorKind kind);

} // namespace kforge

Q_DECLARE_METATYPE(kforge::LlmResult)
