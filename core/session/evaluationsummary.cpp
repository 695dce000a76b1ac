#include "core/session/evaluationsummary.h"

#include "core/eval/finite.h"
#include "core/eval/measurement.h"

#include <cmath>

namespace kforge {

EvaluationSummary EvaluationSummary::fromMeasurement(const Measurement &m)
{
    EvaluationSummary s;
    s.setVerdictName(m.verdictName());
    s.message = m.message;
    s.speedup = finiteOrNone(m.speedup);
    s.referenceMedianMs = finiteOrNone(m.reference.medianMs);
    s.candidateMedianMs = finiteOrNone(m.candidate.medianMs);
    s.candidateCv = finiteOrNone(m.candidate.cv);
    s.flags = m.flags;
    return s;
}

QString EvaluationSummary::verdictName() const
{
    return verdict ? verdictToString(*verdict) : otherVerdict;
}

void EvaluationSummary::setVerdictName(const QString &wire)
{
    verdict = verdictFromString(wire);
    otherVerdict = verdict ? QString() : wire;
}

} // namespace kforge
