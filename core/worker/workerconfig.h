#pragma once
// One configured GPU worker: a command line that starts a process speaking the worker protocol on
// stdin/stdout (`kforge-worker --device 0`, `ssh gpu-box kforge-worker`, an `srun ...` line).
#include "core/eval/timingdefaults.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace kforge {

struct WorkerConfig {
    // How a compiled kernel reaches the worker: by file path (same machine) or inline as base64.
    enum class Transfer { Auto, Path, Inline };

    QString name; // shown in logs and results; default: the command
    QString command = QStringLiteral("kforge-worker --device 0");
    Transfer transfer = Transfer::Auto;                 // Auto: Inline when the program is ssh/srun/..., else Path
    int startTimeoutMs = TimingDefaults::workerStartMs; // until the ready line (ssh and Slurm can be slow)

    QString displayName() const { return name.isEmpty() ? command : name; }
    // The command split into program and arguments, `kforge-worker` resolved to the built or installed
    // binary: $KFORGE_WORKER, next to this executable, the build tree, then PATH. Empty when unusable.
    // `kforge-torch-worker` likewise (locateTorchWorkerBinary), run with $KFORGE_TORCH_PYTHON when that is set
    // (the python3 that has torch, when the script's `python3` has none).
    QStringList resolvedCommand() const;
    bool sendsInline() const;
    // Where a bare `kforge-worker` resolves to (empty when not found).
    static QString locateWorkerBinary();

    // The same worker for a task of kind torch: `kforge-worker` in the command (run here, or the program ssh
    // and the other launchers start) becomes `kforge-torch-worker`, same arguments; a command that names no
    // kforge-worker is kept as it is.
    WorkerConfig forTorch() const;
    // Where a bare `kforge-torch-worker` resolves to: $KFORGE_TORCH_WORKER, beside kforge-worker (installed
    // bin/), the source tree's torchworker/ seen from a build tree, then PATH. Empty when not found.
    static QString locateTorchWorkerBinary();
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::WorkerConfig)
