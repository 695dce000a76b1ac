#pragma once
// The request loop of kforge-worker: reads JSON lines from the protocol channel, runs one request at a
// time and answers on the same channel (docs/worker-protocol.md).
#include "core/runtime/worker/evalobserver.h"
#include "core/runtime/worker/gpucontext.h"
#include "core/runtime/worker/isolation.h"
#include "core/runtime/worker/kernellibrary.h"
#include "core/runtime/worker/referencecache.h"

#include <functional>
#include <memory>

namespace kforge::runtime {

struct EvalOptions;

class WorkerServer
{
public:
    // Builds the observer for one evaluation (profilers); may return nullptr.
    using ObserverFactory = std::function<std::unique_ptr<EvalObserver>(const EvalOptions &)>;

    WorkerServer(ProtocolChannel &channel, StdoutCapture *capture, int device);
    void setObserverFactory(ObserverFactory factory) { m_observerFactory = std::move(factory); }
    // The command line of a child worker, for self_test (default: this executable, same --device).
    void setSelfTestWorker(std::vector<std::string> argv) { m_selfTestWorker = std::move(argv); }

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
    nlohmann::ordered_json opLoad(const nlohmann::ordered_json &request);
    nlohmann::ordered_json opEvaluate(const nlohmann::ordered_json &request);
    nlohmann::ordered_json opSelfTest(const nlohmann::ordered_json &request);
    nlohmann::ordered_json opDisassemble(const nlohmann::ordered_json &request);
    void requireDevice();
    void send(const nlohmann::ordered_json &message);

    ProtocolChannel &m_channel;
    StdoutCapture *m_capture;
    GpuContext m_gpu;
    ReferenceCache m_cache;
    std::unique_ptr<KernelLibrary> m_reference;
    std::unique_ptr<KernelLibrary> m_candidate;
    ObserverFactory m_observerFactory;
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
