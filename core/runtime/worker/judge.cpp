#include "core/runtime/worker/judge.h"

#include "core/runtime/host/hostprotocol.h"
#include "core/runtime/worker/evalrun.h"
#include "core/runtime/worker/seeds.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <sys/wait.h>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

void setVerdict(Json &result, const std::string &verdict, const std::string &message)
{
    result["verdict"] = verdict;
    result["message"] = message;
}

} // namespace

Judge::Judge(GpuContext &gpu, std::map<std::string, Json> &referenceProfiles)
    : m_gpu(gpu)
    , m_referenceProfiles(referenceProfiles)
    , m_random(std::random_device{}())
{
}

Judge::~Judge() = default;

RunStats Judge::summarize(const std::vector<float> &samplesMs)
{
    RunStats r;
    r.samplesMs = samplesMs;
    r.runs = static_cast<int>(samplesMs.size());
    if (samplesMs.empty())
        return r;
    std::vector<double> s(samplesMs.begin(), samplesMs.end());
    std::sort(s.begin(), s.end());
    const auto quantile = [&](double q) {
        const double pos = q * static_cast<double>(s.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(pos));
        const std::size_t hi = std::min(lo + 1, s.size() - 1);
        return s[lo] + (s[hi] - s[lo]) * (pos - static_cast<double>(lo));
    };
    r.medianMs = quantile(0.5);
    r.p10Ms = quantile(0.1);
    r.p90Ms = quantile(0.9);
    r.minMs = s.front();
    double sum = 0;
    for (double v : s)
        sum += v;
    r.meanMs = sum / static_cast<double>(s.size());
    double var = 0;
    for (double v : s)
        var += (v - r.meanMs) * (v - r.meanMs);
    var = s.size() > 1 ? var / static_cast<double>(s.size() - 1) : 0;
    r.cv = r.meanMs > 0 ? std::sqrt(var) / r.meanMs : 0;
    return r;
}

int Judge::chooseBatch(double perCallMs)
{
    if (!(perCallMs > 0))
        return kMaxBatch;
    // Rounded up to a power of two: the estimate's noise must not change K from one evaluation of a kernel to
    // the next (the per-call figure of short kernels depends a little on K: each call's fresh buffers).
    const double k = std::clamp(std::ceil(kBatchTargetMs / perCallMs), 1.0, static_cast<double>(kMaxBatch));
    int p = 1;
    while (p < k)
        p *= 2;
    return std::clamp(p, kMinBatch, kMaxBatch);
}

// The round's batches in the order they run (round() above).
std::vector<Judge::RoundBatch> Judge::roundOrder(const Run &run, int kRef, int kCand, bool probe, bool sample,
                                                        bool isFirst)
{
    // The baseline for a K runs in the probe rounds (K is chosen from round 1's), and of the sampled rounds in
    // every options.baseline_every-th, each K's first kMinBaselineSamples always; never in a warm-up round,
    // whose figures nobody uses. Its median per K is what every sampled batch of that K is less.
    const auto baselineFor = [&](int k) {
        if (probe)
            return true;
        if (!sample)
            return false;
        const auto it = run.baselineMs.find(k);
        return it == run.baselineMs.end() || it->second.size() < EvalOptions::kMinBaselineSamples
               || run.timedRounds % run.options.baselineEvery == 0;
    };
    std::vector<RoundBatch> order{{Side::Reference, kRef}, {Side::Candidate, kCand}};
    if (baselineFor(kRef))
        order.insert(order.begin(), RoundBatch{Side::Baseline, kRef});
    if (!isFirst) {
        if (kCand != kRef && baselineFor(kCand))
            order.push_back(RoundBatch{Side::Baseline, kCand});
        std::shuffle(order.begin(), order.end(), m_random);
    }
    // The candidate's batch opens every round: each batch regenerates the round's input sets after its gate opened,
    // so a candidate that came after the reference (or a baseline's yardstick batch) could read those same sets
    // from its own context during their windows and have its outputs ready before its own window opened. First,
    // the sets it is given do not exist before its gate opens (the other sides' order stays random).
    std::stable_partition(order.begin(), order.end(), [](const RoundBatch &b) { return b.side == Side::Candidate; });
    return order;
}

// One round: the baseline, the reference and the candidate each run one batch on the round's inputs (the
// candidate's first, the others in that order in the first round and shuffled later: roundOrder), then the candidate's outputs are compared: all of them
// (`fullCheck`) or a random subset. `sample`: the batch times count.
void Judge::round(Run &run, int index, bool fullCheck, bool sample)
{
    BatchTimer &bt = *run.batches;
    const uint64_t seed = deriveSeed(run.options.seed, seedstream::batch(static_cast<uint64_t>(index)));
    const std::string name = "round " + std::to_string(index + 1);
    const bool isFirst = index == 0;
    // Rounds 0 and 1 run k0 calls; K is chosen from round 1, the first gated one (round 0's time includes the
    // host's enqueueing and first launches).
    const bool probe = index <= 1;
    const int kRef = probe ? run.k0 : run.kRef, kCand = probe ? run.k0 : run.kCand;
    const std::vector<RoundBatch> order = roundOrder(run, kRef, kCand, probe, sample, isFirst);
    // Where the round's sets start: with fewer calls than sets, timed rounds rotate through all of them
    // (other contents and addresses each round), from a place the candidate cannot predict.
    const int first = probe || std::max(kCand, kRef) >= bt.sets()
                          ? 0
                          : std::uniform_int_distribution<int>(0, bt.sets() - 1)(m_random);
    using Clock = std::chrono::steady_clock;
    Clock::time_point since = Clock::now();
    bt.poison(Side::Candidate, std::min(kCand, bt.sets()), m_random(), first);
    bt.poison(Side::Reference, std::min(kRef, bt.sets()), m_random(), first);
    run.addRoundMs("poison", since);
    std::map<Side, BatchTime> times;
    std::map<int, double> base;
    const QuietProbeScope quiet(bt, sample ? run.options.quietProbeUs : 0); // the sampled rounds' batches only
    double prep[2] = {-1, -1}; // the baseline's (same K as the candidate) and the candidate's preparation
    double baseWall = 0;
    for (const RoundBatch &b : order) {
        run.phase = "the " + std::string(sideName(b.side)) + "'s batch of " + std::to_string(b.calls) + " calls, " + name;
        host::HostClient &h = run.host(b.side);
        // The first round is not gated: it also loads what the calls need on their first run (a kernel's
        // first launch may wait for its own context), which a gate would hold up until its timeout.
        // The baseline regenerates the sets only while its preparation yardstick (prep_ms) is short of
        // kPrepYardstick rounds: nothing it runs reads them, and every other batch makes its own.
        const bool yardstick = b.side == Side::Baseline && b.calls == kCand && sample
                               && run.basePrepMs.size() < Run::kPrepYardstick;
        const BatchTime t = bt.run(h, b.side, b.calls, seed, run.gatedSide(b.side) && !isFirst, b.side == Side::Candidate,
                                   run.waitS(), run.phase, first, b.side != Side::Baseline || yardstick);
        const BatchFinish &f = t.finish;
        const std::string who = sideName(b.side);
        run.addBatch(who, t);
        if (b.side != Side::Baseline) {
            for (int rc : f.rc)
                if (rc != 0)
                    throw EntryFailure{b.side, rc, "", run.phase, f.error};
            if (!f.cudaError.empty())
                throw EntryFailure{b.side, 0, f.cudaError, run.phase};
        }
        const int g = b.side == Side::Candidate ? 1 : 0;
        if (t.gateTimedOut && b.side != Side::Baseline && run.gated[g] && ++run.gateTimeouts[g] >= 2) {
            // The host's calls wait for their own work while they enqueue (a synchronize inside the call): a
            // gate cannot hold this side's window. This side is timed without it from here on, the sampling
            // starts afresh; the other side keeps its gate.
            run.gated[g] = false;
            run.refBatchMs.clear();
            run.candBatchMs.clear();
            run.timedRounds = 0;
            run.refWallMs = run.candWallMs = run.baselineWallMs = 0;
            sample = false;
        }
        if (t.gateTimedOut)
            sample = false;
        if (yardstick)
            prep[0] = t.prepMs;
        else if (b.side == Side::Candidate)
            prep[1] = t.prepMs;
        if (b.side == Side::Baseline) {
            base[b.calls] = t.ms;
            baseWall += t.wallMs;
            run.boundaryWallMs += t.wallMs;
        } else {
            times[b.side] = t;
            ++run.crossedBatches[b.calls];
        }
        if (isFirst && b.side == Side::Reference) {
            since = Clock::now();
            const std::vector<unsigned long long> changed = bt.inputChanges(seed, 0);
            run.addRoundMs("input_check", since);
            for (unsigned long long c : changed)
                run.v.referenceMutates = run.v.referenceMutates || c != 0;
        }
    }
    if (index == 1 || (isFirst && !run.options.timing)) {
        // Never more calls than input sets: a batch that came back to a set would give a repeated call the
        // same inputs and output slot, which a cache can answer without computing (fewer sets, shorter batches).
        const auto perCall = [&](Side side) { return std::max(times[side].ms - base[kRef], 1e-4) / run.k0; };
        run.kRef = std::min(chooseBatch(perCall(Side::Reference)), bt.sets());
        run.kCand = std::min(chooseBatch(perCall(Side::Candidate)), bt.sets());
        run.refPerCallMs = perCall(Side::Reference);
    }
    if (isFirst) {
        if (bt.sets() >= 2)
            run.v.dependsOnInputs = run.verifier->referenceDifference(0, 1) != 0;
    }

    checkRound(run, RoundCheck{name, seed, first, kCand, kRef, fullCheck, order.back().side == Side::Candidate});
    if (sample && !run.v.failed)
        recordSample(run, base, times, prep, baseWall);
}

// A round's checks (round()'s second half): the candidate's outputs to compare (every one in a full-check or deep
// round, else a random sixteenth), the inputs it may have changed, the reference's outputs for the sets its own
// batch did not cover (within kCheckBudgetMs), the comparison, and a failure for changed inputs.
void Judge::checkRound(Run &run, const RoundCheck &r)
{
    BatchTimer &bt = *run.batches;
    const std::string &name = r.name;
    const uint64_t seed = r.seed;
    const int first = r.first, kCand = r.kCand, kRef = r.kRef;
    const bool fullCheck = r.fullCheck, candidateLast = r.candidateLast;
    using Clock = std::chrono::steady_clock;
    Clock::time_point since;
    // Which outputs to compare, and the reference's outputs for sets its own batch did not cover.
    const int candSets = std::min(kCand, bt.sets()), refSets = std::min(kRef, bt.sets());
    const auto slotOf = [&](int c) { return (first + c) % bt.sets(); };
    std::vector<int> slots;
    if (fullCheck || run.options.deep) { // deep: every output of every batch
        for (int j = 0; j < candSets; ++j)
            slots.push_back(slotOf(j));
    } else {
        std::vector<int> all(static_cast<std::size_t>(candSets));
        for (int j = 0; j < candSets; ++j)
            all[static_cast<std::size_t>(j)] = slotOf(j);
        std::shuffle(all.begin(), all.end(), m_random);
        all.resize(static_cast<std::size_t>(std::max(1, candSets / 16)));
        slots = all;
    }
    since = Clock::now();
    if (candidateLast) { // nothing regenerated the inputs since the candidate's batch
        for (int j : slots) {
            const std::vector<unsigned long long> changed = bt.inputChanges(seed, j);
            for (std::size_t i = 0; i < changed.size(); ++i) {
                const std::string &n = run.task.inputs[i].name;
                if (changed[i]
                    && std::find(run.v.mutatedInputs.begin(), run.v.mutatedInputs.end(), n) == run.v.mutatedInputs.end())
                    run.v.mutatedInputs.push_back(n);
            }
        }
    }
    run.addRoundMs("input_check", since);
    const std::string timedPart = run.part;
    run.mark("checks");
    std::vector<int> missing;
    for (int j : slots)
        if ((j - first + bt.sets()) % bt.sets() >= refSets)
            missing.push_back(j);
    // Outside the deep check, the reference recomputes outputs for the candidate's calls for a bounded time
    // per round: the outputs its own batch covered are all compared, and of the rest a random choice of what
    // fits kCheckBudgetMs (a full round) or a quarter of it (a sampled one), at least 2. A 2.7 ms reference
    // would otherwise spend 0.7 s on each full round of a 256-call candidate batch.
    if (!run.options.deep && run.refPerCallMs > 0) {
        const double budget = fullCheck ? kCheckBudgetMs : kCheckBudgetMs / 4;
        const auto cap = static_cast<std::size_t>(std::max(2.0, std::floor(budget / run.refPerCallMs)));
        if (missing.size() > cap) {
            std::shuffle(missing.begin(), missing.end(), m_random);
            const std::vector<int> dropped(missing.begin() + static_cast<std::ptrdiff_t>(cap), missing.end());
            missing.resize(cap);
            slots.erase(std::remove_if(slots.begin(), slots.end(),
                                       [&](int j) { return std::find(dropped.begin(), dropped.end(), j) != dropped.end(); }),
                        slots.end());
        }
    }
    since = Clock::now();
    if (!missing.empty()) {
        run.phase = "the reference's outputs for the candidate's calls, " + name;
        const BatchTimer::Finish f = bt.expected(*run.hosts.reference, seed, missing, run.waitS(), run.phase);
        for (int rc : f.rc)
            if (rc != 0)
                throw EntryFailure{Side::Reference, rc, "", run.phase, f.error};
        if (!f.cudaError.empty())
            throw EntryFailure{Side::Reference, 0, f.cudaError, run.phase};
    }
    run.addRoundMs("expected", since);
    since = Clock::now();
    run.phase = "comparing, " + name;
    run.verifier->compare(slots, name, seed, run.v);
    run.addRoundMs("compare", since);
    run.roundMs["rounds"] += 1;
    run.mark(timedPart);
    if (fullCheck)
        ++run.v.trials;
    if (!run.v.failed && !run.v.mutatedInputs.empty()) {
        std::string names;
        for (const std::string &n : run.v.mutatedInputs)
            names += (names.empty() ? "" : ", ") + n;
        run.v.reason = "the candidate modified its input" + std::string(run.v.mutatedInputs.size() > 1 ? "s " : " ")
                       + names + " (inputs must stay unchanged) in " + name;
        run.v.failed = true;
    }
}

// A sampled round's figures into the run: the baseline's batches by K, each side's batch time and wall time, the
// preparation yardstick's pair.
void Judge::recordSample(Run &run, const std::map<int, double> &base, std::map<Side, BatchTime> &times,
                         const double (&prep)[2], double baseWall)
{
    for (const auto &[k, ms] : base)
        run.baselineMs[k].push_back(ms);
    run.refBatchMs.push_back(times[Side::Reference].ms);
    run.candBatchMs.push_back(times[Side::Candidate].ms);
    if (prep[0] >= 0 && prep[1] >= 0) { // pairs: the yardstick's rounds
        run.basePrepMs.push_back(prep[0]);
        run.candPrepMs.push_back(prep[1]);
    }
    run.refWallMs += times[Side::Reference].wallMs;
    run.candWallMs += times[Side::Candidate].wallMs;
    run.baselineWallMs += baseWall;
    ++run.timedRounds;
}

void Judge::edgeRounds(Run &run)
{
    BatchTimer &bt = *run.batches;
    run.v.edges = EdgeSchedule(edgeTrials(run.task));
    // The declared rounds' NaN / Inf in the reference's outputs: round 1's sets, still in the reference's slots.
    const int sets = std::min(run.k0, bt.sets());
    std::vector<int> slots;
    for (int j = 0; j < sets; ++j)
        slots.push_back(j);
    run.phase = "counting the reference's non-finite outputs, round 1";
    std::vector<double> declaredMax;
    const std::vector<NonFinite> declared = run.verifier->referenceNonFinite(slots, &declaredMax);
    // Deep: every input set the memory allows in each edge round (at most 16), else round 1's K.
    const int calls = std::min(run.options.deep ? std::max(run.k0, 16) : run.k0, bt.sets());
    const int checked = std::min(calls, bt.sets());
    slots.clear();
    for (int j = 0; j < checked; ++j)
        slots.push_back(j);
    struct Restore { // the declared range and tolerance for every round after these, whatever happens
        BatchTimer &bt;
        Verifier &verifier;
        ~Restore()
        {
            bt.setRange(InputRange::Declared);
            verifier.setAtolScale({});
        }
    } restore{bt, *run.verifier};
    uint64_t index = 0;
    while (const EdgeTrial *trial = run.v.edges.next()) {
        const std::string label = trial->label();
        const std::string name = "edge round (" + label + ")";
        const uint64_t seed = deriveSeed(run.options.seed, seedstream::edge(index++));
        bt.setRange(trial->range, trial->scale);
        bt.poison(Side::Reference, checked, m_random());
        bt.poison(Side::Candidate, checked, m_random());
        run.phase = "the reference's batch of " + std::to_string(calls) + " calls, " + name;
        const BatchTime ref = bt.run(*run.hosts.reference, Side::Reference, calls, seed, run.gatedSide(Side::Reference), false, run.waitS(),
                                     run.phase);
        if (!ref.finish.cudaError.empty())
            throw EntryFailure{Side::Reference, 0, ref.finish.cudaError, run.phase};
        bool refFailed = false;
        for (int rc : ref.finish.rc)
            refFailed = refFailed || rc != 0;
        if (refFailed) {
            run.v.edges.skipped("the reference's kf_entry returned non-zero on these inputs");
            continue;
        }
        std::vector<double> edgeMax;
        if (edgeTrialBeyondDomain(declared, run.verifier->referenceNonFinite(slots, &edgeMax))) {
            run.v.edges.skipped("beyond the task's domain: the reference's output has NaN or Inf where the declared "
                                "inputs gave none");
            continue;
        }
        // The same rule relative to the outputs' scale: atol grows with the reference's magnitude (a matmul's
        // outputs grow with the square of the inputs' scale, and so does an honest kernel's rounding error).
        std::vector<double> atolScale;
        for (std::size_t k = 0; k < edgeMax.size(); ++k)
            atolScale.push_back(declaredMax[k] > 0 && edgeMax[k] > declaredMax[k] ? edgeMax[k] / declaredMax[k] : 1.0);
        run.verifier->setAtolScale(atolScale);
        run.phase = "the candidate's batch of " + std::to_string(calls) + " calls, " + name;
        const BatchTime cand = bt.run(*run.hosts.candidate, Side::Candidate, calls, seed, run.gatedSide(Side::Candidate), true, run.waitS(),
                                      run.phase);
        for (int rc : cand.finish.rc)
            if (rc != 0)
                throw EntryFailure{Side::Candidate, rc, "", run.phase, cand.finish.error};
        if (!cand.finish.cudaError.empty())
            throw EntryFailure{Side::Candidate, 0, cand.finish.cudaError, run.phase};
        run.phase = "comparing, " + name;
        run.verifier->compare(slots, name, seed, run.v);
        if (!run.v.failed) {
            run.v.edges.passed();
            continue;
        }
        run.v.edges.failed();
        run.v.unstableNumerics = true;
        if (run.v.firstMismatch.is_object())
            run.v.firstMismatch["range"] = label;
        run.v.reason = "unstable_numerics: the candidate matched the reference on the declared inputs but not on edge "
                       "inputs ("
                       + label + "), where the reference's output stays finite: " + run.v.reason;
        return;
    }
}

void Judge::sanitizerRound(Run &run)
{
    Json &san = run.sanitizer;
    san = Json{{"ran", false}, {"errors", 0}, {"reason", ""}};
    const std::string tool = findComputeSanitizer();
    if (tool.empty()) {
        san["reason"] = "compute-sanitizer is not on the worker's PATH nor under CUDA_HOME/bin";
        return;
    }
    san["tool"] = tool;
    if (!run.hosts.wrapped) {
        san["reason"] = "this worker cannot start a host under compute-sanitizer";
        return;
    }
    run.mark("sanitizer");
    if (run.progress)
        run.progress("sanitizer");
    run.phase = "starting the candidate's process under compute-sanitizer";
    std::string error;
    std::unique_ptr<host::HostClient> h =
        run.hosts.wrapped({tool, "--tool", "memcheck", "--error-exitcode", "99", "--print-limit", "20"}, error);
    if (!h) {
        san["reason"] = "the candidate's process did not start under compute-sanitizer: " + error;
        return;
    }
    BatchTimer &bt = *run.batches;
    const uint64_t seed = deriveSeed(run.options.seed, seedstream::trial(0x5a));
    std::vector<int> slots;
    for (int j = 0; j < std::min(run.k0, bt.sets()); ++j)
        slots.push_back(j);
    const std::string name = "the compute-sanitizer round";
    std::string failure; // why the round could not decide
    bool cudaFailed = false;
    try {
        mapHost(run, *h, Side::Candidate);
        run.phase = "the reference's outputs, " + name;
        const BatchTimer::Finish rf = bt.expected(*run.hosts.reference, seed, slots, run.waitS(), run.phase);
        for (int rc : rf.rc)
            if (rc != 0)
                throw EntryFailure{Side::Reference, rc, "", run.phase, rf.error};
        if (!rf.cudaError.empty())
            throw EntryFailure{Side::Reference, 0, rf.cudaError, run.phase};
        bt.poison(Side::Candidate, static_cast<int>(slots.size()), m_random());
        run.phase = "the candidate's batch under compute-sanitizer, " + name;
        const BatchTimer::Finish cf = bt.untimed(*h, Side::Candidate, seed, slots, true, run.waitS(), run.phase);
        bool rcFailed = false;
        for (int rc : cf.rc)
            rcFailed = rcFailed || rc != 0;
        cudaFailed = !cf.cudaError.empty() || rcFailed;
        if (cudaFailed)
            san["cuda_error"] = cf.cudaError.empty() ? std::string("kf_entry_failed") : cf.cudaError;
        else {
            run.phase = "comparing, " + name;
            run.verifier->compare(slots, name, seed, run.v);
        }
    } catch (const host::HostFailure &f) {
        failure = f.message;
    }
    run.phase = "ending the sanitized candidate's process";
    const std::optional<int> status = h->exitAndWait(std::min(60.0, run.waitS()));
    bool truncated = false;
    const std::string out = h->stdoutText(truncated) + "\n" + h->stderrTail(256 * 1024);
    long long summary = -1;
    const std::vector<std::string> lines = sanitizerLines(out, 12, summary);
    h.reset();
    const bool exit99 = status && WIFEXITED(*status) && WEXITSTATUS(*status) == 99;
    san["exit_status"] = status && WIFEXITED(*status) ? Json(WEXITSTATUS(*status)) : Json(nullptr);
    san["first_lines"] = lines;
    const long long errors = summary > 0 ? summary : (exit99 ? 1 : 0);
    san["errors"] = errors;
    if (errors > 0 || (cudaFailed && exit99)) {
        san["ran"] = true;
        san["reason"] = "memcheck reported errors";
        std::string first;
        for (std::size_t i = 0; i < lines.size() && i < 4; ++i)
            first += (first.empty() ? "" : " | ") + lines[i];
        run.v.failed = true;
        run.v.sanitizerErrors = true;
        run.v.reason = "compute-sanitizer memcheck found " + std::to_string(errors) + " error(s) in the candidate's calls ("
                       + name + "): " + (first.empty() ? std::string("see deep.sanitizer") : first);
        return;
    }
    if (!failure.empty() || !status || cudaFailed || summary < 0) {
        // The tool, not the candidate, is in doubt: the round could not decide.
        san["reason"] = !failure.empty() ? failure
                        : cudaFailed     ? "the candidate's calls failed under compute-sanitizer without a report"
                        : !status        ? "the sanitized process did not end in time"
                                         : "compute-sanitizer printed no error summary";
        return;
    }
    san["ran"] = true;
    san["reason"] = "memcheck: no errors in " + std::to_string(slots.size()) + " calls";
}

// The batches' memory (the input sets and output slots), sized from what was free before the candidate's code ran.
Judge::BatchSizing Judge::sizeBatches(std::size_t freeBefore, std::size_t freeNow, std::size_t perSet)
{
    // A quarter of what was free before the candidate's code ran, at most kMaxBatch sets.
    const std::size_t before = freeBefore > 0 ? freeBefore : freeNow;
    BatchSizing b;
    b.sets = static_cast<int>(std::min<std::size_t>(kMaxBatch, before / 4 / std::max<std::size_t>(perSet, 1)));
    if (b.sets < 1 && perSet < before / 10 * 9)
        b.sets = 1;
    const auto mib = [](std::size_t n) { return std::to_string(n >> 20) + " MiB"; };
    if (b.sets < 1) {
        b.error = "the judge needs " + mib(perSet) + " of device memory for one call's inputs and outputs, " + mib(before)
                  + " are free";
        return b;
    }
    const std::size_t need = perSet * static_cast<std::size_t>(b.sets);
    b.memory = Json{{"free_before_candidate_mib", before >> 20}, {"free_at_sizing_mib", freeNow >> 20},
                    {"sets", b.sets}, {"set_mib", static_cast<double>(perSet) / (1 << 20)},
                    {"candidate_budget_mib", (before - std::min(before, need)) >> 20}};
    if (need > freeNow / 20 * 19)
        b.error = "the candidate's process left " + mib(freeNow) + " of device memory free of the " + mib(before)
                  + " free before it loaded; the judge's batches need " + mib(need)
                  + " (a quarter of it): a candidate may hold at most the other three quarters ("
                  + mib(before - std::min(before, need)) + ")";
    return b;
}

void Judge::allocateBatches(Run &run)
{
    std::size_t freeBytes = 0, totalBytes = 0;
    KF_CUDA(cudaMemGetInfo(&freeBytes, &totalBytes));
    const bool baselineOutputs = run.hosts.baseline->kind() == host::HostKind::Module;
    const std::size_t perSet = BatchTimer::bytesPerSet(run.task, baselineOutputs);
    const BatchSizing sizing = sizeBatches(run.hosts.freeBeforeCandidate, freeBytes, perSet);
    run.memory = sizing.memory;
    if (!sizing.error.empty())
        throw JudgeOutOfMemory{sizing.error};
    const int sets = sizing.sets;
    const auto mib = [](std::size_t b) { return std::to_string(b >> 20) + " MiB"; };
    run.phase = "allocating the batches (" + std::to_string(sets) + " sets of " + mib(perSet) + ")";
    try {
        run.batches = std::make_unique<BatchTimer>(m_gpu, run.task, sets, baselineOutputs);
        run.verifier = std::make_unique<Verifier>(m_gpu, run.task, *run.batches);
        run.setsUsed = sets;
    } catch (const CudaFailure &f) {
        if (f.code != cudaErrorMemoryAllocation)
            throw;
        cudaGetLastError();
        throw JudgeOutOfMemory{"the judge could not allocate " + std::to_string(sets) + " sets of " + mib(perSet)
                               + " for the batches (" + mib(freeBytes) + " were free)"};
    }
}

void Judge::rounds(Run &run)
{
    allocateBatches(run);
    if (run.task.kind == TaskKind::Torch)
        prepareWeights(run);
    for (Side s : {Side::Reference, Side::Candidate, Side::Baseline})
        mapHost(run, run.host(s), s);
    judgeWeights(run);

    run.k0 = std::min(kMinBatch, run.batches->sets());
    run.mark("verify");
    round(run, 0, true, false);
    if (!run.v.failed) {
        run.mark("edge");
        edgeRounds(run);
        run.mark("verify");
    }
    const int fullRounds = run.options.fullCheckRounds();
    if (run.v.failed || !run.options.timing) {
        for (int r = 1; r < fullRounds && !run.v.failed; ++r)
            round(run, r, true, false);
        return;
    }
    if (run.progress)
        run.progress("timing");
    if (run.hosts.quiet) {
        run.mark("spare_boot");
        run.hosts.quiet();
    }
    run.mark("timing");
    // Warm-up rounds (not sampled) for options.warmup_ms, then sampled rounds until the stop rule
    // (medianci.h) says so; options.trials of all rounds compare every output.
    std::bernoulli_distribution full(0.3);
    run.warmupMs = m_deviceWarm ? 0.0 : std::max(0.0, run.options.warmupMs);
    run.deviceWarm = m_deviceWarm;
    const double warmupEnd = run.elapsedMs() + run.warmupMs;
    const double timingStart = run.elapsedMs();
    // Timing stops by 40% of the task's timeout whatever min_time_ms says, and at 50% even with fewer
    // than 5 sampled rounds: the passes after it and the reply must fit in the client's watchdog.
    StopRule rule;
    rule.ciTarget = run.options.ciTarget;
    rule.minRounds = EvalOptions::kMinCiRounds;
    rule.minRuns = run.options.minRuns;
    rule.minTimeMs = run.options.minTimeMs;
    rule.maxRuns = run.options.maxRuns;
    rule.maxTimeMs = run.options.maxTimeMs;
    rule.softEndMs = run.budgetS * 1000 * 0.4;
    rule.hardEndMs = run.budgetS * 1000 * 0.5;
    int index = 1;
    while (!run.v.failed) {
        const double now = run.elapsedMs();
        const bool warm = now >= warmupEnd && index > 1;
        StopState state;
        state.rounds = run.timedRounds;
        state.calls = static_cast<long long>(run.timedRounds) * std::min(run.kCand, run.kRef); // of the side with fewer
        state.callsMost = static_cast<long long>(run.timedRounds) * std::max(run.kCand, run.kRef);
        state.timingMs = now - timingStart;
        state.elapsedMs = now;
        state.candidate = run.candidateCi = medianCi(run.perCallMs(false));
        state.reference = run.referenceCi = medianCi(run.perCallMs(true));
        run.stop = stopReason(rule, state);
        if (run.stop != StopReason::None && run.v.trials >= fullRounds)
            break;
        const bool check = run.stop != StopReason::None ? true : full(m_random);
        round(run, index++, check && run.v.trials < fullRounds, warm);
    }
    if (run.hosts.timed)
        run.hosts.timed();
}

void Judge::passes(Run &run)
{
    PassHosts hosts{run.hosts, *run.batches, [this, &run](host::HostClient &h, Side side) { mapHost(run, h, side); }};
    run.precision.run(run.task, run.options.seed, run.v.referenceMutates, hosts, run);
    if (run.options.timing && run.timedRounds > 0) // a correct candidate that was timed
        run.profiles.run(run.options, run.task, m_gpu.peaks(), *run.reference, *run.candidate, hosts,
                         m_referenceProfiles, m_referenceKey + "|" + run.taskJson.dump(), run);
}

void Judge::concludeTiming(Run &run)
{
    const std::vector<double> refMs = run.perCallMs(true), candMs = run.perCallMs(false);
    run.reference = summarize(std::vector<float>(refMs.begin(), refMs.end()));
    run.candidate = summarize(std::vector<float>(candMs.begin(), candMs.end()));
    // "runs": the calls timed; the statistics are over the sampled rounds' per-call figures.
    run.reference->runs = run.timedRounds * run.kRef;
    run.candidate->runs = run.timedRounds * run.kCand;
    run.crossingMs = medianCi(run.baselineMs[run.kCand]).median;
    for (const auto &[k, n] : run.crossedBatches) // each batch pays its own K's crossing
        if (const auto it = run.baselineMs.find(k); it != run.baselineMs.end() && !it->second.empty())
            run.boundaryWallMs += medianCi(it->second).median * n;
}

void Judge::entryFailed(Run &run, const EntryFailure &f, Json &result)
{
    host::HostClient &h = run.host(f.side);
    const std::string who = f.side == Side::Reference ? "the reference's kf_entry" : "kf_entry";
    const bool oom = f.rc == static_cast<int>(cudaErrorMemoryAllocation) || f.cudaError == "cudaErrorMemoryAllocation"
                     || f.message.find("CUDA out of memory") != std::string::npos;
    std::string what;
    const bool module = h.kind() == host::HostKind::Module && !f.message.empty();
    const bool moduleCuda = module
                            && (f.message.find("CUDA error") != std::string::npos
                                || f.message.find("AcceleratorError") != std::string::npos);
    if (module && !oom && !moduleCuda) {
        // A module's call raised (its forward, or an output the task does not declare: never converted), in
        // its own words; its host lives on (the failed batch's state ends with its finish).
        setVerdict(result, f.message.find(", step output: ") != std::string::npos ? "incorrect" : "crashed",
                   "the " + std::string(sideName(f.side)) + "'s module failed in " + f.phase + ", " + f.message);
        return;
    }
    if (module) {
        what = "the " + std::string(sideName(f.side)) + "'s module failed, " + f.message;
        result["cuda_error"] = "module_cuda_error";
    } else if (f.rc > 0) {
        const auto code = static_cast<cudaError_t>(f.rc);
        what = who + " returned " + std::to_string(f.rc) + " (" + cudaGetErrorName(code) + ": "
               + cudaGetErrorString(code) + ")";
        result["cuda_error"] = cudaGetErrorName(code);
    } else if (f.rc < 0) {
        what = who + " returned " + std::to_string(f.rc) + (f.rc == -1 ? " or threw a C++ exception" : "");
        result["cuda_error"] = "kf_entry_failed";
    } else {
        what = "the " + std::string(sideName(f.side)) + "'s work failed with " + f.cudaError;
        result["cuda_error"] = f.cudaError;
    }
    setVerdict(result, oom ? "out_of_memory" : "cuda_error", what + " in " + f.phase);
    h.kill(); // its context may be broken; the server starts a fresh host for the next evaluation
}

// The hosts close their IPC mappings before the judge frees the memory behind them.
void Judge::closeBatches(Run &run, Json &result)
{
    run.mark("close");
    if (run.batches) {
        for (host::HostClient *h : {run.hosts.reference, run.hosts.candidate, run.hosts.baseline}) {
            if (!h->alive())
                continue;
            try {
                h->request(Json{{"op", host::kOpMap},
                                {"task", run.taskJson},
                                {"buffers", Json::array()},
                                {"events", Json::array()}},
                           5, "closing the mappings");
            } catch (const host::HostFailure &) {
                // killed: its mappings went with it
            }
        }
    }
    if (run.batches && !run.batches->drain(3)) {
        m_restartRequired = true;
        result["message"] = result["message"].get<std::string>()
                            + "; the judge's stream stayed blocked on the host's events, the worker exits";
    }
    if (m_restartRequired)
        (void)run.verifier.release(); // its cudaFree would wait for the blocked stream too
    run.verifier.reset();
    run.batches.reset(); // the judge's memory goes back before the reply
    run.mark("");
}

// Verify (round 1 and the edge rounds), time (the rounds until the stop rule), the deep check's sanitizer round,
// the passes, then the result; a failure on the way ends the steps and sets the verdict.
Json Judge::evaluate(const TaskSpec &task, const EvalOptions &options, const Hosts &hosts, const Progress &progress,
                    const Measured &measured)
{
    m_restartRequired = false;
    const DeviceState stateBefore = m_gpu.deviceState();
    Run run{{}, task, options, hosts};
    run.taskJson = toJson(task);
    run.budgetS = task.timeoutS > 0 ? task.timeoutS : 60;
    run.progress = progress;
    bool unused = false;
    run.stdoutStart = hosts.candidate->stdoutText(unused).size();
    Json result;
    setVerdict(result, "correct", "");
    try {
        if (progress)
            progress("verifying");
        rounds(run);
        if (!run.v.failed && options.timing && run.timedRounds > 0)
            concludeTiming(run);
        // Deep: the sanitizer's round after the timing, so the tool's process does not share the GPU with it.
        if (!run.v.failed && options.deep)
            sanitizerRound(run);
        if (!run.v.failed && measured)
            if (const Json early = provisional(run, result); !early.is_null())
                measured(early);
        if (!run.v.failed)
            passes(run);
    } catch (const host::HostFailure &f) {
        setVerdict(result, f.verdict, f.message);
    } catch (const EntryFailure &f) {
        entryFailed(run, f, result);
    } catch (const JudgeOutOfMemory &f) {
        setVerdict(result, "out_of_memory",
                   f.message + "; the candidate's process was ended, so the next evaluation starts afresh");
        hosts.candidate->kill();
    } catch (const CudaFailure &f) {
        m_restartRequired = m_gpu.isBroken(f.code);
        result["cuda_error"] = cudaGetErrorName(f.code);
        setVerdict(result, f.code == cudaErrorMemoryAllocation ? "out_of_memory" : "cuda_error",
                   std::string("the judge's ") + cudaGetErrorName(f.code) + " (" + cudaGetErrorString(f.code) + ") in "
                       + run.phase + ", at " + f.where
                       + (m_restartRequired ? "; the CUDA context is unusable, the worker exits" : ""));
    }
    closeBatches(run, result);
    Json out = report(run, result);
    deviceStateReport(stateBefore, m_gpu.deviceState(), out);
    out["memory"] = run.memory; // null when the batches were never sized
    Json parts = Json::object();
    for (const auto &[name, s] : run.partS)
        if (!name.empty())
            parts[name] = std::round(s * 1000) / 1000;
    out["phases_s"] = parts;
    Json roundParts = Json::object();
    for (const auto &[name, ms] : run.roundMs)
        roundParts[name] = std::round(ms * 10) / 10;
    out["round_parts_ms"] = roundParts;
    return out;
}

} // namespace kforge::runtime
