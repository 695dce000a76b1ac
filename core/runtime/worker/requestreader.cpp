#include "core/runtime/worker/requestreader.h"

#include "core/runtime/worker/protocol.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <deque>
#include <mutex>
#include <poll.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <thread>
#include <unistd.h>

namespace kforge::runtime {
namespace {

pid_t g_parent = 0;

// Sent by the kernel when the parent dies (PR_SET_PDEATHSIG). A real-time signal nobody else sends, so
// SIGHUP and SIGTERM keep their usual meaning.
int deathSignal()
{
    return SIGRTMIN + 2;
}

// Only there to interrupt the reader's ppoll(); the reader then asks getppid() whether the parent is gone.
void onDeathSignal(int)
{
}

// Cheap enough for every line: a load with so_base64 is megabytes and never a shutdown.
bool isShutdown(const std::string &line)
{
    if (line.size() > 4096 || line.find("shutdown") == std::string::npos)
        return false;
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    return j.is_object() && j.contains("op") && j["op"] == "shutdown";
}

} // namespace

struct RequestReader::State {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::string> lines;
    bool busy = false;  // next() handed out a request that is not answered yet
    bool ended = false; // input ended after a shutdown request: serve what is queued, then stop
    bool gone = false;  // the client is gone: take nothing more
    bool shutdownSeen = false;

    bool sawShutdown()
    {
        const std::lock_guard lock(mutex);
        return shutdownSeen;
    }

    void push(std::string line)
    {
        const bool shutdown = isShutdown(line);
        {
            const std::lock_guard lock(mutex);
            lines.push_back(std::move(line));
            shutdownSeen = shutdownSeen || shutdown;
        }
        wake.notify_one();
    }

    // The client closed our input, or the parent died. A client that ended its input with a shutdown
    // request wants its answers; any other is gone, and a request still running is abandoned at once.
    void clientLeft(const char *why, bool endOfInput)
    {
        std::unique_lock lock(mutex);
        if (endOfInput && shutdownSeen) {
            ended = true;
            lock.unlock();
            wake.notify_one();
            return;
        }
        gone = true;
        const bool abandon = busy;
        lock.unlock();
        wake.notify_one();
        if (!abandon)
            return; // next() returns nullopt and the worker exits as after shutdown
        std::fprintf(stderr, "kforge-worker: %s while a request was running; exiting\n", why);
        TempDir::remove();
        ::_exit(protocol::kExitClientGone);
    }
};

RequestReader::RequestReader(ProtocolChannel &channel)
    : m_state(std::make_shared<State>())
    , m_channel(channel)
{
}

RequestReader::~RequestReader() = default;

void RequestReader::prepareProcess()
{
    g_parent = ::getppid();
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, deathSignal());
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    struct sigaction action {
    };
    action.sa_handler = onDeathSignal;
    sigemptyset(&action.sa_mask);
    sigaction(deathSignal(), &action, nullptr);
    // The signal also comes when only the thread that started us ends (the parent process lives on):
    // the reader tells the two apart with getppid(), which names the process.
    ::prctl(PR_SET_PDEATHSIG, deathSignal());
}

void RequestReader::start()
{
    // Detached: it may sit in ppoll() when the worker exits after a shutdown request. It owns its state
    // through the shared pointer; the channel lives as long as the process (main() ends with std::exit).
    std::thread([state = m_state, channel = &m_channel] {
        sigset_t waitMask;
        pthread_sigmask(SIG_SETMASK, nullptr, &waitMask);
        sigdelset(&waitMask, deathSignal());
        for (;;) {
            // At the end of input an unterminated last line is served only after a shutdown request:
            // otherwise it is a request the client did not finish writing before it went away.
            while (!(channel->atEnd() && !state->sawShutdown())) {
                std::optional<std::string> line = channel->takeLine();
                if (!line)
                    break;
                state->push(std::move(*line));
            }
            if (channel->atEnd())
                return state->clientLeft("the client closed the worker's input", true);
            if (g_parent != 0 && ::getppid() != g_parent)
                return state->clientLeft("the parent process died", false);
            // The death signal is unblocked only inside this wait, so it cannot slip in between the
            // parent check and the wait (it then ends the wait with EINTR).
            pollfd p{channel->inFd(), POLLIN, 0};
            if (::ppoll(&p, 1, nullptr, &waitMask) < 0)
                continue;
            channel->readSome(); // data, or end of input after POLLHUP
        }
    }).detach();
}

std::optional<std::string> RequestReader::next()
{
    std::unique_lock lock(m_state->mutex);
    m_state->busy = false;
    m_state->wake.wait(lock, [this] { return m_state->gone || m_state->ended || !m_state->lines.empty(); });
    if (m_state->gone || m_state->lines.empty())
        return std::nullopt;
    std::string line = std::move(m_state->lines.front());
    m_state->lines.pop_front();
    m_state->busy = true;
    return line;
}

} // namespace kforge::runtime
