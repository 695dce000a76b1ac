#pragma once
// Whether the time difference of two measured variants is real: the ratio of their median times with an
// interval from the spread of each side's timed runs, and "within noise" when that interval holds 1.
#include "core/eval/measurementfigures.h"

#include <optional>

namespace kforge {

struct TimeRatio {
    enum class Basis { Quantiles, Cv };
    double ratio = 1; // A's median time over B's: below 1, A is faster
    double low = 1;   // the interval of the ratio (see timeRatio())
    double high = 1;
    Basis basis = Basis::Quantiles;

    bool withinNoise() const { return low <= 1.0 && high >= 1.0; }
};

// Empty unless both sides have a positive median time.
std::optional<TimeRatio> timeRatio(const MeasurementFigures &a, const MeasurementFigures &b);

} // namespace kforge
