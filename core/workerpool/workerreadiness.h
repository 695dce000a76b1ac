#pragma once
// Whether evaluations can run now and, when not, why and what to do, in the one wording every view shows
// (status bar, notice bar, Round Control's Start, the editor's Ctrl+Enter). WorkerPool works it out from its
// workers; the Evaluator in use passes it on, and views observe it through the window's one ReadinessWatch.
#include "core/task/task.h"

#include <QCoreApplication>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <utility>

namespace kforge {

class WorkerReadiness
{
    Q_DECLARE_TR_FUNCTIONS(kforge::WorkerReadiness)

public:
    enum class State {
        Ready,       // a worker has reported its GPU
        Starting,    // workers are starting; none has answered yet
        NoWorker,    // none is configured
        CannotStart, // every configured worker failed to start or to shake hands
        NoGpu,       // the workers run, but none found a usable GPU (e.g. "CUDA driver version is insufficient")
        NoPython,    // torch task: kforge-worker cannot run the python it was given for a torch task's modules
        NoTorch,     // torch task: kforge-worker's python cannot import torch
    };

    WorkerReadiness() = default;
    // `kind`: the task kind the workers serve (a torch task's wording names kforge-worker's Python and torch);
    // `cause`: the first failed worker's cause in one line (TorchDiagnosis), shown in the explanation.
    explicit WorkerReadiness(State state, QStringList details = {}, TaskKind kind = TaskKind::Cuda, QString cause = {})
        : m_state(state)
        , m_details(std::move(details))
        , m_kind(kind)
        , m_cause(std::move(cause))
    {
    }

    State state() const { return m_state; }
    TaskKind taskKind() const { return m_kind; }
    QString cause() const { return m_cause; }
    bool canEvaluate() const { return m_state == State::Ready; }
    // Nothing submitted now would ever be measured: no worker, or every one of them failed.
    bool isUnusable() const { return m_state != State::Ready && m_state != State::Starting; }
    // What each failed worker said ("name: message"), for tooltips and the log.
    QStringList details() const { return m_details; }

    // A few words for the status bar ("No usable GPU").
    QString summary() const;
    // What it means and what to do, in one or two sentences; empty when ready.
    QString explanation() const;

    bool operator==(const WorkerReadiness &other) const = default;

private:
    QString torchExplanation() const;

    State m_state = State::Ready;
    QStringList m_details;
    TaskKind m_kind = TaskKind::Cuda;
    QString m_cause;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::WorkerReadiness)
