// A worker does not outlive its client: after kill -9 of the process that talks to it, kforge-worker is
// gone within 0.5 s, idle or in the middle of a request, whether the client was its parent (end of input
// and parent death), only held its pipes (end of input, as through ssh: the parent lives on) or was only
// its parent (parent death, the pipes stay open). Input that ends after a shutdown request is still served.
// Without a GPU the worker is held mid-request by an answer nobody reads (its write blocks); with --gpu
// (label gpu, SKIP without one) the client is killed while the worker times a slow kernel and while it
// waits for a kernel that never finishes, and the time to exit is printed.
// This process is a child subreaper, so the orphaned worker becomes its child and its exit status is seen.
#include "workertest.h"

#include "core/runtime/worker/protocol.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

using namespace kforge::runtime;
using namespace kforge::runtime::test;

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kLimitS = 0.5;

double since(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

void writeAll(int fd, const std::string &s)
{
    std::size_t done = 0;
    while (done < s.size()) {
        const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += static_cast<std::size_t>(n);
    }
}

// One line from fd (without the newline), waiting at most timeoutS; nullopt on timeout or end of file.
std::optional<std::string> readLine(int fd, double timeoutS)
{
    std::string line;
    const auto t0 = Clock::now();
    for (;;) {
        const double left = timeoutS - since(t0);
        if (left <= 0)
            return std::nullopt;
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left * 1000) + 1) <= 0)
            continue;
        char c = 0;
        const ssize_t n = ::read(fd, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return std::nullopt;
        if (c == '\n')
            return line;
        line += c;
    }
}

struct Pipe {
    int r = -1, w = -1;
    Pipe()
    {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0)
            std::exit(1);
        r = fds[0];
        w = fds[1];
    }
};

// Starts the worker with `in` as its stdin and `out` as its stdout.
pid_t spawnWorker(const std::string &worker, int in, int out)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in, 0);
    posix_spawn_file_actions_adddup2(&actions, out, 1);
    std::string path = worker;
    char *argv[] = {path.data(), nullptr};
    pid_t pid = -1;
    if (::posix_spawn(&pid, path.c_str(), &actions, nullptr, argv, environ) != 0)
        pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

// A worker spawned by this process (its parent), with the worker's ends of both pipes closed here.
struct SpawnedWorker {
    Pipe toWorker, fromWorker;
    pid_t pid;

    explicit SpawnedWorker(const std::string &worker)
        : pid(spawnWorker(worker, toWorker.r, fromWorker.w))
    {
        ::close(toWorker.r);
        ::close(fromWorker.w);
    }
};

// Waits up to timeoutS for our child `pid` to end; its wait status, or nullopt.
std::optional<int> waitChild(pid_t pid, double timeoutS)
{
    const auto t0 = Clock::now();
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return status;
        if (r < 0 || since(t0) > timeoutS)
            return std::nullopt;
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
}

std::string describe(int status)
{
    if (WIFEXITED(status))
        return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return "killed by signal " + std::to_string(WTERMSIG(status));
    return "status " + std::to_string(status);
}

// A request whose answer (an unknown-op error that repeats the op) is far larger than a pipe holds: a
// client that does not read keeps the worker inside that request, blocked in write(2).
std::string hugeRequest()
{
    return R"({"id": 1, "op": ")" + std::string(1 << 20, 'x') + "\"}\n";
}

void killAndReap(pid_t pid)
{
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
}

// The worker, our orphan after `client` is killed, must end within kLimitS with `expectStatus`.
void expectGone(const char *what, pid_t client, pid_t worker, int expectStatus)
{
    ::kill(client, SIGKILL);
    const auto t0 = Clock::now();
    ::waitpid(client, nullptr, 0);
    const std::optional<int> status = waitChild(worker, 5);
    const double s = since(t0);
    if (!status) {
        KF_CHECK_MSG(false, std::string(what) + ": the worker is still running " + std::to_string(s)
                                + " s after the client was killed");
        ::kill(worker, SIGKILL);
        ::waitpid(worker, nullptr, 0);
        return;
    }
    std::printf("%-58s worker gone after %6.1f ms, %s\n", what, s * 1000, describe(*status).c_str());
    KF_CHECK_MSG(s <= kLimitS, std::string(what) + ": " + std::to_string(s) + " s");
    KF_CHECK_MSG(WIFEXITED(*status) && WEXITSTATUS(*status) == expectStatus,
                 std::string(what) + ": " + describe(*status) + ", expected status " + std::to_string(expectStatus));
}

// The client is the worker's parent and holds its pipes; killed while the worker waits for a request.
void parentClientIdle(const std::string &worker)
{
    Pipe report;
    const pid_t client = ::fork();
    if (client == 0) {
        const SpawnedWorker sw(worker);
        const pid_t w = sw.pid;
        const bool ready = readLine(sw.fromWorker.r, 30).has_value();
        writeAll(report.w, std::to_string(ready ? w : -1) + "\n");
        ::pause();
        ::_exit(0);
    }
    ::close(report.w);
    const pid_t w = std::atoi(readLine(report.r, 60).value_or("-1").c_str());
    ::close(report.r);
    KF_CHECK_MSG(w > 0, "the worker did not start");
    if (w > 0)
        expectGone("parent client killed, worker idle", client, w, 0);
    else
        killAndReap(client);
}

// The client only holds the pipes; the worker's parent (a stand-in for sshd) lives on and keeps the
// worker's stdout open without reading it. Killed while the worker is stuck writing a large answer
// (`huge`), or while it has half a request line (`!huge`). The parent reports the worker's end.
void pipeClient(const std::string &worker, bool huge)
{
    Pipe report;
    const pid_t client = ::fork();
    if (client == 0) {
        Pipe toWorker, fromWorker;
        const pid_t middle = ::fork();
        if (middle == 0) {
            const pid_t w = spawnWorker(worker, toWorker.r, fromWorker.w);
            ::close(toWorker.r);
            ::close(toWorker.w);
            ::close(fromWorker.w);
            writeAll(report.w, std::to_string(w) + "\n");
            int status = 0;
            ::waitpid(w, &status, 0);
            writeAll(report.w, std::to_string(status) + "\n");
            ::_exit(0);
        }
        ::close(toWorker.r);
        ::close(fromWorker.w);
        if (readLine(fromWorker.r, 30)) // ready
            writeAll(toWorker.w, huge ? hugeRequest() : std::string(R"({"id": 1, "op": "hel)"));
        writeAll(report.w, "sent\n");
        ::pause();
        ::_exit(0);
    }
    ::close(report.w);
    const pid_t w = std::atoi(readLine(report.r, 60).value_or("-1").c_str());
    const bool sent = readLine(report.r, 60).value_or("") == "sent";
    KF_CHECK_MSG(w > 0 && sent, "the worker did not start");
    std::this_thread::sleep_for(std::chrono::milliseconds(200)); // the worker reads the request
    ::kill(client, SIGKILL);
    const auto t0 = Clock::now();
    ::waitpid(client, nullptr, 0);
    const std::optional<std::string> status = readLine(report.r, 5);
    const double s = since(t0);
    ::close(report.r);
    const char *what = huge ? "client (not the parent) killed, worker mid-request"
                            : "client (not the parent) killed mid-way through a request line";
    if (!status) {
        KF_CHECK_MSG(false, std::string(what) + ": the worker is still running 5 s after the client was killed");
        if (w > 0)
            ::kill(w, SIGKILL);
    } else {
        const int st = std::atoi(status->c_str());
        std::printf("%-58s worker gone after %6.1f ms, %s\n", what, s * 1000, describe(st).c_str());
        KF_CHECK_MSG(s <= kLimitS, std::string(what) + ": " + std::to_string(s) + " s");
        const int expect = huge ? protocol::kExitClientGone : 0;
        KF_CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == expect, std::string(what) + ": " + describe(st));
    }
    // The parent stand-in is our orphan now (or exits on its own once the worker is gone).
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
}

// The parent dies but the pipes stay open (this process holds them and reads nothing): only the parent
// death signal tells; the worker is stuck writing a large answer.
void parentOnlyDies(const std::string &worker)
{
    Pipe toWorker, fromWorker, report;
    const pid_t parent = ::fork();
    if (parent == 0) {
        const pid_t w = spawnWorker(worker, toWorker.r, fromWorker.w);
        writeAll(report.w, std::to_string(w) + "\n");
        ::pause();
        ::_exit(0);
    }
    ::close(toWorker.r);
    ::close(fromWorker.w);
    ::close(report.w);
    const pid_t w = std::atoi(readLine(report.r, 60).value_or("-1").c_str());
    ::close(report.r);
    const bool ready = readLine(fromWorker.r, 30).has_value();
    KF_CHECK_MSG(w > 0 && ready, "the worker did not start");
    writeAll(toWorker.w, hugeRequest());
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    if (w > 0 && ready)
        expectGone("parent killed, pipes open, worker mid-request", parent, w, protocol::kExitClientGone);
    else
        killAndReap(parent);
    ::close(toWorker.w);
    ::close(fromWorker.r);
}

// `printf '<requests>\n{"op":"shutdown"}\n' | kforge-worker` answers every line and exits 0.
void inputEndsAfterShutdown(const std::string &worker)
{
    const SpawnedWorker sw(worker);
    const pid_t w = sw.pid;
    writeAll(sw.toWorker.w, R"({"id": 1, "op": "hello", "protocol": 1})"
                            "\n"
                            R"({"id": 2, "op": "transmogrify"})"
                            "\n"
                            R"({"id": 3, "op": "shutdown"})"
                            "\n");
    ::close(sw.toWorker.w);
    std::vector<Json> lines;
    while (const std::optional<std::string> line = readLine(sw.fromWorker.r, 30))
        lines.push_back(Json::parse(*line, nullptr, false));
    ::close(sw.fromWorker.r);
    const std::optional<int> status = waitChild(w, 10);
    KF_CHECK_MSG(lines.size() == 4, std::to_string(lines.size()) + " lines");
    if (lines.size() == 4) {
        KF_CHECK(lines[0].value("event", "") == "ready");
        KF_CHECK(lines[1].value("id", 0) == 1 && lines[1].value("ok", false));
        KF_CHECK(lines[2].value("id", 0) == 2 && !lines[2].value("ok", true));
        KF_CHECK(lines[3].value("id", 0) == 3 && lines[3].value("ok", false));
    }
    KF_CHECK_MSG(status && WIFEXITED(*status) && WEXITSTATUS(*status) == 0, status ? describe(*status) : "still running");
    std::printf("%-58s %zu lines answered, %s\n", "input ends after a shutdown request", lines.size(),
                status ? describe(*status).c_str() : "still running");
}

// With a GPU: the client (the worker's parent, its own protocol code) loads `candidate`, starts an
// evaluation with a long timing loop and reports when the worker's progress reaches `stage`; it is killed
// 300 ms later.
void killedWhileEvaluating(const std::string &worker, const std::string &what, const std::string &reference,
                           const std::string &candidate, const std::string &stage)
{
    Pipe report;
    const pid_t client = ::fork();
    if (client == 0) {
        const SpawnedWorker sw(worker);
        const pid_t w = sw.pid;
        writeAll(report.w, std::to_string(w) + "\n");
        readLine(sw.fromWorker.r, 30); // ready
        const Json options{{"trials", 2},           {"min_runs", 100000}, {"max_runs", 1000000},
                           {"min_time_ms", 600000}, {"trace", false},     {"metrics", false}};
        writeAll(sw.toWorker.w, Json{{"id", 1}, {"op", "load"}, {"slot", "reference"}, {"path", reference}}.dump() + "\n");
        writeAll(sw.toWorker.w, Json{{"id", 2}, {"op", "load"}, {"slot", "candidate"}, {"path", candidate}}.dump() + "\n");
        writeAll(sw.toWorker.w,
                 Json{{"id", 3}, {"op", "evaluate"}, {"task", toJson(fixtureTask("scale"))}, {"options", options}}.dump()
                     + "\n");
        while (const std::optional<std::string> line = readLine(sw.fromWorker.r, 120)) {
            const Json m = Json::parse(*line, nullptr, false);
            if (m.is_object() && m.value("event", "") == "progress" && m.value("stage", "") == stage) {
                writeAll(report.w, "reached\n");
                break;
            }
            if (m.is_object() && m.contains("ok") && !m.value("ok", false)) {
                writeAll(report.w, "failed " + m.dump() + "\n");
                break;
            }
        }
        ::pause();
        ::_exit(0);
    }
    ::close(report.w);
    const pid_t w = std::atoi(readLine(report.r, 60).value_or("-1").c_str());
    const std::string reached = readLine(report.r, 180).value_or("no progress");
    ::close(report.r);
    KF_CHECK_MSG(w > 0 && reached == "reached", what + ": " + reached);
    if (w <= 0 || reached != "reached") {
        killAndReap(client);
        if (w > 0)
            killAndReap(w);
        return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    expectGone(what.c_str(), client, w, protocol::kExitClientGone);
}

} // namespace

int main(int argc, char **argv)
{
    const bool gpu = argc > 1 && std::strcmp(argv[1], "--gpu") == 0;
    const std::string worker = workerPath();
    std::signal(SIGPIPE, SIG_IGN);
    if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        skip(std::string("prctl(PR_SET_CHILD_SUBREAPER): ") + std::strerror(errno));

    if (!gpu) {
        parentClientIdle(worker);
        pipeClient(worker, true);
        pipeClient(worker, false);
        parentOnlyDies(worker);
        inputEndsAfterShutdown(worker);
        return finish("tst_worker_lifetime");
    }

    std::string arch;
    {
        WorkerClient probe({worker});
        std::string error;
        if (!probe.start(error, 60)) {
            std::fprintf(stderr, "cannot start the worker: %s\n", error.c_str());
            return 1;
        }
        const auto info = probe.request(Json{{"op", "device_info"}}, 120);
        if (errorCode(info) == "no_device")
            skip("no GPU: " + errorMessage(info));
        KF_CHECK_MSG(info.ok() && info.message.value("ok", false), info.message.dump());
        arch = info.message["device"].value("arch", "sm_90");
        probe.request(Json{{"op", "shutdown"}}, 10);
        probe.waitExit(10);
    }
    ScratchDir dir;
    const auto so = compileFixtures(
        {{"ref", "tasks/scale/reference.cu"}, {"slow", "kernels/scale_slow.cu"}, {"hang", "kernels/scale_hang.cu"}},
        dir.path(), arch);
    killedWhileEvaluating(worker, "client killed while the worker times a slow kernel", so.at("ref"), so.at("slow"),
                          "timing");
    killedWhileEvaluating(worker, "client killed while a kernel hangs in verification", so.at("ref"), so.at("hang"),
                          "verifying");
    return finish("tst_worker_lifetime --gpu");
}
