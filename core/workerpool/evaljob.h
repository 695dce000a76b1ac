#pragma once
// One evaluation for the worker pool: already-compiled reference and candidate, the task and the options.
#include "core/eval/evaloptions.h"
#include "core/task/taskkind.h"

#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace kforge {

struct EvalJob {
    QString referenceSo; // paths of shared objects on this machine
    QString candidateSo;
    QJsonObject task;                   // task.json as an object (Task::toJson)
    TaskKind taskKind = TaskKind::Cuda; // Task::kind(): a PyTorch task's modules get longer to start
    EvalOptions options;
    int timeoutMs = TimingDefaults::workerRequestMs; // watchdog for the evaluate request (the task's timeout_s)
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::EvalJob)
