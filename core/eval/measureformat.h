#pragma once
// How every measured figure is written, for people and for the model: the few digits a human needs.
#include <QString>

namespace kforge {

// A number with 3 significant digits, no exponent ("0.0318", "4.39", "75.1", "4219").
QString formatMeasure(double value);

} // namespace kforge
