#pragma once
// How every measured figure is written, for people and for the model: the few digits a human needs, one unit
// policy for times, and the names of the two times a measurement carries (docs/profiling.md, "The two times").
#include <QCoreApplication>
#include <QString>

namespace kforge {

// A number with 3 significant digits, no exponent ("0.0318", "4.39", "75.1", "4219").
QString formatMeasure(double value);

// The unit a time is written in: microseconds below 1 ms, milliseconds from there on.
enum class TimeUnit { Us, Ms };
TimeUnit timeUnitFor(double ms);
QString timeUnitSymbol(TimeUnit unit); // "µs", "ms"
double inTimeUnit(double ms, TimeUnit unit);
// A time given in ms, with formatMeasure's digits in the unit its magnitude picks: "31.8 µs", "1.20 ms", "412 ms".
// `unit` forces one (the two sides of a Compare row, a chart axis), so figures side by side read in the same unit.
QString formatDuration(double ms);
QString formatDuration(double ms, TimeUnit unit);

// The two times of a measurement, named the same in the panels, the report and the exports:
// - event time (median): one call of the candidate as CUDA events around it saw it, the median over the timed
//   runs; speedups and the speed of light come from it.
// - kernel time (CUPTI): the GPU time of the kernels the call launched, summed per run from CUPTI's trace of
//   extra runs after timing (the median over those runs); launch gaps and host work are not in it.
// The English names (reports and exports are English) and the translated ones (panels) come from one text.
class TimeNames
{
    Q_DECLARE_TR_FUNCTIONS(kforge::TimeNames)

public:
    static const char *const kEventTime;  // "Event time (median)"
    static const char *const kKernelTime; // "Kernel time (CUPTI)"
    static QString eventTime() { return tr(kEventTime); }
    static QString kernelTime() { return tr(kKernelTime); }
    static QString eventTimeEnglish() { return QString::fromLatin1(kEventTime); }
    static QString kernelTimeEnglish() { return QString::fromLatin1(kKernelTime); }
    // The one-line definitions, for tooltips.
    static QString eventTimeTip();
    static QString kernelTimeTip();
};

} // namespace kforge
