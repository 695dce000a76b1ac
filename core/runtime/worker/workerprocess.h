#pragma once
// A minimal Qt-free client of kforge-worker: starts one worker process, exchanges JSON lines with a
// timeout, and tells a crash or a hang apart. Used by --self-test and the runtime tests; the GUI has its
// own QProcess client in core/.
#include <nlohmann/json.hpp>

#include <string>
#include <sys/types.h>
#include <vector>

namespace kforge::runtime {

class WorkerClient
{
public:
    struct Reply {
        enum class Status { Ok, Timeout, Died };
        Status status = Status::Died;
        nlohmann::ordered_json message;             // the response (status Ok)
        std::vector<nlohmann::ordered_json> events; // progress events seen while waiting
        std::string detail;                         // how the worker ended (status Died)
        bool ok() const { return status == Status::Ok; }
    };

    explicit WorkerClient(std::vector<std::string> argv);
    ~WorkerClient();
    WorkerClient(const WorkerClient &) = delete;
    WorkerClient &operator=(const WorkerClient &) = delete;

    // Spawns the worker and waits for its ready event.
    bool start(std::string &error, double timeoutS = 60);
    const nlohmann::ordered_json &readyEvent() const { return m_ready; }
    pid_t pid() const { return m_pid; }

    // Sends `request` (an "id" is added when missing) and waits for the response with that id.
    Reply request(nlohmann::ordered_json request, double timeoutS);
    // Sends one raw line and waits for the next response, whatever its id (malformed-request tests).
    Reply requestRaw(const std::string &line, double timeoutS);

    // SIGKILL and reap. Safe to call when not running.
    void kill();
    // Waits up to timeoutS for the process to exit by itself; true when it did.
    bool waitExit(double timeoutS);
    bool running() const { return m_pid > 0; }
    // "exited with status 3", "killed by signal 11 (Segmentation fault)"; empty while running.
    const std::string &exitDescription() const { return m_exit; }
    int exitCode() const { return m_exitCode; }     // -1 unless it exited normally
    int exitSignal() const { return m_exitSignal; } // 0 unless killed by a signal

private:
    Reply wait(const nlohmann::ordered_json *id, double timeoutS);
    bool writeLine(const std::string &line, Reply &reply);
    bool readLine(std::string &line, double timeoutS, bool &timedOut);
    void reap(bool block);

    std::vector<std::string> m_argv;
    pid_t m_pid = -1;
    int m_in = -1;  // to the worker's stdin
    int m_out = -1; // from the worker's stdout
    std::string m_buffer;
    std::size_t m_scanned = 0; // m_buffer has no newline before this offset
    long long m_nextId = 1;
    nlohmann::ordered_json m_ready;
    std::string m_exit;
    int m_exitCode = -1;
    int m_exitSignal = 0;
};

} // namespace kforge::runtime
