#include "core/workbench/readinesswatch.h"

#include "core/settings/settings.h"
#include "core/workerpool/evaluator.h"

namespace kforge {

ReadinessWatch::ReadinessWatch(Evaluator *evaluator, Settings *settings, QObject *parent)
    : QObject(parent)
    , m_evaluator(evaluator)
    , m_settings(settings)
{
    if (evaluator)
        connect(evaluator, &Evaluator::readinessChanged, this, &ReadinessWatch::update);
    if (settings)
        connect(settings, &Settings::workersChanged, this, &ReadinessWatch::update);
    m_last = readiness();
}

WorkerReadiness ReadinessWatch::readiness() const
{
    if (m_settings && m_settings->workers().isEmpty()) // in the wording of the task kind the evaluator serves
        return WorkerReadiness(WorkerReadiness::State::NoWorker, {},
                               m_evaluator ? m_evaluator->readiness().taskKind() : TaskKind::Cuda);
    return m_evaluator ? m_evaluator->readiness() : WorkerReadiness(WorkerReadiness::State::NoWorker);
}

void ReadinessWatch::update()
{
    const WorkerReadiness now = readiness();
    if (now == m_last)
        return;
    m_last = now;
    Q_EMIT changed(now);
}

} // namespace kforge
