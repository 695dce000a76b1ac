// The passes after timing as objects (core/runtime/worker/profilepasses.h, precisionpass.h), without a GPU: the
// decisions and result parts that need no host. Metrics when they pay (a candidate short of the session's best gets
// `metrics_skipped` with the threshold, never an empty "metrics"); a source-level pass that was asked for and did
// not run says why in the shape of a profile; a pass that did not run writes nothing else, and the parts come in
// the result's order (precision, trace, metrics, source_profile).
#include "check.h"
#include "core/runtime/worker/precisionpass.h"
#include "core/runtime/worker/profilepasses.h"

#include <cmath>
#include <string>
#include <vector>

using namespace kforge::runtime;
using Json = nlohmann::ordered_json;

namespace {

RunStats stats(double medianMs)
{
    RunStats s;
    s.medianMs = medianMs;
    return s;
}

std::vector<std::string> keys(const Json &j)
{
    std::vector<std::string> out;
    for (const auto &[k, v] : j.items())
        out.push_back(k);
    return out;
}

void metricsWhenTheyPay()
{
    EvalOptions o;
    o.metrics = true;
    o.metricsMinSpeedup = 1.5;
    MetricsPass slow;
    KF_CHECK(!slow.wanted(o, stats(2.0), stats(1.6))); // 1.25x, short of 1.5x
    Json result{{"verdict", "correct"}};
    slow.report(o, result);
    KF_CHECK_MSG(keys(result) == (std::vector<std::string>{"verdict", "metrics_skipped", "metrics_min_speedup"}),
                 result.dump());
    KF_CHECK(result["metrics_skipped"] == "not_among_best" && result["metrics_min_speedup"] == 1.5);

    MetricsPass fast;
    KF_CHECK(fast.wanted(o, stats(2.0), stats(1.0))); // 2x
    KF_CHECK(fast.wanted(o, stats(1.5), stats(1.0))); // exactly the threshold pays
    Json quiet{{"verdict", "correct"}};
    fast.report(o, quiet);
    KF_CHECK_MSG(keys(quiet) == std::vector<std::string>{"verdict"}, quiet.dump()); // not run yet: nothing

    MetricsPass instant; // a candidate of 0 ms is the fastest there is, not a division by zero
    KF_CHECK(instant.wanted(o, stats(2.0), stats(0.0)));
    MetricsPass unknown; // a speedup that is no number is not among the best
    KF_CHECK(!unknown.wanted(o, stats(std::nan("")), stats(1.0)));

    o.metricsMinSpeedup = 0; // no threshold: the option alone
    MetricsPass always;
    KF_CHECK(always.wanted(o, stats(1.0), stats(100.0)));
    o.metrics = false;
    o.metricsMinSpeedup = 1.5;
    MetricsPass off;
    KF_CHECK(!off.wanted(o, stats(2.0), stats(1.6)));
    Json none{{"verdict", "correct"}};
    off.report(o, none);
    KF_CHECK_MSG(!none.contains("metrics_skipped"), none.dump()); // not asked for: nothing was skipped
}

Json sourceProfileOf(const std::string &verdict, bool timing, bool asked)
{
    EvalOptions o;
    o.timing = timing;
    o.sourceProfile = asked;
    Json result{{"verdict", verdict}};
    SourceProfilePass().report(o, result);
    return result.value("source_profile", Json(nullptr));
}

void aSourceProfileNotRunSaysWhy()
{
    const Json failed = sourceProfileOf("incorrect", true, true);
    KF_CHECK(failed["status"] == "unavailable" && failed["missing"] == Json::array({"timing"}));
    KF_CHECK_MSG(failed["reason"].get<std::string>().find("ended with verdict incorrect") != std::string::npos,
                 failed.dump());
    KF_CHECK(failed["kernels"] == Json::array() && failed["cost_ms"] == 0); // a profile's shape, empty

    const Json untimed = sourceProfileOf("correct", false, true);
    KF_CHECK(untimed["missing"] == Json::array({"timing"}));
    KF_CHECK_MSG(untimed["reason"].get<std::string>().find("options.timing false") != std::string::npos, untimed.dump());

    // Correct and timed, yet no profile: this worker has no profiler.
    const Json noProfiler = sourceProfileOf("correct", true, true);
    KF_CHECK_MSG(noProfiler["missing"] == Json::array({"profiler"}), noProfiler.dump());

    KF_CHECK(sourceProfileOf("incorrect", true, false).is_null()); // not asked for: no object at all
}

void theStubIsAProfile()
{
    const Json stub = sourceProfileStub("failed", "helper_failed", "why");
    KF_CHECK_MSG(keys(stub)
                     == (std::vector<std::string>{"status", "reason", "missing", "cost_ms", "period", "runs",
                                                  "sass_runs", "stall_reasons", "cupti_stall_reasons", "kernels"}),
                 stub.dump());
    KF_CHECK(stub["missing"] == Json::array({"helper_failed"}) && stub["reason"] == "why");
}

void passesThatDidNotRunWriteNothing()
{
    EvalOptions o;
    o.sourceProfile = true;
    o.metrics = true;
    Json result{{"verdict", "correct"}, {"message", ""}};
    std::vector<std::string> flags, warnings;
    PrecisionPass().report(result, flags, warnings);
    ProfilePasses passes;
    passes.report(o, result, flags, warnings);
    KF_CHECK_MSG(keys(result) == (std::vector<std::string>{"verdict", "message", "source_profile"}), result.dump());
    KF_CHECK(flags.empty() && warnings.empty());
    KF_CHECK(passes.trace().selfMs().empty() && passes.trace().refused().empty());
    KF_CHECK(passes.metrics().roofProfile().is_null() && passes.metrics().refused().empty());
}

} // namespace

int main()
{
    metricsWhenTheyPay();
    aSourceProfileNotRunSaysWhy();
    theStubIsAProfile();
    passesThatDidNotRunWriteNothing();
    return kforge::runtime::test::finish("tst_profile_passes");
}
