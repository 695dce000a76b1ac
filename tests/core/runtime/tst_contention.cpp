// The judge against a candidate that fights through the GPU it shares, without a GPU (issue 35, items 1 and 2):
// the quiet probes' steps as recorded on an H100 (a steady probe steps by well under a microsecond; one that the
// GPU time-sliced away for another context's kernel steps by a time slice) become timing.foreign_gpu and, past the
// threshold, `gpu_contention`; a pass the candidate's process refused becomes `profile_refused`; the batches are
// sized from the memory free before the candidate loaded, and a candidate holding more than its three quarters is
// named.
#include "check.h"
#include "core/runtime/worker/judgeoptions.h"
#include "core/runtime/worker/judge.h"

#include <algorithm>

using namespace kforge::runtime;
using Json = nlohmann::ordered_json;

namespace {

constexpr std::size_t kMiB = 1ull << 20, kGiB = 1ull << 30;

bool has(const std::vector<std::string> &v, const std::string &s)
{
    return std::find(v.begin(), v.end(), s) != v.end();
}

void steadyProbesFlagNothing()
{
    std::vector<std::string> flags, warnings;
    const Json j = Judge::foreignGpuReport({0.064, 0.096, 0.032, 1.2, 0.064}, 1000, flags, warnings);
    KF_CHECK(flags.empty() && warnings.empty());
    KF_CHECK(j["probes"] == 5 && j["over"] == 0);
    KF_CHECK(j["threshold_us"] == EvalOptions::kQuietGapUs);
    KF_CHECK(j["max_step_us"].get<double>() == 1.2);
}

void aHeldProbeFlagsContention()
{
    std::vector<std::string> flags{"unstable_timing"}, warnings;
    const Json j = Judge::foreignGpuReport({0.064, 1843.5, 0.096, 2011.0}, 1000, flags, warnings);
    KF_CHECK(has(flags, "gpu_contention"));
    KF_CHECK(has(flags, "unstable_timing")); // kept
    KF_CHECK(j["over"] == 2 && j["max_step_us"].get<double>() == 2011.0);
    KF_CHECK_MSG(warnings.size() == 1 && warnings[0].find("2 of 4") != std::string::npos, warnings.empty() ? "" : warnings[0]);
    // Once only, whatever else added it.
    Judge::foreignGpuReport({3000}, 1000, flags, warnings);
    KF_CHECK(std::count(flags.begin(), flags.end(), "gpu_contention") == 1);
}

void justOverTheThreshold()
{
    std::vector<std::string> flags, warnings;
    Judge::foreignGpuReport({EvalOptions::kQuietGapUs}, 1000, flags, warnings);
    KF_CHECK(flags.empty()); // at the threshold: not over it
    Judge::foreignGpuReport({EvalOptions::kQuietGapUs + 0.5}, 1000, flags, warnings);
    KF_CHECK(has(flags, "gpu_contention"));
}

// On the H100 a 1 ms probe beside another process's spinning kernel was never preempted (no step over the
// threshold): it waited for the other context's time slice before it started. The median wait catches that; one
// late wake-up of the judge's thread does not.
void waitingToStartIsContention()
{
    std::vector<std::string> flags, warnings;
    Json j = Judge::foreignGpuReport({0.06, 0.06, 0.06, 0.06}, 1000, flags, warnings, {18, 22, 1900, 25});
    KF_CHECK_MSG(flags.empty(), "one late wake-up flagged");
    KF_CHECK(j["max_wait_us"].get<double>() == 1900 && j["median_wait_us"].get<double>() == 25);
    j = Judge::foreignGpuReport({0.06, 0.06, 0.06, 0.06}, 1000, flags, warnings, {640, 1210, 90, 880});
    KF_CHECK(has(flags, "gpu_contention"));
    KF_CHECK_MSG(!warnings.empty() && warnings.back().find("waited a median 880 us") != std::string::npos,
                 warnings.empty() ? "" : warnings.back());
    // Too few probes to tell: no flag from the waits alone.
    std::vector<std::string> few, fewWarnings;
    Judge::foreignGpuReport({0.06, 0.06}, 1000, few, fewWarnings, {900, 950});
    KF_CHECK(few.empty());
}

void refusedPassesAreNamed()
{
    std::vector<std::string> flags, warnings;
    Judge::profileRefusalReport({}, flags, warnings);
    KF_CHECK(flags.empty() && warnings.empty());
    Judge::profileRefusalReport({"trace: the pass ended (crashed): exit 3", "metrics: refused"}, flags, warnings);
    KF_CHECK(has(flags, "profile_refused"));
    KF_CHECK_MSG(warnings.size() == 1 && warnings[0].find("trace: the pass ended") != std::string::npos
                     && warnings[0].find("metrics: refused") != std::string::npos,
                 warnings.empty() ? "" : warnings[0]);
}

void setsFromTheMemoryBeforeTheCandidate()
{
    // 80 GiB free before the candidate loaded, 64 MiB a set: a quarter is 320 sets, so kMaxBatch.
    Judge::BatchSizing b = Judge::sizeBatches(80 * kGiB, 79 * kGiB, 64 * kMiB);
    KF_CHECK_MSG(b.error.empty(), b.error);
    KF_CHECK(b.sets == Judge::kMaxBatch);
    // 1 GiB a set: 20 sets from what was free before, although the candidate has since taken 50 GiB.
    b = Judge::sizeBatches(80 * kGiB, 30 * kGiB, kGiB);
    KF_CHECK_MSG(b.error.empty(), b.error);
    KF_CHECK(b.sets == 20);
    KF_CHECK(b.memory["free_before_candidate_mib"] == 80 * 1024 && b.memory["free_at_sizing_mib"] == 30 * 1024);
    KF_CHECK(b.memory["candidate_budget_mib"] == 60 * 1024);
    // Unknown before (0): sized from what is free now.
    b = Judge::sizeBatches(0, 8 * kGiB, kGiB);
    KF_CHECK(b.error.empty() && b.sets == 2);
}

void aCandidateOverItsBudgetIsNamed()
{
    // The candidate left 10 GiB of the 80 free before it loaded; the sets need 20 GiB.
    const Judge::BatchSizing b = Judge::sizeBatches(80 * kGiB, 10 * kGiB, kGiB);
    KF_CHECK_MSG(b.error.find("the candidate's process left 10240 MiB") != std::string::npos, b.error);
    KF_CHECK_MSG(b.error.find("three quarters (61440 MiB)") != std::string::npos, b.error);
    // Not one set fits at all: the judge's own shortage, not the candidate's.
    const Judge::BatchSizing none = Judge::sizeBatches(0, 100 * kMiB, kGiB);
    KF_CHECK(none.sets == 0);
    KF_CHECK_MSG(none.error.find("the judge needs 1024 MiB") != std::string::npos, none.error);
}

} // namespace

int main()
{
    steadyProbesFlagNothing();
    aHeldProbeFlagsContention();
    justOverTheThreshold();
    waitingToStartIsContention();
    refusedPassesAreNamed();
    setsFromTheMemoryBeforeTheCandidate();
    aCandidateOverItsBudgetIsNamed();
    return kforge::runtime::test::finish("tst_contention");
}
