#include "core/workerpool/workerclient.h"

#include "core/eval/evaloptions.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QPointer>
#include <QRandomGenerator>
#include <QTimer>
#include <csignal>
#include <cstring>
#include <optional>
#include <utility>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

constexpr int kProtocolVersion = 1;
constexpr int kStderrTailLines = 20;

QString describeExit(int exitCode, int exitSignal)
{
    if (exitSignal != 0)
        return WorkerClient::tr("killed by signal %1 (%2)").arg(exitSignal).arg(QString::fromLocal8Bit(strsignal(exitSignal)));
    return WorkerClient::tr("exit code %1").arg(exitCode);
}

// The first complete line of a pipe's buffer, taken out of it without its newline; none until a newline came.
std::optional<QByteArray> takeLine(QByteArray &buffer)
{
    const qsizetype nl = buffer.indexOf('\n');
    if (nl < 0)
        return std::nullopt;
    QByteArray line = buffer.left(nl);
    buffer.remove(0, nl + 1);
    return line;
}

// 128 bits from the system's cryptographic source: a kernel cannot guess the token of the request it runs in.
QString newToken()
{
    quint64 bits[2];
    QRandomGenerator::system()->fillRange(bits);
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(bits), sizeof bits).toHex());
}

} // namespace

WorkerClient::WorkerClient(const WorkerConfig &config, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_watchdog(new QTimer(this))
    , m_startTimer(new QTimer(this))
{
    qRegisterMetaType<kforge::WorkerReply>();
    qRegisterMetaType<kforge::EvalResult>();
    m_watchdog->setSingleShot(true);
    m_startTimer->setSingleShot(true);
    connect(m_watchdog, &QTimer::timeout, this, &WorkerClient::onWatchdog);
    connect(m_startTimer, &QTimer::timeout, this, &WorkerClient::onStartTimeout);
}

WorkerClient::~WorkerClient()
{
    if (!m_process)
        return;
    m_process->disconnect(this);
    if (m_process->state() != QProcess::NotRunning) {
        if (m_state == State::Idle) {
            m_process->write(R"({"id":0,"op":"shutdown"})"
                             "\n");
            m_process->closeWriteChannel();
            if (m_process->waitForFinished(1000))
                return;
        }
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

QString WorkerClient::loaded(const QString &slot) const
{
    if (slot == u"reference")
        return m_loadedReference;
    if (slot == u"candidate")
        return m_loadedCandidate;
    return {};
}

int WorkerClient::pendingRequests() const
{
    return int(m_queue.size()) + (m_current ? 1 : 0);
}

void WorkerClient::setState(State s)
{
    if (m_state == s)
        return;
    m_state = s;
    Q_EMIT stateChanged(s);
}

void WorkerClient::start()
{
    if (m_process)
        return;
    startProcess();
}

void WorkerClient::startProcess()
{
    m_stopping = false;
    m_answeredSinceStart = false;
    m_helloId = 0;
    m_killReason = KillReason::None;
    m_expectExit = false;
    m_stdoutBuffer.clear();
    m_stderrBuffer.clear();
    m_stderrTail.clear();
    const QStringList cmd = m_config.resolvedCommand();
    if (cmd.isEmpty()) {
        const QString program = QProcess::splitCommand(m_config.command).value(0);
        m_lastError = program == u"kforge-worker"
                          ? tr("kforge-worker was not found (next to this program, in the build tree or on PATH). Build "
                               "it with the CUDA toolkit, or configure a worker command such as 'ssh gpu-host "
                               "kforge-worker'.")
                          : tr("The worker command is empty.");
        setState(State::Failed);
        Q_EMIT failed(m_lastError);
        failAll(WorkerReply::Unavailable, m_lastError);
        return;
    }
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &WorkerClient::onStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &WorkerClient::onStderr);
    connect(m_process, &QProcess::finished, this, &WorkerClient::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &WorkerClient::onErrorOccurred);
    setState(State::Starting);
    m_startTimer->start(m_config.startTimeoutMs);
    m_process->start(cmd.first(), cmd.mid(1));
}

void WorkerClient::stop()
{
    m_stopping = true;
    // Answered from the event loop, not inside stop(): a caller reacting to replies may be mid-call.
    for (const WorkerReply &r : takeQueued(WorkerReply::Cancelled, tr("The worker was stopped.")))
        QMetaObject::invokeMethod(
            this, [this, r] { Q_EMIT replied(r.id, r); }, Qt::QueuedConnection);
    if (!m_process)
        return;
    if (m_state == State::Idle) {
        m_expectExit = true;
        m_process->write(R"({"id":0,"op":"shutdown"})"
                         "\n");
        m_process->closeWriteChannel();
        QPointer<QProcess> p = m_process;
        QTimer::singleShot(3000, this, [this, p] {
            if (p && p == m_process && p->state() != QProcess::NotRunning) {
                m_killReason = KillReason::Stop;
                p->kill();
            }
        });
    } else {
        m_killReason = KillReason::Stop;
        m_process->kill();
    }
}

int WorkerClient::enqueue(Request r)
{
    r.id = m_nextId++;
    if (!r.raw) {
        r.token = newToken();
        QJsonObject o = QJsonDocument::fromJson(r.line).object();
        o.insert(u"id"_s, r.id);
        o.insert(u"token"_s, r.token);
        r.line = QJsonDocument(o).toJson(QJsonDocument::Compact);
    }
    const int id = r.id;
    m_queue.push_back(std::move(r));
    // Never answer inside send(): the caller must get the id before any reply can arrive.
    QMetaObject::invokeMethod(this, &WorkerClient::dispatch, Qt::QueuedConnection);
    return id;
}

int WorkerClient::send(const QString &op, const QJsonObject &args, int timeoutMs)
{
    QJsonObject o = args;
    o.insert(u"op"_s, op);
    Request r;
    r.op = op;
    r.line = QJsonDocument(o).toJson(QJsonDocument::Compact);
    r.timeoutMs = timeoutMs;
    return enqueue(std::move(r));
}

int WorkerClient::sendRaw(const QByteArray &line, int timeoutMs)
{
    Request r;
    r.op = u"raw"_s;
    r.line = line;
    r.timeoutMs = timeoutMs;
    r.raw = true;
    return enqueue(std::move(r));
}

int WorkerClient::load(const QString &slot, const QString &soPath, int timeoutMs)
{
    const QString path = QFileInfo(soPath).absoluteFilePath();
    QJsonObject o = soArgs(path);
    o.insert(u"slot"_s, slot);
    o.insert(u"op"_s, u"load"_s);
    Request r;
    r.op = u"load"_s;
    r.line = QJsonDocument(o).toJson(QJsonDocument::Compact);
    r.timeoutMs = timeoutMs;
    r.loadSlot = slot;
    r.loadPath = path;
    return enqueue(std::move(r));
}

int WorkerClient::evaluate(const QJsonObject &task, TaskKind kind, const EvalOptions &options, int timeoutMs)
{
    // The task's own timing target (task.json "timing") over the settings' one.
    QJsonObject o{{u"op"_s, u"evaluate"_s}, {u"task"_s, task}, {u"options"_s, options.forTask(task).toJson()}};
    Request r;
    r.op = u"evaluate"_s;
    r.line = QJsonDocument(o).toJson(QJsonDocument::Compact);
    r.timeoutMs = timeoutMs;
    if (timeoutMs > 0 && kind == TaskKind::Torch) {
        r.timeoutMs = timeoutMs + kModuleStartMs;
        r.evaluationMs = timeoutMs;
    }
    return enqueue(std::move(r));
}

int WorkerClient::deviceInfo(int timeoutMs)
{
    return send(u"device_info"_s, {}, timeoutMs);
}

QJsonObject WorkerClient::soArgs(const QString &path) const
{
    if (m_config.sendsInline()) {
        QFile f(path);
        if (f.open(QIODevice::ReadOnly)) {
            // A torch task's module is its source with its file name (the worker takes a .py for a module); a kernel
            // goes compiled.
            if (path.endsWith(u".py"_s))
                return {{u"source_base64"_s, QString::fromLatin1(f.readAll().toBase64())},
                        {u"filename"_s, QFileInfo(path).fileName()}};
            return {{u"so_base64"_s, QString::fromLatin1(f.readAll().toBase64())}};
        }
        // else the worker reports that it cannot read the path
    }
    return {{u"path"_s, path}};
}

int WorkerClient::prebuild(const QString &modulePath, const QJsonValue &initArgs, int timeoutMs)
{
    QJsonObject args = soArgs(QFileInfo(modulePath).absoluteFilePath());
    args.insert(u"init_args"_s, initArgs);
    return send(u"prebuild"_s, args, timeoutMs);
}

int WorkerClient::disassemble(const QString &soPath, int timeoutMs)
{
    return send(u"disassemble"_s, soArgs(QFileInfo(soPath).absoluteFilePath()), timeoutMs);
}

void WorkerClient::cancel(int id)
{
    for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
        if (it->id != id)
            continue;
        WorkerReply r;
        r.id = id;
        r.op = it->op;
        r.errorCode = WorkerReply::Cancelled;
        r.errorMessage = tr("The request was cancelled.");
        m_queue.erase(it);
        QMetaObject::invokeMethod(
            this, [this, r] { Q_EMIT replied(r.id, r); }, Qt::QueuedConnection);
        return;
    }
}

void WorkerClient::dispatch()
{
    if (m_current || m_queue.empty())
        return;
    if (!m_process) {
        startProcess();
        return;
    }
    if (m_state != State::Idle || m_expectExit)
        return;
    m_current = std::move(m_queue.front());
    m_queue.pop_front();
    m_currentClock.start();
    if (m_current->op == u"shutdown")
        m_stopping = true; // asked to go away: no automatic restart
    setState(State::Busy);
    if (m_current->timeoutMs > 0)
        m_watchdog->start(m_current->timeoutMs);
    m_process->write(m_current->line + '\n');
}

void WorkerClient::onStdout()
{
    if (!m_process)
        return;
    m_stdoutBuffer += m_process->readAllStandardOutput();
    while (const std::optional<QByteArray> raw = takeLine(m_stdoutBuffer)) {
        const QByteArray line = raw->trimmed();
        if (line.isEmpty())
            continue;
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            // Before the ready line this is ssh banners and the like; after it, it should not happen.
            if (m_state == State::Starting && m_helloId == 0)
                Q_EMIT log(u"stdout: "_s + QString::fromUtf8(line));
            else
                reject(line, tr("not JSON"));
            continue;
        }
        handleMessage(doc.object(), line);
        if (!m_process)
            return; // the handler ended the process
    }
}

void WorkerClient::onStderr()
{
    if (!m_process)
        return;
    m_stderrBuffer += m_process->readAllStandardError();
    while (const std::optional<QByteArray> raw = takeLine(m_stderrBuffer)) {
        const QString line = QString::fromUtf8(*raw).trimmed();
        if (line.isEmpty())
            continue;
        m_stderrTail.append(line);
        if (m_stderrTail.size() > kStderrTailLines)
            m_stderrTail.removeFirst();
        Q_EMIT log(line);
    }
}

void WorkerClient::handleMessage(const QJsonObject &message, const QByteArray &rawLine)
{
    const QString event = message.value("event"_L1).toString();
    if (m_state == State::Starting) {
        handleHandshake(message, rawLine, event);
        return;
    }
    // Only the request in flight can be answered, and only with its token: anything else is not the worker's.
    if (!m_current) {
        reject(rawLine, tr("no request is running"));
        return;
    }
    if (!m_current->raw && message.value("token"_L1).toString() != m_current->token) {
        reject(rawLine, message.contains("token"_L1) ? tr("wrong token") : tr("no token"));
        return;
    }
    if (event == u"progress") {
        const int id = message.value("id"_L1).toInt(-1);
        if (id == m_current->id || m_current->raw) {
            if (m_current->evaluationMs > 0) { // the hosts are up: the evaluation's own time starts now
                m_current->timeoutMs = std::exchange(m_current->evaluationMs, 0);
                m_watchdog->start(m_current->timeoutMs);
            }
            Q_EMIT progress(m_current->id, message.value("stage"_L1).toString());
        }
        return;
    }
    if (event == u"measured") {
        handleMeasured(message);
        return;
    }
    if (!message.contains("ok"_L1)) {
        Q_EMIT log(u"stdout: "_s + QString::fromUtf8(rawLine)); // an event this client does not know
        return;
    }
    const int id = message.value("id"_L1).toInt(-1);
    if (!m_current->raw && id != m_current->id) {
        Q_EMIT log(tr("Ignored a response to request %1, which is not running.").arg(id));
        return;
    }
    finishRequest(message);
}

// The evaluation's result as it stood after timing, ahead of its passes: forwarded once when it passes the final
// result's schema check; anything else about it is logged and ignored, since the final response still decides.
void WorkerClient::handleMeasured(const QJsonObject &message)
{
    const int id = message.value("id"_L1).toInt(-1);
    if (!m_current->raw && (id != m_current->id || m_current->op != u"evaluate")) {
        Q_EMIT log(tr("Ignored a measured event for request %1, which is not a running evaluation.").arg(id));
        return;
    }
    if (m_current->measured) {
        Q_EMIT log(tr("Ignored a second measured event for request %1.").arg(m_current->id));
        return;
    }
    QString problem;
    std::optional<EvalResult> result = WorkerReply::parseResult(message.value("result"_L1).toObject(), &problem);
    if (!result) {
        Q_EMIT log(tr("Ignored a measured event that breaks the protocol (%1); the final result decides.").arg(problem));
        return;
    }
    m_current->measured = true;
    result->provisional = true;
    result->elapsedMs = double(m_currentClock.nsecsElapsed()) / 1e6;
    Q_EMIT measured(m_current->id, *result);
}

// The handshake: the ready line, then hello, whose answer confirms the protocol version; any other line is the
// worker's own output.
void WorkerClient::handleHandshake(const QJsonObject &message, const QByteArray &rawLine, const QString &event)
{
    if (event == u"ready" && m_helloId == 0) {
        const int protocol = message.value("protocol"_L1).toInt(-1);
        if (protocol != kProtocolVersion) {
            failHandshake(tr("The worker speaks protocol version %1; this KForge speaks version %2. Install "
                             "matching versions of KForge and kforge-worker.")
                              .arg(protocol)
                              .arg(kProtocolVersion));
            return;
        }
        m_ready = message;
        m_helloId = m_nextId++;
        m_helloToken = newToken();
        const QJsonObject hello{{u"id"_s, m_helloId},
                                {u"op"_s, u"hello"_s},
                                {u"protocol"_s, kProtocolVersion},
                                {u"token"_s, m_helloToken}};
        m_process->write(QJsonDocument(hello).toJson(QJsonDocument::Compact) + '\n');
        return;
    }
    if (m_helloId != 0 && message.contains("ok"_L1) && message.value("id"_L1).toInt() == m_helloId) {
        const QJsonValue token = message.value("token"_L1);
        if (token.isUndefined() && message.value("ok"_L1).toBool()) {
            failHandshake(tr("The worker does not echo request tokens, so its replies cannot be told from lines a "
                             "kernel prints. Install a kforge-worker of this KForge version."));
            return;
        }
        if (token.toString() != m_helloToken) {
            reject(rawLine, tr("wrong token"));
            return;
        }
        m_helloId = 0;
        if (!message.value("ok"_L1).toBool()) {
            failHandshake(tr("The worker refused the handshake: %1")
                              .arg(message.value("error"_L1).toObject().value("message"_L1).toString()));
            return;
        }
        m_startTimer->stop();
        ++m_generation;
        m_loadedReference.clear();
        m_loadedCandidate.clear();
        m_lastError.clear();
        setState(State::Idle);
        Q_EMIT ready(m_ready);
        dispatch();
        return;
    }
    Q_EMIT log(u"stdout: "_s + QString::fromUtf8(rawLine));
}

// The running request's answer: the reply it gets, the loaded slots and the restart it asks for, then the next
// request.
void WorkerClient::finishRequest(const QJsonObject &message)
{
    WorkerReply r;
    r.id = m_current->id;
    r.op = m_current->op;
    r.ok = message.value("ok"_L1).toBool();
    r.body = message;
    r.elapsedMs = double(m_currentClock.nsecsElapsed()) / 1e6;
    if (!r.ok) {
        const QJsonObject error = message.value("error"_L1).toObject();
        r.errorCode = error.value("code"_L1).toString();
        r.errorMessage = error.value("message"_L1).toString();
    } else if (!m_current->loadSlot.isEmpty()) {
        (m_current->loadSlot == u"reference" ? m_loadedReference : m_loadedCandidate) = m_current->loadPath;
    }
    const bool restart = message.value("result"_L1).toObject().value("restart_required"_L1).toBool()
                         || (r.op == u"shutdown" && r.ok);
    if (restart)
        m_expectExit = true; // the worker exits by itself now; the next request starts a new one
    m_watchdog->stop();
    m_current.reset();
    m_answeredSinceStart = true;
    setState(State::Idle);
    Q_EMIT replied(r.id, r);
    dispatch();
}

void WorkerClient::failHandshake(const QString &message)
{
    m_lastError = message;
    m_killReason = KillReason::Handshake;
    m_process->kill();
}

void WorkerClient::reject(const QByteArray &line, const QString &why)
{
    ++m_rejectedLines;
    constexpr qsizetype kQuoted = 200;
    Q_EMIT log(tr("Dropped a line on the worker's stdout (%1): %2")
                   .arg(why, QString::fromUtf8(line.left(kQuoted)) + (line.size() > kQuoted ? u"..."_s : QString())));
}

void WorkerClient::onWatchdog()
{
    if (!m_process || !m_current)
        return;
    m_killReason = KillReason::Watchdog;
    m_process->kill();
}

void WorkerClient::onStartTimeout()
{
    if (!m_process || m_state != State::Starting)
        return;
    m_lastError = tr("The worker did not report ready within %1 s.").arg(m_config.startTimeoutMs / 1000.0);
    m_killReason = KillReason::Handshake;
    m_process->kill();
}

void WorkerClient::onErrorOccurred(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || !m_process)
        return; // crashes end in finished()
    m_startTimer->stop();
    m_lastError = tr("Could not start the worker '%1': %2").arg(m_config.command, m_process->errorString());
    m_process->disconnect(this);
    m_process->deleteLater();
    m_process = nullptr;
    setState(State::Failed);
    Q_EMIT failed(m_lastError);
    std::optional<Request> current = std::move(m_current);
    m_current.reset();
    if (current)
        m_queue.push_front(std::move(*current));
    failAll(WorkerReply::Unavailable, m_lastError);
}

void WorkerClient::onFinished(int exitCode, QProcess::ExitStatus status)
{
    onStdout(); // a response written just before exiting
    onStderr();
    if (!m_process)
        return;
    m_watchdog->stop();
    m_startTimer->stop();
    const int code = status == QProcess::NormalExit ? exitCode : -1;
    const int signal = status == QProcess::CrashExit ? exitCode : 0; // Qt reports the signal as exit code
    const QString description = describeExit(code, signal);
    const KillReason reason = m_killReason;
    const bool wasStarting = m_state == State::Starting;
    const bool expected = m_expectExit || m_stopping;
    const QString tail = m_stderrTail.join(u'\n');

    m_process->disconnect(this);
    m_process->deleteLater();
    m_process = nullptr;
    m_killReason = KillReason::None;
    m_expectExit = false;
    m_loadedReference.clear();
    m_loadedCandidate.clear();
    Q_EMIT exited(code, signal, description);

    if (wasStarting && reason != KillReason::Stop) {
        if (reason != KillReason::Handshake)
            m_lastError = tr("The worker exited before it was ready (%1).").arg(description)
                          + (tail.isEmpty() ? QString() : u'\n' + tail);
        setState(State::Failed);
        Q_EMIT failed(m_lastError);
        failAll(WorkerReply::Unavailable, m_lastError);
        return;
    }
    setState(State::Stopped);
    if (m_current) {
        WorkerReply r;
        r.id = m_current->id;
        r.op = m_current->op;
        r.exitCode = code;
        r.exitSignal = signal;
        r.elapsedMs = double(m_currentClock.nsecsElapsed()) / 1e6;
        if (reason == KillReason::Watchdog) {
            r.errorCode = WorkerReply::Timeout;
            r.errorMessage =
                tr("No answer within %1 s; the worker was stopped (the kernel may hang).").arg(m_current->timeoutMs / 1000.0);
        } else if (reason == KillReason::Stop) {
            r.errorCode = WorkerReply::Cancelled;
            r.errorMessage = tr("The worker was stopped.");
        } else {
            r.errorCode = WorkerReply::Crashed;
            r.errorMessage = tr("The worker died during '%1' (%2).").arg(m_current->op, description)
                             + (tail.isEmpty() ? QString() : u'\n' + tail);
        }
        m_current.reset();
        Q_EMIT replied(r.id, r);
    } else if (!expected) {
        Q_EMIT log(tr("The worker exited unexpectedly (%1).").arg(description));
    }
    // Keep a worker warm after a crash, a timeout or a restart_required, unless it was asked to stop and
    // nothing was asked of it since, or it keeps dying without answering anything (then the next request
    // starts it).
    m_idleDeaths = m_answeredSinceStart ? 0 : m_idleDeaths + 1;
    const bool crashLoop = m_idleDeaths >= 3;
    if (crashLoop && m_queue.empty())
        Q_EMIT log(tr("The worker keeps exiting; it will be started again for the next request."));
    if (!m_process && (!m_queue.empty() || (!m_stopping && !crashLoop)))
        startProcess();
}

void WorkerClient::failAll(const QString &code, const QString &message)
{
    for (const WorkerReply &r : takeQueued(code, message))
        Q_EMIT replied(r.id, r);
}

QList<WorkerReply> WorkerClient::takeQueued(const QString &code, const QString &message)
{
    std::deque<Request> pending;
    pending.swap(m_queue);
    QList<WorkerReply> replies;
    for (const Request &req : pending) {
        WorkerReply r;
        r.id = req.id;
        r.op = req.op;
        r.errorCode = code;
        r.errorMessage = message;
        replies << r;
    }
    return replies;
}

} // namespace kforge
