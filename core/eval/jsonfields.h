#pragma once
// Small helpers for reading the worker's JSON: numbers the worker may send as integers, doubles or
// strings (versions), and doubles that may be null (NaN/Inf cannot be written as JSON numbers).
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
        bool ok = false;
        const double d = v.toString().toDouble(&ok);
        return ok ? d : fallback;
    }
    return fallback;
}

// A double that may be absent or null on the wire (e.g. an error that is NaN): NaN then.
inline double nullableNumber(const QJsonObject &o, QLatin1String key)
{
    return number(o, key, std::numeric_limits<double>::quiet_NaN());
}

// NaN and Inf become null so the document stays valid JSON.
inline QJsonValue toValue(double d)
{
    return std::isfinite(d) ? QJsonValue(d) : QJsonValue(QJsonValue::Null);
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
