#pragma once
// How long to wait before another attempt: exponential backoff with jitter, or what the server asked for.
#include "core/llm/endpointconfig.h"

#include <QByteArray>
#include <QDateTime>
#include <optional>

namespace kforge {

class RetryPolicy
{
public:
    explicit RetryPolicy(const LlmLimits &limits)
        : m_limits(limits)
    {
    }

    // Delay before attempt number `nextAttempt` (2 for the first retry). `random01` in [0, 1) is the jitter
    // draw, passed in so the policy is testable.
    int backoffMs(int nextAttempt, double random01) const;
    // The delay to use: the server's Retry-After when it gave one, else backoff. nullopt when the server
    // asked for longer than maxRetryAfterMs (then the request fails rather than hangs).
    std::optional<int> delayMs(int nextAttempt, std::optional<qint64> retryAfterMs, double random01) const;

    // Retry-After is either delta-seconds or an HTTP date; retry-after-ms (OpenAI) is milliseconds.
    static std::optional<qint64> parseRetryAfter(const QByteArray &value, const QDateTime &now);
    static std::optional<qint64> parseRetryAfterMs(const QByteArray &value);

private:
    LlmLimits m_limits;
};

} // namespace kforge
