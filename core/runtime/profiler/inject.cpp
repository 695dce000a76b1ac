// libkforge_inject.so: traces every kernel, memcpy and memset of an unmodified CUDA process with the
// worker's ActivityTracer and writes them as JSON lines when the process exits.
//
//   CUDA_INJECTION64_PATH=/abs/libkforge_inject.so KFORGE_INJECT_OUT=/tmp/trace.jsonl python3 model.py
//
// The driver dlopen()s this library inside cuInit() and calls InitializeInjection(). Environment:
//   KFORGE_INJECT_OUT   file for the JSON lines (without it a one-line summary goes to stderr)
//   KFORGE_INJECT_API=1 also record runtime/driver API calls (more host overhead; not needed for kernels)

#include "core/runtime/profiler/activitytracer.h"
#include "core/runtime/profiler/tracejsonl.h"

#include <cupti.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

using kforge::runtime::profiler::ActivityTracer;

ActivityTracer *g_tracer = nullptr; // lives until exit on purpose: atexit needs it
std::atomic<bool> g_written{false}; // kforge_inject_write wrote the records: nothing left for atexit

std::string commandLine()
{
    std::ifstream f("/proc/self/cmdline", std::ios::binary);
    std::string raw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    for (char &c : raw)
        if (c == '\0')
            c = ' ';
    while (!raw.empty() && raw.back() == ' ')
        raw.pop_back();
    return raw;
}

// 0 written, 2 the file could not be written or no path was given (the summary went to stderr instead).
int writeRecords(const char *path)
{
    g_tracer->flush();
    kforge::runtime::profiler::TraceRecords records = g_tracer->takeRecords();
    kforge::runtime::profiler::JsonLinesHeader header;
    header.pid = static_cast<int>(getpid());
    cuptiGetVersion(&header.cuptiVersion);
    header.command = commandLine();
    if (path && *path) {
        std::ofstream out(path, std::ios::trunc);
        if (out) {
            kforge::runtime::profiler::writeTraceJsonLines(out, header, records);
            if (out.flush())
                return 0;
        }
        std::fprintf(stderr, "kforge_inject: cannot write %s\n", path);
    }
    std::fprintf(stderr, "kforge_inject: pid %d traced %zu kernels, %zu memory operations, %zu records dropped\n",
                 header.pid, records.kernels.size(), records.memoryOps.size(), records.dropped);
    return 2;
}

void writeAtExit()
{
    if (!g_tracer || g_written.load())
        return;
    writeRecords(std::getenv("KFORGE_INJECT_OUT"));
}

} // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
    static std::atomic<bool> once{false};
    if (once.exchange(true))
        return 1;

    // Frameworks ship their own libcupti; if that one was loaded first its record layouts may differ.
    uint32_t version = 0;
    if (cuptiGetVersion(&version) != CUPTI_SUCCESS || version != CUPTI_API_VERSION) {
        std::fprintf(stderr,
                     "kforge_inject: refusing to trace: the loaded libcupti has API version %u, this library was "
                     "built against %u\n",
                     version, static_cast<unsigned>(CUPTI_API_VERSION));
        return 1; // the process carries on untraced
    }
    kforge::runtime::profiler::TracerOptions options;
    const char *api = std::getenv("KFORGE_INJECT_API");
    options.apiRecords = api && std::string(api) == "1";
    g_tracer = new ActivityTracer(options);
    kforge::runtime::profiler::CuptiDiagnosis d = g_tracer->start();
    if (!d.ok()) {
        std::fprintf(stderr, "kforge_inject: tracing unavailable: %s %s\n", d.reason.c_str(), d.hint.c_str());
        delete g_tracer;
        g_tracer = nullptr;
        return 1;
    }
    std::atexit(writeAtExit);
    return 1;
}

// For a process that loads this library itself (dlopen, after its CUDA context exists) instead of through
// CUDA_INJECTION64_PATH, such as a Python host that cannot have the variable set before its torch starts CUDA.
//   InitializeInjection()        starts the tracer (as the driver would)
//   kforge_inject_timestamp()    CUPTI's clock, the records' time base (ns), for bracketing runs
//   kforge_inject_write(path)    flushes and writes the records so far as JSON lines: 0 written, 1 not
//                                tracing, 2 not written; after it the process's exit writes nothing
extern "C" __attribute__((visibility("default"))) unsigned long long kforge_inject_timestamp(void)
{
    uint64_t ts = 0;
    return cuptiGetTimestamp(&ts) == CUPTI_SUCCESS ? ts : 0;
}

extern "C" __attribute__((visibility("default"))) int kforge_inject_write(const char *path)
{
    if (!g_tracer)
        return 1;
    g_written.store(true);
    return writeRecords(path);
}
