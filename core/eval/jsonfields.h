#pragma once
// Small helpers for reading the worker's JSON: numbers the worker may send as integers, doubles or
// strings (versions), and non-finite doubles, which JSON cannot hold as numbers: the worker writes them as
// "nan", "inf", "-inf" (docs/worker-protocol.md), and so does toValue().
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <cmath>
#include <limits>

namespace kforge::json {

inline double number(const QJsonObject &o, QLatin1String key, double fallback = 0)
{
    const QJsonValue v = o.value(key);
    if (v.isDouble())
        return v.toDouble();
    if (v.isString()) {
        const QString s = v.toString().trimmed().toLower();
        if (s == u"nan")
            return std::numeric_limits<double>::quiet_NaN();
        if (s == u"inf" || s == u"+inf" || s == u"infinity")
            return std::numeric_limits<double>::infinity();
        if (s == u"-inf" || s == u"-infinity")
            return -std::numeric_limits<double>::infinity();
        bool ok = false;
        const double d = s.toDouble(&ok);
        return ok ? d : fallback;
    }
    return fallback;
}

// A double that may be absent or null on the wire (e.g. an error that is NaN): NaN then.
inline double nullableNumber(const QJsonObject &o, QLatin1String key)
{
    return number(o, key, std::numeric_limits<double>::quiet_NaN());
}

// NaN and Inf become "nan", "inf", "-inf" so the document stays valid JSON and reads back the same.
inline QJsonValue toValue(double d)
{
    if (std::isfinite(d))
        return QJsonValue(d);
    if (std::isnan(d))
        return QJsonValue(QStringLiteral("nan"));
    return QJsonValue(d > 0 ? QStringLiteral("inf") : QStringLiteral("-inf"));
}

inline QString text(const QJsonObject &o, QLatin1String key)
{
    const QJsonValue v = o.value(key);
    if (v.isString())
        return v.toString();
    if (v.isDouble()) {
        const double d = v.toDouble();
        return d == std::floor(d) ? QString::number(qint64(d)) : QString::number(d);
    }
    return {};
}

} // namespace kforge::json
