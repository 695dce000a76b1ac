// libkforge_moduleprofile.so: the candidate host's CUPTI passes (cuptiobserver.h: the activity trace with its
// windows, the range-profiler metrics with the roofline) behind one C function, for the Python module host
// (torchworker/kforge_torchworker/modulehost.py, "profile"). The module host loads it before its restrictions,
// and calls it with a callback that runs one call of the module on its stream; everything else (the L2
// flush, the delay and marker kernels that bound each call's window, the events, CUPTI) is this library's, the
// same code the native host runs, so a ModelNew's trace and metrics are measured as a kernel's are.
#include "core/runtime/host/hostkernels.h"
#include "core/runtime/worker/cuptiobserver.h"

#include <cuda_runtime.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace {

using Json = nlohmann::ordered_json;

struct State {
    kforge::runtime::CuptiHostProfiler profiler;
    void *flush = nullptr;
    std::size_t flushBytes = 0;
};

State &state()
{
    static State *s = new State; // never destroyed: CUPTI's callbacks may outlive a static destructor's order
    return *s;
}

void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

int write(const Json &body, char *out, std::size_t cap)
{
    const std::string text = body.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (text.size() + 1 > cap)
        return static_cast<int>(std::min<std::size_t>(text.size() + 1, 0x7fffffff)) * -1;
    std::memcpy(out, text.c_str(), text.size() + 1);
    return 0;
}

} // namespace

// `request`: the profile request's JSON ({"kind": "trace" | "metrics", "runs", "metrics", peaks, figures});
// `call(context)` runs the module's call on `stream` (a cudaStream_t) and returns 0, or non-zero when it failed;
// `reference` whether this host is the reference's. Writes the reply's body (without "ok") into `out`: 0 when
// done, 1 when the pass failed (out: {"message"}), minus the size needed when `cap` is too small.
extern "C" __attribute__((visibility("default"))) int kforge_module_profile(const char *request, int (*call)(void *),
                                                                             void *context, void *stream, int device,
                                                                             int reference, char *out, std::size_t cap)
{
    try {
        const Json r = Json::parse(request);
        State &s = state();
        const auto st = static_cast<cudaStream_t>(stream);
        check(cudaSetDevice(device), "cudaSetDevice");
        if (!s.flush) {
            int l2 = 0;
            check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "cudaDeviceGetAttribute");
            s.flushBytes = (2 * static_cast<std::size_t>(l2) + 15) / 16 * 16;
            check(cudaMalloc(&s.flush, s.flushBytes), "allocating the L2 flush buffer");
            check(cudaMemset(s.flush, 0, s.flushBytes), "clearing the L2 flush buffer");
        }
        kforge::runtime::host::HostRunner runner;
        runner.stream = st;
        runner.device = device;
        runner.reference = reference != 0;
        runner.call = [call, context] { return call(context); };
        runner.flushL2 = [&s, st] { check(kforge::runtime::host::gpu::flush(s.flush, s.flushBytes, st), "the L2 flush"); };
        runner.delay = [st] { check(kforge::runtime::host::gpu::delay(100000, st), "the delay kernel"); };
        runner.marker = [st] { check(kforge::runtime::host::gpu::marker(st), "the marker kernel"); };
        runner.launch = [call, context] {
            if (const int rc = call(context); rc != 0)
                throw std::runtime_error("the module's call failed (" + std::to_string(rc) + ")");
            check(cudaDeviceSynchronize(), "the module's work");
        };
        const std::string kind = r.value("kind", std::string());
        Json body;
        if (kind == "trace")
            body = s.profiler.trace(runner, r.value("runs", 10));
        else if (kind == "metrics")
            body = s.profiler.metrics(runner, r);
        else
            return write(Json{{"message", "unknown profile kind '" + kind + "'"}}, out, cap) == 0 ? 1 : -1;
        return write(body, out, cap);
    } catch (const std::exception &e) {
        return write(Json{{"message", e.what()}}, out, cap) == 0 ? 1 : -1;
    }
}
