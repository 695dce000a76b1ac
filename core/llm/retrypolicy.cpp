#include "core/llm/retrypolicy.h"

#include <QLocale>
#include <QTimeZone>
#include <algorithm>
#include <cmath>

namespace kforge {

int RetryPolicy::backoffMs(int nextAttempt, double random01) const
{
    const int exponent = std::clamp(nextAttempt - 2, 0, 20);
    const double ceiling = std::min<double>(m_limits.backoffMaxMs, double(m_limits.backoffBaseMs) * std::pow(2.0, exponent));
    // "Equal jitter": at least half the ceiling, so clients that failed together spread out but still back off.
    return int(ceiling / 2 + ceiling / 2 * std::clamp(random01, 0.0, 1.0));
}

std::optional<int> RetryPolicy::delayMs(int nextAttempt, std::optional<qint64> retryAfterMs, double random01) const
{
    if (retryAfterMs) {
        if (*retryAfterMs > m_limits.maxRetryAfterMs)
            return std::nullopt;
        return int(std::max<qint64>(0, *retryAfterMs));
    }
    return backoffMs(nextAttempt, random01);
}

std::optional<qint64> RetryPolicy::parseRetryAfter(const QByteArray &value, const QDateTime &now)
{
    const QByteArray v = value.trimmed();
    if (v.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double secs = v.toDouble(&ok);
    if (ok && std::isfinite(secs) && secs >= 0 && secs < 1e7)
        return qint64(std::llround(secs * 1000));
    // IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT") or the old RFC 850 form ("Sunday, 06-Nov-94 ...").
    // The weekday is dropped: it adds nothing, and a two-digit year would make it disagree with the date.
    QString text = QString::fromLatin1(v);
    const qsizetype comma = text.indexOf(QLatin1Char(','));
    if (comma >= 0)
        text = text.mid(comma + 1).trimmed();
    // Date and time are read apart and joined in UTC, so no local daylight-saving gap can invalidate them.
    const QStringList parts = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (parts.size() < 3 || parts.constLast() != QLatin1String("GMT"))
        return std::nullopt;
    const QTime time = QTime::fromString(parts.at(parts.size() - 2), QStringLiteral("HH:mm:ss"));
    QDate date;
    if (parts.size() == 5) {
        date = QLocale::c().toDate(parts.mid(0, 3).join(QLatin1Char(' ')), QStringLiteral("dd MMM yyyy"));
    } else if (parts.size() == 3) {
        date = QLocale::c().toDate(parts.at(0), QStringLiteral("dd-MMM-yy"));
        if (date.isValid() && date.year() < 1970) // two-digit years of the old RFC 850 form
            date = date.addYears(100);
    }
    if (!date.isValid() || !time.isValid())
        return std::nullopt;
    const QDateTime when(date, time, QTimeZone::utc());
    return std::max<qint64>(0, now.msecsTo(when));
}

std::optional<qint64> RetryPolicy::parseRetryAfterMs(const QByteArray &value)
{
    bool ok = false;
    const double ms = value.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(ms) || ms < 0 || ms > 1e10)
        return std::nullopt;
    return qint64(std::llround(ms));
}

} // namespace kforge
