// The result object of one evaluation (docs/worker-protocol.md, EvalResult) from the state the rounds and
// the passes left: verification, timing (external), roofline, flags and warnings, the hosts' trace, metrics
// and source-level profile, the candidate's output and the isolation that applied.
#include "core/runtime/worker/evalrun.h"
#include "core/runtime/worker/floors.h"

#include <algorithm>
#include <cmath>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;

Json statsJson(const RunStats &r, bool samples)
{
    Json j;
    j["median_ms"] = r.medianMs;
    j["mean_ms"] = r.meanMs;
    j["min_ms"] = r.minMs;
    j["p10_ms"] = r.p10Ms;
    j["p90_ms"] = r.p90Ms;
    j["cv"] = r.cv;
    j["runs"] = r.runs;
    if (samples)
        j["samples_ms"] = r.samplesMs;
    return j;
}

// What the verification found beyond its verdict: the deep check's object, and the flags of the reference's and
// the candidate's behaviour (unstable numerics, a degenerate output, side-stream work, a reference that mutates).
void verificationReport(const Verification &v, const TaskSpec &task, const EvalOptions &options, const Json &sanitizer,
                        Json &result, std::vector<std::string> &flags, std::vector<std::string> &warnings)
{
    if (v.unstableNumerics)
        flags.push_back("unstable_numerics");
    if (options.deep) {
        // What the deep check did (docs/worker-protocol.md, "deep"); the sanitizer's part when it got that far.
        Json deep;
        deep["ran"] = true;
        deep["rounds"] = v.trials;
        deep["edge"] = v.edges.toJson();
        deep["all_timed_outputs_checked"] = true;
        deep["calls_compared"] = v.compared;
        deep["sanitizer"] = sanitizer.is_object()
                                ? sanitizer
                                : Json{{"ran", false},
                                       {"errors", 0},
                                       {"reason", "not reached: the evaluation ended before the sanitizer's round"}};
        result["deep"] = deep;
    }
    if (v.dependsOnInputs && !*v.dependsOnInputs) {
        flags.push_back("degenerate_output");
        warnings.push_back("The reference output does not depend on the inputs: it was identical for different "
                           "input sets. A kernel that writes constants passes verification here, and its speedup says "
                           "nothing about how fast the operation is computed.");
    } else if (v.dependsOnInputs && task.degenerate) {
        warnings.push_back("task.json marks the task degenerate, but the reference output changed with the inputs.");
    }
    if (v.sideStream) {
        flags.push_back("side_stream_work");
        warnings.push_back("The outputs were not complete when the work on the launch stream had finished: the "
                           "candidate left work on another stream (or the legacy default stream) that was not joined "
                           "back before kf_entry returned, so code that uses its outputs on the stream would read "
                           "unfinished results.");
    }
    if (v.referenceMutates) {
        flags.push_back("reference_mutates_inputs");
        warnings.push_back("The reference modified its inputs; every batch regenerates them, so the candidate saw the "
                           "original inputs.");
    }
}

} // namespace

void addFlag(std::vector<std::string> &flags, const std::string &flag)
{
    if (std::find(flags.begin(), flags.end(), flag) == flags.end())
        flags.push_back(flag);
}

// The judge's quiet probes (batchtimer.h, setQuietProbe) as timing.foreign_gpu. Another context's GPU work beside a
// reference or baseline batch (a candidate's work left running or waiting past its own window, or another process
// on a shared GPU) shows as a step above kQuietGapUs inside a probe (it was preempted), or as probes that waited to
// start (the GPU finished the other context's time slice first): a median wait above kQuietWaitUs. Either sets
// `gpu_contention`. The median, not one wait: a single late wake-up of the judge's thread is no contention.
Json Judge::foreignGpuReport(const std::vector<double> &stepsUs, double probeUs, std::vector<std::string> &flags,
                             std::vector<std::string> &warnings, const std::vector<double> &waitsUs)
{
    const double threshold = EvalOptions::kQuietGapUs;
    const double largest = stepsUs.empty() ? 0.0 : *std::max_element(stepsUs.begin(), stepsUs.end());
    const auto over = std::count_if(stepsUs.begin(), stepsUs.end(), [&](double us) { return us > threshold; });
    std::vector<double> waits = waitsUs;
    std::sort(waits.begin(), waits.end());
    const double medianWait = waits.empty() ? 0.0 : waits[waits.size() / 2];
    const bool waited = waits.size() >= 3 && medianWait > EvalOptions::kQuietWaitUs;
    if (over > 0 || waited) {
        addFlag(flags, "gpu_contention");
        warnings.push_back("Another process's GPU work was running beside the reference's or the baseline's batches ("
                           + (over > 0 ? std::to_string(over) + " of " + std::to_string(stepsUs.size())
                                             + " quiet probes were held up, the longest by " + formatNumber(largest, 4)
                                             + " us"
                                       : "the quiet probes waited a median " + formatNumber(medianWait, 4)
                                             + " us to start")
                           + "): the speedup is not the candidate's own. The hosts are stopped outside their "
                             "requests, so this is work the candidate left on the GPU after its calls returned, or "
                             "another user's process on a shared GPU.");
    }
    return Json{{"probe_us", probeUs},
                {"probes", stepsUs.size()},
                {"threshold_us", threshold},
                {"over", over},
                {"max_step_us", largest},
                {"wait_threshold_us", EvalOptions::kQuietWaitUs},
                {"median_wait_us", medianWait},
                {"max_wait_us", waits.empty() ? 0.0 : waits.back()}};
}

// Profile passes the candidate's host did not deliver while the reference's did: `profile_refused`.
void Judge::profileRefusalReport(const std::vector<std::string> &refused, std::vector<std::string> &flags,
                                     std::vector<std::string> &warnings)
{
    if (refused.empty())
        return;
    addFlag(flags, "profile_refused");
    std::string what;
    for (const std::string &r : refused)
        what += (what.empty() ? "" : "; ") + r;
    warnings.push_back("The candidate's process did not deliver a profile pass that the reference's did (" + what
                       + "): the trace is the only view of work outside the calls, so its absence is reported, not "
                         "taken as a clean bill.");
}

Json Judge::roofline(const TaskSpec &task, const DevicePeaks &peaks, double candidateMs, double referenceMs,
                         std::vector<std::string> &flags, std::vector<std::string> &warnings)
{
    const SpeedOfLightResult sol = speedOfLight(task, peaks, candidateMs);
    if (!sol.flag.empty()) {
        addFlag(flags, sol.flag);
        warnings.push_back(sol.message);
    }
    return sol.rooflineJson(referenceMs);
}

void Judge::deviceStateReport(const DeviceState &before, const DeviceState &after, Json &result)
{
    const std::vector<std::string> changed = settingsChanged(before, after);
    Json state{{"before", before.toJson()}, {"after", after.toJson()}, {"changed", changed}};
    result["device_state"] = state;
    if (changed.empty())
        return;
    if (!result.contains("flags") || !result["flags"].is_array())
        result["flags"] = Json::array();
    if (!result.contains("warnings") || !result["warnings"].is_array())
        result["warnings"] = Json::array();
    result["flags"].push_back("device_state_changed");
    std::string what;
    for (const std::string &c : changed)
        what += (what.empty() ? "" : "; ") + c;
    result["warnings"].push_back("The device's settings changed during the evaluation (" + what
                                 + "). The judge changes none of them: a host or another process did, and every "
                                   "figure of this evaluation was measured on a device that was not the same "
                                   "throughout.");
}

// The external timing of a correct candidate (docs/worker-protocol.md, "timing"), its flags, and the roofline.
void Judge::timingReport(const Run &run, Json &result, std::vector<std::string> &flags,
                         std::vector<std::string> &warnings) const
{
    const TaskSpec &task = run.task;
    const EvalOptions &options = run.options;
    const RunStats &ref = *run.reference, &cand = *run.candidate;
    Json t;
    t["reference"] = statsJson(ref, options.samples);
    t["candidate"] = statsJson(cand, options.samples);
    t["speedup"] = cand.medianMs > 0 ? ref.medianMs / cand.medianMs : 0;
    t["external"] = true;
    t["batch_calls"] = run.kCand;
    t["reference_batch_calls"] = run.kRef;
    t["batches"] = run.timedRounds;
    t["crossing_ms"] = run.crossingMs;
    t["gated"] = run.gated[0] && run.gated[1];
    t["gated_sides"] = Json{{"reference", run.gated[0]}, {"candidate", run.gated[1]}};
    t["warmup"] = Json{{"ms", run.warmupMs}, {"device_warm", run.deviceWarm}};
    t["rotated_sets"] = run.setsUsed < std::max(run.kCand, run.kRef);
    // The process boundary's cost: the baseline's batches, per sampled round, in wall-clock time.
    t["boundary_ms_per_round"] = run.baselineWallMs / std::max(1, run.timedRounds);
    // ... and over the whole evaluation: every baseline batch, plus in each of the other sides' batches the
    // crossing of its K (what a judge in the candidate's process would not pay).
    t["boundary_ms"] = run.boundaryWallMs;
    // The stop rule (medianci.h): the target, whether it stopped the timing, both medians' intervals then.
    const auto interval = [](const MedianCi &ci) {
        return Json{{"ci_low_ms", ci.lowMs},
                    {"ci_high_ms", ci.highMs},
                    {"half_width", std::isfinite(ci.halfWidth) ? Json(ci.halfWidth) : Json(nullptr)}};
    };
    t["adaptive"] = Json{{"target", options.ciTarget},
                         {"reached", run.stop == StopReason::Target},
                         {"stopped_by", stopReasonName(run.stop)},
                         {"rounds", run.timedRounds},
                         {"min_rounds", EvalOptions::kMinCiRounds},
                         {"candidate", interval(run.candidateCi)},
                         {"reference", interval(run.referenceCi)}};
    result["timing"] = t;
    if (ref.cv > 0.1 || cand.cv > 0.1)
        flags.push_back("unstable_timing");
    // GPU time the candidate's process took while the judge prepared its batches' inputs: work outside
    // its calls (on the inputs before the window opened, or left running from an earlier batch).
    if (run.candPrepMs.size() >= 3 && run.candPrepMs.size() == run.basePrepMs.size()) {
        std::vector<double> c = run.candPrepMs, b = run.basePrepMs;
        std::sort(c.begin(), c.end());
        std::sort(b.begin(), b.end());
        const double cm = c[c.size() / 2], bm = b[b.size() / 2];
        // Reported, not flagged: on the H200 an honest kernel that forks a second stream and joins it
        // back doubles the judge's preparation too (39.7 against 21.9 ms): another context with several
        // streams waiting is time-sliced in, working or not.
        result["timing"]["prep_ms"] = cm;
        result["timing"]["baseline_prep_ms"] = bm;
    }
    result["timing"]["foreign_gpu"] // {"probes": 0, ...} when quiet_probe_us is 0
        = foreignGpuReport(run.quietGapsUs, options.quietProbeUs, flags, warnings, run.quietWaitsUs);
    for (Side side : {Side::Reference, Side::Candidate})
        if (!run.gatedSide(side))
            warnings.push_back("The " + std::string(sideName(side)) + "'s calls waited for their own GPU work while "
                               "the batch was being enqueued (a synchronize inside the call), so its batches were "
                               "timed without the gate: its figure includes its host's enqueue time (the other "
                               "side kept its gate).");
    // The host's own events of the trace pass against the external figure: a cross-check only.
    if (!run.profiles.trace().selfMs().empty()) {
        std::vector<double> self = run.profiles.trace().selfMs();
        std::sort(self.begin(), self.end());
        const double selfMedian = self[self.size() / 2];
        const double diff = std::abs(selfMedian - cand.medianMs);
        result["timing"]["self_median_ms"] = selfMedian;
        // Not the same measurement (the trace pass repeats one call on the same buffers, the batches give
        // each call fresh ones), so only a wide gap counts. A module's own events also time the copy of its
        // results into the judge's buffers, which the judge's figure does not hold (its baseline is a module
        // that pays the same copy): no cross-check there.
        const bool module = run.hosts.candidate->kind() == host::HostKind::Module;
        if (!module && diff > 0.25 * std::max(selfMedian, cand.medianMs) && diff > 0.005) {
            flags.push_back("timing_mismatch");
            warnings.push_back("The candidate's own events in its process timed a call at " + formatMs(selfMedian)
                               + ", the judge's external measurement at " + formatMs(cand.medianMs)
                               + ": the external figure is reported.");
        }
    }

    if (task.flops.present() || task.bytes.present()) {
        // One computation (floors.h) for the roofline object, its flag and its message.
        Json roof = roofline(task, m_gpu.peaks(), cand.medianMs, ref.medianMs, flags, warnings);
        const Json &roofProfile = run.profiles.metrics().roofProfile();
        if (roofProfile.is_object() && !roofProfile.empty())
            roof["profile"] = roofProfile;
        result["roofline"] = roof;
    }
}

Json Judge::report(Run &run, Json result)
{
    const TaskSpec &task = run.task;
    const EvalOptions &options = run.options;
    const Verification &v = run.v;
    std::vector<std::string> flags, warnings;
    result["restart_required"] = m_restartRequired;
    result["seed"] = options.seed;
    if (run.weightsReport.is_object()) // a torch task's: how the judge moved the module's weights
        result["weights"] = run.weightsReport;
    result["verification"] = v.toJson(task);
    if (result["verdict"] == "correct" && v.failed) {
        result["verdict"] = "incorrect";
        result["message"] = v.reason;
    }
    verificationReport(v, task, options, run.sanitizer, result, flags, warnings);
    if (run.reference && run.candidate && result["verdict"] == "correct")
        timingReport(run, result, flags, warnings);
    // The passes' parts (precisionpass.h, profilepasses.h): precision, trace, metrics, source_profile.
    run.precision.report(result, flags, warnings);
    run.profiles.report(options, result, flags, warnings);

    // The candidate's output, capped at the source by the sandbox.
    bool capHit = false;
    std::string out = run.hosts.candidate->stdoutText(capHit);
    out = out.size() > run.stdoutStart ? out.substr(run.stdoutStart) : std::string();
    bool truncated = capHit;
    if (out.size() > kStdoutCap) {
        out.resize(kStdoutCap);
        truncated = true;
    }
    if (run.hosts.candidate->outputTruncated()) {
        addFlag(flags, "output_truncated");
        warnings.push_back("The candidate wrote more than its output cap to stdout or stderr; the rest was dropped.");
    }
    result["isolation"] = Json{{"candidate", run.hosts.candidate->protections()},
                               {"reference", run.hosts.reference->protections()}};

    result["flags"] = flags;
    result["warnings"] = warnings;
    if (result["verdict"] == "correct") {
        std::string msg = "correct";
        if (result.contains("timing"))
            msg += ": " + formatNumber(result["timing"]["speedup"].get<double>(), 4) + "x (reference "
                   + formatMs(run.reference->medianMs) + ", candidate " + formatMs(run.candidate->medianMs) + ")";
        for (const std::string &w : warnings)
            msg += ". Warning: " + w;
        result["message"] = msg;
    }
    result["stdout"] = out;
    result["stdout_truncated"] = truncated;
    return result;
}

Json Judge::provisional(Run &run, const Json &result)
{
    const EvalOptions &o = run.options;
    const bool timed = o.timing && run.timedRounds > 0 && run.reference && run.candidate;
    Json pending = Json::array();
    if (PrecisionPass::unavailableReason(run.task, run.hosts.reference->kind() == host::HostKind::Module,
                                         run.v.referenceMutates)
            .empty())
        pending.push_back("precision");
    if (timed && o.trace)
        pending.push_back("trace");
    if (timed && MetricsPass::pays(o, *run.reference, *run.candidate))
        pending.push_back("metrics");
    if (timed && o.sourceProfile)
        pending.push_back("source_profile");
    if (pending.empty())
        return nullptr;
    Json early = report(run, result);
    early["provisional"] = true;
    early["pending"] = pending;
    early["elapsed_ms"] = std::round(run.elapsedMs());
    return early;
}

} // namespace kforge::runtime
