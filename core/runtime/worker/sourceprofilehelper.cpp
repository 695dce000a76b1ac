#include "core/runtime/worker/sourceprofilehelper.h"

#include "core/runtime/profiler/pcsampler.h"
#include "core/runtime/profiler/sassmetrics.h"
#include "core/runtime/worker/disassembler.h"
#include "core/runtime/worker/isolation.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <future>
#include <stdexcept>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

using Clock = std::chrono::steady_clock;

// The source-level pass's whole cost, in the helper process, that the optional SASS counts must stay within
// (issue 15: at most 1.5 s per evaluation when on).
constexpr double kPassBudgetMs = 1500;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// What the toolkit's tools give for one library: its cubins (for CUPTI's line correlation) and the inline
// chains of their instructions (nvdisasm). Made on a thread of its own while CUDA starts and the kernels
// are sampled, since neither needs the GPU.
struct LibraryTools {
    std::vector<profiler::CubinImage> cubins;
    std::string problem; // why `cubins` is empty, when it is
    InlineTable inlines;
};

LibraryTools toolsOf(const std::string &library)
{
    LibraryTools out;
    std::string error;
    const Disassembler tools;
    // The worker's temporary directory, or in a candidate host its private one (its working directory).
    const fs::path dir = TempDir::path().empty() ? fs::current_path() : TempDir::path();
    for (Cubin &c : tools.extractCubins(library, dir, error)) {
        out.inlines.merge(tools.inlineTable(c, dir));
        out.cubins.push_back({c.name, std::move(c.bytes)});
    }
    if (out.cubins.empty())
        out.problem = error.empty() ? "cuobjdump found no cubin in " + library : error;
    return out;
}

// CUPTI names the innermost line of an instruction, which for inlined code is a line of a CUDA header
// (cuda_bf16.hpp, ...). The user needs the line of their kernel that called it: nvdisasm's inline chains
// give it; the header line stays as "inlined_from".
void foldInlinedLines(const std::string &side, const InlineTable &table, profiler::SourceProfile &profile)
{
    if (table.empty())
        return;
    for (profiler::SourceKernel &k : profile.kernels) {
        if (k.side != side)
            continue;
        for (profiler::SourcePc &pc : k.pcs) {
            const auto it = table.find({k.name, pc.offset});
            if (it == table.end() || it->second.size() < 2)
                continue;
            const SourceLocation &outer = it->second.back();
            pc.inlinedFile = pc.line > 0 ? pc.file : it->second.front().file;
            pc.inlinedLine = pc.line > 0 ? pc.line : it->second.front().line;
            pc.file = outer.file;
            pc.line = outer.line;
        }
    }
}

// After PC sampling (never beside it: the patched kernel would be sampled), one launch under SASS metrics:
// executions per instruction, merged into the profile's PCs (the ones never sampled added with 0 samples
// and mapped to their lines on `cubins`). Its time is the step "sass_metrics"; where the counts cannot be
// had, the profile says so under "missing" and keeps its samples.
void addSassCounts(const std::string &side, const std::function<void()> &launch,
                   const std::vector<profiler::CubinImage> &cubins, profiler::SourceProfile &profile, double budgetLeftMs)
{
    const auto start = Clock::now();
    profiler::SassMetricsOptions options;
    options.budgetMs = std::max(1.0, budgetLeftMs);
    for (const auto &[name, ms] : profile.costSplitMs)
        if (name == "launches" && profile.runs > 0)
            options.launchMs = ms / profile.runs;
    profiler::SassMetricsResult r;
    try {
        r = profiler::SassMetrics::collect(launch, options);
    } catch (const std::exception &e) {
        r = profiler::SassMetricsResult();
        r.missing = "sass_metrics";
        r.reason = std::string("SASS metrics: the patched launch failed: ") + e.what() + ".";
    }
    if (r.ok) {
        profiler::mergeSassCounts(profile, side, r.counts);
        profiler::correlateUnmappedPcs(profile, side, cubins);
        profile.sassRuns = r.runs;
    }
    profiler::addSassMetricsProblem(profile, r);
    profile.addCost("sass_metrics", msSince(start));
}

} // namespace

profiler::SourceProfile sampleLibrary(const std::string &side, const std::function<void()> &launch,
                                      const std::string &library, int period)
{
    const auto t0 = Clock::now();
    profiler::SourceProfile profile;
    // cuobjdump and nvdisasm run beside the warm-up launch and the sampling: neither needs the GPU.
    double toolsMs = 0;
    std::future<LibraryTools> tools = std::async(std::launch::async, [library, &toolsMs] {
        const auto start = Clock::now();
        LibraryTools t = toolsOf(library);
        toolsMs = msSince(start);
        return t;
    });
    try {
        std::vector<profiler::SampleTarget> targets{{side, launch, {}, {}}};
        auto step = Clock::now();
        launch(); // module loading is not part of the sampled range
        const double warmupMs = msSince(step);
        // The sampling does not wait for the tools: their cubins are needed only to map the PCs to lines,
        // after the launches (the sampler's step "tools_wait" is what is left of them by then).
        LibraryTools t;
        profiler::PcSamplingOptions options;
        options.period = period;
        options.awaitCubins = [&] {
            t = tools.get();
            targets.back().cubins = std::move(t.cubins);
            targets.back().cubinProblem = t.problem;
        };
        profile = profiler::PcSampler::sample(targets, options); // its own steps, "tools_wait" among them
        if (tools.valid())                                       // the sampler returned before it needed them
            options.awaitCubins();
        // What is left of the pass's budget, less a margin for folding the lines and replying.
        addSassCounts(side, launch, targets.back().cubins, profile, kPassBudgetMs - 60 - msSince(t0));
        step = Clock::now();
        foldInlinedLines(side, t.inlines, profile);
        profile.addCost("warmup", warmupMs);
        profile.addCost("tools", toolsMs); // beside the warm-up and the launches, not after them
        profile.addCost("fold", msSince(step));
    } catch (const std::exception &e) {
        if (tools.valid())
            tools.wait();
        profile = profiler::SourceProfile();
        profile.status = "failed";
        profile.addMissing("kernel_failed",
                           std::string("The source-level pass could not run the kernel: ") + e.what() + ".");
    }
    profile.costMs = msSince(t0);
    return profile;
}

} // namespace kforge::runtime
