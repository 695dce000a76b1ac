#include "app/gui/workbench.h"

#include "core/compile/compiler.h"
#include "core/eval/evaloptions.h"
#include "core/llm/credentials.h"
#include "core/llm/llmclient.h"
#include "core/llm/pricetable.h"
#include "core/log/loghub.h"
#include "core/optimizer/roundrunner.h"
#include "core/pipeline/evaluationqueue.h"
#include "core/settings/settings.h"
#include "core/worker/poolevaluator.h"
#include "core/worker/workerpool.h"

#include <QSettings>

namespace kforge {

Workbench::Workbench(SessionStore *store, Settings &settings, LogHub &log, Evaluator *evaluator, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_log(log)
{
    m_compiler = new Compiler(this);
    m_pool = new WorkerPool(this);
    m_evaluator = new PoolEvaluator(m_compiler, m_pool, this);
    m_llm = new LlmClient(this);
    m_credentials = new Credentials(this);
    m_queue = new EvaluationQueue(store, evaluator ? evaluator : static_cast<Evaluator *>(m_evaluator), this);
    m_runner = new RoundRunner(store, m_llm, m_queue, this);
    {
        QSettings qsettings;
        m_runner->setPriceTable(PriceTable::load(qsettings));
    }

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
    connect(m_runner->evaluator(), &Evaluator::readinessChanged, this, [this](const WorkerReadiness &readiness) {
        Q_EMIT readinessChanged(readiness);
        Q_EMIT statusChanged();
    });
    connect(m_runner, &RoundRunner::errorOccurred, this,
            [this](const QString &message) { m_log.post(LogSource::Model, LogLevel::Error, message); });

    connect(&m_settings, &Settings::compilerChanged, this, &Workbench::applyCompiler);
    connect(&m_settings, &Settings::workersChanged, this, &Workbench::applyWorkers);
    connect(&m_settings, &Settings::timingChanged, this, &Workbench::applyTiming);
    applyCompiler();
    applyTiming();
    applyWorkers();
}

Workbench::~Workbench()
{
    // The runner cancels its requests and evaluations while the client and the evaluator still exist.
    delete m_runner;
    m_runner = nullptr;
    delete m_queue;
    m_queue = nullptr;
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
    m_queue->setDefaultOptions(EvalOptions::fromSettings(m_settings.timing()));
}

void Workbench::applyWorkers()
{
    const QList<WorkerConfig> workers = m_settings.workers();
    // The pool's worker i is workers[i]: its name is what the log shows.
    m_workerNames.clear();
    for (const WorkerConfig &w : workers)
        m_workerNames << w.displayName();
    m_pool->setWorkers(workers);
    Q_EMIT statusChanged();
}

WorkerReadiness Workbench::readiness() const
{
    return m_runner->evaluator() ? m_runner->evaluator()->readiness() : WorkerReadiness(WorkerReadiness::State::NoWorker);
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
    for (int i = 0; i < m_pool->workerCount(); ++i)
        if (const DeviceInfo d = m_pool->device(i); d.isValid())
            gpus << d.name;
    const WorkerReadiness ready = readiness();
    QString text = ready.canEvaluate() && !gpus.isEmpty() ? tr("GPU: %1").arg(gpus.join(QStringLiteral(", ")))
                                                          : ready.summary();
    // Compiling, running on a GPU or waiting for either.
    if (const int jobs = m_pool->pendingJobs() + m_compiler->pendingJobs(); jobs > 0)
        text += tr(" · %1 job(s) in the queue").arg(jobs);
    return text;
}

QString Workbench::statusToolTip() const
{
    QStringList lines;
    const QList<WorkerConfig> configs = m_settings.workers();
    for (int i = 0; i < m_pool->workerCount(); ++i) {
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
