#pragma once
// SASS-level instruction execution counts for the source-level pass: one launch of a kernel library's
// entry under CUPTI's SASS Metrics API (cupti_sass_metrics.h), which patches the kernel's instructions to
// count smsp__sass_inst_executed (warp-level) and smsp__sass_thread_inst_executed (thread-level) per PC.
// It runs after PC sampling, never beside it (the patched kernel would be sampled). The CUPTI calls are
// SassMetrics::collect(); folding CUPTI's records and merging them into a SourceProfile are pure functions.
#include "core/runtime/profiler/sourcesamples.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kforge::runtime::profiler {

inline constexpr const char *kSassInstExecuted = "smsp__sass_inst_executed";
inline constexpr const char *kSassThreadInstExecuted = "smsp__sass_thread_inst_executed";

// One value of one CUPTI record: the metric `metricId` at `function`+`offset` (one instance of it).
struct SassRecord {
    std::string function; // mangled, as CUPTI (and the PC sampler) names it
    uint64_t offset = 0;
    uint64_t metricId = 0;
    uint64_t value = 0;
};

// The counts of one instruction, summed over the launches and instances. A metric that was not
// configured has no value (never a 0 that was not measured).
struct SassCount {
    std::string function;
    uint64_t offset = 0;
    std::optional<uint64_t> executed;        // warp-level executions
    std::optional<uint64_t> threadsExecuted; // thread-level executions
};

struct SassMetricsResult {
    bool ok = false;
    std::string missing; // "sass_metrics" (or "counters_permission", ...) when !ok
    std::string reason;  // what is missing and why, when !ok or when a metric is not available
    int runs = 0;        // launches under the patched kernel
    uint64_t droppedRecords = 0;
    std::vector<SassCount> counts; // by function, then offset
};

struct SassMetricsOptions {
    // No SASS metrics when the patched launch could overrun what is left of the pass's budget: the patched
    // kernel runs many times slower than the plain one (every basic block counted; up to ~365x seen on the
    // H200 for conv3d_groupnorm_min_clamp's fused kernel, 4x for matmul's), so the step is skipped when
    // launchMs x slowdown exceeds budgetMs. budgetMs <= 0 or launchMs unknown (0): no limit.
    double launchMs = 0; // one plain launch (the PC sampler's launches / runs), when known
    double budgetMs = 0; // what is left of the pass's budget (1.5 s) when the step starts
    double slowdown = 400;
};

class SassMetrics
{
public:
    // Configures the two metrics on the current device, runs `launch` once with patching enabled, and
    // reads the counts back; every path unsets the configuration again. Only an exception of `launch`
    // leaves (after patching was disabled).
    static SassMetricsResult collect(const std::function<void()> &launch, const SassMetricsOptions &options);
};

// CUPTI's records folded per instruction: values of `executedId` and `threadsId` summed per
// (function, offset); records of other metrics ignored. A metric id of 0 means "not configured" (its
// counts stay empty). Sorted by function, then offset.
std::vector<SassCount> foldSassRecords(const std::vector<SassRecord> &records, uint64_t executedId, uint64_t threadsId);

// Puts `counts` into the profile's kernels of `side`: a PC that was sampled gets its counts, an
// executed PC that was not sampled is added with 0 samples (and no line: the caller correlates it), a
// kernel that was not sampled at all is added with 0 samples. The PCs of `side` end up sorted by offset. Returns how
// many PCs were added.
std::size_t mergeSassCounts(SourceProfile &profile, const std::string &side, const std::vector<SassCount> &counts);

// The entry of "missing" and the reason when the counts are unavailable, for the profile.
void addSassMetricsProblem(SourceProfile &profile, const SassMetricsResult &result);

} // namespace kforge::runtime::profiler
