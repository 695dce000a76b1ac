#pragma once
// The composition root: the services behind the workbench's panels and behind every kforge-cli command, made and
// configured from Settings in one place: the compiler (nvcc), the GPU worker pool, the evaluator that joins them,
// the LLM client, the key store and the round runner, with the model prices, the endpoints and the timing the
// user set. The GUI's MainWindow owns one and hands its parts to the panels; a kforge-cli command makes a headless
// one with only the parts it uses. Settings changes are applied as they happen (a new worker list restarts the
// pool; compiler, timing and prices apply to the next evaluation or request).
#include "core/eval/evaloptions.h"
#include "core/llm/credentials.h"
#include "core/llm/endpointconfig.h"
#include "core/workerpool/workerconfig.h"
#include "core/workerpool/workerreadiness.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace kforge {

class Compiler;
class EvaluationQueue;
class Evaluator;
class LlmClient;
class LogHub;
class PoolEvaluator;
class PriceTable;
class RoundRunner;
class SessionStore;
class Settings;
class WorkerPool;

class Workbench : public QObject
{
    Q_OBJECT
public:
    // The GUI: every part, following Settings. `evaluator`, when given, stands in for the compiler and worker pool
    // behind the round runner (tests without a GPU use ScriptedEvaluator here, the one place a fake is allowed);
    // the Workbench does not own it.
    Workbench(SessionStore *store, Settings &settings, LogHub &log, Evaluator *evaluator = nullptr,
              QObject *parent = nullptr);
    // kforge-cli: a headless workbench holds only the key store and the lookups at first; a command adds the parts
    // it needs with the use*() calls once its arguments are checked (no worker process is started for `chat`, no
    // libcurl thread for `eval`). The parts are set up by the same code as the GUI's.
    Workbench(Settings &settings, LogHub &log, QObject *parent = nullptr);
    ~Workbench() override;

    // The compiler, one GPU worker and the evaluator. `workerCommand` (--worker) stands for the first worker of
    // Settings → Workers when given; a headless workbench keeps its one worker as the settings change.
    void useEvaluation(const QString &workerCommand = {});
    // The same with a pool of workers, one per command (`kforge-cli verify --worker A --worker B`); none: Settings'
    // first worker.
    void useEvaluation(const QStringList &workerCommands);
    // The one evaluation queue on `store`, with evaluation (the worker given before, if any): `kforge-cli eval`.
    void useQueue(SessionStore *store);
    // The LLM client.
    void useModel();
    // The round runner on `store`, with its queue (useQueue) and the model.
    void useRounds(SessionStore *store);

    // Null where a headless workbench was made without that part.
    Compiler *compiler() const { return m_compiler; }
    WorkerPool *pool() const { return m_pool; }
    PoolEvaluator *evaluator() const { return m_evaluator; }
    LlmClient *llm() const { return m_llm; }
    Credentials *credentials() const { return m_credentials; }
    RoundRunner *runner() const { return m_runner; }
    // Every evaluation goes through it: the runner's rounds, the editor's Ctrl+Enter, forks, re-runs, kforge-cli eval.
    EvaluationQueue *queue() const { return m_queue; }

    // The options of the next evaluation: the measurement defaults with the user's Settings → Timing applied.
    EvalOptions evalOptions() const;
    // What the models cost, as the user set it.
    PriceTable prices() const;

    // The endpoint a name stands for: a preset (EndpointPresets), an endpoint saved in Settings → Models (by id),
    // or a base URL (OpenAI's protocol unless `protocol` says otherwise; `protocol` also overrides a preset's or a
    // saved endpoint's). Nullopt when the name matches nothing.
    std::optional<EndpointConfig> findEndpoint(const QString &name, std::optional<LlmProtocol> protocol = {}) const;
    // Looks up the API key for `endpoint`; done() follows in `context`'s thread, never before this returns. With
    // `keyVariable` set the key comes from that environment variable only, and `endpoint` is changed at once to
    // name it and no keychain entry; otherwise the endpoint's variable first, then its keychain entry. The answer's
    // error is set when no request can go without the key (a named variable that is unset, or an endpoint that
    // needs a key and has none).
    void lookupKey(EndpointConfig &endpoint, const QString &keyVariable, QObject *context,
                   std::function<void(const ApiKeyLookup &)> done);

    // Whether evaluations can run now (the evaluator behind the round runner decides): the one readiness every
    // view shows, announced by readinessChanged().
    WorkerReadiness readiness() const;

    // One line for the status bar: the workers and their GPUs, and what waits in the queue.
    QString statusText() const;
    QString statusToolTip() const;
    // The configured name of the pool's worker `index` (Settings → Workers), as the log shows it.
    QString workerName(int index) const;
    // The workers the pool runs: Settings → Workers, or a headless workbench's one worker.
    QList<WorkerConfig> workers() const;

Q_SIGNALS:
    void statusChanged();
    void readinessChanged(const kforge::WorkerReadiness &readiness);

private:
    void makeEvaluation();
    void makeQueue(SessionStore *store, Evaluator *evaluator);
    void makeRunner(SessionStore *store);
    void forwardReadiness(Evaluator *evaluator);
    void applyCompiler();
    void applyWorkers();
    void applyTiming();
    void applyMetricsPolicy(); // the GUI's flavour only
    void applyPrices();

    Settings &m_settings;
    LogHub &m_log;
    bool m_headless = false;
    QStringList m_workerCommands; // headless: --worker
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
