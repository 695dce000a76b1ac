#include "core/runtime/worker/sourceprofilehelper.h"

#include "core/runtime/profiler/pcsampler.h"
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/disassembler.h"
#include "core/runtime/worker/gpucontext.h"
#include "core/runtime/worker/isolation.h"
#include "core/runtime/worker/kernellibrary.h"
#include "core/runtime/worker/tensorset.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <future>
#include <sstream>
#include <stdexcept>
#include <sys/prctl.h>
#include <unistd.h>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

std::string readFile(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

using Clock = std::chrono::steady_clock;

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

bool writeProfile(const std::string &file, const profiler::SourceProfile &p)
{
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << p.toJson().dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
    return static_cast<bool>(out);
}

// Writes the profile and ends the helper at once: _exit skips the CUDA runtime's and CUPTI's teardown at
// exit, which the worker would otherwise wait for (the driver frees the context when the process ends).
int finish(const std::string &file, profiler::SourceProfile &p, std::chrono::steady_clock::time_point t0)
{
    p.costMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!writeProfile(file, p)) {
        std::fprintf(stderr, "kforge-worker --source-profile: cannot write %s\n", file.c_str());
        std::fflush(stderr);
        ::_exit(1);
    }
    std::fflush(stdout);
    std::fflush(stderr);
    ::_exit(0);
}

} // namespace

Json SourceProfileRequest::toJson() const
{
    return Json{{"task", task},
                {"reference", reference},
                {"candidate", candidate},
                {"seed", seed},
                {"device", device},
                {"period", period},
                {"sample_reference", sampleReference},
                {"output", output}};
}

bool SourceProfileRequest::fromJson(const Json &j, SourceProfileRequest &out, std::string &error)
{
    try {
        out.task = j.at("task");
        out.reference = j.at("reference").get<std::string>();
        out.candidate = j.at("candidate").get<std::string>();
        out.seed = j.at("seed").get<uint64_t>();
        out.device = j.at("device").get<int>();
        out.period = j.at("period").get<int>();
        out.sampleReference = j.at("sample_reference").get<bool>();
        out.output = j.at("output").get<std::string>();
    } catch (const nlohmann::json::exception &e) {
        error = std::string("source-profile request: ") + e.what();
        return false;
    }
    return true;
}

int runSourceProfileHelper(const std::string &requestFile)
{
    ::prctl(PR_SET_PDEATHSIG, SIGKILL); // a helper never outlives the worker that waits for it
    SourceProfileRequest request;
    std::string error;
    Json j;
    try {
        j = Json::parse(readFile(requestFile));
    } catch (const nlohmann::json::exception &e) {
        std::fprintf(stderr, "kforge-worker --source-profile: %s: %s\n", requestFile.c_str(), e.what());
        return 1;
    }
    if (!SourceProfileRequest::fromJson(j, request, error)) {
        std::fprintf(stderr, "kforge-worker --source-profile: %s\n", error.c_str());
        return 1;
    }
    const TaskSpecResult task = parseTaskSpec(request.task, "task");
    if (!task.ok()) {
        std::fprintf(stderr, "kforge-worker --source-profile: %s\n", task.error.message().c_str());
        return 1;
    }
    const auto t0 = Clock::now();
    // The cubins and inline chains of the sampled libraries, on a thread of their own from the start.
    std::vector<std::string> libraries{request.candidate};
    if (request.sampleReference)
        libraries.push_back(request.reference);
    double toolsMs = 0;
    std::future<std::vector<LibraryTools>> tools = std::async(std::launch::async, [libraries, &toolsMs] {
        const auto start = Clock::now();
        std::vector<LibraryTools> out;
        for (const std::string &library : libraries)
            out.push_back(toolsOf(library));
        toolsMs = msSince(start);
        return out;
    });
    profiler::SourceProfile profile;
    std::vector<profiler::SourceProfile::Step> steps; // the helper's own steps, before the sampler's
    auto stepStart = t0;
    const auto step = [&](const char *name) {
        steps.emplace_back(name, msSince(stepStart));
        stepStart = Clock::now();
    };
    GpuContext gpu(request.device);
    const bool haveGpu = gpu.ensure();
    step("cuda_init");
    std::vector<LibraryTools> toolResults;
    const auto awaitTools = [&] {
        if (!tools.valid())
            return;
        try {
            toolResults = tools.get();
        } catch (const std::exception &e) { // no lines then; the sampling itself stands
            profile.addMissing("cubin", std::string("Extracting the cubins failed: ") + e.what() + ".");
        }
    };
    const auto complete = [&] {
        awaitTools();
        profile.costSplitMs.insert(profile.costSplitMs.begin(), steps.begin(), steps.end());
        profile.addCost("tools", toolsMs);
        return finish(request.output, profile, t0);
    };
    if (!haveGpu) {
        profile.addMissing("no_device", gpu.error());
        return complete();
    }
    LoadFailure failure;
    const auto load = [&](const std::string &path, const char *name) {
        auto lib = KernelLibrary::load(readFile(path), TempDir::path() / (std::string(name) + ".so"), failure);
        if (!lib)
            throw std::runtime_error(std::string("loading the ") + name + " failed: " + failure.message);
        return lib;
    };
    try {
        const auto candidate = load(request.candidate, "candidate");
        const auto reference = request.sampleReference ? load(request.reference, "reference") : nullptr;
        std::vector<kf_param_value> values;
        for (const auto &[name, value] : task.spec->params)
            values.push_back({name.c_str(), value});
        const kf_params params{values.data(), static_cast<int32_t>(values.size())};
        const cudaStream_t s = gpu.stream();
        TensorSet inputs(task.spec->inputs);
        TensorSet outputs(task.spec->outputs);
        inputs.generate(request.seed, s); // the timing inputs of the evaluation
        if (const cudaError_t e = cudaStreamSynchronize(s); e != cudaSuccess)
            throw std::runtime_error(std::string("preparing the inputs: ") + cudaGetErrorName(e));
        step("load");
        const auto launcher = [&](KernelLibrary &lib, const char *side) {
            return [&lib, &inputs, &outputs, &params, s, side] {
                const int rc = lib.entry()(inputs.descriptors(), inputs.count(), outputs.descriptors(), outputs.count(),
                                           &params, s);
                if (rc != 0)
                    throw std::runtime_error(std::string("the ") + side + "'s kf_entry returned " + std::to_string(rc));
                if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
                    throw std::runtime_error(std::string("the ") + side + " failed: " + cudaGetErrorName(e) + " ("
                                             + cudaGetErrorString(e) + ")");
            };
        };
        std::vector<profiler::SampleTarget> targets;
        targets.push_back({"candidate", launcher(*candidate, "candidate"), {}, {}});
        if (reference)
            targets.push_back({"reference", launcher(*reference, "reference"), {}, {}});
        profiler::PcSamplingOptions options;
        options.period = request.period;
        // One untimed run each first, so module loading is not part of the sampled range. It also says how
        // long a launch takes (the sampler raises its period for long kernels); one that took longer than
        // the budget is run again, so module loading does not pass for a long kernel.
        for (const profiler::SampleTarget &t : targets) {
            auto one = Clock::now();
            t.launch();
            double ms = msSince(one);
            if (ms > options.budgetMs) {
                one = Clock::now();
                t.launch();
                ms = msSince(one);
            }
            options.launchMs = std::max(options.launchMs, ms);
        }
        step("warmup");
        options.awaitCubins = [&] {
            awaitTools();
            for (std::size_t i = 0; i < targets.size() && i < toolResults.size(); ++i) {
                targets[i].cubins = toolResults[i].cubins;
                targets[i].cubinProblem = toolResults[i].problem;
            }
        };
        profile = profiler::PcSampler::sample(targets, options);
        awaitTools(); // when the sampler returned before it asked for them
        const auto fold = Clock::now();
        for (std::size_t i = 0; i < targets.size() && i < toolResults.size(); ++i)
            foldInlinedLines(targets[i].side, toolResults[i].inlines, profile);
        profile.addCost("fold", msSince(fold));
    } catch (const std::exception &e) {
        awaitTools();
        profile = profiler::SourceProfile();
        profile.status = "failed";
        profile.addMissing("kernel_failed",
                           std::string("The source-level pass could not run the kernels: ") + e.what() + ".");
    }
    return complete();
}

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
        step = Clock::now();
        LibraryTools t = tools.get();
        const double waitMs = msSince(step);
        targets.back().cubins = std::move(t.cubins);
        targets.back().cubinProblem = t.problem;
        step = Clock::now();
        profiler::PcSamplingOptions options;
        options.period = period;
        profile = profiler::PcSampler::sample(targets, options);
        const double sampleMs = msSince(step);
        step = Clock::now();
        foldInlinedLines(side, t.inlines, profile);
        profile.addCost("warmup", warmupMs);
        profile.addCost("tools_wait", waitMs);
        profile.addCost("tools", toolsMs);
        profile.addCost("sample", sampleMs);
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
