#pragma once
// The services behind the workbench's panels, made and configured from Settings in one place: the
// compiler (nvcc), the GPU worker pool, the evaluator that joins them, the LLM client, the key store and the
// round runner. MainWindow owns one and hands its parts to the panels. Settings changes are applied as they
// happen (a new worker list restarts the pool; compiler and timing settings apply to the next evaluation).
#include "core/worker/workerreadiness.h"

#include <QObject>
#include <QString>
#include <QStringList>

namespace kforge {

class Compiler;
class Credentials;
class EvaluationQueue;
class Evaluator;
class LlmClient;
class LogHub;
class PoolEvaluator;
class RoundRunner;
class SessionStore;
class Settings;
class WorkerPool;

class Workbench : public QObject
{
    Q_OBJECT
public:
    // `evaluator`, when given, stands in for the compiler and worker pool behind the round runner (tests without
    // a GPU use ScriptedEvaluator here, the one place a fake is allowed); the Workbench does not own it.
    Workbench(SessionStore *store, Settings &settings, LogHub &log, Evaluator *evaluator = nullptr, QObject *parent = nullptr);
    ~Workbench() override;

    Compiler *compiler() const { return m_compiler; }
    WorkerPool *pool() const { return m_pool; }
    PoolEvaluator *evaluator() const { return m_evaluator; }
    LlmClient *llm() const { return m_llm; }
    Credentials *credentials() const { return m_credentials; }
    RoundRunner *runner() const { return m_runner; }
    // Every evaluation goes through it: the runner's rounds, the editor's Ctrl+Enter, forks, re-runs.
    EvaluationQueue *queue() const { return m_queue; }

    // Whether evaluations can run now (the evaluator behind the round runner decides): the one readiness every
    // view shows, announced by readinessChanged().
    WorkerReadiness readiness() const;

    // One line for the status bar: the workers and their GPUs, and what waits in the queue.
    QString statusText() const;
    QString statusToolTip() const;
    // The configured name of the pool's worker `index` (Settings → Workers), as the log shows it.
    QString workerName(int index) const;

Q_SIGNALS:
    void statusChanged();
    void readinessChanged(const kforge::WorkerReadiness &readiness);

private:
    void applyCompiler();
    void applyWorkers();
    void applyTiming();

    Settings &m_settings;
    LogHub &m_log;
    Compiler *m_compiler = nullptr;
    WorkerPool *m_pool = nullptr;
    PoolEvaluator *m_evaluator = nullptr;
    LlmClient *m_llm = nullptr;
    Credentials *m_credentials = nullptr;
    EvaluationQueue *m_queue = nullptr;
    RoundRunner *m_runner = nullptr;
    QStringList m_workerNames; // by pool index
};

} // namespace kforge
