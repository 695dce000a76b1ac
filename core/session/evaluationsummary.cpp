#include "core/session/evaluationsummary.h"

#include "core/eval/measurement.h"

#include <cmath>

namespace kforge {

namespace {
std::optional<double> finite(double v)
{
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}
} // namespace

EvaluationSummary EvaluationSummary::fromMeasurement(const Measurement &m)
{
    EvaluationSummary s;
    s.verdict = m.verdictName();
    s.message = m.message;
    s.speedup = finite(m.speedup);
    s.referenceMedianMs = finite(m.reference.medianMs);
    s.candidateMedianMs = finite(m.candidate.medianMs);
    s.candidateCv = finite(m.candidate.cv);
    s.flags = m.flags;
    return s;
}

} // namespace kforge
