// kforge-worker: evaluates CUDA kernels for KForge over JSON lines on stdin/stdout
// (docs/worker-protocol.md), or checks the built-in tasks with --self-test.
#include "core/runtime/host/candidatehost.h"
#include "core/runtime/host/sandbox.h"
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/cudacheck.h"
#include "core/runtime/worker/gpucontext.h"
#include "core/runtime/worker/isolation.h"
#include "core/runtime/worker/kernellibrary.h"
#include "core/runtime/worker/nvcc.h"
#include "core/runtime/worker/protocol.h"
#include "core/runtime/worker/requestreader.h"
#include "core/runtime/worker/selftest.h"
#include "core/runtime/worker/selftestadversarial.h"
#include "core/runtime/worker/tensorset.h"
#include "core/runtime/worker/workerserver.h"
#include "kforge/kernel.h"
#ifdef KFORGE_HAVE_PROFILER
#include "core/runtime/worker/cuptiobserver.h"
#include "core/runtime/worker/sourceprofilehelper.h"
#endif

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

void usage(std::FILE *to)
{
    std::fprintf(to,
                 "Usage: kforge-worker [--device N] [--no-spare-host] [--torch-python PYTHON] [--prebuild-jobs N]\n"
                 "       kforge-worker --self-test [TASKS_DIR] [--device N] [--task NAME]... [--min-time-ms MS]\n"
                 "                     [--min-runs N] [--trials N] [--json] [--adversarial [CASES_JSON] [--case FILE]...]\n"
                 "       kforge-worker --adversarial [CASES_JSON] [--case FILE]... [--device N] [--json]\n"
                 "       kforge-worker --launch TASK_DIR KERNEL.cu|KERNEL.so [--runs N] [--seed S] [--no-flush]\n"
                 "                     [--sets N] [--keep-pool] [--device N]\n"
                 "       kforge-worker --candidate-host FD [--device N]\n"
                 "       kforge-worker --version\n\n"
                 "Without --self-test the worker speaks the KForge worker protocol (JSON lines) on stdin/stdout;\n"
                 "it keeps one candidate host booted ahead (its CUDA context made) for the next load, unless\n"
                 "--no-spare-host. A torch task's modules run in module hosts under PYTHON (default\n"
                 "$KFORGE_TORCH_PYTHON, else python3 on PATH), which needs torch; op prebuild builds up to\n"
                 "--prebuild-jobs modules' load_inline extensions at once (default: half the cores).\n"
                 "--self-test compiles and evaluates every task's variants (default tasks: %s; a torch task's modules are\n"
                 "loaded as they are, its .cu variants compiled)\n"
                 "and exits 0 when every verdict is as expected, 1 otherwise, 2 when there is no CUDA device.\n"
                 "--adversarial runs the adversarial suite (tests/gpu/adversarial/cases.json; after the built-in\n"
                 "tasks with --self-test), one fresh worker per case; same exit codes.\n"
                 "--launch compiles the kernel (a .so is used as it is), generates the task's inputs from the seed\n"
                 "and calls its entry N times (L2 flushed before each run), with no verification and no CUPTI:\n"
                 "a plain workload for external profilers such as ncu. --sets N gives run r the inputs and outputs\n"
                 "of set r %% N (its own buffers, as in the judge's batches). --keep-pool keeps freed stream-ordered\n"
                 "memory in the device's pool (release threshold UINT64_MAX) instead of returning it at each sync.\n"
                 "--candidate-host is internal: the process the worker starts for each loaded kernel library, serving\n"
                 "the host protocol on descriptor FD (docs/worker-protocol.md).\n",
                 kforge::runtime::defaultTasksDir().c_str());
}

bool parseInt(const char *text, long long lo, long long hi, long long &out)
{
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text, &end, 10);
    if (errno || !end || *end || end == text || v < lo || v > hi)
        return false;
    out = v;
    return true;
}

struct LaunchConfig {
    std::string taskDir;
    std::string kernel;
    int runs = 10;
    uint64_t seed = 1;
    bool flush = true;
    bool keepPool = false;
    int sets = 1;
    int device = 0;
};

// --launch: the candidate's runs as the worker times them (same inputs, L2 flush, launch stream,
// device-wide synchronize), but nothing else in the process, so a profiler sees only the kernel's work.
int runLaunch(const LaunchConfig &config)
{
    namespace fs = std::filesystem;
    const kforge::runtime::TaskSpecResult loaded = kforge::runtime::loadTaskFolder(config.taskDir);
    if (!loaded.ok()) {
        std::fprintf(stderr, "kforge-worker --launch: %s\n", loaded.error.message().c_str());
        return 1;
    }
    const kforge::runtime::TaskSpec &task = *loaded.spec;
    if (task.kind == kforge::runtime::TaskKind::Torch) {
        std::fprintf(stderr, "kforge-worker --launch: %s is a PyTorch task: --launch runs a kernel on a CUDA task's inputs (evaluate a torch task through the worker protocol)\n",
                     config.taskDir.c_str());
        return 1;
    }
    // The pid tells this process's records apart when a profiler follows several launches.
    std::fprintf(stderr, "launch: pid %d, task %s, kernel %s\n", static_cast<int>(::getpid()), task.name.c_str(),
                 config.kernel.c_str());
    kforge::runtime::GpuContext gpu(config.device);
    if (!gpu.ensure()) {
        std::fprintf(stderr, "%s\n", gpu.error().c_str());
        return 2;
    }
    fs::path so = fs::absolute(config.kernel);
    if (so.extension() != ".so") {
        std::vector<std::string> flags = task.nvccFlags;
        std::error_code ec;
        for (const kforge::runtime::VariantSpec &v : task.variants)
            if (fs::equivalent(task.folder / v.file, so, ec))
                flags.insert(flags.end(), v.nvccFlags.begin(), v.nvccFlags.end());
        const fs::path out = kforge::runtime::TempDir::path() / "launch.so";
        const std::vector<kforge::runtime::NvccResult> built = kforge::runtime::compileKernels({{so, out, flags}},
                                                                                               gpu.props().arch(), 1);
        if (!built[0].ok) {
            std::fprintf(stderr, "kforge-worker --launch: %s does not compile:\n%s\n", so.c_str(), built[0].log.c_str());
            return 1;
        }
        std::fprintf(stderr, "launch: compiled %s in %.1f s\n", so.filename().c_str(), built[0].seconds);
        so = out;
    }
    std::ifstream in(so, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    kforge::runtime::LoadFailure failure;
    const auto lib = kforge::runtime::KernelLibrary::load(bytes, kforge::runtime::TempDir::path() / "launch-kernel.so",
                                                          failure);
    if (!lib) {
        std::fprintf(stderr, "kforge-worker --launch: %s: %s\n", failure.code.c_str(), failure.message.c_str());
        return 1;
    }
    std::vector<kf_param_value> values;
    for (const auto &[name, value] : task.params)
        values.push_back({name.c_str(), value});
    const kf_params params{values.data(), static_cast<int32_t>(values.size())};
    try {
        if (config.keepPool) { // as a caching allocator would: freed stream-ordered memory stays mapped
            cudaMemPool_t pool = nullptr;
            uint64_t keep = UINT64_MAX;
            KF_CUDA(cudaDeviceGetDefaultMemPool(&pool, config.device));
            KF_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
        }
        const cudaStream_t s = gpu.stream();
        std::vector<std::unique_ptr<kforge::runtime::TensorSet>> inputSets, outputSets;
        for (int j = 0; j < config.sets; ++j) {
            inputSets.push_back(std::make_unique<kforge::runtime::TensorSet>(task.inputs));
            outputSets.push_back(std::make_unique<kforge::runtime::TensorSet>(task.outputs));
            inputSets.back()->generate(config.seed + static_cast<uint64_t>(j), s);
        }
        KF_CUDA(cudaStreamSynchronize(s));
        cudaEvent_t start = nullptr, stop = nullptr;
        KF_CUDA(cudaEventCreate(&start));
        KF_CUDA(cudaEventCreate(&stop));
        std::vector<float> times;
        for (int r = 0; r < config.runs; ++r) {
            if (config.flush)
                gpu.flushL2(s);
            KF_CUDA(cudaEventRecord(start, s));
            kforge::runtime::TensorSet &inputs = *inputSets[static_cast<std::size_t>(r % config.sets)];
            kforge::runtime::TensorSet &outputs = *outputSets[static_cast<std::size_t>(r % config.sets)];
            const int rc = lib->entry()(inputs.descriptors(), inputs.count(), outputs.descriptors(), outputs.count(),
                                        &params, s);
            if (rc != 0) {
                std::fprintf(stderr, "kforge-worker --launch: kf_entry returned %d in run %d\n", rc, r + 1);
                return 1;
            }
            KF_CUDA(cudaDeviceSynchronize());
            KF_CUDA(cudaEventRecord(stop, s));
            KF_CUDA(cudaEventSynchronize(stop));
            float ms = 0;
            KF_CUDA(cudaEventElapsedTime(&ms, start, stop));
            times.push_back(ms);
        }
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        if (times.size() <= 30) {
            std::string list;
            for (float t : times)
                list += (list.empty() ? "" : " ") + std::to_string(t);
            std::fprintf(stderr, "launch: %s, %d runs, event ms: %s\n", task.name.c_str(), config.runs, list.c_str());
        } else {
            std::vector<float> sorted(times.begin() + 1, times.end());
            std::sort(sorted.begin(), sorted.end());
            const auto at = [&](double q) {
                return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1))];
            };
            std::fprintf(stderr,
                         "launch: %s, %d runs%s, event ms after the first: min %.4f p10 %.4f median %.4f p90 %.4f max %.4f\n",
                         task.name.c_str(), config.runs, config.keepPool ? " (pool kept)" : "", at(0), at(0.1), at(0.5),
                         at(0.9), at(1));
        }
    } catch (const kforge::runtime::CudaFailure &f) {
        std::fprintf(stderr, "kforge-worker --launch: %s at %s\n", kforge::runtime::cudaErrorText(f.code).c_str(),
                     f.where.c_str());
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    int device = 0;
    bool selfTest = false;
    bool launch = false;
    bool json = false;
    bool noSpareHost = false;
    long long prebuildJobs = 0;
    std::string torchPython;
    int candidateHostFd = -1;
    LaunchConfig launchConfig;
    kforge::runtime::SelfTestConfig config;
    bool adversarial = false;
    kforge::runtime::AdversarialConfig adversarialConfig;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&](long long lo, long long hi) {
            long long v = 0;
            if (i + 1 >= argc || !parseInt(argv[i + 1], lo, hi, v)) {
                std::fprintf(stderr, "kforge-worker: %s needs an integer in [%lld, %lld]\n", a.c_str(), lo, hi);
                std::exit(64);
            }
            ++i;
            return v;
        };
        if (a == "--version") {
            std::printf("kforge-worker %s (protocol %d, kernel ABI %d)\n", kforge::runtime::workerVersion().c_str(),
                        kforge::runtime::protocol::kVersion, KF_ABI_VERSION);
            return 0;
        } else if (a == "--help" || a == "-h") {
            usage(stdout);
            return 0;
        } else if (a == "--device") {
            device = static_cast<int>(value(0, 1023));
        } else if (a == "--self-test") {
            selfTest = true;
            if (i + 1 < argc && argv[i + 1][0] != '-')
                config.tasksDir = argv[++i];
        } else if (a == "--adversarial") {
            adversarial = true;
            if (i + 1 < argc && argv[i + 1][0] != '-')
                adversarialConfig.manifest = std::filesystem::absolute(argv[++i]).string();
        } else if (a == "--case" && i + 1 < argc) {
            adversarialConfig.onlyCases.push_back(argv[++i]);
        } else if (a == "--launch") {
            if (i + 2 >= argc) {
                std::fprintf(stderr, "kforge-worker: --launch needs a task folder and a kernel (.cu or .so)\n");
                return 64;
            }
            launch = true;
            launchConfig.taskDir = argv[++i];
            launchConfig.kernel = argv[++i];
        } else if (a == "--runs") {
            launchConfig.runs = static_cast<int>(value(1, 1000000));
        } else if (a == "--seed") {
            launchConfig.seed = static_cast<uint64_t>(value(0, 9007199254740992LL));
        } else if (a == "--no-flush") {
            launchConfig.flush = false;
        } else if (a == "--sets") {
            launchConfig.sets = static_cast<int>(value(1, 1024));
        } else if (a == "--keep-pool") {
            launchConfig.keepPool = true;
        } else if (a == "--task" && i + 1 < argc) {
            config.onlyTasks.push_back(argv[++i]);
        } else if (a == "--min-time-ms") {
            config.options.minTimeMs = static_cast<double>(value(0, 3600000));
        } else if (a == "--min-runs") {
            config.options.minRuns = static_cast<int>(value(1, 1000000));
            config.options.maxRuns = std::max(config.options.maxRuns, config.options.minRuns);
        } else if (a == "--trials") {
            config.options.trials = static_cast<int>(value(2, 1000));
        } else if (a == "--json") {
            json = true;
        } else if (a == "--no-spare-host") {
            noSpareHost = true;
        } else if (a == "--prebuild-jobs") {
            prebuildJobs = value(1, 256);
        } else if (a == "--torch-python" && i + 1 < argc) {
            torchPython = argv[++i];
            ::setenv("KFORGE_TORCH_PYTHON", torchPython.c_str(), 1); // for the workers --self-test starts too
        } else if (a == "--candidate-host") {
            candidateHostFd = static_cast<int>(value(0, 1023));
        } else {
            std::fprintf(stderr, "kforge-worker: unknown argument '%s'\n", a.c_str());
            usage(stderr);
            return 64;
        }
    }

    if (launch) { // paths are relative to where we were started
        std::error_code ec;
        launchConfig.taskDir = std::filesystem::absolute(launchConfig.taskDir, ec).string();
        launchConfig.kernel = std::filesystem::absolute(launchConfig.kernel, ec).string();
    }
    if (!config.tasksDir.empty()) { // before the worker moves into its temporary directory
        std::error_code ec;
        const auto absolute = std::filesystem::absolute(config.tasksDir, ec);
        if (!ec)
            config.tasksDir = absolute.string();
    }
    if (candidateHostFd >= 0) {
        // Started by the judge through the sandbox (core/runtime/host/sandbox.h): rlimits, cwd and the
        // descriptors are set already; a private TempDir under the sandbox's TMPDIR serves the cubin tools.
        std::signal(SIGXFSZ, SIG_IGN);
        std::error_code cwdError;
        const std::string home = std::filesystem::current_path(cwdError).string();
        if (!cwdError)
            ::setenv("HOME", home.c_str(), 1); // the only place the host may write
        std::string error;
        if (!kforge::runtime::TempDir::create(error))
            std::fprintf(stderr, "kforge-worker --candidate-host: %s\n", error.c_str());
#ifdef KFORGE_HAVE_PROFILER
        kforge::runtime::CuptiHostProfiler profiler;
        std::exit(kforge::runtime::host::runCandidateHost(candidateHostFd, device, &profiler));
#else
        std::exit(kforge::runtime::host::runCandidateHost(candidateHostFd, device, nullptr));
#endif
    }
    const std::string limitError = kforge::runtime::applyLimits({});
    if (!limitError.empty())
        std::fprintf(stderr, "kforge-worker: resource limits: %s\n", limitError.c_str());
    std::string error;
    if (!kforge::runtime::TempDir::create(error)) {
        std::fprintf(stderr, "kforge-worker: %s\n", error.c_str());
        return 70;
    }

    if (launch) {
        launchConfig.device = device;
        return runLaunch(launchConfig);
    }
    adversarialConfig.workerArgv = {kforge::runtime::selfExecutable(), "--device", std::to_string(device)};
    adversarialConfig.tasksDir = config.tasksDir;
    adversarialConfig.log = [](const std::string &line) { std::fprintf(stderr, "adversarial: %s\n", line.c_str()); };
    if (adversarial && !selfTest)
        return kforge::runtime::runAdversarialCommand(adversarialConfig, json);
    if (selfTest) {
        config.workerArgv = {kforge::runtime::selfExecutable(), "--device", std::to_string(device)};
        config.log = [](const std::string &line) { std::fprintf(stderr, "self-test: %s\n", line.c_str()); };
        const kforge::runtime::SelfTestReport report = kforge::runtime::runSelfTest(config);
        if (report.noDevice) {
            std::fprintf(stderr, "%s\n", report.error.c_str());
            return 2;
        }
        if (!report.error.empty()) {
            std::fprintf(stderr, "kforge-worker --self-test: %s\n", report.error.c_str());
            return 1;
        }
        if (json) {
            nlohmann::ordered_json rows = nlohmann::ordered_json::array();
            for (const kforge::runtime::SelfTestRow &r : report.rows)
                rows.push_back(kforge::runtime::toJson(r));
            std::printf(
                "%s\n",
                nlohmann::ordered_json{{"device", report.device}, {"rows", rows}, {"passed", report.passed}}.dump(1).c_str());
        } else {
            std::printf("%s on %s\n%s%s\n", "kforge-worker --self-test", report.device.c_str(),
                        kforge::runtime::formatTable(report.rows).c_str(), report.passed ? "PASSED" : "FAILED");
        }
        if (!adversarial)
            return report.passed ? 0 : 1;
        const int suite = kforge::runtime::runAdversarialCommand(adversarialConfig, json);
        return suite == 0 && report.passed ? 0 : 1;
    }

    // Before any thread exists (CUDA's, CUPTI's, the request reader's): see RequestReader.
    kforge::runtime::RequestReader::prepareProcess();
    kforge::runtime::ProtocolChannel channel;
    if (!channel.open(true, error)) {
        std::fprintf(stderr, "kforge-worker: %s\n", error.c_str());
        return 70;
    }
    // Kernels run in their own processes (core/runtime/host), never here: the judge's fd 1 is /dev/null.
    kforge::runtime::host::becomeSubreaper();
    kforge::runtime::WorkerServer server(channel, device);
    server.setSpareHosts(!noSpareHost);
    if (prebuildJobs > 0)
        server.setPrebuildJobs(static_cast<std::size_t>(prebuildJobs));
    if (!torchPython.empty())
        server.setTorchPython(torchPython);
    const int status = server.run();
    std::exit(status); // runs the atexit handler that removes the temporary directory
}
