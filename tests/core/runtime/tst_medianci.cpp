// The adaptive timing's statistics without a GPU (core/runtime/worker/medianci.h): the median's 95% interval
// from order statistics on known samples, and the stop rule on synthetic streams of per-call figures.
#include "check.h"
#include "core/runtime/worker/medianci.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

using namespace kforge::runtime;

namespace {

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}

std::vector<double> range(int n) // 1, 2, ..., n, shuffled
{
    std::vector<double> v;
    for (int i = 1; i <= n; ++i)
        v.push_back(i);
    std::shuffle(v.begin(), v.end(), std::mt19937(7));
    return v;
}

void knownIntervals()
{
    // n = 100: j = floor(50 - 9.8) = 40, k = ceil(51 + 9.8) = 61 (the tabulated 95% interval of the median).
    KF_CHECK(near(median(range(100)), 50.5) && near(median({3, 1, 2}), 2) && median({}) == 0);
    KF_CHECK(near(median({4, 1, 3, 2}), 2.5));
    MedianCi ci = medianCi(range(100));
    KF_CHECK(ci.n == 100 && ci.bounded);
    KF_CHECK(near(ci.median, 50.5) && near(ci.lowMs, 40) && near(ci.highMs, 61));
    KF_CHECK(near(ci.halfWidth, 21.0 / 2 / 50.5));
    // n = 8, the fewest that bound it: j = floor(4 - 2.77) = 1, k = ceil(5 + 2.77) = 8.
    ci = medianCi(range(8));
    KF_CHECK(ci.bounded && near(ci.median, 4.5) && near(ci.lowMs, 1) && near(ci.highMs, 8));
    KF_CHECK(near(ci.halfWidth, 7.0 / 2 / 4.5));
    // n = 9: j = floor(4.5 - 2.94) = 1, k = ceil(5.5 + 2.94) = 9; n = 25: j = floor(12.5 - 4.9) = 7, k = 19.
    ci = medianCi(range(9));
    KF_CHECK(ci.bounded && near(ci.median, 5) && near(ci.lowMs, 1) && near(ci.highMs, 9));
    ci = medianCi(range(25));
    KF_CHECK(ci.bounded && near(ci.median, 13) && near(ci.lowMs, 7) && near(ci.highMs, 19));
    // n = 7: j = floor(3.5 - 2.59) = 0: unbounded, never within a target.
    ci = medianCi(range(7));
    KF_CHECK(!ci.bounded && std::isinf(ci.halfWidth) && near(ci.median, 4));
    ci = medianCi({});
    KF_CHECK(ci.n == 0 && !ci.bounded && std::isinf(ci.halfWidth));
    // Scale-free: the relative half-width of 1000 x the samples is the same; all zero: not positive.
    std::vector<double> scaled = range(100);
    for (double &v : scaled)
        v *= 1000;
    KF_CHECK(near(medianCi(scaled).halfWidth, 21.0 / 2 / 50.5));
    KF_CHECK(std::isinf(medianCi(std::vector<double>(20, 0.0)).halfWidth));
    // Constant samples: a zero-width interval.
    ci = medianCi(std::vector<double>(12, 0.25));
    KF_CHECK(ci.bounded && ci.halfWidth == 0 && ci.lowMs == 0.25 && ci.highMs == 0.25);
}

struct Outcome {
    StopReason reason = StopReason::None;
    StopState state;
};

// The evaluator's loop on synthetic per-call figures: one sample per side per round, `roundMs` of timing each,
// `k` calls per round; the decision before every round, as in Judge::rounds.
Outcome simulate(const StopRule &rule, const std::function<double()> &cand, const std::function<double()> &ref, int k,
                 double roundMs, int kMost = 0)
{
    std::vector<double> c, r;
    for (int round = 0; round < 1000000; ++round) {
        StopState s;
        s.rounds = static_cast<int>(c.size());
        s.calls = static_cast<long long>(s.rounds) * k;
        s.callsMost = static_cast<long long>(s.rounds) * std::max(k, kMost);
        s.timingMs = s.rounds * roundMs;
        s.elapsedMs = 500 + s.timingMs; // verification and warm-up before timing
        s.candidate = medianCi(c);
        s.reference = medianCi(r);
        if (const StopReason why = stopReason(rule, s); why != StopReason::None)
            return Outcome{why, s};
        c.push_back(cand());
        r.push_back(ref());
    }
    return {};
}

void stopRule()
{
    std::mt19937_64 rng(42);
    std::normal_distribution<double> normal(0, 1);
    const auto tight = [&](double ms) { return [&, ms] { return ms * (1 + 0.002 * normal(rng)); }; };
    const auto heavy = [&](double ms) { return [&, ms] { return ms * std::exp(0.5 * normal(rng)); }; };
    const auto constant = [](double ms) { return [ms] { return ms; }; };
    StopRule rule; // the defaults: ±1%, 8 rounds, 100 calls, 100 ms, 10000 calls, 5000 ms; 60 s timeout
    // Tight noise on both sides: stops at the target as soon as the minimums allow (100 ms of 5 ms rounds).
    Outcome o = simulate(rule, tight(0.02), tight(0.5), 256, 5);
    KF_CHECK_MSG(o.reason == StopReason::Target, stopReasonName(o.reason));
    KF_CHECK_MSG(o.state.rounds == 20, std::to_string(o.state.rounds));
    KF_CHECK(o.state.candidate.halfWidth <= 0.01 && o.state.reference.halfWidth <= 0.01);
    // Heavy noise (log-normal, sigma 0.5): the interval stays wider than ±1%, timing runs to the calls' cap.
    o = simulate(rule, heavy(0.02), heavy(0.5), 256, 5);
    KF_CHECK_MSG(o.reason == StopReason::MaxRuns, stopReasonName(o.reason));
    KF_CHECK(o.state.calls >= 10000 && o.state.rounds == 40 && o.state.candidate.halfWidth > 0.01);
    // ...or to max_time_ms where the calls' cap is far.
    o = simulate(rule, heavy(3), heavy(3), 3, 20);
    KF_CHECK_MSG(o.reason == StopReason::MaxTime, stopReasonName(o.reason));
    KF_CHECK_MSG(o.state.timingMs >= 5000 && o.state.timingMs < 5020, std::to_string(o.state.timingMs));
    // Both sides must reach it: a tight candidate does not stop while the reference is noisy.
    o = simulate(rule, tight(0.02), heavy(0.5), 256, 5);
    KF_CHECK_MSG(o.reason == StopReason::MaxRuns, stopReasonName(o.reason));
    o = simulate(rule, heavy(0.02), tight(0.5), 256, 5);
    KF_CHECK_MSG(o.reason == StopReason::MaxRuns, stopReasonName(o.reason));
    // The minimum of rounds holds even for identical samples without time or call minimums.
    StopRule bare = rule;
    bare.minRuns = 1;
    bare.minTimeMs = 0;
    o = simulate(bare, constant(1), constant(2), 3, 5);
    KF_CHECK_MSG(o.reason == StopReason::Target && o.state.rounds == 8, std::to_string(o.state.rounds));
    // min_runs counts: 100 calls of K = 3 take 34 rounds.
    bare.minRuns = 100;
    o = simulate(bare, constant(1), constant(2), 3, 1);
    KF_CHECK_MSG(o.reason == StopReason::Target && o.state.rounds == 34, std::to_string(o.state.rounds));
    // ...of the side with more calls: a 3-call reference beside a 256-call candidate needs only the 8 rounds.
    o = simulate(bare, constant(1), constant(2), 3, 1, 256);
    KF_CHECK_MSG(o.reason == StopReason::Target && o.state.rounds == 8, std::to_string(o.state.rounds));
    // The fixed rule keeps counting the side with fewer.
    StopRule fixedFew = bare;
    fixedFew.ciTarget = 0;
    o = simulate(fixedFew, constant(1), constant(2), 3, 1, 256);
    KF_CHECK_MSG(o.reason == StopReason::Fixed && o.state.rounds == 34, std::to_string(o.state.rounds));
    // A looser target stops the heavy noise where the interval narrows to it: about ±1.2 / sqrt(n) at sigma 0.5
    // (±20%: some 40 rounds), well before the cap.
    StopRule loose = rule;
    loose.ciTarget = 0.2;
    loose.maxRuns = 1000000;
    o = simulate(loose, heavy(0.02), heavy(0.02), 256, 5);
    KF_CHECK_MSG(o.reason == StopReason::Target && o.state.rounds > 20 && o.state.rounds < 100,
                 std::to_string(o.state.rounds));
    // ci_target 0: the fixed rule, min_time_ms 1000 whatever the noise.
    StopRule fixed = rule;
    fixed.ciTarget = 0;
    fixed.minTimeMs = 1000;
    fixed.maxRuns = 1000000;
    o = simulate(fixed, tight(0.02), tight(0.5), 256, 5);
    KF_CHECK_MSG(o.reason == StopReason::Fixed && o.state.rounds == 200, std::to_string(o.state.rounds));
    o = simulate(fixed, heavy(0.02), heavy(0.5), 256, 5);
    KF_CHECK_MSG(o.reason == StopReason::Fixed && o.state.rounds == 200, std::to_string(o.state.rounds));
    // The task's timeout: 40% ends the timing once the minimums hold, 50% below them.
    StopRule shortTask = rule;
    shortTask.maxTimeMs = 3600000;
    shortTask.softEndMs = 2000;
    shortTask.hardEndMs = 2500;
    o = simulate(shortTask, heavy(3), heavy(3), 3, 20);
    KF_CHECK_MSG(o.reason == StopReason::MaxTime && o.state.elapsedMs > 2000 && o.state.elapsedMs <= 2020,
                 std::to_string(o.state.elapsedMs));
    shortTask.minRuns = 1000000;
    shortTask.maxRuns = 1000000;
    o = simulate(shortTask, tight(3), tight(3), 3, 20);
    KF_CHECK_MSG(o.reason == StopReason::MaxTime && o.state.elapsedMs > 2500 && o.state.elapsedMs <= 2520,
                 std::to_string(o.state.elapsedMs));
    // max_time_ms below min_time_ms: the minimum wins.
    StopRule inverted = rule;
    inverted.minTimeMs = 800;
    inverted.maxTimeMs = 300;
    o = simulate(inverted, heavy(3), heavy(3), 3, 20);
    KF_CHECK_MSG(o.reason == StopReason::MaxTime && o.state.timingMs == 800, std::to_string(o.state.timingMs));
    KF_CHECK(stopReasonName(StopReason::Target) == "target" && stopReasonName(StopReason::None).empty());
}

} // namespace

int main()
{
    knownIntervals();
    stopRule();
    return kforge::runtime::test::finish("tst_medianci");
}
