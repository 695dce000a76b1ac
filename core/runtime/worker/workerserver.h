#pragma once
// The request loop of kforge-worker: reads JSON lines from the protocol channel, runs one request at a
// time and answers on the same channel (docs/worker-protocol.md).
#include "core/runtime/host/hostclient.h"
#include "core/runtime/worker/gpucontext.h"
#include "core/runtime/worker/isolation.h"
#include "core/runtime/worker/judge.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>

namespace kforge::runtime {

struct EvalOptions;
struct TaskSpec;

// A request refused with one of the protocol's error codes (the reply's "error": code and message).
struct ProtocolError {
    std::string code;
    std::string message;
};

class WorkerServer
{
public:
    WorkerServer(ProtocolChannel &channel, int device);
    // The command line of a child worker, for self_test (default: this executable, same --device).
    void setSelfTestWorker(std::vector<std::string> argv) { m_selfTestWorker = std::move(argv); }
    void setSpareHosts(bool on) { m_sparesOn = on; }
    // How long a module host's init may take (its import and its own extension builds), at least.
    static constexpr double kModuleInitS = 300;
    // The Python with torch the module hosts run under (--torch-python; default $KFORGE_TORCH_PYTHON, else
    // python3 on PATH).
    void setTorchPython(std::string python) { m_torchPython = std::move(python); }
    // How many modules op prebuild builds at once (--prebuild-jobs; default defaultPrebuildJobs()).
    void setPrebuildJobs(std::size_t jobs) { m_prebuildJobs = std::max<std::size_t>(1, jobs); }
    // Half the cores (at least 1): a build's nvcc takes one, and the judge's hosts keep the rest.
    static std::size_t defaultPrebuildJobs();

    // Serves until shutdown or end of input; returns the process exit status. Requests are read on a
    // thread of their own (RequestReader): a client that goes away mid-request ends the process at once.
    int run();
    // One request line -> one response object (and progress events written on the way). Public for tests.
    nlohmann::ordered_json handleLine(const std::string &line);
    bool exitRequested() const { return m_exit; }
    int exitStatus() const { return m_exitStatus; }

private:
    nlohmann::ordered_json handle(const nlohmann::ordered_json &request);
    nlohmann::ordered_json opHello(const nlohmann::ordered_json &request);
    nlohmann::ordered_json opDeviceInfo();
    nlohmann::ordered_json torchProbe() const;
    nlohmann::ordered_json opLoad(const nlohmann::ordered_json &request);
    nlohmann::ordered_json opEvaluate(const nlohmann::ordered_json &request);
    Judge::Hosts judgeHosts(bool torch);
    nlohmann::ordered_json opSelfTest(const nlohmann::ordered_json &request);
    nlohmann::ordered_json opDisassemble(const nlohmann::ordered_json &request);
    nlohmann::ordered_json opPrebuild(const nlohmann::ordered_json &request);
    void requireDevice();
    void send(const nlohmann::ordered_json &message);

    ProtocolChannel &m_channel;
    // A loaded library: the judge keeps its bytes and a copy (for disassemble) and never loads it; its host
    // process (candidatehost.h) does.
    struct Loaded {
        std::string slot;
        std::string bytes;
        // A Python module (a torch task's Model or ModelNew: bytes that are not an ELF file), run in a module
        // host. Its host starts at the first evaluate, which knows the task: `init` is what it was started with
        // (moduleInit), `fileName` the module's name in messages.
        bool module = false;
        std::string fileName;
        nlohmann::ordered_json init;
        // The reference module's own state as its host exported it before any load (the judge's weights are
        // moved from it in every evaluation); empty until the first evaluation with this host.
        std::string initialState;
        double initTimeoutS = 60; // a module host's init: the import, its own builds, the construction
        std::filesystem::path file;
        std::string key; // the bytes' size and hash (the reference metrics cache's key)
        int abi = 0;
        // Free device memory just before this host's last start (the candidate's): the judge sizes its batches
        // from it, before any code of the candidate ran (issue 35, item 2). 0: not measured.
        std::size_t freeBeforeStart = 0;
        std::unique_ptr<host::HostClient> host;
        ~Loaded();
    };
    // Starts the host of `loaded`, fills `code`/`message` on failure.
    bool startHost(Loaded &loaded, std::string &code, std::string &message);
    // A host that died or was killed in an earlier evaluation is started afresh. Throws ProtocolError.
    void ensureHost(Loaded &loaded);
    // Spare hosts (HostClient::spawnSpare): booted ahead, so a load does not wait for a CUDA context. A
    // start takes the oldest; the pool is filled to kSpares when a worker starts and when an evaluation's
    // timing ends (so a boot has the passes after it, the reply and the next load to finish in, and the
    // next load takes a spare booted an evaluation earlier); a start that empties it boots one at once.
    // None with --no-spare-host.
    static constexpr std::size_t kSpares = 2;

    void bootSpares(std::size_t upTo);
    host::HostStart hostStart(const std::string &slot) const;
    // A module host's start (its interpreter, script and guard library); throws ProtocolError when one of them
    // cannot be found. moduleStart: the same for `loaded`, with its module, init, profiler and build cache.
    host::HostStart moduleHostStart(const std::string &slot) const;
    host::HostStart moduleStart(const Loaded &loaded) const;
    // A torch task's baseline host for a module candidate (m_moduleBaseline), started with the task's outputs.
    void ensureModuleBaseline(const TaskSpec &task, double initS);
    // $KFORGE_TORCH_PYTHON, else python3 on PATH.
    static std::string defaultTorchPython();
    // The module host of `loaded` started with `init` (an alive one started with the same init is kept).
    // Throws ProtocolError (load_failed with the host's named step and cause).
    void ensureModuleHost(Loaded &loaded, const nlohmann::ordered_json &init, double timeoutS);
    // Module spares, like the native ones, once the worker has served a torch task.
    void bootModuleSpares(std::size_t upTo);

    // A module's extension builds made ahead of its evaluation (op prebuild): a module host without a GPU (the
    // same sandbox, CUDA_VISIBLE_DEVICES empty) imports and constructs it, so its load_inline builds land in the
    // judge's cache (extensionFolder, the module's exact bytes) before the module is evaluated. At most
    // m_prebuildJobs build at once, the rest wait; they are driven between requests (pumpPrebuilds), never
    // while a request runs, and an evaluation of a module whose build is running waits for it (awaitPrebuild).
    struct Prebuild {
        std::string bytes;
        std::string fileName;
        nlohmann::ordered_json init; // class, init_args, seed, mode
        std::string state = "queued"; // queued, building, built, failed, cached, skipped
        std::string message;           // failed: the host's step and cause
        nlohmann::ordered_json builds = nlohmann::ordered_json::array(); // the host's load_inline calls
        host::HostStart how;
        std::unique_ptr<host::HostClient> host;
        std::chrono::steady_clock::time_point started;
        double seconds = 0;
        nlohmann::ordered_json toJson() const;
        ~Prebuild();
    };
    // Collects the builds that ended and starts waiting ones while fewer than m_prebuildJobs run.
    void pumpPrebuilds();
    void finishPrebuild(Prebuild &p, double timeoutS);
    // Before a module host of `bytes` starts for an evaluation: a waiting prebuild of it is dropped (the host
    // builds now), a running one is waited for (at most kPrebuildWaitS), so its builds are lent, not made twice.
    void awaitPrebuild(const std::string &bytes);
    static constexpr double kPrebuildWaitS = 240;
    std::deque<std::unique_ptr<Prebuild>> m_prebuilds; // oldest first; at most kPrebuildsKept ended ones
    static constexpr std::size_t kPrebuildsKept = 256;
    std::size_t m_prebuildJobs = defaultPrebuildJobs();

    GpuContext m_gpu;
    std::unique_ptr<Loaded> m_reference;
    std::unique_ptr<Loaded> m_candidate;
    std::unique_ptr<Loaded> m_baseline; // the no-op library (libkforge-noop.so), started at the first evaluate
    // A torch task's baseline when the candidate is a module: a module host whose module returns tensors of the
    // outputs' shapes without computing them (what a module host adds to every call: the crossing and the
    // outputs' copy into the judge's buffers, which the reference's and the candidate's batches pay too).
    std::unique_ptr<Loaded> m_moduleBaseline;
    std::deque<std::unique_ptr<host::HostClient>> m_spare;
    std::deque<std::unique_ptr<host::HostClient>> m_moduleSpare;
    bool m_torchServed = false;
    std::string m_torchPython;
    nlohmann::ordered_json m_torchProbe; // device_info's "torch", probed once
    // References loaded before the current one, with their hosts still running (newest first, at most
    // kKeptReferences): a client that switches between tasks loads each task's reference again, and a kept one
    // with the same bytes is taken back instead of started anew (its process, context, library, and the
    // first calls' lazy loading, e.g. cuBLAS's, 1.5-2.5 s on the H200, all done already).
    std::deque<std::unique_ptr<Loaded>> m_keptReferences;
    static constexpr std::size_t kKeptReferences = 3;
    std::chrono::steady_clock::time_point m_lastEvaluationEnd{}; // of the last evaluation that timed (warm device)
    bool m_sparesOn = true;
    std::map<std::string, nlohmann::ordered_json> m_referenceProfiles;
    std::vector<std::string> m_selfTestWorker;
    nlohmann::ordered_json m_currentId;
    nlohmann::ordered_json m_currentToken; // the request's "token", echoed in every line sent for it
    int m_loads = 0;
    bool m_exit = false;
    int m_exitStatus = 0;
};

// {"event":"ready", ...}: the first line a worker prints.
nlohmann::ordered_json readyEvent();
std::string workerVersion();

} // namespace kforge::runtime
