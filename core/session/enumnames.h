#pragma once
// Internal: the string form of the session's enums, as stored in the file.
#include <QString>
#include <array>
#include <utility>

namespace kforge::detail {

template <typename E, size_t N>
QString nameOf(const std::array<std::pair<E, const char *>, N> &table, E value)
{
    for (const auto &[e, name] : table)
        if (e == value)
            return QString::fromLatin1(name);
    return {};
}

template <typename E, size_t N>
E valueOf(const std::array<std::pair<E, const char *>, N> &table, const QString &s, E fallback, bool *ok)
{
    for (const auto &[e, name] : table)
        if (s == QLatin1String(name)) {
            if (ok)
                *ok = true;
            return e;
        }
    if (ok)
        *ok = false;
    return fallback;
}

} // namespace kforge::detail
