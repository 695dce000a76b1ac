#pragma once
// One kforge-worker process seen from the Qt side (docs/worker-protocol.md): starts it from a command line,
// checks the ready line and the hello answer, sends one request at a time from a queue, forwards progress and an
// evaluation's provisional result, and owns the watchdog. A hang is killed after the request's timeout and answered
// as WorkerReply::Timeout; a death mid-request is answered as WorkerReply::Crashed with the exit code or signal;
// either way, and after a restart_required result, the worker is started again for the next request. Every request
// carries an unguessable token that the worker echoes in each line it writes for it; a line without the token of the
// request in flight (a reply forged by a kernel's printf, a stray line) is dropped, logged and counted.
#include "core/task/taskkind.h"
#include "core/workerpool/workerconfig.h"
#include "core/workerpool/workerreply.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QProcess>
#include <deque>
#include <optional>

class QTimer;

namespace kforge {

struct EvalOptions;

class WorkerClient : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Stopped,  // no process (not started yet, or stopped)
        Starting, // process started, waiting for the ready line
        Idle,     // ready, no request running
        Busy,     // a request is running
        Failed,   // could not start or handshake failed; the next request tries again
    };
    Q_ENUM(State)

    explicit WorkerClient(const WorkerConfig &config, QObject *parent = nullptr);
    ~WorkerClient() override;

    const WorkerConfig &config() const { return m_config; }
    State state() const { return m_state; }
    QJsonObject readyEvent() const { return m_ready; } // the worker's ready line
    QString lastError() const { return m_lastError; }
    // Increases every time a new worker process becomes ready; what was loaded before is gone then.
    int generation() const { return m_generation; }
    // The file loaded into a slot ("reference", "candidate") of the current process; empty when none.
    QString loaded(const QString &slot) const;
    int pendingRequests() const;
    // Lines of the worker's stdout dropped since this client was made: not JSON, or without the token of the
    // request in flight.
    int rejectedLines() const { return m_rejectedLines; }

    void start();
    // Asks the worker to shut down (and kills it if it does not); queued requests are answered Cancelled.
    void stop();

    // Queues a request {"op": op, ...args}; returns its id. timeoutMs > 0 arms the watchdog.
    int send(const QString &op, const QJsonObject &args = {}, int timeoutMs = TimingDefaults::workerRequestMs);
    // load: the .so by path, or inline as base64 when the worker is remote (WorkerConfig::sendsInline).
    int load(const QString &slot, const QString &soPath, int timeoutMs = TimingDefaults::workerRequestMs);
    // `timeoutMs` is the evaluation's; a torch task's modules (`kind` Torch) may first take up to kModuleStartMs to
    // start (their import and a first load_inline build, which the worker keeps for the next start).
    int evaluate(const QJsonObject &task, TaskKind kind, const EvalOptions &options, int timeoutMs);
    static constexpr int kModuleStartMs = 330'000; // kforge-worker's WorkerServer::kModuleInitS and a margin
    int deviceInfo(int timeoutMs = TimingDefaults::deviceInfoMs);
    // disassemble: SASS of a .so (by path or inline, like load) with line info, from the worker host's
    // nvdisasm or cuobjdump; nothing is loaded. The reply's body carries "cubins" or "cuobjdump_sass".
    int disassemble(const QString &soPath, int timeoutMs = 60000);
    // prebuild: a ModelNew module's load_inline extensions built by the worker ahead of its evaluation (its own
    // sandboxed host, into its cache); answered at once with the build's state. `initArgs` null: the module's
    // get_init_inputs().
    int prebuild(const QString &modulePath, const QJsonValue &initArgs, int timeoutMs = 30000);
    void cancel(int id); // a queued request is dropped (answered Cancelled); a running one is not stopped

    // Line-level access for protocol tests: sends `line` as is once the worker is ready; the reply carries
    // whatever id the worker answers with (or -1).
    int sendRaw(const QByteArray &line, int timeoutMs = TimingDefaults::rawRequestMs);

Q_SIGNALS:
    void ready(const QJsonObject &readyEvent);
    void stateChanged(kforge::WorkerClient::State state);
    void progress(int id, const QString &stage);
    // An evaluation's result after timing, before the passes (provisional, with the passes still pending); at most
    // once per request, and replied() still follows with the result that counts.
    void measured(int id, const kforge::EvalResult &provisional);
    void replied(int id, const kforge::WorkerReply &reply);
    void log(const QString &line); // the worker's stderr, and stray stdout lines, one line at a time
    void exited(int exitCode, int exitSignal, const QString &description);
    void failed(const QString &message); // could not start, or the handshake failed

private:
    struct Request {
        int id = 0;
        QString op;
        QByteArray line; // serialized request
        QString token;   // 128 random bits in hex, echoed by the worker in every line for this request
        int timeoutMs = 0;
        // An evaluation of a torch task: the watchdog starts at timeoutMs (the hosts' start, a module's own
        // extension builds included) and restarts at evaluationMs on the first progress event (the worker's
        // hosts are up, the evaluation's own time starts). 0: no restart.
        int evaluationMs = 0;
        QString loadSlot, loadPath; // load requests: what becomes loaded on success
        bool raw = false;
        bool measured = false; // a measured event was forwarded
    };

    void setState(State s);
    void dispatch();
    void onStdout();
    void onStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onErrorOccurred(QProcess::ProcessError error);
    void onWatchdog();
    void onStartTimeout();
    void failHandshake(const QString &message);
    void reject(const QByteArray &line, const QString &why);
    void handleMessage(const QJsonObject &message, const QByteArray &rawLine);
    void handleMeasured(const QJsonObject &message);
    void handleHandshake(const QJsonObject &message, const QByteArray &rawLine, const QString &event);
    void finishRequest(const QJsonObject &message);
    void failAll(const QString &code, const QString &message);
    // Empties the queue: one reply per request that was waiting, with this error.
    QList<WorkerReply> takeQueued(const QString &code, const QString &message);
    void startProcess();
    int enqueue(Request r);
    QJsonObject soArgs(const QString &absolutePath) const; // {"path"}, {"so_base64"} or a module's {"source_base64", "filename"}

    WorkerConfig m_config;
    QProcess *m_process = nullptr;
    QTimer *m_watchdog = nullptr;
    QTimer *m_startTimer = nullptr;
    State m_state = State::Stopped;
    QJsonObject m_ready;
    QString m_lastError;
    int m_generation = 0;
    int m_nextId = 1;
    int m_helloId = 0; // the handshake's hello, while Starting
    QString m_helloToken;
    int m_rejectedLines = 0;
    std::deque<Request> m_queue;
    std::optional<Request> m_current;
    QElapsedTimer m_currentClock;
    QByteArray m_stdoutBuffer;
    QByteArray m_stderrBuffer;
    QStringList m_stderrTail; // last lines, quoted when the worker fails
    QString m_loadedReference, m_loadedCandidate;
    enum class KillReason { None, Watchdog, Stop, Handshake, Replace };
    KillReason m_killReason = KillReason::None;
    bool m_expectExit = false; // after restart_required or shutdown
    bool m_stopping = false;
    bool m_answeredSinceStart = false; // a response came from the current process
    int m_idleDeaths = 0;              // processes in a row that died without answering anything
};

} // namespace kforge
