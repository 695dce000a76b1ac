#include "core/runtime/worker/medianci.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kforge::runtime {

double median(std::vector<double> samples)
{
    if (samples.empty())
        return 0;
    const std::size_t n = samples.size(), mid = n / 2;
    std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid), samples.end());
    const double upper = samples[mid];
    if (n % 2)
        return upper;
    return 0.5 * (*std::max_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid)) + upper);
}

MedianCi medianCi(std::vector<double> samples)
{
    MedianCi ci;
    ci.n = static_cast<int>(samples.size());
    ci.halfWidth = std::numeric_limits<double>::infinity();
    if (samples.empty())
        return ci;
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    ci.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    const double half = 0.5 * static_cast<double>(n), spread = 1.96 * std::sqrt(static_cast<double>(n)) / 2;
    const auto j = static_cast<long long>(std::floor(half - spread));
    const auto k = static_cast<long long>(std::ceil(1 + half + spread));
    ci.bounded = j >= 1 && k <= static_cast<long long>(n);
    ci.lowMs = samples[static_cast<std::size_t>(std::clamp<long long>(j, 1, static_cast<long long>(n)) - 1)];
    ci.highMs = samples[static_cast<std::size_t>(std::clamp<long long>(k, 1, static_cast<long long>(n)) - 1)];
    if (ci.bounded && ci.median > 0)
        ci.halfWidth = (ci.highMs - ci.lowMs) / 2 / ci.median;
    return ci;
}

std::string stopReasonName(StopReason r)
{
    switch (r) {
    case StopReason::None: return "";
    case StopReason::Target: return "target";
    case StopReason::Fixed: return "fixed";
    case StopReason::MaxRuns: return "max_runs";
    case StopReason::MaxTime: return "max_time";
    }
    return "";
}

StopReason stopReason(const StopRule &rule, const StopState &s)
{
    if (s.calls >= rule.maxRuns)
        return StopReason::MaxRuns;
    if (s.elapsedMs > rule.hardEndMs)
        return StopReason::MaxTime;
    const bool minimum = s.calls >= rule.minRuns;
    if (!(rule.ciTarget > 0)) { // the fixed rule: at least 5 rounds, min_runs calls, min_time_ms or 40%
        const bool enoughTime = s.timingMs >= rule.minTimeMs || s.elapsedMs > rule.softEndMs;
        return s.rounds >= 5 && minimum && enoughTime ? StopReason::Fixed : StopReason::None;
    }
    // Adaptive: min_runs counts the side with more calls. The interval is over rounds (each batch's per-call
    // figure), so a long kernel's few calls per batch need no more rounds than the short side's.
    if (s.callsMost >= rule.minRuns && s.rounds >= rule.minRounds && s.timingMs >= rule.minTimeMs
        && s.candidate.halfWidth <= rule.ciTarget
        && s.reference.halfWidth <= rule.ciTarget)
        return StopReason::Target;
    if (s.rounds >= 5 && minimum && (s.timingMs >= std::max(rule.maxTimeMs, rule.minTimeMs) || s.elapsedMs > rule.softEndMs))
        return StopReason::MaxTime;
    return StopReason::None;
}

} // namespace kforge::runtime
