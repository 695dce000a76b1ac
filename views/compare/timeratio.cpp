#include "views/compare/timeratio.h"

#include <cmath>

namespace kforge {

std::optional<TimeRatio> timeRatio(const MeasurementFigures &a, const MeasurementFigures &b)
{
    if (!a.medianMs || !b.medianMs || *a.medianMs <= 0 || *b.medianMs <= 0)
        return std::nullopt;
    TimeRatio r;
    r.ratio = *a.medianMs / *b.medianMs;
    // The worker keeps each side's 10th and 90th percentile of its timed runs. The two variants were timed in
    // different evaluations, so what separates them is run-to-run spread, not the (tiny, with hundreds of runs)
    // standard error of a median: the interval is the ratio of a fast run of one to a slow run of the other,
    // [p10(A) / p90(B), p90(A) / p10(B)], an 80% band of each side put against the other. It holds 1 when the
    // two bands overlap: the gap is then within noise.
    if (a.p10Ms && a.p90Ms && b.p10Ms && b.p90Ms) {
        r.low = std::min(r.ratio, *a.p10Ms / *b.p90Ms);
        r.high = std::max(r.ratio, *a.p90Ms / *b.p10Ms);
        r.basis = TimeRatio::Basis::Quantiles;
        return r;
    }
    // Older results carry only the coefficient of variation. The same 80% band under a log-normal spread:
    // ln(ratio) ± 1.2816 · sqrt(cv(A)² + cv(B)²) (1.2816: the 90th percentile of the standard normal).
    // Without either figure the spread is unknown and taken as 0: the interval is the ratio itself.
    const double cvA = a.cv.value_or(0), cvB = b.cv.value_or(0);
    const double half = 1.2816 * std::sqrt(cvA * cvA + cvB * cvB);
    r.low = r.ratio * std::exp(-half);
    r.high = r.ratio * std::exp(half);
    r.basis = TimeRatio::Basis::Cv;
    return r;
}

} // namespace kforge
