#include "core/eval/measureformat.h"

#include <algorithm>
#include <cmath>

namespace kforge {

QString formatMeasure(double value)
{
    const double a = std::fabs(value);
    if (a >= 100 || value == std::floor(value))
        return QString::number(value, 'f', 0);
    if (a >= 10)
        return QString::number(value, 'f', 1);
    if (a >= 1)
        return QString::number(value, 'f', 2);
    const int decimals = std::min(9, 2 - int(std::floor(std::log10(a))));
    return QString::number(value, 'f', decimals);
}

} // namespace kforge
