#include "core/runtime/worker/sourceprofilehelper.h"

#include "core/runtime/profiler/pcsampler.h"
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/disassembler.h"
#include "core/runtime/worker/gpucontext.h"
#include "core/runtime/worker/isolation.h"
#include "core/runtime/worker/kernellibrary.h"
#include "core/runtime/worker/tensorset.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
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

std::vector<profiler::CubinImage> cubinsOf(const std::string &library, std::string &problem)
{
    std::vector<profiler::CubinImage> out;
    std::string error;
    for (Cubin &c : Disassembler().extractCubins(library, TempDir::path(), error))
        out.push_back({c.name, std::move(c.bytes)});
    if (out.empty())
        problem = error.empty() ? "cuobjdump found no cubin in " + library : error;
    return out;
}

// CUPTI names the innermost line of an instruction, which for inlined code is a line of a CUDA header
// (cuda_bf16.hpp, ...). The user needs the line of their kernel that called it: nvdisasm's inline chains
// give it; the header line stays as "inlined_from".
void foldInlinedLines(const profiler::SampleTarget &target, profiler::SourceProfile &profile)
{
    const Disassembler tools;
    InlineTable table;
    for (const profiler::CubinImage &c : target.cubins)
        table.merge(tools.inlineTable(Cubin{c.name, Disassembler::archFromName(c.name), c.bytes}, TempDir::path()));
    if (table.empty())
        return;
    for (profiler::SourceKernel &k : profile.kernels) {
        if (k.side != target.side)
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
    const auto t0 = std::chrono::steady_clock::now();
    profiler::SourceProfile profile;
    GpuContext gpu(request.device);
    if (!gpu.ensure()) {
        profile.addMissing("no_device", gpu.error());
        return writeProfile(request.output, profile) ? 0 : 1;
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
        targets.back().cubins = cubinsOf(request.candidate, targets.back().cubinProblem);
        if (reference) {
            targets.push_back({"reference", launcher(*reference, "reference"), {}, {}});
            targets.back().cubins = cubinsOf(request.reference, targets.back().cubinProblem);
        }
        // One untimed run each first, so module loading is not part of the sampled range.
        for (const profiler::SampleTarget &t : targets)
            t.launch();
        profiler::PcSamplingOptions options;
        options.period = request.period;
        profile = profiler::PcSampler::sample(targets, options);
        for (const profiler::SampleTarget &t : targets)
            foldInlinedLines(t, profile);
    } catch (const std::exception &e) {
        profile = profiler::SourceProfile();
        profile.status = "failed";
        profile.addMissing("kernel_failed",
                           std::string("The source-level pass could not run the kernels: ") + e.what() + ".");
    }
    profile.costMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!writeProfile(request.output, profile)) {
        std::fprintf(stderr, "kforge-worker --source-profile: cannot write %s\n", request.output.c_str());
        return 1;
    }
    return 0;
}

profiler::SourceProfile sampleLibrary(const std::string &side, const std::function<void()> &launch,
                                      const std::string &library, int period)
{
    const auto t0 = std::chrono::steady_clock::now();
    profiler::SourceProfile profile;
    try {
        std::vector<profiler::SampleTarget> targets{{side, launch, {}, {}}};
        targets.back().cubins = cubinsOf(library, targets.back().cubinProblem);
        launch(); // module loading is not part of the sampled range
        profiler::PcSamplingOptions options;
        options.period = period;
        profile = profiler::PcSampler::sample(targets, options);
        foldInlinedLines(targets.back(), profile);
    } catch (const std::exception &e) {
        profile = profiler::SourceProfile();
        profile.status = "failed";
        profile.addMissing("kernel_failed",
                           std::string("The source-level pass could not run the kernel: ") + e.what() + ".");
    }
    profile.costMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return profile;
}

} // namespace kforge::runtime
