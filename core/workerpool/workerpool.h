#pragma once
// The configured workers (one per GPU or host) as one queue of evaluations: a job goes to a free worker,
// which loads the reference (unless it still holds it) and the candidate, then evaluates. Each worker's
// device is asked for once it is ready, so callers can compile for its architecture.
#include "core/eval/deviceinfo.h"
#include "core/eval/evalresult.h"
#include "core/task/task.h"
#include "core/workerpool/evaljob.h"
#include "core/workerpool/torchprobe.h"
#include "core/workerpool/workerconfig.h"
#include "core/workerpool/workerreadiness.h"
#include "core/workerpool/workerreply.h"
#include "core/workerpool/workerstatus.h"

#include <QList>
#include <QSet>
#include <QObject>
#include <deque>
#include <memory>
#include <vector>

namespace kforge {

class WorkerClient;

class WorkerPool : public QObject
{
    Q_OBJECT
public:
    explicit WorkerPool(QObject *parent = nullptr);
    ~WorkerPool() override;

    // Replaces the workers and starts them. Jobs running on the old ones are answered as cancelled.
    void setWorkers(const QList<WorkerConfig> &workers);
    // The kind of task the jobs are: the same kforge-worker judges both, but a torch task also needs its Python
    // with torch (device_info's "torch" probe), and readiness and failed jobs say so in a torch task's words.
    void setTaskKind(TaskKind kind);
    TaskKind taskKind() const { return m_kind; }
    int workerCount() const;
    WorkerClient *worker(int index) const;
    DeviceInfo device(int index) const;   // valid once that worker answered device_info
    TorchProbe torch(int index) const;    // that worker's Python for torch tasks, from the same answer
    QString deviceError(int index) const; // e.g. the worker's "no CUDA device" message
    // What worker `index` is doing, as Settings → Workers shows it.
    WorkerStatus status(int index) const;
    // The arch ("sm_90") of the first worker that reported its device; empty while none has.
    QString arch() const;
    // True once every worker has reported its device or failed to.
    bool devicesSettled() const;
    // Whether a job submitted now can be evaluated; readinessChanged() follows every change.
    WorkerReadiness readiness() const;

    int submit(const EvalJob &job);
    // A module's load_inline extensions built ahead by every worker (op prebuild), between its evaluations: the
    // worker starts the build in a sandboxed host and goes on measuring; the module's later evaluation finds it
    // built. Each module once per pool; the answers are not awaited.
    void prebuild(const QString &modulePath, const QJsonValue &initArgs);
    // A queued job is dropped; a running one stops its worker (which restarts). finished() follows once.
    void cancel(int jobId);
    int pendingJobs() const;

Q_SIGNALS:
    void deviceReported(int worker, const kforge::DeviceInfo &device);
    void deviceFailed(int worker, const QString &message);
    void devicesSettledChanged();
    void readinessChanged(const kforge::WorkerReadiness &readiness);
    void jobStarted(int jobId, int worker);
    void progress(int jobId, const QString &stage); // "loading", then the worker's stages
    // The job's result after timing, before the passes (EvalResult::provisional); finished() still follows.
    void measured(int jobId, const kforge::EvalResult &provisional);
    void finished(int jobId, const kforge::EvalResult &result);
    void log(int worker, const QString &line);

private:
    struct Slot;
    struct Job {
        int id = 0;
        EvalJob job;
    };
    void onReplied(Slot &slot, int requestId, const WorkerReply &reply);
    void onReady(Slot &slot);
    void onFailed(Slot &slot, const QString &message);
    void settle(Slot &slot);
    void updateReadiness();
    void startWorkers();
    void dispatch();
    void step(Slot &slot);
    void finishJob(Slot &slot, EvalResult result);
    Slot *slotOf(const WorkerClient *client);

    std::vector<std::unique_ptr<Slot>> m_slots;
    std::deque<Job> m_queue;
    QSet<QString> m_prebuilt; // modules prebuild() sent
    QList<WorkerConfig> m_configs;
    TaskKind m_kind = TaskKind::Cuda;
    int m_nextId = 1;
    bool m_settledEmitted = false;
    WorkerReadiness m_readiness{WorkerReadiness::State::NoWorker};
};

} // namespace kforge
