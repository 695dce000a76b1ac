// The passes after timing (judge.h): the CUPTI trace, the metrics pass (the reference's from the
// server's cache), the source-level PC sampling. Split from judge.cpp, which times and verifies.
#include "core/runtime/worker/judge.h"

#include "core/runtime/host/hostprotocol.h"
#include "core/runtime/worker/evalrun.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;

} // namespace

namespace {

// One profile request to `host` on the call of set 0; its refusal becomes {"available": false, "reason": ...},
// and so does a host that dies or stays silent meanwhile (it is killed then): the verdict and the timing were
// settled before the passes, which cost the profile only.
Json profileRequest(Judge::Hosts, host::HostClient &h, const Json &request, double waitS, const std::string &phase)
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

void Judge::profilePasses(Run &run)
{
    const EvalOptions &o = run.options;
    bool metrics = o.metrics;
    if (metrics && o.metricsMinSpeedup > 0 && run.reference && run.candidate) {
        // Metrics when they pay, decided here after timing: a candidate slower than the session's best needs
        // no pass (the client's threshold), and none waits for a second evaluation to get it.
        const double speedup = run.reference->medianMs / std::max(run.candidate->medianMs, 1e-12);
        if (!(speedup >= o.metricsMinSpeedup)) {
            metrics = false;
            run.metricsSkipped = "not_among_best";
        }
    }
    if (!o.trace && !metrics && !o.sourceProfile)
        return;
    BatchTimer &bt = *run.batches;
    const uint64_t seed = deriveSeed(run.options.seed, seedstream::trial(0));
    bt.generate(seed, 0, 1);
    const auto request = [&](Side side, const char *kind) {
        return Json{{"op", host::kOpProfile}, {"kind", kind}, {"call", bt.callJson(side, 0)}};
    };
    // The reference's trace and metrics run in a process of their own, started at most once per evaluation
    // and only when no kept reply serves (the server keeps them by reference library, task and pass): CUPTI
    // stays in a process once enabled, and the reference's own host times every evaluation, so it never runs
    // a pass. Before, the passes ran in it and it was ended after each evaluation; the next one started it
    // again (measured on the H200: cuBLAS's first calls then cost 1.7-2.6 s of every evaluation's verification).
    const std::string refKey = m_referenceKey + "|" + run.taskJson.dump();
    std::unique_ptr<host::HostClient> refProfiler;
    bool refProfilerTried = false, referencePassed = false;
    const auto referenceHost = [&]() -> host::HostClient & {
        if (!refProfilerTried) {
            refProfilerTried = true;
            run.phase = "starting the reference's profiling process";
            refProfiler = run.hosts.fresh ? run.hosts.fresh(true) : nullptr;
            if (refProfiler) {
                try {
                    mapHost(run, *refProfiler, Side::Reference);
                } catch (const host::HostFailure &) {
                    refProfiler.reset();
                } catch (const EntryFailure &) {
                    refProfiler.reset();
                }
            }
        }
        if (refProfiler)
            return *refProfiler;
        referencePassed = true; // no process of its own: the reference's host runs it, and goes after
        return run.host(Side::Reference);
    };
    const auto keep = [&](const std::string &key, const Json &reply) {
        if (m_referenceProfiles.size() >= kReferenceProfilesKept)
            m_referenceProfiles.clear();
        m_referenceProfiles[key] = reply;
    };
    const auto kept = [&](const std::string &key) -> const Json * {
        const auto it = m_referenceProfiles.find(key);
        return it == m_referenceProfiles.end() ? nullptr : &it->second;
    };
    if (o.trace) {
        run.mark("trace");
        if (run.progress)
            run.progress("tracing");
        const std::string traceKey = "trace|" + std::to_string(o.traceRuns) + "|" + refKey;
        std::string candidateFailed; // why the candidate's host gave no trace
        bool referenceTraced = false;
        for (Side side : {Side::Candidate, Side::Reference}) {
            Json reply;
            if (const Json *k = side == Side::Reference ? kept(traceKey) : nullptr) {
                reply = *k;
            } else {
                run.phase = std::string("tracing the ") + sideName(side);
                Json r = request(side, "trace");
                r["runs"] = o.traceRuns;
                reply = profileRequest(run.hosts, side == Side::Reference ? referenceHost() : run.host(side), r,
                                       run.waitS(), run.phase);
                if (side == Side::Reference && reply.contains("trace") && reply["trace"].contains("reference"))
                    keep(traceKey, reply);
            }
            if (side == Side::Reference)
                referenceTraced = reply.contains("trace");
            else if (!reply.contains("trace"))
                candidateFailed = reply.value("reason", std::string("refused"));
            if (!reply.contains("trace"))
                continue;
            if (side == Side::Candidate) {
                run.trace = reply["trace"];
                run.outside = reply.value("outside", Json(nullptr));
                for (const auto &ms : reply.value("self_ms", Json::array()))
                    run.selfMs.push_back(ms.get<double>());
            } else if (run.trace.is_object() && reply["trace"].contains("reference")) {
                run.trace["reference"] = reply["trace"]["reference"];
            }
        }
        if (!candidateFailed.empty() && referenceTraced)
            run.profileRefused.push_back("trace: " + candidateFailed);
    }
    if (metrics) {
        run.mark("metrics");
        if (run.progress)
            run.progress("profiling");
        const DevicePeaks &pk = m_gpu.peaks();
        std::string metricsKey = "metrics|" + refKey;
        for (const std::string &name : o.metricNames)
            metricsKey += "|" + name;
        std::string candidateFailed; // why the candidate's host gave no metrics
        for (Side side : {Side::Candidate, Side::Reference}) {
            const bool ref = side == Side::Reference;
            const RunStats &stats = ref ? *run.reference : *run.candidate;
            Json reply;
            if (const Json *k = ref ? kept(metricsKey) : nullptr) {
                reply = *k;
                reply["metrics"]["cached"] = true;
            } else {
                run.phase = std::string("profiling the ") + sideName(side);
                Json r = request(side, "metrics");
                r["metrics"] = o.metricNames;
                r["peak_copy_gbps"] = memoryRoofGbps(pk);
                r["peak_fma_gflops"] = pk.fmaGflops;
                r["flops"] = run.task.flops.present() ? run.task.flops.value : -1.0;
                r["bytes"] = run.task.bytes.present() ? run.task.bytes.value : -1.0;
                r["median_ms"] = stats.medianMs;
                reply = profileRequest(run.hosts, ref ? referenceHost() : run.host(side), r, run.waitS(), run.phase);
                if (ref && reply.contains("metrics") && reply["metrics"].value("available", false))
                    keep(metricsKey, reply);
            }
            // A host that died, hung or refused gives no "metrics" at all; CUPTI's own "not available" (counters
            // restricted, a kernel it cannot range) comes inside it and is no refusal.
            if (!ref && !reply.contains("metrics"))
                candidateFailed = reply.value("reason", std::string("refused"));
            else if (ref && !candidateFailed.empty() && reply.contains("metrics"))
                run.profileRefused.push_back("metrics: " + candidateFailed);
            if (!reply.contains("metrics"))
                continue;
            run.metrics[sideName(side)] = reply["metrics"];
            if (reply.contains("roofline"))
                run.roofProfile[sideName(side)] = reply["roofline"];
        }
    }
    refProfiler.reset(); // exits, closing its mappings before the judge frees the memory behind them
    if (o.sourceProfile)
        sourceProfilePass(run);
    // CUPTI, once enabled in a process, stays in it and changes how its later calls run (measured on the H200:
    // diag_matmul's good kernel 0.043 ms per call before a trace pass in its host, 0.038 ms after). A host that
    // ran the trace or metrics pass goes (the candidate's; the reference's only when its own process could not
    // start); the next evaluation times in a fresh one, as the first did.
    if (o.trace || metrics)
        run.host(Side::Candidate).kill();
    if (referencePassed)
        run.host(Side::Reference).kill();
}

// The source-level pass (options.source_profile), last: PC sampling in a fresh host of each side it samples.
void Judge::sourceProfilePass(Run &run)
{
    const EvalOptions &o = run.options;
    BatchTimer &bt = *run.batches;
    const auto request = [&](Side side, const char *kind) {
        return Json{{"op", host::kOpProfile}, {"kind", kind}, {"call", bt.callJson(side, 0)}};
    };
    run.mark("source_profile");
    if (run.progress)
        run.progress("source_profile");
    for (Side side : {Side::Candidate, Side::Reference}) {
        if (side == Side::Reference && !o.sourceProfileReference)
            continue;
        run.phase = std::string("PC sampling the ") + sideName(side);
        Json r = request(side, "source_profile");
        r["period"] = o.sourceProfilePeriod;
        std::unique_ptr<host::HostClient> fresh = run.hosts.fresh ? run.hosts.fresh(side == Side::Reference) : nullptr;
        if (fresh) {
            try {
                mapHost(run, *fresh, side);
            } catch (const host::HostFailure &) {
                fresh.reset();
            } catch (const EntryFailure &) {
                fresh.reset();
            }
        }
        Json reply;
        try {
            reply = profileRequest(run.hosts, fresh ? *fresh : run.host(side), r, run.waitS(), run.phase);
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
            run.sourceProfile = reply["source_profile"];
        } else if (run.sourceProfile.is_object()) {
            for (const auto &k : reply["source_profile"].value("kernels", Json::array()))
                run.sourceProfile["kernels"].push_back(k);
            run.sourceProfile["cost_ms"] = run.sourceProfile.value("cost_ms", 0.0)
                                           + reply["source_profile"].value("cost_ms", 0.0);
        }
    }
}

} // namespace kforge::runtime
