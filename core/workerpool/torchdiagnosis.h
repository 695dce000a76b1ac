#pragma once
// Why kforge-worker cannot judge a torch task, read off its device_info (refused: no GPU; answered: the "torch"
// probe of its Python) or off an evaluation that ended without a verdict: the missing piece (python3, torch, the
// GPU) and the cause in one line, never a Python traceback. WorkerPool uses it for the readiness of workers serving
// a torch task and for the message of an evaluation they could not run.
#include "core/workerpool/torchprobe.h"
#include "core/workerpool/workerreadiness.h"

#include <QCoreApplication>
#include <QString>

namespace kforge {

class TorchDiagnosis
{
    Q_DECLARE_TR_FUNCTIONS(kforge::TorchDiagnosis)

public:
    enum class Missing { Nothing, Python, Torch, Cuda };

    // A worker's device_info: `errorCode` and `message` when it was refused (the worker's "no_device", or the
    // client's "worker_unavailable" for a worker that never started), else the reply's `probe`.
    static TorchDiagnosis ofWorker(const QString &errorCode, const QString &message, const TorchProbe &probe);
    // An evaluation that ended without a verdict: the worker's or the client's error code and message.
    static TorchDiagnosis ofResult(const QString &errorCode, const QString &message);

    Missing missing = Missing::Nothing;
    QString cause; // one line; empty for a worker that can judge torch tasks

    // The readiness state this stands for: NoPython, NoTorch, NoGpu or `otherwise`.
    WorkerReadiness::State state(WorkerReadiness::State otherwise) const;
};

// A worker's message in one line: a Python traceback becomes its exception line, the lines after the first are
// joined to it ("The worker exited before it was ready (exit code 1): ModuleNotFoundError: No module named 'torch'").
QString oneLineWorkerMessage(const QString &message);

} // namespace kforge
