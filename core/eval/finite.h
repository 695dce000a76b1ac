#pragma once
// A measured double as the summaries keep it: NaN and infinities (a failed or absent timing) become "none".
#include <cmath>
#include <optional>

namespace kforge {

inline std::optional<double> finiteOrNone(double v)
{
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

} // namespace kforge
