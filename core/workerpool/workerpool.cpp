#include "core/workerpool/workerpool.h"

#include "core/workerpool/torchdiagnosis.h"
#include "core/workerpool/workerclient.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <optional>

using namespace Qt::StringLiterals;

namespace kforge {

struct WorkerPool::Slot {
    enum class Step { None, LoadReference, LoadCandidate, Evaluate };
    int index = 0;
    WorkerClient *client = nullptr; // child of the pool
    DeviceInfo device;
    TorchProbe torch; // device_info's "torch": the Python a torch task's modules run with
    QString deviceError;
    QString deviceErrorCode; // the worker's ("no_device") or WorkerReply::Unavailable
    bool settled = false;
    bool startFailed = false; // the worker never got as far as device_info
    int deviceRequest = 0;
    std::optional<Job> job;
    Step step = Step::None;
    int pending = 0; // the request of the current step
    int reloads = 0;
    QElapsedTimer clock;
};

WorkerPool::WorkerPool(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<kforge::EvalResult>();
    qRegisterMetaType<kforge::DeviceInfo>();
    qRegisterMetaType<kforge::WorkerReadiness>();
}

WorkerPool::~WorkerPool()
{
    for (auto &slot : m_slots)
        slot->client->disconnect(this);
}

void WorkerPool::setWorkers(const QList<WorkerConfig> &workers)
{
    m_configs = workers;
    startWorkers();
}

void WorkerPool::setTaskKind(TaskKind kind)
{
    if (kind == m_kind)
        return;
    m_kind = kind; // the workers stay: one kforge-worker judges every kind
    updateReadiness();
}

void WorkerPool::startWorkers()
{
    const QList<WorkerConfig> &workers = m_configs;
    std::vector<std::unique_ptr<Slot>> old;
    old.swap(m_slots);
    m_settledEmitted = false;
    m_prebuilt.clear();
    for (qsizetype i = 0; i < workers.size(); ++i) {
        auto slot = std::make_unique<Slot>();
        slot->index = int(i);
        slot->client = new WorkerClient(workers.at(i), this);
        Slot *s = slot.get();
        WorkerClient *c = s->client;
        connect(c, &WorkerClient::replied, this, [this, s](int id, const WorkerReply &r) { onReplied(*s, id, r); });
        connect(c, &WorkerClient::ready, this, [this, s] { onReady(*s); });
        connect(c, &WorkerClient::failed, this, [this, s](const QString &m) { onFailed(*s, m); });
        connect(c, &WorkerClient::progress, this, [this, s](int id, const QString &stage) {
            if (s->job && id == s->pending)
                Q_EMIT progress(s->job->id, stage);
        });
        connect(c, &WorkerClient::measured, this, [this, s](int id, EvalResult provisional) {
            if (!s->job || id != s->pending)
                return;
            provisional.workerName = s->client->config().displayName(); // as finishJob() names them
            if (provisional.deviceName.isEmpty())
                provisional.deviceName = s->device.name;
            Q_EMIT measured(s->job->id, provisional);
        });
        connect(c, &WorkerClient::log, this, [this, s](const QString &line) { Q_EMIT log(s->index, line); });
        m_slots.push_back(std::move(slot));
    }
    for (auto &slot : old) {
        slot->client->disconnect(this);
        if (slot->job) {
            EvalResult r = EvalResult::failure(Verdict::Error, tr("The worker was removed from the pool."),
                                               WorkerReply::Cancelled);
            Q_EMIT finished(slot->job->id, r);
        }
        slot->client->stop();
        slot->client->deleteLater();
    }
    for (auto &slot : m_slots)
        slot->client->start();
    if (m_slots.empty())
        dispatch(); // nothing can run: answer what is queued
    updateReadiness();
}

int WorkerPool::workerCount() const
{
    return int(m_slots.size());
}

WorkerClient *WorkerPool::worker(int index) const
{
    return index >= 0 && index < workerCount() ? m_slots[size_t(index)]->client : nullptr;
}

DeviceInfo WorkerPool::device(int index) const
{
    return index >= 0 && index < workerCount() ? m_slots[size_t(index)]->device : DeviceInfo();
}

TorchProbe WorkerPool::torch(int index) const
{
    return index >= 0 && index < workerCount() ? m_slots[size_t(index)]->torch : TorchProbe();
}

QString WorkerPool::deviceError(int index) const
{
    return index >= 0 && index < workerCount() ? m_slots[size_t(index)]->deviceError : QString();
}

WorkerStatus WorkerPool::status(int index) const
{
    WorkerStatus s;
    if (index < 0 || index >= workerCount())
        return s;
    const Slot &slot = *m_slots[size_t(index)];
    const QJsonObject ready = slot.client->readyEvent();
    s.workerVersion = ready.value("worker_version"_L1).toString();
    s.protocol = ready.value("protocol"_L1).toInt();
    s.abiVersion = ready.value("abi_version"_L1).toInt();
    s.device = slot.device;
    s.torch = slot.torch;
    if (slot.device.isValid())
        s.state = WorkerStatus::State::Connected;
    else if (!slot.settled)
        s.state = WorkerStatus::State::Starting;
    else
        s.state = slot.startFailed ? WorkerStatus::State::Failed : WorkerStatus::State::NoGpu;
    if (s.state == WorkerStatus::State::Failed || s.state == WorkerStatus::State::NoGpu)
        s.error = slot.deviceError;
    return s;
}

QString WorkerPool::arch() const
{
    for (const auto &slot : m_slots)
        if (slot->device.isValid())
            return slot->device.smArch();
    return {};
}

bool WorkerPool::devicesSettled() const
{
    for (const auto &slot : m_slots)
        if (!slot->settled)
            return false;
    return true;
}

int WorkerPool::pendingJobs() const
{
    int n = int(m_queue.size());
    for (const auto &slot : m_slots)
        n += slot->job ? 1 : 0;
    return n;
}

void WorkerPool::settle(Slot &slot)
{
    slot.settled = true;
    if (m_kind == TaskKind::Torch && !m_queue.empty())
        QMetaObject::invokeMethod(this, &WorkerPool::dispatch, Qt::QueuedConnection);
    if (!m_settledEmitted && devicesSettled()) {
        m_settledEmitted = true;
        Q_EMIT devicesSettledChanged();
    }
    updateReadiness();
}

WorkerReadiness WorkerPool::readiness() const
{
    if (m_slots.empty())
        return WorkerReadiness(WorkerReadiness::State::NoWorker, {}, m_kind);
    const bool torchTask = m_kind == TaskKind::Torch;
    bool starting = false;
    bool anyStarted = false;
    QStringList details;
    std::optional<TorchDiagnosis> torch; // the first failed worker's missing piece, for a torch task
    for (const auto &slot : m_slots) {
        if (!slot->settled) {
            starting = true;
            continue;
        }
        if (slot->device.isValid() && (!torchTask || slot->torch.hasTorch()))
            return WorkerReadiness(WorkerReadiness::State::Ready, {}, m_kind);
        anyStarted = anyStarted || !slot->startFailed;
        if (torchTask) {
            const TorchDiagnosis d = TorchDiagnosis::ofWorker(slot->deviceErrorCode, slot->deviceError, slot->torch);
            // A worker that has its GPU but lacks torch says more than one without a GPU.
            if (!torch || torch->missing == TorchDiagnosis::Missing::Nothing
                || (torch->missing == TorchDiagnosis::Missing::Cuda && d.missing != TorchDiagnosis::Missing::Cuda
                    && d.missing != TorchDiagnosis::Missing::Nothing))
                torch = d;
            details << tr("%1: %2").arg(slot->client->config().displayName(), d.cause);
        } else {
            details << tr("%1: %2").arg(slot->client->config().displayName(), slot->deviceError);
        }
    }
    if (starting)
        return WorkerReadiness(WorkerReadiness::State::Starting, details, m_kind);
    const WorkerReadiness::State state = anyStarted ? WorkerReadiness::State::NoGpu : WorkerReadiness::State::CannotStart;
    if (torch)
        return WorkerReadiness(torch->state(state), details, m_kind, torch->cause);
    return WorkerReadiness(state, details);
}

void WorkerPool::updateReadiness()
{
    const WorkerReadiness now = readiness();
    if (now == m_readiness)
        return;
    m_readiness = now;
    Q_EMIT readinessChanged(now);
}

void WorkerPool::onReady(Slot &slot)
{
    if (!slot.device.isValid() && slot.deviceRequest == 0)
        slot.deviceRequest = slot.client->deviceInfo();
    dispatch();
}

void WorkerPool::onFailed(Slot &slot, const QString &message)
{
    if (!slot.settled) {
        slot.deviceError = message;
        slot.deviceErrorCode = WorkerReply::Unavailable;
        slot.startFailed = true;
        Q_EMIT deviceFailed(slot.index, message);
        settle(slot);
    }
}

int WorkerPool::submit(const EvalJob &job)
{
    const int id = m_nextId++;
    Job j{id, job};
    j.job.referenceSo = QFileInfo(job.referenceSo).absoluteFilePath();
    j.job.candidateSo = QFileInfo(job.candidateSo).absoluteFilePath();
    m_queue.push_back(std::move(j));
    QMetaObject::invokeMethod(this, &WorkerPool::dispatch, Qt::QueuedConnection);
    return id;
}

void WorkerPool::prebuild(const QString &modulePath, const QJsonValue &initArgs)
{
    const QString path = QFileInfo(modulePath).absoluteFilePath();
    if (m_prebuilt.contains(path))
        return;
    m_prebuilt.insert(path);
    // Queued by each client behind what it is running: the worker gets it between two requests.
    for (auto &slot : m_slots)
        slot->client->prebuild(path, initArgs);
}

void WorkerPool::cancel(int jobId)
{
    for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
        if (it->id == jobId) {
            m_queue.erase(it);
            const EvalResult r = EvalResult::failure(Verdict::Error, tr("The evaluation was cancelled."),
                                                     WorkerReply::Cancelled);
            QMetaObject::invokeMethod(
                this, [this, jobId, r] { Q_EMIT finished(jobId, r); }, Qt::QueuedConnection);
            return;
        }
    }
    for (auto &slot : m_slots)
        if (slot->job && slot->job->id == jobId)
            slot->client->stop(); // its pending request is answered Cancelled, which finishes the job
}

void WorkerPool::dispatch()
{
    if (m_slots.empty()) {
        while (!m_queue.empty()) {
            const Job job = m_queue.front();
            m_queue.pop_front();
            Q_EMIT finished(job.id, EvalResult::failure(Verdict::Error, tr("No GPU worker is configured."),
                                                        WorkerReply::Unavailable));
        }
        return;
    }
    while (!m_queue.empty()) {
        // A free worker, preferring one that still holds this job's reference.
        Slot *best = nullptr;
        for (auto &slot : m_slots) {
            // A torch job waits for the worker's device_info: whether its python has torch decides what a failure
            // of the job means (settle() dispatches again).
            if (slot->job || (m_kind == TaskKind::Torch && !slot->settled))
                continue;
            if (!best || slot->client->loaded(u"reference"_s) == m_queue.front().job.referenceSo)
                best = slot.get();
        }
        if (!best)
            return;
        best->job = m_queue.front();
        m_queue.pop_front();
        best->step = Slot::Step::None;
        best->reloads = 0;
        best->clock.start();
        Q_EMIT jobStarted(best->job->id, best->index);
        step(*best);
    }
}

void WorkerPool::step(Slot &slot)
{
    const EvalJob &job = slot.job->job;
    switch (slot.step) {
    case Slot::Step::None:
        Q_EMIT progress(slot.job->id, u"loading"_s);
        if (slot.client->state() == WorkerClient::State::Idle && slot.client->loaded(u"reference"_s) == job.referenceSo) {
            slot.step = Slot::Step::LoadCandidate;
            slot.pending = slot.client->load(u"candidate"_s, job.candidateSo);
        } else {
            slot.step = Slot::Step::LoadReference;
            slot.pending = slot.client->load(u"reference"_s, job.referenceSo);
        }
        break;
    case Slot::Step::LoadReference:
        slot.step = Slot::Step::LoadCandidate;
        slot.pending = slot.client->load(u"candidate"_s, job.candidateSo);
        break;
    case Slot::Step::LoadCandidate:
        if ((slot.client->loaded(u"reference"_s) != job.referenceSo || slot.client->loaded(u"candidate"_s) != job.candidateSo)
            && slot.reloads++ < 2) {
            // The worker restarted between the loads (another request crashed it): load both again.
            slot.step = Slot::Step::LoadReference;
            slot.pending = slot.client->load(u"reference"_s, job.referenceSo);
            break;
        }
        slot.step = Slot::Step::Evaluate;
        slot.pending = slot.client->evaluate(job.task, job.taskKind, job.options, job.timeoutMs);
        break;
    case Slot::Step::Evaluate: break;
    }
}

void WorkerPool::onReplied(Slot &slot, int requestId, const WorkerReply &reply)
{
    if (requestId == slot.deviceRequest) {
        slot.deviceRequest = 0;
        slot.torch = TorchProbe::fromReply(reply.body);
        if (reply.ok) {
            slot.device = DeviceInfo::fromJson(reply.body.value("device"_L1).toObject());
            slot.deviceError.clear();
            slot.deviceErrorCode.clear();
            Q_EMIT deviceReported(slot.index, slot.device);
        } else {
            slot.deviceError = reply.errorMessage;
            slot.deviceErrorCode = reply.errorCode;
            Q_EMIT deviceFailed(slot.index, reply.errorMessage);
        }
        settle(slot);
        return;
    }
    if (!slot.job || requestId != slot.pending)
        return;
    slot.pending = 0;
    if (!reply.ok) {
        EvalResult r = reply.toEvalResult();
        if (slot.step == Slot::Step::LoadReference && reply.errorCode != WorkerReply::Unavailable
            && reply.errorCode != "no_device"_L1) {
            // Not the candidate's fault: no verdict about it.
            r.verdict = Verdict::Error;
            r.message = m_kind == TaskKind::Torch
                            ? tr("The task's reference module could not be loaded: %1").arg(reply.errorMessage)
                            : tr("The reference kernel could not be loaded: %1").arg(reply.errorMessage);
        }
        finishJob(slot, r);
        return;
    }
    if (slot.step == Slot::Step::Evaluate) {
        finishJob(slot, reply.toEvalResult());
        return;
    }
    step(slot);
}

void WorkerPool::finishJob(Slot &slot, EvalResult result)
{
    const int id = slot.job->id;
    result.workerName = slot.client->config().displayName();
    if (m_kind == TaskKind::Torch && (result.verdict == Verdict::Error || result.verdict == Verdict::LoadError)) {
        // What the worker lacks for a torch task (its GPU, its python, torch), from its device_info, else from the
        // result: then nothing was judged, and the message says what and the fix (kforge-cli eval prints it as is)
        // rather than how the module host failed, never with a traceback.
        TorchDiagnosis d = slot.settled ? TorchDiagnosis::ofWorker(slot.deviceErrorCode, slot.deviceError, slot.torch)
                                        : TorchDiagnosis();
        if (d.missing == TorchDiagnosis::Missing::Nothing && result.verdict == Verdict::Error)
            d = TorchDiagnosis::ofResult(result.errorCode, result.message);
        if (d.missing != TorchDiagnosis::Missing::Nothing) {
            result.verdict = Verdict::Error;
            result.message = WorkerReadiness(d.state(WorkerReadiness::State::CannotStart), {}, m_kind, d.cause)
                                 .explanation();
        } else if (result.errorCode == WorkerReply::Unavailable || result.errorCode == WorkerReply::Crashed) {
            result.message = d.cause;
        }
    }
    if (result.deviceName.isEmpty())
        result.deviceName = slot.device.name;
    slot.job.reset();
    slot.step = Slot::Step::None;
    Q_EMIT finished(id, result);
    dispatch();
}

} // namespace kforge
