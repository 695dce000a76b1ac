#include "core/runtime/worker/workerprocess.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace kforge::runtime {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

WorkerClient::WorkerClient(std::vector<std::string> argv)
    : m_argv(std::move(argv))
{
}

WorkerClient::~WorkerClient()
{
    kill();
}

bool WorkerClient::start(std::string &error, double timeoutS)
{
    kill();
    // A worker that dies while we write to it must not take this process down.
    std::signal(SIGPIPE, SIG_IGN);
    int toChild[2], fromChild[2];
    if (::pipe2(toChild, O_CLOEXEC) != 0 || ::pipe2(fromChild, O_CLOEXEC) != 0) {
        error = std::string("pipe: ") + std::strerror(errno);
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0);
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1);
    std::vector<char *> argv;
    for (std::string &a : m_argv)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(toChild[0]);
    ::close(fromChild[1]);
    if (rc != 0) {
        ::close(toChild[1]);
        ::close(fromChild[0]);
        error = "cannot start " + m_argv[0] + ": " + std::strerror(rc);
        return false;
    }
    m_pid = pid;
    m_in = toChild[1];
    m_out = fromChild[0];
    m_buffer.clear();
    m_scanned = 0;
    m_exit.clear();
    m_exitCode = -1;
    m_exitSignal = 0;

    std::string line;
    bool timedOut = false;
    if (!readLine(line, timeoutS, timedOut)) {
        error = timedOut ? "the worker sent no ready event within " + std::to_string(timeoutS) + " s"
                         : "the worker ended before it was ready (" + m_exit + ")";
        kill();
        return false;
    }
    try {
        m_ready = Json::parse(line);
    } catch (const std::exception &) {
        m_ready = nullptr;
    }
    if (!m_ready.is_object() || m_ready.value("event", "") != "ready") {
        error = "the worker's first line is not a ready event: " + line.substr(0, 200);
        kill();
        return false;
    }
    return true;
}

bool WorkerClient::readLine(std::string &line, double timeoutS, bool &timedOut)
{
    timedOut = false;
    const auto deadline = Clock::now()
                          + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeoutS));
    for (;;) {
        const auto nl = m_buffer.find('\n', m_scanned);
        m_scanned = nl == std::string::npos ? m_buffer.size() : 0;
        if (nl != std::string::npos) {
            line = m_buffer.substr(0, nl);
            m_buffer.erase(0, nl + 1);
            return true;
        }
        if (m_out < 0)
            return false;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) {
            timedOut = true;
            return false;
        }
        pollfd p{m_out, POLLIN, 0};
        const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
        if (r < 0 && errno != EINTR)
            return false;
        if (r <= 0)
            continue;
        char chunk[65536];
        const ssize_t n = ::read(m_out, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0) { // end of file: the worker is gone
            ::close(m_out);
            m_out = -1;
            reap(true);
            return false;
        }
        m_buffer.append(chunk, static_cast<std::size_t>(n));
    }
}

WorkerClient::Reply WorkerClient::wait(const Json *id, double timeoutS)
{
    Reply reply;
    const auto deadline = Clock::now()
                          + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeoutS));
    for (;;) {
        const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
        std::string line;
        bool timedOut = false;
        if (!readLine(line, left, timedOut)) {
            reply.status = timedOut ? Reply::Status::Timeout : Reply::Status::Died;
            reply.detail = timedOut ? "no response within " + std::to_string(timeoutS) + " s" : m_exit;
            return reply;
        }
        Json msg;
        try {
            msg = Json::parse(line);
        } catch (const std::exception &) {
            continue; // not protocol (should not happen: stdout of kernels is redirected)
        }
        if (msg.is_object() && msg.contains("event")) {
            reply.events.push_back(msg);
            continue;
        }
        if (id && msg.is_object() && msg.value("id", Json()) != *id)
            continue;
        reply.status = Reply::Status::Ok;
        reply.message = std::move(msg);
        return reply;
    }
}

bool WorkerClient::writeLine(const std::string &line, Reply &reply)
{
    if (m_pid <= 0 || m_in < 0) {
        reply.detail = m_exit.empty() ? "the worker is not running" : m_exit;
        return false;
    }
    std::string out = line + "\n";
    const char *p = out.data();
    std::size_t left = out.size();
    while (left > 0) {
        const ssize_t n = ::write(m_in, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // the worker is gone; reading tells how
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    return true;
}

WorkerClient::Reply WorkerClient::request(Json request, double timeoutS)
{
    if (!request.contains("id"))
        request["id"] = m_nextId++;
    const Json id = request["id"];
    Reply reply;
    if (!writeLine(request.dump(), reply))
        return reply;
    return wait(&id, timeoutS);
}

WorkerClient::Reply WorkerClient::requestRaw(const std::string &line, double timeoutS)
{
    Reply reply;
    if (!writeLine(line, reply))
        return reply;
    return wait(nullptr, timeoutS);
}

void WorkerClient::reap(bool block)
{
    if (m_pid <= 0)
        return;
    int status = 0;
    pid_t r;
    do {
        r = ::waitpid(m_pid, &status, block ? 0 : WNOHANG);
    } while (r < 0 && errno == EINTR);
    if (r != m_pid)
        return;
    if (WIFEXITED(status)) {
        m_exitCode = WEXITSTATUS(status);
        m_exit = "exited with status " + std::to_string(m_exitCode);
    } else if (WIFSIGNALED(status)) {
        m_exitSignal = WTERMSIG(status);
        m_exit = "killed by signal " + std::to_string(m_exitSignal) + " (" + strsignal(m_exitSignal) + ")";
    }
    m_pid = -1;
    if (m_in >= 0)
        ::close(m_in);
    m_in = -1;
    if (m_out >= 0)
        ::close(m_out);
    m_out = -1;
}

bool WorkerClient::waitExit(double timeoutS)
{
    const auto deadline = Clock::now()
                          + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeoutS));
    while (m_pid > 0) {
        reap(false);
        if (m_pid <= 0)
            break;
        if (Clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

void WorkerClient::kill()
{
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        reap(true);
    }
    if (m_in >= 0)
        ::close(m_in);
    if (m_out >= 0)
        ::close(m_out);
    m_in = m_out = -1;
}

} // namespace kforge::runtime
