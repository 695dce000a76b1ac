// Seeds without a GPU (core/runtime/worker/seeds.h, judgeoptions.h): every evaluation's options get a fresh
// seed from the random source, a requested seed is kept exactly (up to 2^63 - 1), derived seeds differ per
// stream and are reproducible, and the options survive a JSON round trip.
#include "check.h"
#include "core/runtime/worker/judgeoptions.h"
#include "core/runtime/worker/seeds.h"

#include <set>

using namespace kforge::runtime;
using Json = nlohmann::ordered_json;

namespace {

void drawn()
{
    std::set<uint64_t> seen;
    uint64_t orBits = 0;
    for (int i = 0; i < 256; ++i) {
        const uint64_t s = drawSeed();
        KF_CHECK(s <= kMaxSeed);
        seen.insert(s);
        orBits |= s;
    }
    KF_CHECK_MSG(seen.size() == 256, std::to_string(seen.size()) + " distinct of 256");
    KF_CHECK(orBits == kMaxSeed); // every one of the 63 bits is used
}

void derived()
{
    const uint64_t e = 0x123456789abcdefull;
    KF_CHECK(deriveSeed(e, seedstream::trial(0)) == deriveSeed(e, seedstream::trial(0)));
    std::set<uint64_t> seen;
    for (uint64_t i = 0; i < 64; ++i)
        for (uint64_t s : {seedstream::trial(i), seedstream::batch(i), seedstream::poison(i), seedstream::edge(i),
                           seedstream::choice(i)}) {
            const uint64_t d = deriveSeed(e, s);
            KF_CHECK(d <= kMaxSeed && d != e);
            seen.insert(d);
        }
    KF_CHECK_MSG(seen.size() == 64 * 5, std::to_string(seen.size()));
    // Another evaluation seed gives other streams; neighbouring seeds are not neighbouring streams.
    KF_CHECK(deriveSeed(e + 1, seedstream::trial(0)) != deriveSeed(e, seedstream::trial(0)));
    KF_CHECK(deriveSeed(e + 1, seedstream::trial(0)) != deriveSeed(e, seedstream::trial(1)));
    KF_CHECK(deriveSeed(1, 0) != deriveSeed(0, 1));
    // Known answers (from an independent SplitMix64 in Python): the derivation is part of what `--seed S`
    // reproduces, so it must not change silently.
    KF_CHECK(deriveSeed(1, seedstream::trial(0)) == 0x75487cc7cd8e7835ull);
    KF_CHECK(deriveSeed(e, seedstream::batch(7)) == 0x1a4b10c247c007ddull);
}

void options()
{
    std::string error;
    EvalOptions a, b;
    KF_CHECK(EvalOptions::fromJson(Json::object(), a, error) && EvalOptions::fromJson(Json(nullptr), b, error));
    KF_CHECK_MSG(a.seed != b.seed, "two evaluations without a seed got the same one");
    KF_CHECK(!a.seedGiven && !b.seedGiven);
    KF_CHECK(a.seed <= kMaxSeed && b.seed <= kMaxSeed);
    EvalOptions c;
    KF_CHECK(EvalOptions::fromJson(Json{{"seed", nullptr}}, c, error) && !c.seedGiven && c.seed != a.seed);

    // A given seed is kept, to the last bit.
    for (uint64_t s : {uint64_t{0}, uint64_t{1}, uint64_t{9007199254740993ull}, kMaxSeed}) {
        EvalOptions o;
        KF_CHECK_MSG(EvalOptions::fromJson(Json{{"seed", s}}, o, error), error);
        KF_CHECK_MSG(o.seed == s && o.seedGiven, std::to_string(o.seed) + " for " + std::to_string(s));
        // Through text too, as the client sends it.
        EvalOptions p;
        KF_CHECK(EvalOptions::fromJson(Json::parse(Json{{"seed", s}}.dump()), p, error) && p.seed == s);
    }
    EvalOptions whole;
    KF_CHECK(EvalOptions::fromJson(Json{{"seed", 42.0}}, whole, error) && whole.seed == 42 && whole.seedGiven);
    for (const Json &bad : {Json{{"seed", -1}}, Json{{"seed", 1.5}}, Json{{"seed", "12"}},
                            Json{{"seed", uint64_t{kMaxSeed} + 1}}, Json{{"seed", 1e300}}, Json{{"seed", true}}}) {
        EvalOptions o;
        KF_CHECK_MSG(!EvalOptions::fromJson(bad, o, error), bad.dump());
        KF_CHECK_CONTAINS(error, "options.seed: expected an integer in [0, 9223372036854775807]");
    }

    // Round trip: every option, the seed in use included, so the object reproduces the evaluation.
    EvalOptions o;
    KF_CHECK(EvalOptions::fromJson(Json{{"trials", 7}, {"metric_names", {"x"}}, {"source_profile", true}}, o, error));
    const Json j = o.toJson();
    KF_CHECK(j.at("seed").get<uint64_t>() == o.seed);
    EvalOptions back;
    KF_CHECK_MSG(EvalOptions::fromJson(j, back, error), error);
    KF_CHECK(back.seed == o.seed && back.seedGiven && back.trials == 7 && back.metricNames == o.metricNames
             && back.sourceProfile && back.minRuns == o.minRuns && back.minTimeMs == o.minTimeMs);
    KF_CHECK(back.toJson() == j);
}

// The adaptive timing's options (docs/worker-protocol.md, "Timing"): ci_target, max_time_ms, and the default of
// min_time_ms by rule.
void adaptiveOptions()
{
    std::string error;
    EvalOptions o;
    KF_CHECK(EvalOptions::fromJson(Json::object(), o, error));
    KF_CHECK(o.ciTarget == 0.01 && o.minTimeMs == 100 && o.maxTimeMs == 5000);
    // ci_target 0: the fixed rule, with its own default minimum time (the rule before the adaptive one).
    KF_CHECK(EvalOptions::fromJson(Json{{"ci_target", 0}}, o, error) && o.ciTarget == 0 && o.minTimeMs == 1000);
    KF_CHECK(EvalOptions::fromJson(Json{{"ci_target", 0}, {"min_time_ms", 250}}, o, error) && o.minTimeMs == 250);
    KF_CHECK(EvalOptions::fromJson(Json{{"ci_target", 0.05}, {"min_time_ms", 0}, {"max_time_ms", 900}}, o, error)
             && o.ciTarget == 0.05 && o.minTimeMs == 0 && o.maxTimeMs == 900);
    EvalOptions back;
    KF_CHECK(EvalOptions::fromJson(o.toJson(), back, error) && back.ciTarget == 0.05 && back.minTimeMs == 0
             && back.maxTimeMs == 900);
    EvalOptions fixed;
    KF_CHECK(EvalOptions::fromJson(Json{{"ci_target", 0}}, fixed, error));
    KF_CHECK(EvalOptions::fromJson(fixed.toJson(), back, error) && back.ciTarget == 0 && back.minTimeMs == 1000);
    for (const Json &bad : {Json{{"ci_target", -0.01}}, Json{{"ci_target", 0.6}}, Json{{"ci_target", "1%"}}}) {
        KF_CHECK_MSG(!EvalOptions::fromJson(bad, o, error), bad.dump());
        KF_CHECK_CONTAINS(error, "options.ci_target: expected a number in [0, 0.5]");
    }
    KF_CHECK(!EvalOptions::fromJson(Json{{"max_time_ms", -1}}, o, error));
    KF_CHECK_CONTAINS(error, "options.max_time_ms");
    // baseline_every: the baseline's batches in every Nth sampled round (default 2), 1..16, kept by the round trip
    EvalOptions every;
    KF_CHECK(EvalOptions::fromJson(Json::object(), every, error) && every.baselineEvery == 2);
    KF_CHECK(EvalOptions::fromJson(Json{{"baseline_every", 1}}, every, error) && every.baselineEvery == 1);
    KF_CHECK(EvalOptions::fromJson(every.toJson(), back, error) && back.baselineEvery == 1);
    for (const Json &bad : {Json{{"baseline_every", 0}}, Json{{"baseline_every", 17}}, Json{{"baseline_every", "2"}}}) {
        KF_CHECK_MSG(!EvalOptions::fromJson(bad, o, error), bad.dump());
        KF_CHECK_CONTAINS(error, "options.baseline_every");
    }
}

} // namespace

int main()
{
    drawn();
    derived();
    options();
    adaptiveOptions();
    return kforge::runtime::test::finish("tst_seeds");
}
