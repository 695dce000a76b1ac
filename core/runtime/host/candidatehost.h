#pragma once
// `kforge-worker --candidate-host FD`: the process that runs one untrusted kernel library and nothing else.
// It speaks the host protocol (hostprotocol.h, docs/worker-protocol.md "Candidate host") on FD: the judge
// maps its buffers and events through CUDA IPC and drives every call; the host never makes a call of its
// own. What it reports about itself (its own event times, its trace) is a cross-check for the judge only.
#include <cuda_runtime.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace kforge::runtime::host {

// One call of the profile request, run by the host on the judge's buffers.
struct HostRunner {
    cudaStream_t stream = nullptr;
    int device = 0;
    bool reference = false;        // the slot this host was started for
    std::string library;           // the loaded file (cubins for the source-level pass)
    std::function<int()> call;     // kf_entry on the request's buffers, on `stream`; returns its rc
    std::function<void()> flushL2; // the host's own L2 flush kernel on `stream`
    std::function<void()> delay;   // the host's spin kernel on `stream` (about 100 us)
    std::function<void()> marker;  // the host's empty marker kernel on `stream`
    // call() + cudaDeviceSynchronize(); throws std::runtime_error on a non-zero rc or a CUDA error
    std::function<void()> launch;
};

// The CUPTI side of the profile op (cuptiobserver.cpp when the worker has the profiler).
class HostProfiler
{
public:
    virtual ~HostProfiler() = default;
    // {"trace": TraceSummary, "self_ms": [...], "outside": {...}}
    virtual nlohmann::ordered_json trace(const HostRunner &runner, int runs) = 0;
    // {"metrics": MetricsResult, "roofline": RooflineReport}; `request` carries the peaks and the task's figures
    virtual nlohmann::ordered_json metrics(const HostRunner &runner, const nlohmann::ordered_json &request) = 0;
    // {"source_profile": SourceProfile}
    virtual nlohmann::ordered_json sourceProfile(const HostRunner &runner, const nlohmann::ordered_json &request) = 0;
};

// The host's main: serves requests on `fd` until "exit" or the end of the channel. `profiler` may be null
// (a worker without CUPTI: the profile op answers {"ok": false, "code": "no_profiler"}).
int runCandidateHost(int fd, int device, HostProfiler *profiler);

} // namespace kforge::runtime::host
