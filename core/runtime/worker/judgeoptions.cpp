#include "core/runtime/worker/judgeoptions.h"

#include <algorithm>
#include <cmath>

namespace kforge::runtime {

namespace {

using OptionsJson = nlohmann::ordered_json;

// An optional integer option in [lo, hi] into `field` (an int, or a double holding a whole number); false with
// `error` when it is there and not such an integer.
template <typename Field>
bool readIntegerOption(const OptionsJson &j, const char *key, Field &field, double lo, double hi, std::string &error)
{
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return true;
    if (!it->is_number() || std::floor(it->get<double>()) != it->get<double>() || it->get<double>() < lo
        || it->get<double>() > hi) {
        error = std::string("options.") + key + ": expected an integer in ["
                + std::to_string(static_cast<long long>(lo)) + ", " + std::to_string(static_cast<long long>(hi)) + "]";
        return false;
    }
    field = static_cast<Field>(it->get<double>());
    return true;
}

// An optional boolean option into `field`; false with `error` when it is there and not a boolean.
bool readBooleanOption(const OptionsJson &j, const char *key, bool &field, std::string &error)
{
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return true;
    if (!it->is_boolean()) {
        error = std::string("options.") + key + ": expected a boolean";
        return false;
    }
    field = it->get<bool>();
    return true;
}

// The counts, the time bounds (into the caller's minTime, maxTime and warmupTime) and the switches, in that order.
bool readCountsAndSwitches(const OptionsJson &j, EvalOptions &out, double &minTime, double &maxTime, double &warmupTime,
                           std::string &error)
{
    return readIntegerOption(j, "trials", out.trials, 2, 1000, error)
           && readIntegerOption(j, "min_runs", out.minRuns, 1, 1000000, error)
           && readIntegerOption(j, "max_runs", out.maxRuns, 1, 1000000, error)
           && readIntegerOption(j, "warmup", out.warmup, 0, 100000, error)
           && readIntegerOption(j, "trace_runs", out.traceRuns, 1, 10000, error)
           && readIntegerOption(j, "baseline_every", out.baselineEvery, 1, 16, error)
           && readIntegerOption(j, "min_time_ms", minTime, 0, 3600000, error)
           && readIntegerOption(j, "max_time_ms", maxTime, 0, 3600000, error)
           && readIntegerOption(j, "warmup_ms", warmupTime, 0, 3600000, error)
           && readIntegerOption(j, "quiet_probe_us", out.quietProbeUs, 0, 100000, error)
           && readBooleanOption(j, "timing", out.timing, error) && readBooleanOption(j, "trace", out.trace, error)
           && readBooleanOption(j, "metrics", out.metrics, error) && readBooleanOption(j, "samples", out.samples, error)
           && readBooleanOption(j, "source_profile", out.sourceProfile, error)
           && readBooleanOption(j, "source_profile_reference", out.sourceProfileReference, error)
           && readBooleanOption(j, "deep", out.deep, error);
}

// ci_target, metrics_min_speedup and source_profile_period: numbers each with its own range and message.
bool readRangedOptions(const OptionsJson &j, EvalOptions &out, std::string &error)
{
    if (const auto it = j.find("ci_target"); it != j.end() && !it->is_null()) {
        if (!it->is_number() || !(it->get<double>() >= 0 && it->get<double>() <= 0.5)) {
            error = "options.ci_target: expected a number in [0, 0.5] (0.01: the medians within ±1%; 0: the fixed "
                    "rule)";
            return false;
        }
        out.ciTarget = it->get<double>();
    }
    if (const auto it = j.find("metrics_min_speedup"); it != j.end() && !it->is_null()) {
        if (!it->is_number() || !(it->get<double>() >= 0) || !std::isfinite(it->get<double>())) {
            error = "options.metrics_min_speedup: expected a number >= 0 (0: the metrics pass whatever the speedup)";
            return false;
        }
        out.metricsMinSpeedup = it->get<double>();
    }
    if (const auto it = j.find("source_profile_period"); it != j.end() && !it->is_null()) {
        // CUPTI takes the exponent (2^N cycles), 5..31; 0 leaves CUPTI's default for the device.
        if (!it->is_number() || std::floor(it->get<double>()) != it->get<double>()
            || (it->get<double>() != 0 && (it->get<double>() < 5 || it->get<double>() > 31))) {
            error = "options.source_profile_period: expected 0 (CUPTI's default) or an exponent in [5, 31] "
                    "(2^N cycles between samples)";
            return false;
        }
        out.sourceProfilePeriod = static_cast<int>(it->get<double>());
    }
    return true;
}

// The optional "seed" into out.seed (and seedGiven); false with `error` when it is not an integer in [0, kMaxSeed].
bool readSeedOption(const OptionsJson &j, EvalOptions &out, std::string &error)
{
    const auto it = j.find("seed");
    if (it == j.end() || it->is_null())
        return true;
    // Exact as an integer (a double holds only 53 bits); a double is accepted where it is a whole number a
    // double holds exactly (clients that wrote every number as a double).
    bool ok = false;
    if (it->is_number_unsigned()) {
        out.seed = it->get<uint64_t>();
        ok = out.seed <= kMaxSeed;
    } else if (it->is_number_integer()) {
        ok = it->get<int64_t>() >= 0;
        out.seed = static_cast<uint64_t>(it->get<int64_t>());
    } else if (it->is_number_float()) {
        const double d = it->get<double>();
        ok = d >= 0 && d <= 9007199254740992.0 && std::floor(d) == d;
        out.seed = ok ? static_cast<uint64_t>(d) : 0;
    }
    if (!ok) {
        error = "options.seed: expected an integer in [0, " + std::to_string(kMaxSeed) + "]";
        return false;
    }
    out.seedGiven = true;
    return true;
}

} // namespace

bool EvalOptions::fromJson(const nlohmann::ordered_json &j, EvalOptions &out, std::string &error)
{
    out = EvalOptions();
    if (j.is_null())
        return true;
    if (!j.is_object()) {
        error = "options: expected an object";
        return false;
    }
    double minTime = -1; // absent: by the rule (ci_target)
    double maxTime = out.maxTimeMs;
    double warmupTime = out.warmupMs;
    if (!readCountsAndSwitches(j, out, minTime, maxTime, warmupTime, error) || !readRangedOptions(j, out, error)
        || !readSeedOption(j, out, error))
        return false;
    out.minTimeMs = minTime >= 0 ? minTime : out.ciTarget > 0 ? kAdaptiveMinTimeMs : kFixedMinTimeMs;
    out.maxTimeMs = maxTime;
    out.warmupMs = warmupTime;
    if (out.maxRuns < out.minRuns) {
        error = "options.max_runs: must not be below min_runs";
        return false;
    }
    if (const auto it = j.find("metric_names"); it != j.end() && !it->is_null()) {
        if (!it->is_array() || !std::all_of(it->begin(), it->end(), [](const auto &m) { return m.is_string(); })) {
            error = "options.metric_names: expected an array of strings";
            return false;
        }
        for (const auto &m : *it)
            out.metricNames.push_back(m.get<std::string>());
    }
    return true;
}

nlohmann::ordered_json EvalOptions::toJson() const
{
    nlohmann::ordered_json j;
    j["trials"] = trials;
    j["min_runs"] = minRuns;
    j["min_time_ms"] = minTimeMs;
    j["max_runs"] = maxRuns;
    j["max_time_ms"] = maxTimeMs;
    j["ci_target"] = ciTarget;
    j["warmup"] = warmup;
    j["warmup_ms"] = warmupMs;
    j["baseline_every"] = baselineEvery;
    j["seed"] = seed;
    j["timing"] = timing;
    j["trace"] = trace;
    j["trace_runs"] = traceRuns;
    j["quiet_probe_us"] = quietProbeUs;
    j["metrics"] = metrics;
    j["metrics_min_speedup"] = metricsMinSpeedup;
    j["samples"] = samples;
    j["metric_names"] = metricNames;
    j["source_profile"] = sourceProfile;
    j["source_profile_period"] = sourceProfilePeriod;
    j["source_profile_reference"] = sourceProfileReference;
    j["deep"] = deep;
    return j;
}

} // namespace kforge::runtime
