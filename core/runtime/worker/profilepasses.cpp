// The passes after timing (profilepasses.h): the CUPTI trace, the metrics pass (the reference's from the
// server's cache), the source-level PC sampling, and each one's part of the result.
#include "core/runtime/worker/profilepasses.h"

#include "core/runtime/host/hostprotocol.h"
#include "core/runtime/worker/evalrun.h"
#include "core/runtime/worker/seeds.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;

// One profile request to `host` on the call of set 0; its refusal becomes {"available": false, "reason": ...},
// and so does a host that dies or stays silent meanwhile (it is killed then): the verdict and the timing were
// settled before the passes, which cost the profile only.
Json profileRequest(host::HostClient &h, const Json &request, double waitS, const std::string &phase)
{
    Json reply;
    try {
        reply = h.request(request, waitS, phase);
    } catch (const host::HostFailure &f) {
        return Json{{"available", false}, {"reason", "the pass ended (" + f.verdict + "): " + f.message}};
    }
    if (!reply["ok"].get<bool>())
        return Json{{"available", false}, {"reason", reply.value("message", std::string("refused"))}};
    return reply;
}

} // namespace

host::HostClient &PassHosts::host(Side side) const
{
    return *(side == Side::Reference ? hosts.reference : side == Side::Candidate ? hosts.candidate : hosts.baseline);
}

std::unique_ptr<host::HostClient> PassHosts::fresh(Side side) const
{
    std::unique_ptr<host::HostClient> h = hosts.fresh ? hosts.fresh(side == Side::Reference) : nullptr;
    if (h) {
        try {
            map(*h, side);
        } catch (const host::HostFailure &) {
            h.reset();
        } catch (const EntryFailure &) {
            h.reset();
        }
    }
    return h;
}

Json PassHosts::request(Side side, const char *kind) const
{
    return Json{{"op", host::kOpProfile}, {"kind", kind}, {"call", batches.callJson(side, 0)}};
}

ReferenceProfiler::ReferenceProfiler(std::map<std::string, Json> &kept, std::string key, PassHosts &hosts, EvalClock &clock)
    : m_kept(kept)
    , m_key(std::move(key))
    , m_hosts(hosts)
    , m_clock(clock)
{
}

const Json *ReferenceProfiler::kept(const std::string &key) const
{
    const auto it = m_kept.find(key);
    return it == m_kept.end() ? nullptr : &it->second;
}

void ReferenceProfiler::keep(const std::string &key, const Json &reply)
{
    if (m_kept.size() >= Judge::kReferenceProfilesKept)
        m_kept.clear();
    m_kept[key] = reply;
}

// Before, the passes ran in the reference's own host and it was ended after each evaluation; the next one started
// it again (measured on the H200: cuBLAS's first calls then cost 1.7-2.6 s of every evaluation's verification).
host::HostClient &ReferenceProfiler::host()
{
    if (!m_tried) {
        m_tried = true;
        m_clock.phase = "starting the reference's profiling process";
        m_process = m_hosts.fresh(Side::Reference);
    }
    if (m_process)
        return *m_process;
    m_inReferenceHost = true; // no process of its own: the reference's host runs it, and goes after
    return m_hosts.host(Side::Reference);
}

void TracePass::run(const EvalOptions &o, PassHosts &hosts, ReferenceProfiler &reference, EvalClock &clock)
{
    clock.mark("trace");
    if (clock.progress)
        clock.progress("tracing");
    const std::string traceKey = "trace|" + std::to_string(o.traceRuns) + "|" + reference.key();
    std::string candidateFailed; // why the candidate's host gave no trace
    bool referenceTraced = false;
    for (Side side : {Side::Candidate, Side::Reference}) {
        Json reply;
        if (const Json *k = side == Side::Reference ? reference.kept(traceKey) : nullptr) {
            reply = *k;
        } else {
            Json r = hosts.request(side, "trace");
            r["runs"] = o.traceRuns;
            // The host first: starting the reference's profiling process names its own phase.
            host::HostClient &h = side == Side::Reference ? reference.host() : hosts.host(side);
            clock.phase = std::string("tracing the ") + sideName(side);
            reply = profileRequest(h, r, clock.waitS(), clock.phase);
            if (side == Side::Reference && reply.contains("trace") && reply["trace"].contains("reference"))
                reference.keep(traceKey, reply);
        }
        if (side == Side::Reference)
            referenceTraced = reply.contains("trace");
        else if (!reply.contains("trace"))
            candidateFailed = reply.value("reason", std::string("refused"));
        if (!reply.contains("trace"))
            continue;
        if (side == Side::Candidate) {
            m_trace = reply["trace"];
            m_outside = reply.value("outside", Json(nullptr));
            for (const auto &ms : reply.value("self_ms", Json::array()))
                m_selfMs.push_back(ms.get<double>());
        } else if (m_trace.is_object() && reply["trace"].contains("reference")) {
            m_trace["reference"] = reply["trace"]["reference"];
        }
    }
    if (!candidateFailed.empty() && referenceTraced)
        m_refused = "trace: " + candidateFailed;
}

void TracePass::report(const std::vector<std::string> &refused, Json &result, std::vector<std::string> &flags,
                       std::vector<std::string> &warnings) const
{
    if (m_trace.is_object()) { // CUPTI in the candidate's own process: its testimony, not the judge's figure
        result["trace"] = m_trace;
        result["trace"]["measured_in"] = "candidate_process";
    }
    Judge::profileRefusalReport(refused, flags, warnings);
    if (m_outside.is_object() && m_outside.value("items", 0) > 0) {
        flags.push_back("work_outside_call");
        warnings.push_back("The trace of the candidate's process shows " + std::to_string(m_outside.value("items", 0))
                           + " kernels or copies outside the calls (up to "
                           + formatNumber(m_outside.value("max_before_us", 0.0), 4) + " us before one began, "
                           + formatNumber(m_outside.value("max_after_us", 0.0), 4)
                           + " us after one ended): work launched or left running outside kf_entry.");
    }
}

bool MetricsPass::pays(const EvalOptions &o, const RunStats &reference, const RunStats &candidate)
{
    if (!o.metrics || !(o.metricsMinSpeedup > 0))
        return o.metrics;
    return reference.medianMs / std::max(candidate.medianMs, 1e-12) >= o.metricsMinSpeedup;
}

bool MetricsPass::wanted(const EvalOptions &o, const RunStats &reference, const RunStats &candidate)
{
    if (pays(o, reference, candidate))
        return true;
    if (o.metrics)
        m_skipped = "not_among_best";
    return false;
}

void MetricsPass::run(const EvalOptions &o, const TaskSpec &task, const DevicePeaks &peaks, const RunStats &reference,
                      const RunStats &candidate, PassHosts &hosts, ReferenceProfiler &profiler, EvalClock &clock)
{
    clock.mark("metrics");
    if (clock.progress)
        clock.progress("profiling");
    std::string metricsKey = "metrics|" + profiler.key();
    for (const std::string &name : o.metricNames)
        metricsKey += "|" + name;
    std::string candidateFailed; // why the candidate's host gave no metrics
    for (Side side : {Side::Candidate, Side::Reference}) {
        const bool ref = side == Side::Reference;
        const RunStats &stats = ref ? reference : candidate;
        Json reply;
        if (const Json *k = ref ? profiler.kept(metricsKey) : nullptr) {
            reply = *k;
            reply["metrics"]["cached"] = true;
        } else {
            Json r = hosts.request(side, "metrics");
            r["metrics"] = o.metricNames;
            r["peak_copy_gbps"] = memoryRoofGbps(peaks);
            r["peak_fma_gflops"] = peaks.fmaGflops;
            r["flops"] = task.flops.present() ? task.flops.value : -1.0;
            r["bytes"] = task.bytes.present() ? task.bytes.value : -1.0;
            r["median_ms"] = stats.medianMs;
            host::HostClient &h = ref ? profiler.host() : hosts.host(side);
            clock.phase = std::string("profiling the ") + sideName(side);
            reply = profileRequest(h, r, clock.waitS(), clock.phase);
            if (ref && reply.contains("metrics") && reply["metrics"].value("available", false))
                profiler.keep(metricsKey, reply);
        }
        // A host that died, hung or refused gives no "metrics" at all; CUPTI's own "not available" (counters
        // restricted, a kernel it cannot range) comes inside it and is no refusal.
        if (!ref && !reply.contains("metrics"))
            candidateFailed = reply.value("reason", std::string("refused"));
        else if (ref && !candidateFailed.empty() && reply.contains("metrics"))
            m_refused = "metrics: " + candidateFailed;
        if (!reply.contains("metrics"))
            continue;
        m_metrics[sideName(side)] = reply["metrics"];
        if (reply.contains("roofline"))
            m_roofProfile[sideName(side)] = reply["roofline"];
    }
}

void MetricsPass::report(const EvalOptions &o, Json &result) const
{
    if (m_metrics.is_object() && !m_metrics.empty())
        result["metrics"] = m_metrics;
    if (!m_skipped.empty()) {
        result["metrics_skipped"] = m_skipped;
        result["metrics_min_speedup"] = o.metricsMinSpeedup;
    }
}

// Last of the passes: PC sampling in a fresh host of each side it samples.
void SourceProfilePass::run(const EvalOptions &o, PassHosts &hosts, EvalClock &clock)
{
    clock.mark("source_profile");
    if (clock.progress)
        clock.progress("source_profile");
    for (Side side : {Side::Candidate, Side::Reference}) {
        if (side == Side::Reference && !o.sourceProfileReference)
            continue;
        clock.phase = std::string("PC sampling the ") + sideName(side);
        Json r = hosts.request(side, "source_profile");
        r["period"] = o.sourceProfilePeriod;
        std::unique_ptr<host::HostClient> fresh = hosts.fresh(side);
        Json reply;
        try {
            // Not profileRequest(): a process that ended gets the stub below, which the result shows.
            reply = (fresh ? *fresh : hosts.host(side)).request(r, clock.waitS(), clock.phase);
        } catch (const host::HostFailure &f) {
            // The pass runs the candidate's code once more: whatever it does there (crash, hang, exit)
            // costs the profile only. The verdict and the timing were settled before.
            reply = Json{{"source_profile",
                          sourceProfileStub("failed", "helper_failed",
                                            "The source-level pass's process of the " + std::string(sideName(side))
                                                + " ended (" + f.verdict + "): " + f.message
                                                + ". The evaluation's verdict and timing are not affected.")}};
        }
        fresh.reset(); // exits, closing its mappings
        if (!reply.contains("source_profile"))
            continue;
        if (side == Side::Candidate) {
            m_profile = reply["source_profile"];
        } else if (m_profile.is_object()) {
            for (const auto &k : reply["source_profile"].value("kernels", Json::array()))
                m_profile["kernels"].push_back(k);
            m_profile["cost_ms"] = m_profile.value("cost_ms", 0.0) + reply["source_profile"].value("cost_ms", 0.0);
        }
    }
}

void SourceProfilePass::report(const EvalOptions &o, Json &result) const
{
    if (m_profile.is_object()) {
        result["source_profile"] = m_profile;
        return;
    }
    if (!o.sourceProfile)
        return;
    // Asked for but not run: say why, so the client shows a reason instead of an empty panel.
    std::string why, missing = "timing";
    if (result["verdict"] != "correct")
        why = "The source-level pass runs after a correct candidate was timed; this evaluation ended with verdict "
              + result["verdict"].get<std::string>() + ".";
    else if (!o.timing)
        why = "The source-level pass runs after timing, and this evaluation did not time (options.timing false).";
    else {
        missing = "profiler";
        why = "This worker was built without the CUPTI profiler (kforge_profiler), so it cannot sample PCs.";
    }
    result["source_profile"] = sourceProfileStub("unavailable", missing, why);
}

void ProfilePasses::run(const EvalOptions &o, const TaskSpec &task, const DevicePeaks &peaks, const RunStats &reference,
                        const RunStats &candidate, PassHosts &hosts, std::map<std::string, Json> &kept,
                        const std::string &referenceKey, EvalClock &clock)
{
    const bool metrics = m_metrics.wanted(o, reference, candidate);
    if (!o.trace && !metrics && !o.sourceProfile)
        return;
    hosts.batches.generate(deriveSeed(o.seed, seedstream::trial(0)), 0, 1);
    ReferenceProfiler profiler(kept, referenceKey, hosts, clock);
    if (o.trace)
        m_trace.run(o, hosts, profiler, clock);
    if (metrics)
        m_metrics.run(o, task, peaks, reference, candidate, hosts, profiler, clock);
    profiler.close();
    if (o.sourceProfile)
        m_source.run(o, hosts, clock);
    // CUPTI, once enabled in a process, stays in it and changes how its later calls run (measured on the H200:
    // diag_matmul's good kernel 0.043 ms per call before a trace pass in its host, 0.038 ms after). A host that
    // ran the trace or metrics pass goes (the candidate's; the reference's only when its own process could not
    // start); the next evaluation times in a fresh one, as the first did.
    if (o.trace || metrics)
        hosts.host(Side::Candidate).kill();
    if (profiler.ranInReferenceHost())
        hosts.host(Side::Reference).kill();
}

void ProfilePasses::report(const EvalOptions &o, Json &result, std::vector<std::string> &flags,
                           std::vector<std::string> &warnings) const
{
    std::vector<std::string> refused; // the trace's first, as the passes ran
    for (const std::string *r : {&m_trace.refused(), &m_metrics.refused()})
        if (!r->empty())
            refused.push_back(*r);
    m_trace.report(refused, result, flags, warnings);
    m_metrics.report(o, result);
    m_source.report(o, result);
}

Json sourceProfileStub(const std::string &status, const std::string &missing, const std::string &reason)
{
    return Json{{"status", status},
                {"reason", reason},
                {"missing", Json::array({missing})},
                {"cost_ms", 0},
                {"period", 0},
                {"runs", 0},
                {"sass_runs", 0},
                {"stall_reasons", Json::array()},
                {"cupti_stall_reasons", Json::object()},
                {"kernels", Json::array()}};
}

} // namespace kforge::runtime
