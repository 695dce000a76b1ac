#pragma once
// The worker's requests, read on a thread of their own so that the worker notices its client is gone
// while a request runs: end of its input (a killed client, or an ssh connection that dropped) or the death
// of the parent process. The worker then ends at once, even inside a CUDA call or a timing loop, so a
// killed client never leaves a worker behind that keeps the GPU busy; the driver tears the context down.
#include "core/runtime/worker/isolation.h"

#include <memory>
#include <optional>
#include <string>

namespace kforge::runtime {

class RequestReader
{
public:
    explicit RequestReader(ProtocolChannel &channel);
    ~RequestReader();
    RequestReader(const RequestReader &) = delete;
    RequestReader &operator=(const RequestReader &) = delete;

    // Call first thing in main(), before any thread exists: blocks the parent-death signal in this thread
    // (every thread created later inherits that, so only the reader's wait receives it) and asks the
    // kernel for it when the parent dies (prctl PR_SET_PDEATHSIG).
    static void prepareProcess();
    // Starts the reader thread.
    void start();
    // The next request; the previous one counts as answered. Nullopt when the client is gone (input ended
    // without a shutdown request, or the parent died) or when input ended after a shutdown request and
    // every request before it was served.
    std::optional<std::string> next();

private:
    struct State;
    std::shared_ptr<State> m_state;
    ProtocolChannel &m_channel;
};

} // namespace kforge::runtime
