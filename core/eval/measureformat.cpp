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

TimeUnit timeUnitFor(double ms)
{
    return std::fabs(ms) < 1.0 ? TimeUnit::Us : TimeUnit::Ms;
}

QString timeUnitSymbol(TimeUnit unit)
{
    return unit == TimeUnit::Us ? QStringLiteral("µs") : QStringLiteral("ms");
}

double inTimeUnit(double ms, TimeUnit unit)
{
    return unit == TimeUnit::Us ? ms * 1000.0 : ms;
}

QString formatDuration(double ms)
{
    return formatDuration(ms, timeUnitFor(ms));
}

QString formatDuration(double ms, TimeUnit unit)
{
    return formatMeasure(inTimeUnit(ms, unit)) + QLatin1Char(' ') + timeUnitSymbol(unit);
}

const char *const TimeNames::kEventTime = QT_TRANSLATE_NOOP("kforge::TimeNames", "Event time (median)");
const char *const TimeNames::kKernelTime = QT_TRANSLATE_NOOP("kforge::TimeNames", "Kernel time (CUPTI)");

QString TimeNames::eventTimeTip()
{
    return tr("One call of the kernel as CUDA events around it saw it, the median over the timed runs. Speedups and "
              "the speed of light come from it.");
}

QString TimeNames::kernelTimeTip()
{
    return tr("The GPU time of the kernels one call launched, summed per run from CUPTI's trace of extra runs after "
              "timing. Launch gaps and host work are not in it.");
}

} // namespace kforge
