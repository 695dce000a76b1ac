#include "core/llm/llmresult.h"

namespace kforge {

QString llmStatusName(LlmStatus status)
{
    switch (status) {
    case LlmStatus::Complete: return QStringLiteral("complete");
    case LlmStatus::Truncated: return QStringLiteral("truncated");
    case LlmStatus::Cancelled: return QStringLiteral("cancelled");
    case LlmStatus::Failed: return QStringLiteral("failed");
    case LlmStatus::Partial: return QStringLiteral("partial");
    }
    return {};
}

QString llmErrorKindName(LlmErrorKind kind)
{
    switch (kind) {
    case LlmErrorKind::None: return QStringLiteral("none");
    case LlmErrorKind::InvalidRequest: return QStringLiteral("invalid_request");
    case LlmErrorKind::DnsFailure: return QStringLiteral("dns_failure");
    case LlmErrorKind::ConnectFailed: return QStringLiteral("connect_failed");
    case LlmErrorKind::ConnectTimeout: return QStringLiteral("connect_timeout");
    case LlmErrorKind::TlsFailure: return QStringLiteral("tls_failure");
    case LlmErrorKind::ConnectionLost: return QStringLiteral("connection_lost");
    case LlmErrorKind::IdleTimeout: return QStringLiteral("idle_timeout");
    case LlmErrorKind::TotalTimeout: return QStringLiteral("total_timeout");
    case LlmErrorKind::AuthFailed: return QStringLiteral("auth_failed");
    case LlmErrorKind::NotFound: return QStringLiteral("not_found");
    case LlmErrorKind::BadRequest: return QStringLiteral("bad_request");
    case LlmErrorKind::RateLimited: return QStringLiteral("rate_limited");
    case LlmErrorKind::ServerError: return QStringLiteral("server_error");
    case LlmErrorKind::HttpError: return QStringLiteral("http_error");
    case LlmErrorKind::StreamIncomplete: return QStringLiteral("stream_incomplete");
    case LlmErrorKind::MalformedStream: return QStringLiteral("malformed_stream");
    case LlmErrorKind::ProviderError: return QStringLiteral("provider_error");
    case LlmErrorKind::ContentFiltered: return QStringLiteral("content_filtered");
    case LlmErrorKind::Cancelled: return QStringLiteral("cancelled");
    }
    return {};
}

} // namespace kforge
