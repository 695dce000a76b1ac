// kforge-worker: evaluates CUDA kernels for KForge over JSON lines on stdin/stdout
// (docs/worker-protocol.md), or checks the built-in tasks with --self-test.
#include "core/runtime/worker/isolation.h"
#include "core/runtime/worker/nvcc.h"
#include "core/runtime/worker/protocol.h"
#include "core/runtime/worker/selftest.h"
#include "core/runtime/worker/workerserver.h"
#include "kforge/kernel.h"
#ifdef KFORGE_HAVE_PROFILER
#include "core/runtime/worker/cuptiobserver.h"
#endif

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>
#include <algorithm>

namespace {

void usage(std::FILE *to)
{
    std::fprintf(to,
                 "Usage: kforge-worker [--device N]\n"
                 "       kforge-worker --self-test [TASKS_DIR] [--device N] [--task NAME]... [--min-time-ms MS]\n"
                 "                     [--min-runs N] [--trials N] [--json]\n"
                 "       kforge-worker --version\n\n"
                 "Without --self-test the worker speaks the KForge worker protocol (JSON lines) on stdin/stdout.\n"
                 "--self-test compiles and evaluates every task's variants (default tasks: %s)\n"
                 "and exits 0 when every verdict is as expected, 1 otherwise, 2 when there is no CUDA device.\n",
                 kforge::defaultTasksDir().c_str());
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

} // namespace

int main(int argc, char **argv)
{
    int device = 0;
    bool selfTest = false;
    bool json = false;
    kforge::SelfTestConfig config;
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
            std::printf("kforge-worker %s (protocol %d, kernel ABI %d)\n", kforge::workerVersion().c_str(),
                        kforge::protocol::kVersion, KF_ABI_VERSION);
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
        } else {
            std::fprintf(stderr, "kforge-worker: unknown argument '%s'\n", a.c_str());
            usage(stderr);
            return 64;
        }
    }

    if (!config.tasksDir.empty()) { // before the worker moves into its temporary directory
        std::error_code ec;
        const auto absolute = std::filesystem::absolute(config.tasksDir, ec);
        if (!ec)
            config.tasksDir = absolute.string();
    }
    const std::string limitError = kforge::applyLimits({});
    if (!limitError.empty())
        std::fprintf(stderr, "kforge-worker: resource limits: %s\n", limitError.c_str());
    std::string error;
    if (!kforge::TempDir::create(error)) {
        std::fprintf(stderr, "kforge-worker: %s\n", error.c_str());
        return 70;
    }

    if (selfTest) {
        config.workerArgv = {kforge::selfExecutable(), "--device", std::to_string(device)};
        config.log = [](const std::string &line) { std::fprintf(stderr, "self-test: %s\n", line.c_str()); };
        const kforge::SelfTestReport report = kforge::runSelfTest(config);
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
            for (const kforge::SelfTestRow &r : report.rows)
                rows.push_back(kforge::toJson(r));
            std::printf("%s\n", nlohmann::ordered_json{{"device", report.device}, {"rows", rows}, {"passed", report.passed}}
                                    .dump(1).c_str());
        } else {
            std::printf("%s on %s\n%s%s\n", "kforge-worker --self-test", report.device.c_str(),
                        kforge::formatTable(report.rows).c_str(), report.passed ? "PASSED" : "FAILED");
        }
        return report.passed ? 0 : 1;
    }

    kforge::ProtocolChannel channel;
    if (!channel.open(true, error)) {
        std::fprintf(stderr, "kforge-worker: %s\n", error.c_str());
        return 70;
    }
    kforge::StdoutCapture capture;
    if (!capture.open(kforge::TempDir::path() / "kernel-stdout.txt", error)) {
        std::fprintf(stderr, "kforge-worker: %s\n", error.c_str());
        return 70;
    }
    kforge::WorkerServer server(channel, &capture, device);
#ifdef KFORGE_HAVE_PROFILER
    // Created before any CUDA call; CUPTI itself is only switched on while an evaluation traces or profiles.
    kforge::ProfilerSession profilerSession;
    server.setObserverFactory([&profilerSession](const kforge::EvalOptions &options) -> std::unique_ptr<kforge::EvalObserver> {
        if (!options.trace && !options.metrics)
            return nullptr;
        return std::make_unique<kforge::CuptiObserver>(profilerSession);
    });
#endif
    const int status = server.run();
    std::exit(status); // runs the atexit handler that removes the temporary directory
}
