#pragma once
// What ScriptedEvaluator answers in the optimizer tests: timing statistics of one value, and a correct result of
// given times. Never a measurement: ScriptedEvaluator flags every result "scripted".
#include "core/eval/evalresult.h"

namespace kforge::test {

inline TimingStats scriptedTiming(double ms)
{
    TimingStats t;
    t.medianMs = t.meanMs = t.minMs = t.p10Ms = t.p90Ms = ms;
    t.cv = 0.01;
    t.runs = 100;
    return t;
}

inline EvalResult scriptedCorrect(double refMs, double candMs)
{
    EvalResult r;
    r.verdict = Verdict::Correct;
    r.reference = scriptedTiming(refMs);
    r.candidate = scriptedTiming(candMs);
    r.speedup = refMs / candMs;
    r.verification.trials = 5;
    r.deviceName = QStringLiteral("Scripted GPU");
    return r;
}

} // namespace kforge::test
