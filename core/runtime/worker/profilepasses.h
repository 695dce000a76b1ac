#pragma once
// The passes after timing (judge.h), each an object the judge calls with what it needs and that writes its own
// part of the result: the CUPTI trace (TracePass), the hardware metrics (MetricsPass), the source-level PC
// sampling (SourceProfilePass), run in that order by ProfilePasses. The trace and metrics run in the
// candidate's host and, for the reference, in a process of its own or from the server's kept replies
// (ReferenceProfiler). The verdict and the timing are settled before: a pass that fails costs the profile only.
#include "core/runtime/host/hostclient.h"
#include "core/runtime/worker/evalclock.h"
#include "core/runtime/worker/judge.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kforge::runtime {

// What the passes after timing run on: the evaluation's hosts, its batches (a pass runs the call of set 0), and
// the judge's mapping of the batches (and a torch task's weights) into a fresh host (Judge::mapHost).
struct PassHosts {
    const Judge::Hosts &hosts;
    BatchTimer &batches;
    std::function<void(host::HostClient &, Side)> map; // throws HostFailure, EntryFailure (evalrun.h)

    host::HostClient &host(Side side) const;
    // A fresh host of `side` with the batches mapped; nullptr when none starts or it refuses the mapping.
    std::unique_ptr<host::HostClient> fresh(Side side) const;
    // A profile request of `kind` ("trace", "metrics", "source_profile") on `side`'s call of set 0.
    nlohmann::ordered_json request(Side side, const char *kind) const;
};

// The reference's trace and metrics: the server's kept replies (by reference library, task and pass: the
// judge's map), and for the rest a process of its own, started at most once per evaluation and only when no
// kept reply serves. CUPTI stays in a process once enabled, and the reference's own host times every
// evaluation, so that host runs a pass only when the process of its own cannot start.
class ReferenceProfiler
{
public:
    // `key`: the reference library's and the task's (Judge::setReferenceKey and the task's JSON).
    ReferenceProfiler(std::map<std::string, nlohmann::ordered_json> &kept, std::string key, PassHosts &hosts,
                      EvalClock &clock);
    const std::string &key() const { return m_key; }
    const nlohmann::ordered_json *kept(const std::string &key) const;
    void keep(const std::string &key, const nlohmann::ordered_json &reply); // at most Judge::kReferenceProfilesKept
    // The process the reference's pass runs in (started on the first call).
    host::HostClient &host();
    // The reference's own host ran a pass (no process of its own started): it goes after the passes.
    bool ranInReferenceHost() const { return m_inReferenceHost; }
    // Ends the process of its own, closing its mappings before the judge frees the memory behind them.
    void close() { m_process.reset(); }

private:
    std::map<std::string, nlohmann::ordered_json> &m_kept;
    std::string m_key;
    PassHosts &m_hosts;
    EvalClock &m_clock;
    std::unique_ptr<host::HostClient> m_process;
    bool m_tried = false;
    bool m_inReferenceHost = false;
};

// options.trace: CUPTI's activity trace of the candidate's call in its host (its testimony, not the judge's
// figure) and of the reference's.
class TracePass
{
public:
    void run(const EvalOptions &options, PassHosts &hosts, ReferenceProfiler &reference, EvalClock &clock);
    // The candidate's own events' figures (timing.self_median_ms, a cross-check of the external figure).
    const std::vector<double> &selfMs() const { return m_selfMs; }
    // "trace: <why>" when the candidate's host gave no trace where the reference's did; empty otherwise.
    const std::string &refused() const { return m_refused; }
    // result["trace"]; `profile_refused` for the passes the candidate's process refused (`refused`, this one's
    // and the metrics'): the trace is the only view of work outside the calls; `work_outside_call`.
    void report(const std::vector<std::string> &refused, nlohmann::ordered_json &result,
                std::vector<std::string> &flags, std::vector<std::string> &warnings) const;

private:
    nlohmann::ordered_json m_trace, m_outside;
    std::vector<double> m_selfMs;
    std::string m_refused;
};

// options.metrics: the range profiler's metrics and the roofline of each side's call.
class MetricsPass
{
public:
    // Metrics when they pay, decided after timing: with options.metrics_min_speedup, a candidate slower than
    // that (the session's best) needs no pass, and none waits for a second evaluation to get it.
    bool wanted(const EvalOptions &options, const RunStats &reference, const RunStats &candidate);
    // The decision alone (wanted() also records why it said no).
    static bool pays(const EvalOptions &options, const RunStats &reference, const RunStats &candidate);
    void run(const EvalOptions &options, const TaskSpec &task, const DevicePeaks &peaks, const RunStats &reference,
             const RunStats &candidate, PassHosts &hosts, ReferenceProfiler &profiler, EvalClock &clock);
    // The profile's roofline of each side (the result's roofline.profile); empty when none.
    const nlohmann::ordered_json &roofProfile() const { return m_roofProfile; }
    // "metrics: <why>" when the candidate's host gave no metrics where the reference's did; empty otherwise.
    const std::string &refused() const { return m_refused; }
    // result["metrics"], and "metrics_skipped" with the threshold when wanted() said no.
    void report(const EvalOptions &options, nlohmann::ordered_json &result) const;

private:
    nlohmann::ordered_json m_metrics, m_roofProfile;
    std::string m_skipped; // why the pass did not run though asked for ("not_among_best")
    std::string m_refused;
};

// options.source_profile: PC sampling in a fresh host of each side it samples (CUPTI delivers samples only on
// the first enable in a process).
class SourceProfilePass
{
public:
    void run(const EvalOptions &options, PassHosts &hosts, EvalClock &clock);
    // result["source_profile"]: the profile, or when asked for and not run, why (status "unavailable").
    void report(const EvalOptions &options, nlohmann::ordered_json &result) const;

private:
    nlohmann::ordered_json m_profile;
};

// The three in order, after a correct candidate was timed.
class ProfilePasses
{
public:
    // `kept`, `referenceKey`: ReferenceProfiler's.
    void run(const EvalOptions &options, const TaskSpec &task, const DevicePeaks &peaks, const RunStats &reference,
             const RunStats &candidate, PassHosts &hosts, std::map<std::string, nlohmann::ordered_json> &kept,
             const std::string &referenceKey, EvalClock &clock);
    const TracePass &trace() const { return m_trace; }
    const MetricsPass &metrics() const { return m_metrics; }
    // Each pass's part of the result, in the result's order: trace, metrics, source_profile.
    void report(const EvalOptions &options, nlohmann::ordered_json &result, std::vector<std::string> &flags,
                std::vector<std::string> &warnings) const;

private:
    TracePass m_trace;
    MetricsPass m_metrics;
    SourceProfilePass m_source;
};

// A source_profile object for a pass that did not produce one ("unavailable", "failed"): the profile's shape
// with nothing in it, `missing` and `reason` saying why.
nlohmann::ordered_json sourceProfileStub(const std::string &status, const std::string &missing, const std::string &reason);

} // namespace kforge::runtime
