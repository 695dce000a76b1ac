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
    // binary: $KFORGE_WORKER, next to this executable, the build tree, then PATH. Empty when unusable. A local
    // worker inherits this process's environment, $KFORGE_TORCH_PYTHON (its python for torch tasks) included.
    QStringList resolvedCommand() const;
    bool sendsInline() const;
    // Where a bare `kforge-worker` resolves to (empty when not found).
    static QString locateWorkerBinary();
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::WorkerConfig)
