#include "core/workbench/workbench.h"

#include "core/compile/compiler.h"
#include "core/llm/endpointpresets.h"
#include "core/llm/llmclient.h"
#include "core/llm/pricetable.h"
#include "core/log/loghub.h"
#include "core/optimizer/roundrunner.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/workerpool/poolevaluator.h"
#include "core/workerpool/workerpool.h"
#include "core/workerpool/workerstatus.h"

#include <QPointer>
#include <QTimer>

namespace kforge {

Workbench::Workbench(SessionStore *store, Settings &settings, LogHub &log, Evaluator *evaluator, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_log(log)
{
    m_credentials = new Credentials(this);
    makeEvaluation();
    m_llm = new LlmClient(this);
    makeQueue(store, evaluator);
    makeRunner(store);
    forwardReadiness(m_queue->evaluator());
    // After every connection is made: starting the workers may announce a readiness at once.
    applyCompiler();
    applyTiming();
    applyMetricsPolicy();
    // Only the GUI's: kforge-cli optimize decides with --metrics.
    connect(&m_settings, &Settings::metricsPolicyChanged, this, &Workbench::applyMetricsPolicy);
    applyPrices();
    applyWorkers();
}

Workbench::Workbench(Settings &settings, LogHub &log, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_log(log)
    , m_headless(true)
{
    m_credentials = new Credentials(this);
}

void Workbench::useEvaluation(const QString &workerCommand)
{
    useEvaluation(workerCommand.isEmpty() ? QStringList() : QStringList{workerCommand});
}

void Workbench::useEvaluation(const QStringList &workerCommands)
{
    if (m_evaluator)
        return;
    m_workerCommands = workerCommands;
    makeEvaluation();
    forwardReadiness(m_evaluator);
    applyCompiler();
    applyWorkers();
}

void Workbench::useModel()
{
    if (!m_llm)
        m_llm = new LlmClient(this);
}

void Workbench::useQueue(SessionStore *store)
{
    if (m_queue)
        return;
    useEvaluation(m_workerCommands);
    makeQueue(store, nullptr);
    applyTiming();
}

void Workbench::useRounds(SessionStore *store)
{
    if (m_runner)
        return;
    useQueue(store);
    useModel();
    makeRunner(store);
    applyPrices();
}

Workbench::~Workbench()
{
    // The runner cancels its requests and evaluations while the client and the evaluator still exist.
    delete m_runner;
    m_runner = nullptr;
    delete m_queue;
    m_queue = nullptr;
}

void Workbench::makeEvaluation()
{
    m_compiler = new Compiler(this);
    m_pool = new WorkerPool(this);
    m_evaluator = new PoolEvaluator(m_compiler, m_pool, this);

    connect(m_pool, &WorkerPool::log, this, [this](int worker, const QString &line) {
        m_log.post(LogSource::Worker, LogLevel::Debug, line, workerName(worker));
    });
    connect(m_pool, &WorkerPool::deviceReported, this, [this](int worker, const DeviceInfo &d) {
        m_log.post(LogSource::Worker, LogLevel::Info,
                   tr("GPU worker %1: %2 (%3), %4 SMs, copy %5 GB/s, FMA %6 GFLOP/s")
                       .arg(workerName(worker))
                       .arg(d.name, d.smArch())
                       .arg(d.smCount)
                       .arg(d.peakCopyGbps, 0, 'f', 0)
                       .arg(d.peakFmaGflops, 0, 'f', 0));
        Q_EMIT statusChanged();
    });
    connect(m_pool, &WorkerPool::deviceFailed, this, [this](int worker, const QString &message) {
        // A machine without an NVIDIA GPU or driver is a fact to explain, not an error: the first start of a
        // laptop would otherwise open on a red "CUDA driver version is insufficient" (issue 37).
        if (WorkerStatus::meansNoGpu(message))
            m_log.post(LogSource::Worker, LogLevel::Info,
                       tr("GPU worker %1 finds no usable NVIDIA GPU on its machine (it says: %2). Kernels are compiled "
                          "here but not measured; to measure them, run the worker on a machine with an NVIDIA GPU "
                          "(Settings → Workers).")
                           .arg(workerName(worker), WorkerStatus::keyLine(message)));
        else if (const QString key = WorkerStatus::keyLine(message); key != message.trimmed())
            // The launcher's own words first (ssh's "Could not resolve hostname ..."): the Log shows a message's
            // first line, the rest is in its tooltip.
            m_log.post(LogSource::Worker, LogLevel::Error,
                       tr("GPU worker %1: %2").arg(workerName(worker), key + u'\n' + message.trimmed()));
        else
            m_log.post(LogSource::Worker, LogLevel::Error, tr("GPU worker %1: %2").arg(workerName(worker), message));
        Q_EMIT statusChanged();
    });
    connect(m_pool, &WorkerPool::jobStarted, this, &Workbench::statusChanged);
    connect(m_pool, &WorkerPool::finished, this, &Workbench::statusChanged);
    connect(m_compiler, &Compiler::started, this, &Workbench::statusChanged);
    connect(m_compiler, &Compiler::finished, this, [this](int, const CompileResult &r) {
        if (!r.ok && !r.cancelled)
            m_log.post(LogSource::Compiler, LogLevel::Warning, r.firstError());
        Q_EMIT statusChanged();
    });

    connect(&m_settings, &Settings::compilerChanged, this, &Workbench::applyCompiler);
    // A headless workbench keeps the worker it was made with.
    if (!m_headless)
        connect(&m_settings, &Settings::workersChanged, this, &Workbench::applyWorkers);
}

void Workbench::makeQueue(SessionStore *store, Evaluator *evaluator)
{
    m_queue = new EvaluationQueue(store, evaluator ? evaluator : static_cast<Evaluator *>(m_evaluator), this);
    // An evaluation is stored with the full description of the GPU that measured it (the export's provenance).
    m_queue->setDeviceLookup([pool = QPointer<WorkerPool>(m_pool)](const QString &name) {
        for (int i = 0; pool && i < pool->workerCount(); ++i)
            if (const DeviceInfo d = pool->device(i); d.isValid() && d.name == name)
                return d.toJson();
        return QJsonObject();
    });
    // The pool knows the kind of the session's task from the moment the task is known, so that readiness says
    // what a torch task needs beyond the GPU (kforge-worker's Python with torch).
    if (store && m_pool) {
        const auto followTask = [this, store] { m_pool->setTaskKind(store->task().kind); };
        connect(store, &SessionStore::taskChanged, this, followTask);
        connect(store, &SessionStore::opened, this, followTask);
        followTask();
    }
    connect(&m_settings, &Settings::timingChanged, this, &Workbench::applyTiming);
}

void Workbench::makeRunner(SessionStore *store)
{
    m_runner = new RoundRunner(store, m_llm, m_queue, this);
    connect(m_runner, &RoundRunner::errorOccurred, this,
            [this](const QString &message) { m_log.post(LogSource::Model, LogLevel::Error, message); });
    connect(&m_settings, &Settings::pricesChanged, this, &Workbench::applyPrices);
}

void Workbench::forwardReadiness(Evaluator *evaluator)
{
    connect(evaluator, &Evaluator::readinessChanged, this, [this](const WorkerReadiness &readiness) {
        Q_EMIT readinessChanged(readiness);
        Q_EMIT statusChanged();
    });
}

void Workbench::applyCompiler()
{
    m_compiler->setNvccPath(m_settings.nvccPath());
    m_compiler->setBaseFlags(m_settings.compileFlags());
    // Empty: the workers' GPU decides; the compiler keeps its own default until one has reported.
    if (const QString arch = m_settings.defaultArch(); !arch.isEmpty())
        m_compiler->setDefaultArch(arch);
}

void Workbench::applyTiming()
{
    m_queue->setDefaultOptions(evalOptions());
}

void Workbench::applyMetricsPolicy()
{
    MetricsPolicy policy = m_queue->metricsPolicy();
    policy.mode = m_settings.metricsPolicy();
    m_queue->setMetricsPolicy(policy);
}

void Workbench::applyPrices()
{
    m_runner->setPriceTable(prices());
}

void Workbench::applyWorkers()
{
    const QList<WorkerConfig> configs = workers();
    // The pool's worker i is configs[i]: its name is what the log shows.
    m_workerNames.clear();
    for (const WorkerConfig &w : configs)
        m_workerNames << w.displayName();
    m_pool->setWorkers(configs);
    Q_EMIT statusChanged();
}

QList<WorkerConfig> Workbench::workers() const
{
    if (!m_headless)
        return m_settings.workers();
    QList<WorkerConfig> workers;
    for (const QString &command : m_workerCommands) {
        WorkerConfig worker;
        worker.command = command;
        workers << worker;
    }
    if (!workers.isEmpty())
        return workers;
    WorkerConfig worker;
    if (const QList<WorkerConfig> configured = m_settings.workers(); !configured.isEmpty())
        worker = configured.first();
    return {worker};
}

EvalOptions Workbench::evalOptions() const
{
    return EvalOptions::fromSettings(m_settings.timing());
}

PriceTable Workbench::prices() const
{
    return m_settings.prices();
}

std::optional<EndpointConfig> Workbench::findEndpoint(const QString &name, std::optional<LlmProtocol> protocol) const
{
    std::optional<EndpointConfig> e;
    if (name.contains(QLatin1String("://"))) {
        e = EndpointPresets::forUrl(name, protocol.value_or(LlmProtocol::OpenAi));
    } else if (!(e = EndpointPresets::find(name))) {
        for (const EndpointConfig &saved : m_settings.endpoints())
            if (saved.id == name)
                e = saved;
    }
    if (e && protocol)
        e->protocol = *protocol;
    return e;
}

void Workbench::lookupKey(EndpointConfig &endpoint, const QString &keyVariable, QObject *context,
                          std::function<void(const ApiKeyLookup &)> done)
{
    if (keyVariable.isEmpty()) {
        const bool required = endpoint.needsKey();
        m_credentials->lookup(endpoint, context, [done = std::move(done), required](const ApiKeyLookup &found) {
            ApiKeyLookup r = found;
            if (!required && !r.found())
                r.error.clear();
            done(r);
        });
        return;
    }
    endpoint.apiKeyEnv = keyVariable;
    endpoint.keychainEntry.clear();
    ApiKeyLookup r;
    r.key = Credentials::fromEnvironment(keyVariable);
    r.source = r.key.isEmpty() ? ApiKeyLookup::None : ApiKeyLookup::Environment;
    if (r.key.isEmpty())
        r.error = tr("the environment variable %1 is not set").arg(keyVariable);
    QTimer::singleShot(0, context, [done = std::move(done), r] { done(r); });
}

WorkerReadiness Workbench::readiness() const
{
    const Evaluator *evaluator = m_queue ? m_queue->evaluator() : m_evaluator;
    return evaluator ? evaluator->readiness() : WorkerReadiness(WorkerReadiness::State::NoWorker);
}

QString Workbench::workerName(int index) const
{
    if (index >= 0 && index < m_workerNames.size())
        return m_workerNames.at(index);
    return tr("worker %1").arg(index + 1);
}

QString Workbench::statusText() const
{
    QStringList gpus;
    for (int i = 0; m_pool && i < m_pool->workerCount(); ++i)
        if (const DeviceInfo d = m_pool->device(i); d.isValid())
            gpus << d.name;
    const WorkerReadiness ready = readiness();
    QString text = ready.canEvaluate() && !gpus.isEmpty() ? tr("GPU: %1").arg(gpus.join(QStringLiteral(", ")))
                                                          : ready.summary();
    // Compiling, running on a GPU or waiting for either.
    if (const int jobs = m_pool ? m_pool->pendingJobs() + m_compiler->pendingJobs() : 0; jobs > 0)
        text += tr(" · %1 job(s) in the queue").arg(jobs);
    return text;
}

QString Workbench::statusToolTip() const
{
    QStringList lines;
    const QList<WorkerConfig> configs = workers();
    for (int i = 0; m_pool && i < m_pool->workerCount(); ++i) {
        const DeviceInfo d = m_pool->device(i);
        const QString name = configs.value(i).displayName();
        if (d.isValid())
            lines << tr("%1: %2 (%3)").arg(name, d.name, d.smArch());
        else if (const QString e = m_pool->deviceError(i); !e.isEmpty())
            lines << tr("%1: %2").arg(name, e);
        else
            lines << tr("%1: starting").arg(name);
    }
    lines << tr("Settings → Workers");
    return lines.join(u'\n');
}

} // namespace kforge
