// The source-level profile without a GPU: the JSON shape the client codes against (and reading it back),
// stall reason names, hottest lines, CUPTI error classification, SASS metrics' folding and merging, and the
// evaluate options that switch the pass on (docs/worker-protocol.md, "source_profile").
#include "check.h"

#include "core/runtime/profiler/cuptidiagnosis.h"
#include "core/runtime/profiler/pcsampler.h"
#include "core/runtime/profiler/sassmetrics.h"
#include "core/runtime/profiler/sourcesamples.h"
#include "core/runtime/worker/judgeoptions.h"

#include <nlohmann/json.hpp>

using namespace kforge::runtime;
using namespace kforge::runtime::profiler;
using Json = nlohmann::ordered_json;

namespace {

SourceProfile sample()
{
    SourceProfile p;
    p.status = "ok";
    p.costMs = 812.25;
    p.period = 5;
    p.runs = 7;
    p.sassRuns = 1;
    p.addCost("cuda_init", 300.04);
    p.addCost("decode", 20);
    p.addCost("launches", 10);
    p.addCost("decode", 5.5); // a step that runs twice (once per side) adds up, in its first place
    p.stallReasons = {"long_scoreboard", "wait", "selected"};
    p.cuptiNames = {{"long_scoreboard", "smsp__pcsamp_warps_issue_stalled_long_scoreboard"},
                    {"wait", "smsp__pcsamp_warps_issue_stalled_wait"},
                    {"selected", "smsp__pcsamp_warps_issue_stalled_selected"}};
    SourceKernel k{"_Z5chasePKiPijii", "candidate", 60, 0, {}};
    k.pcs.push_back({256, 40, {{"selected", 10}, {"long_scoreboard", 30}}, "/abs/candidate.cu", 42});
    k.pcs.back().executed = 262144;
    k.pcs.back().threadsExecuted = 8388608;
    k.pcs.push_back({272, 15, {{"wait", 15}}, "/abs/candidate.cu", 42});
    k.pcs.push_back({16, 5, {{"selected", 5}}, "", 0});
    k.pcs.push_back({288, 3, {{"wait", 3}}, "/abs/candidate.cu", 44, "/cuda/include/cuda_bf16.hpp", 3717});
    p.kernels.push_back(k);
    SourceKernel r{"_Z3refPKiPi", "reference", 9, 2, {}};
    r.pcs.push_back({32, 9, {{"wait", 9}}, "/abs/reference.cu", 7});
    p.kernels.push_back(r);
    return p;
}

void testShape()
{
    const Json j = sample().toJson();
    // The keys of the contract, in this order.
    std::vector<std::string> keys;
    for (const auto &[k, v] : j.items())
        keys.push_back(k);
    KF_CHECK_MSG((keys
                  == std::vector<std::string>{"status", "reason", "missing", "cost_ms", "cost_split_ms", "period",
                                              "runs", "sass_runs", "stall_reasons", "cupti_stall_reasons", "kernels"}),
                 j.dump());
    KF_CHECK(j["status"] == "ok" && j["cost_ms"] == 812.25 && j["period"] == 5 && j["missing"].empty());
    // The split in the order the steps ran, to 0.1 ms.
    KF_CHECK_MSG(j["cost_split_ms"].dump() == R"({"cuda_init":300.0,"decode":25.5,"launches":10.0})",
                 j["cost_split_ms"].dump());
    KF_CHECK((j["stall_reasons"] == Json::array({"long_scoreboard", "wait", "selected"})));
    KF_CHECK(j["cupti_stall_reasons"]["wait"] == "smsp__pcsamp_warps_issue_stalled_wait");
    const Json &k = j["kernels"][0];
    KF_CHECK(k["name"] == "_Z5chasePKiPijii" && k["side"] == "candidate" && k["samples"] == 60 && k["dropped"] == 0);
    // Inlined code: the kernel's own line, and the header line it came from.
    KF_CHECK(k["pcs"][3]["line"] == 44 && k["pcs"][3]["inlined_from"]["file"] == "/cuda/include/cuda_bf16.hpp"
             && k["pcs"][3]["inlined_from"]["line"] == 3717);
    KF_CHECK(!k["pcs"][0].contains("inlined_from"));
    const Json &pc = k["pcs"][0];
    KF_CHECK(pc["offset"] == 256 && pc["samples"] == 40 && pc["file"] == "/abs/candidate.cu" && pc["line"] == 42);
    // Stalls with the most samples first.
    KF_CHECK_MSG(pc["stalls"].begin().key() == "long_scoreboard" && pc["stalls"]["selected"] == 10, pc.dump());
    // SASS metrics: counts where measured, no key (never a 0) where not.
    KF_CHECK(j["sass_runs"] == 1 && pc["executed"] == 262144 && pc["threads_executed"] == 8388608);
    KF_CHECK(!k["pcs"][1].contains("executed") && !k["pcs"][1].contains("threads_executed"));
    // A PC without line info has neither "file" nor "line".
    KF_CHECK(!k["pcs"][2].contains("file") && !k["pcs"][2].contains("line"));
    KF_CHECK(j["kernels"][1]["side"] == "reference" && j["kernels"][1]["dropped"] == 2);
}

void testRoundTrip()
{
    const SourceProfile p = sample();
    SourceProfile back;
    std::string error;
    KF_CHECK_MSG(SourceProfile::fromJson(p.toJson(), back, error), error);
    KF_CHECK(back.toJson() == p.toJson());
    KF_CHECK(back.kernels.size() == 2 && back.kernels[0].pcs[1].stalls.at("wait") == 15 && back.kernels[0].pcs[2].line == 0);
    KF_CHECK(back.sassRuns == 1 && back.kernels[0].pcs[0].executed == 262144u
             && back.kernels[0].pcs[0].threadsExecuted == 8388608u && !back.kernels[0].pcs[1].executed);
    KF_CHECK(back.kernels[0].pcs[3].inlinedLine == 3717
             && back.kernels[0].pcs[3].inlinedFile == "/cuda/include/cuda_bf16.hpp");

    Json bad = p.toJson();
    bad["status"] = "fine";
    KF_CHECK(!SourceProfile::fromJson(bad, back, error));
    KF_CHECK_CONTAINS(error, "source_profile.status");
    bad = p.toJson();
    bad["kernels"][0].erase("name");
    KF_CHECK(!SourceProfile::fromJson(bad, back, error));
    KF_CHECK_CONTAINS(error, "name");
    KF_CHECK(!SourceProfile::fromJson(Json::array(), back, error));
    // A profile from before the split (or the evaluator's "not run" object) reads with an empty one.
    bad = p.toJson();
    bad.erase("cost_split_ms");
    KF_CHECK(SourceProfile::fromJson(bad, back, error) && back.costSplitMs.empty());
    KF_CHECK(back.costSplitMs.empty() && p.costSplitMs.size() == 3);
}

void testPeriodForLongKernels()
{
    // Launches within the budget keep CUPTI's default; longer ones raise it by log2(launch / budget).
    KF_CHECK(periodForLaunch(12, 5, 10) == 12);
    KF_CHECK(periodForLaunch(12, 10, 10) == 12);
    KF_CHECK(periodForLaunch(12, 10.5, 10) == 13);
    KF_CHECK(periodForLaunch(12, 61.4, 10) == 15);   // naive diag_matmul: 6.1x the budget -> 2^3 fewer samples
    KF_CHECK(periodForLaunch(29, 100000, 10) == 31); // at most 31
    KF_CHECK(periodForLaunch(0, 100, 10) == 0);      // the default unknown: left to CUPTI
    KF_CHECK(periodForLaunch(12, 0, 10) == 12);      // the launch time unknown
    const PcSamplingOptions o;
    KF_CHECK(o.minRuns == 1 && o.budgetMs == 10 && o.maxRuns == 50 && !o.awaitCubins);
}

void testUnavailable()
{
    SourceProfile p = SourceProfile::unavailable("counters_permission", "ERR_NVGPUCTRPERM: admin only.");
    p.addMissing("counters_permission", "");
    p.addMissing("line_info", "No lines.");
    const Json j = p.toJson();
    KF_CHECK(j["status"] == "unavailable");
    KF_CHECK((j["missing"] == Json::array({"counters_permission", "line_info"})));
    KF_CHECK(j["reason"] == "ERR_NVGPUCTRPERM: admin only. No lines.");
    KF_CHECK(j["kernels"].empty() && j["stall_reasons"].empty());
}

void testStallNames()
{
    KF_CHECK(shortStallReason("smsp__pcsamp_warps_issue_stalled_long_scoreboard") == "long_scoreboard");
    KF_CHECK(shortStallReason("smsp__pcsamp_warps_issue_stalled_selected") == "selected");
    KF_CHECK(shortStallReason("smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued") == "long_scoreboard_not_issued");
    KF_CHECK(shortStallReason("smsp__pcsamp_sample_count") == "sample_count");
    KF_CHECK(shortStallReason("something_else") == "something_else");
    KF_CHECK(shortStallReason("smsp__pcsamp_") == "pcsamp_"); // nothing left after a prefix: the next one applies
    KF_CHECK(isNotIssuedVariant("smsp__pcsamp_warps_issue_stalled_wait_not_issued"));
    KF_CHECK(!isNotIssuedVariant("smsp__pcsamp_warps_issue_stalled_wait"));
    KF_CHECK(!isNotIssuedVariant("_not_issued"));
}

void testHottestLines()
{
    const std::vector<HotLine> lines = hottestLines(sample(), "candidate");
    KF_CHECK(lines.size() == 2); // both PCs of line 42 together; the PC without a line is left out
    KF_CHECK(lines[0].file == "/abs/candidate.cu" && lines[0].line == 42 && lines[0].samples == 55);
    KF_CHECK(lines[0].topStall == "long_scoreboard" && lines[0].stalls.at("wait") == 15);
    KF_CHECK(hottestLines(sample(), "reference").at(0).line == 7);
    KF_CHECK(hottestLines(sample(), "nobody").empty());

    // Ties: by file, then by line.
    SourceProfile p;
    SourceKernel k{"f", "candidate", 0, 0, {}};
    k.pcs.push_back({0, 5, {{"wait", 5}}, "/b.cu", 1});
    k.pcs.push_back({16, 5, {{"wait", 5}}, "/a.cu", 9});
    k.pcs.push_back({32, 5, {{"wait", 5}}, "/a.cu", 3});
    k.pcs.push_back({48, 6, {{"wait", 6}}, "/c.cu", 2});
    p.kernels.push_back(k);
    const std::vector<HotLine> t = hottestLines(p, "candidate");
    KF_CHECK(t.size() == 4 && t[0].file == "/c.cu" && t[1].file == "/a.cu" && t[1].line == 3 && t[2].line == 9
             && t[3].file == "/b.cu");
}

void testCuptiClassification()
{
    KF_CHECK(missingForCuptiResult(35) == "counters_permission"); // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
    KF_CHECK(missingForCuptiResult(40) == "counters_permission");
    KF_CHECK(missingForCuptiResult(27) == "pc_sampling_unsupported"); // CUPTI_ERROR_NOT_SUPPORTED
    KF_CHECK(missingForCuptiResult(43) == "pc_sampling_unsupported"); // MIG
    KF_CHECK(missingForCuptiResult(39) == "cupti_busy");              // another subscriber
    KF_CHECK(missingForCuptiResult(15) == "no_device");
    KF_CHECK(missingForCuptiResult(999) == "cupti_error");
}

void testSassFold()
{
    // Two instances of the same PC add up; another metric's records and unknown ids are ignored.
    const std::vector<SassRecord> records{
        {"_Z1fv", 0x40, 11, 100}, {"_Z1fv", 0x40, 11, 28}, {"_Z1fv", 0x40, 22, 4096},
        {"_Z1fv", 0x10, 22, 32},  {"_Z1fv", 0x10, 33, 7},  {"_Z1av", 0x80, 11, 1},
    };
    const std::vector<SassCount> c = foldSassRecords(records, 11, 22);
    KF_CHECK_MSG(c.size() == 3, std::to_string(c.size()));
    if (c.size() == 3) {
        KF_CHECK(c[0].function == "_Z1av" && c[0].offset == 0x80 && c[0].executed == 1u && !c[0].threadsExecuted);
        KF_CHECK(c[1].function == "_Z1fv" && c[1].offset == 0x10 && !c[1].executed && c[1].threadsExecuted == 32u);
        KF_CHECK(c[2].offset == 0x40 && c[2].executed == 128u && c[2].threadsExecuted == 4096u);
    }
    // A metric that was not configured (id 0) stays empty, also for records that carry id 0.
    const std::vector<SassCount> only = foldSassRecords({{"_Z1fv", 0, 0, 9}, {"_Z1fv", 0, 11, 3}}, 11, 0);
    KF_CHECK(only.size() == 1 && only[0].executed == 3u && !only[0].threadsExecuted);
    KF_CHECK(foldSassRecords(records, 0, 0).empty());
    // A measured 0 is a value, not "not measured".
    const std::vector<SassCount> zero = foldSassRecords({{"_Z1fv", 0, 11, 0}}, 11, 22);
    KF_CHECK(zero.size() == 1 && zero[0].executed == 0u && !zero[0].threadsExecuted);
}

void testSassMerge()
{
    SourceProfile p = sample();
    for (SourcePc &pc : p.kernels[0].pcs)
        pc.executed.reset(), pc.threadsExecuted.reset();
    const std::vector<SassCount> counts{
        {"_Z5chasePKiPijii", 16, 1024, 32768},  // sampled, no line
        {"_Z5chasePKiPijii", 256, 1024, 32768}, // sampled
        {"_Z5chasePKiPijii", 264, 1024, 31000}, // executed, never sampled
        {"_Z5chasePKiPijii", 512, 1, {}},       // after the last sampled PC, warp count only
        {"_Z4tailv", 0, 8, 256},                // a kernel without a single sample
    };
    const std::size_t added = mergeSassCounts(p, "candidate", counts);
    KF_CHECK_MSG(added == 3, std::to_string(added));
    const SourceKernel &k = p.kernels[0];
    std::vector<uint64_t> offsets;
    for (const SourcePc &pc : k.pcs)
        offsets.push_back(pc.offset);
    KF_CHECK_MSG((offsets == std::vector<uint64_t>{16, 256, 264, 272, 288, 512}), std::to_string(offsets.size()));
    if (offsets.size() == 6) {
        KF_CHECK(k.pcs[0].executed == 1024u && k.pcs[0].samples == 5);
        KF_CHECK(k.pcs[1].executed == 1024u && k.pcs[1].threadsExecuted == 32768u && k.pcs[1].samples == 40
                 && k.pcs[1].line == 42);
        KF_CHECK(k.pcs[2].samples == 0 && k.pcs[2].stalls.empty() && k.pcs[2].threadsExecuted == 31000u
                 && k.pcs[2].line == 0);
        KF_CHECK(!k.pcs[3].executed && k.pcs[3].samples == 15); // sampled, not in the counts: left alone
        KF_CHECK(k.pcs[5].executed == 1u && !k.pcs[5].threadsExecuted);
    }
    KF_CHECK(k.samples == 60); // samples are not touched
    KF_CHECK(p.kernels.size() == 3 && p.kernels[2].name == "_Z4tailv" && p.kernels[2].side == "candidate"
             && p.kernels[2].samples == 0 && p.kernels[2].pcs.size() == 1 && p.kernels[2].pcs[0].executed == 8u);
    KF_CHECK(!p.kernels[1].pcs[0].executed); // the reference side is another host's
    // Added PCs with a line do not make a line hot: samples decide.
    p.kernels[0].pcs[2].file = "/abs/candidate.cu";
    p.kernels[0].pcs[2].line = 50;
    const std::vector<HotLine> lines = hottestLines(p, "candidate");
    KF_CHECK(lines.size() == 2 && lines[0].line == 42);
    // And the whole of it round-trips.
    SourceProfile back;
    std::string error;
    KF_CHECK_MSG(SourceProfile::fromJson(p.toJson(), back, error), error);
    KF_CHECK(back.toJson() == p.toJson() && back.kernels[0].pcs[2].samples == 0 && back.kernels[2].pcs[0].executed == 8u);
    // Merging the same counts again changes nothing.
    KF_CHECK(mergeSassCounts(p, "candidate", counts) == 0 && p.toJson() == back.toJson());
}

void testSassProblems()
{
    SourceProfile p = sample();
    SassMetricsResult denied;
    denied.missing = "counters_permission";
    denied.reason = "SASS metrics unavailable: cuptiSassMetricsSetConfig failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES.";
    addSassMetricsProblem(p, denied);
    KF_CHECK((p.missing == std::vector<std::string>{"sass_metrics", "counters_permission"}));
    KF_CHECK(p.reason == denied.reason && p.status == "ok"); // the samples stay usable

    SourceProfile q = sample();
    SassMetricsResult partial;
    partial.ok = true;
    partial.reason = "smsp__sass_thread_inst_executed is not a SASS metric of chip GH100 (CUPTI_ERROR_INVALID_PARAMETER).";
    addSassMetricsProblem(q, partial);
    KF_CHECK((q.missing == std::vector<std::string>{"sass_metrics_partial"}) && q.reason == partial.reason);
    SourceProfile r = sample();
    partial.reason.clear();
    addSassMetricsProblem(r, partial);
    KF_CHECK(r.missing.empty() && r.reason.empty());

    // The CUPTI layer without calling the kernel: a launch too long for the patched run is skipped...
    int launches = 0;
    SassMetricsOptions o;
    o.launchMs = 3.4;
    o.budgetMs = 800;
    SassMetricsResult skipped = SassMetrics::collect([&] { ++launches; }, o);
    KF_CHECK(!skipped.ok && skipped.missing == "sass_metrics" && launches == 0 && skipped.counts.empty());
    KF_CHECK_CONTAINS(skipped.reason, "one launch takes 3.4 ms; patched to count instructions it may run up to 400x "
                                      "slower (1360 ms), over the 800 ms left");
    // ...and a machine without a driver says so (CI).
    if (!nvidiaDriverPresent()) {
        const SassMetricsResult none = SassMetrics::collect([&] { ++launches; }, SassMetricsOptions{});
        KF_CHECK(!none.ok && none.missing == "no_device" && launches == 0);
        KF_CHECK_CONTAINS(none.reason, "no NVIDIA driver");
    }
}

void testOptions()
{
    EvalOptions o;
    std::string error;
    KF_CHECK(EvalOptions::fromJson(Json::object(), o, error));
    KF_CHECK(!o.sourceProfile && o.sourceProfilePeriod == 0 && !o.sourceProfileReference);
    KF_CHECK(EvalOptions::fromJson(
        Json{{"source_profile", true}, {"source_profile_period", 7}, {"source_profile_reference", true}}, o, error));
    KF_CHECK(o.sourceProfile && o.sourceProfilePeriod == 7 && o.sourceProfileReference);
    const Json back = o.toJson();
    KF_CHECK(back["source_profile"] == true && back["source_profile_period"] == 7
             && back["source_profile_reference"] == true);
    EvalOptions again;
    KF_CHECK(EvalOptions::fromJson(back, again, error) && again.sourceProfilePeriod == 7);
    KF_CHECK(EvalOptions::fromJson(Json{{"source_profile_period", 0}}, o, error) && o.sourceProfilePeriod == 0);
    KF_CHECK(EvalOptions::fromJson(Json{{"source_profile_period", 31}}, o, error));

    for (const Json &bad : {Json{{"source_profile_period", 4}}, Json{{"source_profile_period", 32}},
                            Json{{"source_profile_period", 6.5}}, Json{{"source_profile_period", "5"}}}) {
        error.clear();
        KF_CHECK_MSG(!EvalOptions::fromJson(bad, o, error), bad.dump());
        KF_CHECK_CONTAINS(error, "options.source_profile_period: expected 0 (CUPTI's default) or an exponent in [5, 31]");
    }
    KF_CHECK(!EvalOptions::fromJson(Json{{"source_profile", "yes"}}, o, error));
    KF_CHECK(error == "options.source_profile: expected a boolean");
    KF_CHECK(!EvalOptions::fromJson(Json{{"source_profile_reference", 1}}, o, error));
    KF_CHECK(error == "options.source_profile_reference: expected a boolean");
}

} // namespace

int main()
{
    testShape();
    testRoundTrip();
    testUnavailable();
    testStallNames();
    testHottestLines();
    testCuptiClassification();
    testPeriodForLongKernels();
    testSassFold();
    testSassMerge();
    testSassProblems();
    testOptions();
    return kforge::runtime::test::finish("tst_source_profile");
}
