// Offline Profiler Host API check (no GPU): the default metric set is valid for GH100 (H100/H200), its
// pass count stays within the metrics-pass budget, bad names are reported and dropped.
#include "core/runtime/profiler/metricscollector.h"
#include "tests/core/runtime/check.h"

#include <algorithm>
#include <cstdio>

using namespace kforge::runtime::profiler;

int main()
{
    std::vector<std::string> chips = MetricsCollector::supportedChips();
    if (std::find(chips.begin(), chips.end(), "GH100") == chips.end())
        kforge::runtime::test::skip("this CUPTI's Profiler Host API does not list GH100");

    const std::vector<std::string> defaults = MetricsCollector::defaultMetrics();
    MetricConfig cfg = MetricsCollector::buildConfig("GH100", defaults);
    KF_CHECK_MSG(cfg.problem.ok(), cfg.problem.error + ": " + cfg.problem.reason);
    KF_CHECK(cfg.metrics == defaults);
    KF_CHECK(cfg.invalid.empty());
    KF_CHECK(!cfg.image.empty());
    // The probe measured 10 passes for its 13 metrics; more than 12 would blow the 1 s metrics budget.
    KF_CHECK_MSG(cfg.passes >= 1 && cfg.passes <= 12, "passes=" + std::to_string(cfg.passes));
    std::printf("GH100 default metric set: %zu metrics, %zu passes, config image %zu bytes\n", cfg.metrics.size(),
                cfg.passes, cfg.image.size());
    KF_CHECK_CONTAINS(cfg.dimUnits[metric::kTime], "second");
    KF_CHECK(cfg.dimUnits[metric::kDramRead] == "byte");

    // Every metric alone is valid too, and a single time metric is a one-pass config.
    size_t maxAlone = 0;
    for (const std::string &m : defaults) {
        MetricConfig one = MetricsCollector::buildConfig("GH100", {m});
        KF_CHECK_MSG(one.problem.ok() && one.metrics.size() == 1, m + ": " + one.problem.reason);
        maxAlone = std::max(maxAlone, one.passes);
        std::printf("  %-70s %zu pass(es) alone, unit %s\n", m.c_str(), one.passes, one.dimUnits[m].c_str());
    }
    KF_CHECK(MetricsCollector::buildConfig("GH100", {metric::kTime}).passes == 1);
    KF_CHECK(cfg.passes >= maxAlone);

    // Unknown and Nsight-Compute-only names are dropped and listed; the rest still builds.
    std::vector<std::string> withBad = defaults;
    withBad.insert(withBad.begin() + 2, "launch__grid_size");
    withBad.push_back("not_a_metric.sum");
    MetricConfig bad = MetricsCollector::buildConfig("GH100", withBad);
    KF_CHECK_MSG(bad.problem.ok(), bad.problem.reason);
    KF_CHECK(bad.metrics == defaults);
    KF_CHECK((bad.invalid == std::vector<std::string>{"launch__grid_size", "not_a_metric.sum"}));
    KF_CHECK(bad.passes == cfg.passes);

    // Nothing valid, or an unknown chip: a diagnosis, not a crash.
    MetricConfig none = MetricsCollector::buildConfig("GH100", {"not_a_metric.sum"});
    KF_CHECK(!none.problem.ok() && none.invalid.size() == 1);
    MetricConfig chip = MetricsCollector::buildConfig("XX999", defaults);
    KF_CHECK(!chip.problem.ok());
    KF_CHECK_CONTAINS(chip.problem.reason, "XX999");
    return kforge::runtime::test::finish("tst_profiler_metricconfig");
}
