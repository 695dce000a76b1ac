#include "core/queue/evaluationqueue.h"

#include "core/session/sessionstore.h"
#include "core/workerpool/evaluator.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// Compiler output can be long; the prompt and the store need its beginning.
constexpr qsizetype kMaxLogChars = 20000;

// Absolute paths in nvcc output point into the user's cache folder: keep only file names.
QString withoutPaths(QString text)
{
    static const QRegularExpression path(QStringLiteral("(?:/[^\\s/:\"']+)+/([^\\s/:\"']+)"));
    return text.replace(path, QStringLiteral("\\1"));
}

QString nvccCommand(const CompileResult &c)
{
    QStringList parts;
    for (const QString &a : c.commandLine)
        parts << (a.startsWith(QLatin1Char('/')) ? QFileInfo(a).fileName() : a);
    return parts.join(QLatin1Char(' '));
}

VariantStatus statusOfStage(const QString &stage, VariantStatus current)
{
    if (stage == QLatin1String("compiling") || stage == QLatin1String("queued") || stage == QLatin1String("loading"))
        return VariantStatus::Compiling;
    if (stage == QLatin1String("verifying"))
        return VariantStatus::Verifying;
    if (stage == QLatin1String("timing"))
        return VariantStatus::Timing;
    if (stage == QLatin1String("tracing") || stage == QLatin1String("profiling"))
        return VariantStatus::Profiling;
    return current;
}

} // namespace

EvaluationQueue::EvaluationQueue(SessionStore *store, Evaluator *evaluator, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_evaluator(evaluator)
{
    qRegisterMetaType<kforge::QueuedEvaluation>();
    connect(m_evaluator, &Evaluator::progress, this, &EvaluationQueue::onProgress);
    connect(m_evaluator, &Evaluator::compiled, this, &EvaluationQueue::onCompiled);
    connect(m_evaluator, &Evaluator::measured, this, &EvaluationQueue::onMeasured);
    connect(m_evaluator, &Evaluator::finished, this, &EvaluationQueue::onFinished);
    // A session closed with evaluations in flight: their results belong to nobody.
    connect(m_store, &SessionStore::closed, this, [this] {
        for (const auto &[id, p] : m_pending)
            if (m_evaluator && p.variantId)
                m_evaluator->cancel(id);
        std::erase_if(m_pending, [](const auto &entry) { return entry.second.variantId != 0; });
        m_task.reset();
        m_taskOf.clear();
    });
    connect(m_store, &SessionStore::taskChanged, this, [this] { m_task.reset(); });
}

EvaluationQueue::~EvaluationQueue()
{
    for (const auto &[id, p] : m_pending)
        if (m_evaluator)
            m_evaluator->cancel(id);
}

Evaluator *EvaluationQueue::evaluator() const
{
    return m_evaluator;
}

SessionStore *EvaluationQueue::store() const
{
    return m_store;
}

bool EvaluationQueue::fail(const QString &message)
{
    m_error = message;
    return false;
}

qint64 EvaluationQueue::failId(const QString &message)
{
    fail(message);
    return 0;
}

QString EvaluationQueue::cannotEvaluate() const
{
    const WorkerReadiness readiness = m_evaluator ? m_evaluator->readiness()
                                                  : WorkerReadiness(WorkerReadiness::State::NoWorker);
    return readiness.isUnusable() ? readiness.explanation() : QString();
}

const Task *EvaluationQueue::task()
{
    if (m_task && m_taskOf == m_store->path())
        return &*m_task;
    m_task.reset();
    if (!m_store || !m_store->hasTask()) {
        fail(tr("Open a session with a task first."));
        return nullptr;
    }
    TaskLoadResult loaded = Task::fromFiles(m_store->task().name, m_store->task().files);
    if (!loaded.ok()) {
        fail(tr("The session's task does not load: %1").arg(loaded.error.message()));
        return nullptr;
    }
    m_task = std::move(loaded.task);
    m_taskOf = m_store->path();
    return &*m_task;
}

// ------------------------------------------------------------------------------------------------ submitting

int EvaluationQueue::enqueue(const EvalRequest &request, qint64 variantId, qint64 roundId)
{
    const int id = m_evaluator->submit(request);
    Pending p;
    p.ticket = id;
    p.variantId = variantId;
    p.roundId = roundId;
    if (!request.options.metrics)
        p.metricsSkipped = u"off"_s;
    if (variantId)
        p.request = request;
    m_pending[id] = std::move(p);
    return id;
}

std::map<int, EvaluationQueue::Pending>::iterator EvaluationQueue::findTicket(int ticket)
{
    return std::find_if(m_pending.begin(), m_pending.end(), [ticket](const auto &e) { return e.second.ticket == ticket; });
}

int EvaluationQueue::submit(qint64 variantId, const EvalOptions &options, qint64 roundId)
{
    return submitVariant(variantId, options, roundId, nullptr);
}

int EvaluationQueue::submitVariant(qint64 variantId, const EvalOptions &options, qint64 roundId,
                                   const EvalRequest *outside)
{
    m_error.clear();
    const Variant *v = m_store ? m_store->population().find(variantId) : nullptr;
    if (!v)
        fail(tr("There is no variant %1.").arg(variantId));
    const Task *t = v ? task() : nullptr;
    if (!v || !t) {
        if (m_store)
            m_store->variants().setStatus(variantId, VariantStatus::Failed, m_error);
        return 0;
    }
    EvalRequest req;
    req.task = *t;
    req.candidateSource = m_store->variants().source(variantId);
    if (v->origin == VariantOrigin::Reference)
        req.candidateName = t->referenceFileName();
    else
        req.candidateFlags = v->nvccFlags;
    if (outside) {
        req.candidateName = outside->candidateName;
        req.arch = outside->arch;
    }
    req.options = options;
    // A round's candidate gets the metrics pass by the policy; the reference's runs once per worker anyway.
    const bool byPolicy = roundId && v->origin != VariantOrigin::Reference;
    const QString metricsSkipped =
        byPolicy ? m_metricsPolicy.firstPass(req.options, m_metricsPolicy.minSpeedupAmongBest(variantId, m_store->population()))
                 : QString();
    const int id = enqueue(req, variantId, roundId);
    if (byPolicy)
        m_pending[id].metricsSkipped = metricsSkipped;
    m_store->variants().setStatus(variantId, VariantStatus::Compiling);
    return id;
}

int EvaluationQueue::submitSource(const EvalRequest &request)
{
    m_error.clear();
    return enqueue(request, 0, 0);
}

int EvaluationQueue::addVariant(const Variant &variant, const EvalRequest &request, qint64 *variantId)
{
    m_error.clear();
    if (variantId)
        *variantId = 0;
    if (!m_store || !m_store->isOpen() || !m_store->hasTask())
        return int(failId(tr("Open a session with a task first.")));
    if (request.candidateSource.trimmed().isEmpty())
        return int(failId(tr("The variant has no source.")));
    if (const QString why = cannotEvaluate(); !why.isEmpty())
        return int(failId(why));
    const qint64 id = m_store->variants().add(variant, {request.candidateSource, {}, {}});
    if (!id)
        return int(failId(m_store->errorString()));
    if (variantId)
        *variantId = id;
    return submitVariant(id, request.options, 0, &request);
}

qint64 EvaluationQueue::addManualVariant(const QString &source, const QList<qint64> &parentIds, const QString &label)
{
    m_error.clear();
    if (!m_store || !m_store->isOpen() || !m_store->hasTask())
        return failId(tr("Open a session with a task first."));
    if (source.trimmed().isEmpty())
        return failId(tr("The variant has no source."));
    if (const QString why = cannotEvaluate(); !why.isEmpty())
        return failId(why);
    Variant v;
    v.origin = VariantOrigin::Manual;
    v.parentIds = parentIds;
    v.label = label;
    const qint64 id = m_store->variants().add(v, {source, {}, {}});
    if (!id)
        return failId(m_store->errorString());
    submit(id, m_defaultOptions);
    return id;
}

qint64 EvaluationQueue::fork(qint64 parentId, const QString &source, const QString &label)
{
    m_error.clear();
    const Variant *parent = m_store ? m_store->population().find(parentId) : nullptr;
    if (!parent)
        return failId(tr("There is no variant %1 to fork.").arg(parentId));
    const QString name = label.isEmpty()
                             ? tr("fork of %1").arg(parent->label.isEmpty() ? QString::number(parentId) : parent->label)
                             : label;
    return addManualVariant(source.isEmpty() ? m_store->variants().source(parentId) : source, {parentId}, name);
}

bool EvaluationQueue::reevaluate(qint64 variantId, bool sourceProfile)
{
    m_error.clear();
    if (!m_store || !m_store->population().contains(variantId))
        return fail(tr("There is no variant %1.").arg(variantId));
    if (isEvaluating(variantId))
        return fail(tr("Variant %1 is being evaluated already.").arg(variantId));
    if (const QString why = cannotEvaluate(); !why.isEmpty())
        return fail(why);
    EvalOptions options = m_defaultOptions;
    options.sourceProfile = options.sourceProfile || sourceProfile;
    return submit(variantId, options) != 0;
}

void EvaluationQueue::prepare(const EvalRequest &request)
{
    if (m_evaluator)
        m_evaluator->prepare(request);
}

void EvaluationQueue::cancel(int ticket)
{
    if (const auto it = findTicket(ticket); m_evaluator && it != m_pending.end())
        m_evaluator->cancel(it->first);
}

bool EvaluationQueue::isEvaluating(qint64 variantId) const
{
    for (const auto &[id, p] : m_pending)
        if (p.variantId == variantId)
            return true;
    return false;
}

qint64 EvaluationQueue::variantOf(int ticket) const
{
    for (const auto &[id, p] : m_pending)
        if (p.ticket == ticket)
            return p.variantId;
    return 0;
}

// ------------------------------------------------------------------------------------------------ results

void EvaluationQueue::onProgress(int id, const QString &stage)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    Q_EMIT progress(it->second.ticket, stage);
    const Variant *v = it->second.variantId ? m_store->population().find(it->second.variantId) : nullptr;
    if (!v || it->second.deep)
        return; // a deep check's stages leave the status at "deep check running"
    const VariantStatus next = statusOfStage(stage, v->status);
    if (next != v->status)
        m_store->variants().setStatus(v->id, next);
}

void EvaluationQueue::onMeasured(int id, const EvalResult &provisional)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end() || it->second.deep)
        return;
    Q_EMIT this->provisional(it->second.ticket, provisional);
}

void EvaluationQueue::onCompiled(int id, const CompileResult &result)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    it->second.compiled = result;
    if (!it->second.deep) // the deep check compiles the same source again (a cache hit): said once
        Q_EMIT compiled(id, result);
}

void EvaluationQueue::onFinished(int id, const EvalResult &measured)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    const Pending pending = it->second;
    m_pending.erase(it);
    // What was not measured says so (the panels, the report and the prompt show "not measured", never zeros).
    EvalResult result = measured;
    if (!pending.metricsSkipped.isEmpty() && result.metrics.isEmpty() && result.hasTiming())
        result.metricsSkipped = pending.metricsSkipped;

    QueuedEvaluation done;
    done.ticket = pending.ticket;
    done.variantId = pending.variantId;
    done.roundId = pending.roundId;
    done.result = result;
    done.compiled = pending.compiled;
    done.deepChecked = pending.deep;
    done.firstEvaluationId = pending.firstEvaluationId;
    done.metricsFollowUp = pending.metricsFollowUp;
    if (pending.variantId && pending.metricsFollowUp) {
        if (done.cancelled()) {
            // The first result stays the latest evaluation, without metrics.
            m_store->variants().setStatus(pending.variantId, VariantStatus::Done);
        } else {
            done.stored = storedResult(result, pending.compiled);
            done.evaluationId = commitStored(pending.variantId, *done.stored, pending.compiled);
        }
    } else if (pending.variantId && pending.deep) {
        done.evaluationId = concludeDeepCheck(pending, done.result, done.stored);
    } else if (pending.variantId) {
        if (done.cancelled()) {
            m_store->variants().setStatus(pending.variantId, VariantStatus::Failed, tr("The evaluation was cancelled."));
        } else {
            done.stored = storedResult(result, pending.compiled);
            done.evaluationId = commitStored(pending.variantId, *done.stored, pending.compiled);
            const Variant *v = m_store->population().find(pending.variantId);
            // Too good to be trusted as measured: check it deeper before anyone (a round, the user) relies on it.
            if (done.evaluationId && result.isCorrect() && v && v->suspicious && !v->accepted
                && startDeepCheck(pending, done.evaluationId))
                return;
            // Among the session's best: worth the metrics pass it went without.
            if (done.evaluationId && result.isCorrect() && result.metricsSkipped == u"not_among_best"
                && m_metricsPolicy.pays(pending.variantId, result.speedup, m_store->population())
                && startMetricsFollowUp(pending, done.evaluationId))
                return;
        }
    }
    Q_EMIT finished(done);
}

bool EvaluationQueue::startDeepCheck(Pending pending, qint64 firstEvaluationId)
{
    if (!pending.request || !m_evaluator)
        return false;
    const Variant *v = m_store->population().find(pending.variantId);
    pending.suspicion = v ? v->suspiciousReason : QString();
    pending.deep = true;
    pending.firstEvaluationId = firstEvaluationId;
    pending.request->options.deep = true;
    pending.request->options.sourceProfile = false; // the deep check judges; profiling is not its job
    const int id = m_evaluator->submit(*pending.request);
    const int ticket = pending.ticket;
    const qint64 variantId = pending.variantId;
    const QString reason = pending.suspicion;
    m_pending[id] = std::move(pending);
    m_store->variants().setStatus(variantId, VariantStatus::Verifying, tr("deep check running: %1").arg(reason));
    Q_EMIT deepCheckStarted(ticket, variantId, reason);
    return true;
}

bool EvaluationQueue::startMetricsFollowUp(Pending pending, qint64 firstEvaluationId)
{
    if (!pending.request || !m_evaluator)
        return false;
    pending.metricsFollowUp = true;
    pending.metricsSkipped.clear();
    pending.firstEvaluationId = firstEvaluationId;
    pending.request->options.metrics = true;
    pending.request->options.sourceProfile = false;
    const int id = m_evaluator->submit(*pending.request);
    m_pending[id] = std::move(pending);
    return true;
}

qint64 EvaluationQueue::concludeDeepCheck(const Pending &pending, EvalResult &result, std::optional<Measurement> &stored)
{
    const qint64 variantId = pending.variantId;
    if (result.errorCode == QLatin1String("cancelled")) {
        // The first result stays the latest evaluation, and stays held.
        m_store->variants().setStatus(variantId, VariantStatus::Done, tr("The deep check was cancelled."));
        m_store->variants().setSuspicious(variantId, true,
                                          tr("the deep check was cancelled; first result: %1").arg(pending.suspicion));
        return 0;
    }
    const bool ran = result.ranDeepCheck();
    const bool passed = ran && result.isCorrect() && !result.hasFlag(u"below_speed_of_light"_s);
    QString held;
    if (passed) {
        result.flags.append(u"deep_checked"_s);
    } else if (result.isCorrect()) {
        result.flags.append(u"held_for_review"_s);
        held = ran ? tr("the deep check passed, but the result is still under the speed-of-light floor, which no "
                        "kernel can be")
                   : tr("the worker did not run the deep check (an older kforge-worker without deep support); %1")
                         .arg(pending.suspicion);
    } else {
        const QString why = result.message.section(QLatin1Char('\n'), 0, 0);
        held = result.verdict == Verdict::Error
                   ? tr("the deep check could not run: %1").arg(why)
                   : tr("the deep check failed (%1): %2").arg(verdictDisplayName(result.verdict), why);
    }
    // The deep check's result becomes the latest evaluation whatever it says: a failure is not hidden behind
    // the first run's numbers.
    stored = storedResult(result, pending.compiled);
    const qint64 evaluationId = commitStored(variantId, *stored, pending.compiled);
    if (!evaluationId)
        stored.reset();
    if (passed)
        m_store->variants().setAccepted(variantId, true);
    else
        m_store->variants().setSuspicious(variantId, true, held);
    return evaluationId;
}

qint64 EvaluationQueue::commit(qint64 variantId, const EvalResult &result, const std::optional<CompileResult> &compiled,
                               const QJsonObject &device)
{
    return commitStored(variantId, storedResult(result, compiled), compiled, device);
}

qint64 EvaluationQueue::commitStored(qint64 variantId, const Measurement &result,
                                     const std::optional<CompileResult> &compiled, const QJsonObject &deviceJson)
{
    QJsonObject device = deviceJson.isEmpty() ? deviceOf(result) : deviceJson;
    if (!result.workerName.isEmpty())
        device.insert(u"worker"_s, result.workerName);
    const QStringList flags = compiled ? compiled->commandLine : QStringList();
    // The store keeps the Measurement itself beside the document it writes: the panels read this one, unparsed.
    const qint64 evaluationId = m_store->evaluations().add(
        Evaluation::fromMeasurement(variantId, result, device, flags, compiled ? compiled->nvccVersion : QString()));
    if (!evaluationId)
        fail(m_store->errorString());
    if (result.isCorrect()) {
        m_store->variants().setStatus(variantId, VariantStatus::Done);
    } else {
        QString reason = verdictDisplayName(result.verdict);
        if (!result.message.isEmpty())
            reason += QLatin1String(": ") + result.message.section(QLatin1Char('\n'), 0, 0);
        m_store->variants().setStatus(variantId, VariantStatus::Failed, reason);
    }
    return evaluationId;
}

QJsonObject EvaluationQueue::deviceOf(const EvalResult &result) const
{
    QJsonObject device = m_deviceLookup ? m_deviceLookup(result.deviceName) : QJsonObject();
    if (device.isEmpty())
        device.insert(u"name"_s, result.deviceName);
    if (!result.workerName.isEmpty())
        device.insert(u"worker"_s, result.workerName);
    return device;
}

Measurement EvaluationQueue::storedResult(const EvalResult &r, const std::optional<CompileResult> &compiled)
{
    CompileSummary c;
    if (compiled) {
        c.present = true;
        c.ok = compiled->ok;
        c.cacheHit = compiled->cacheHit;
        c.resources = compiled->resources;
        c.diagnostics = compiled->diagnostics;
        c.log = withoutPaths(compiled->log).left(kMaxLogChars);
        c.command = nvccCommand(*compiled);
        c.nvccVersion = compiled->nvccVersion;
        c.arch = compiled->arch;
        c.elapsedMs = compiled->elapsedMs;
    }
    return Measurement(r, c);
}

} // namespace kforge
