#include "core/runtime/worker/judgeoptions.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace kforge::runtime {

bool EvalOptions::fromJson(const nlohmann::ordered_json &j, EvalOptions &out, std::string &error)
{
    out = EvalOptions();
    if (j.is_null())
        return true;
    if (!j.is_object()) {
        error = "options: expected an object";
        return false;
    }
    const auto integer = [&](const char *key, auto &field, double lo, double hi) {
        const auto it = j.find(key);
        if (it == j.end() || it->is_null())
            return true;
        if (!it->is_number() || std::floor(it->get<double>()) != it->get<double>() || it->get<double>() < lo
            || it->get<double>() > hi) {
            error = std::string("options.") + key + ": expected an integer in ["
                    + std::to_string(static_cast<long long>(lo)) + ", " + std::to_string(static_cast<long long>(hi)) + "]";
            return false;
        }
        field = static_cast<std::remove_reference_t<decltype(field)>>(it->get<double>());
        return true;
    };
    const auto boolean = [&](const char *key, bool &field) {
        const auto it = j.find(key);
        if (it == j.end() || it->is_null())
            return true;
        if (!it->is_boolean()) {
            error = std::string("options.") + key + ": expected a boolean";
            return false;
        }
        field = it->get<bool>();
        return true;
    };
    double minTime = -1; // absent: by the rule (ci_target)
    double maxTime = out.maxTimeMs;
    double warmupTime = out.warmupMs;
    if (!integer("trials", out.trials, 2, 1000) || !integer("min_runs", out.minRuns, 1, 1000000)
        || !integer("max_runs", out.maxRuns, 1, 1000000) || !integer("warmup", out.warmup, 0, 100000)
        || !integer("trace_runs", out.traceRuns, 1, 10000) || !integer("baseline_every", out.baselineEvery, 1, 16)
        || !integer("min_time_ms", minTime, 0, 3600000)
        || !integer("max_time_ms", maxTime, 0, 3600000) || !integer("warmup_ms", warmupTime, 0, 3600000)
        || !integer("quiet_probe_us", out.quietProbeUs, 0, 100000)
        || !boolean("timing", out.timing) || !boolean("trace", out.trace) || !boolean("metrics", out.metrics)
        || !boolean("samples", out.samples) || !boolean("source_profile", out.sourceProfile)
        || !boolean("source_profile_reference", out.sourceProfileReference) || !boolean("deep", out.deep))
        return false;
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
    if (const auto it = j.find("seed"); it != j.end() && !it->is_null()) {
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
    }
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
