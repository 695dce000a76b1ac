#pragma once
// Why a torch worker cannot evaluate, read off its answer or what it printed before dying: the missing piece
// (python3, torch, CUDA) and the cause in one line with its fix, never a Python traceback. WorkerPool uses it for
// the readiness of a torch task's workers and for the message of an evaluation they could not run.
#include "core/worker/workerreadiness.h"

#include <QCoreApplication>
#include <QString>

namespace kforge {

class TorchWorkerDiagnosis
{
    Q_DECLARE_TR_FUNCTIONS(kforge::TorchWorkerDiagnosis)

public:
    enum class Missing { Nothing, Python, Torch, Cuda };

    // `errorCode`: the worker's error code ("no_torch", "no_device") or the client's ("unavailable"...);
    // `message`: what the worker or the client said, stderr tail included.
    static TorchWorkerDiagnosis of(const QString &errorCode, const QString &message);

    Missing missing = Missing::Nothing;
    QString cause; // one line, with the fix when the worker gave none

    // The readiness state this stands for: NoPython, NoTorch, NoGpu (no CUDA) or `otherwise`.
    WorkerReadiness::State state(WorkerReadiness::State otherwise) const;
};

// A worker's message in one line: a Python traceback becomes its exception line, the lines after the first are
// joined to it ("The worker exited before it was ready (exit code 1): ModuleNotFoundError: No module named 'torch'").
QString oneLineWorkerMessage(const QString &message);

} // namespace kforge
