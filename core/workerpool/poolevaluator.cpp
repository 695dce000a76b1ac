#include "core/workerpool/poolevaluator.h"

#include "core/compile/compiler.h"
#include "core/task/sourcelanguage.h"
#include "core/workerpool/workerpool.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// A torch task's module as a file the worker can load: <cache>/torch-sources/<sha-256>/<name>, written once.
// The same text gets the same path, so a worker that still holds the reference is not asked to load it again.
QString torchSourceFile(const QString &name, const QByteArray &bytes, QString *error)
{
    const QString hash = QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + u"/torch-sources/"_s + hash;
    const QString path = dir + u'/' + QFileInfo(name).fileName();
    if (QFileInfo::exists(path))
        return path;
    QSaveFile f(path);
    if (!QDir().mkpath(dir) || !f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        *error = PoolEvaluator::tr("Cannot write %1: %2").arg(path, f.errorString());
        return {};
    }
    return path;
}

// A torch task's ModelNew candidate as the worker gets it, and its file name: the reference measured as a candidate
// is its Model under the name the worker looks up.
QString moduleText(const EvalRequest &request, QString *name)
{
    QString text = request.candidateSource;
    static const QRegularExpression modelNew(u"^(class\\s+ModelNew\\b|ModelNew\\s*=)"_s,
                                             QRegularExpression::MultilineOption);
    static const QRegularExpression model(u"^class\\s+Model\\s*\\("_s, QRegularExpression::MultilineOption);
    if (!modelNew.match(text).hasMatch() && model.match(text).hasMatch())
        text += u"\n\nModelNew = Model  # KForge: the reference measured as a candidate\n"_s;
    *name = request.candidateName.endsWith(u".py"_s) ? request.candidateName : u"candidate.py"_s;
    return text;
}

bool isKernelSource(const EvalRequest &request)
{
    return !request.task.isTorch()
           || (!request.candidateName.endsWith(u".py"_s) && sourceLanguage(request.candidateSource) == SourceLanguage::Cuda);
}

} // namespace

PoolEvaluator::PoolEvaluator(Compiler *compiler, WorkerPool *pool, QObject *parent)
    : Evaluator(parent)
    , m_compiler(compiler)
    , m_pool(pool)
{
    qRegisterMetaType<kforge::EvalResult>();
    qRegisterMetaType<kforge::CompileResult>();
    connect(compiler, &Compiler::finished, this, &PoolEvaluator::onCompiled);
    connect(pool, &WorkerPool::finished, this, &PoolEvaluator::onPoolFinished);
    connect(pool, &WorkerPool::progress, this, [this](int poolJob, const QString &stage) {
        if (const auto it = m_byPoolJob.constFind(poolJob); it != m_byPoolJob.cend())
            Q_EMIT progress(*it, stage);
    });
    connect(pool, &WorkerPool::measured, this, [this](int poolJob, EvalResult provisional) {
        const auto it = m_byPoolJob.constFind(poolJob);
        if (it == m_byPoolJob.cend())
            return;
        // Since submit(), as finish() counts the final result's turnaround.
        if (const auto p = m_pending.find(*it); p != m_pending.end())
            provisional.elapsedMs = double(p->second.clock.nsecsElapsed()) / 1e6;
        Q_EMIT measured(*it, provisional);
    });
    connect(pool, &WorkerPool::deviceReported, this, &PoolEvaluator::startWaiting);
    connect(pool, &WorkerPool::devicesSettledChanged, this, &PoolEvaluator::startWaiting);
    connect(pool, &WorkerPool::readinessChanged, this, &Evaluator::readinessChanged);
}

WorkerReadiness PoolEvaluator::readiness() const
{
    return m_pool ? m_pool->readiness() : WorkerReadiness(WorkerReadiness::State::NoWorker);
}

int PoolEvaluator::submit(const EvalRequest &request)
{
    const int id = m_nextId++;
    Pending &p = m_pending[id];
    p.id = id;
    p.request = request;
    p.clock.start();
    // The same workers judge every kind; a torch task's readiness also asks for their Python with torch.
    if (m_pool && request.task.isValid())
        m_pool->setTaskKind(request.task.kind());
    // Compile for the worker's GPU: wait for the first device report unless the caller chose the arch.
    p.waitingForDevice = request.arch.isEmpty() && m_pool && m_pool->arch().isEmpty() && !m_pool->devicesSettled();
    QMetaObject::invokeMethod(
        this,
        [this, id] {
            const auto it = m_pending.find(id);
            if (it == m_pending.end())
                return;
            Q_EMIT progress(id, u"compiling"_s);
            if (!it->second.waitingForDevice)
                startCompiles(it->second);
        },
        Qt::QueuedConnection);
    return id;
}

void PoolEvaluator::prepare(const EvalRequest &request)
{
    if (!m_compiler || !m_pool || !request.task.isValid())
        return;
    if (isKernelSource(request)) {
        // The compile the evaluation's own will find in the cache (or join, while it runs): for the workers'
        // architecture only, which is known once one reported its device.
        const QString arch = !request.arch.isEmpty() ? request.arch : m_pool->arch();
        if (arch.isEmpty())
            return;
        CompileRequest cand;
        cand.source = request.candidateSource;
        cand.fileName = request.candidateName;
        cand.flags = request.task.nvccFlags() + request.candidateFlags;
        cand.arch = arch;
        m_compiler->compile(cand); // its result is not awaited: onCompiled knows no evaluation of it
        return;
    }
    // Only a module that builds extensions of its own has anything to build ahead.
    static const QRegularExpression builds(u"\\bload_inline\\b|cpp_extension\\.load\\b"_s);
    if (!builds.match(request.candidateSource).hasMatch())
        return;
    QString name, error;
    const QByteArray bytes = moduleText(request, &name).toUtf8();
    const QString path = torchSourceFile(name, bytes, &error);
    if (path.isEmpty())
        return; // the evaluation says why
    // The candidate is built with what the reference is built with: the task's init inputs, else the module's own.
    const QJsonValue init = request.task.toJson().value(u"init_inputs"_s);
    m_pool->prebuild(path, init.isArray() && !init.toArray().isEmpty() ? init : QJsonValue(QJsonValue::Null));
}

void PoolEvaluator::startWaiting()
{
    if (!m_pool || (m_pool->arch().isEmpty() && !m_pool->devicesSettled()))
        return;
    std::vector<int> ids;
    for (auto &[id, p] : m_pending)
        if (p.waitingForDevice)
            ids.push_back(id);
    for (int id : ids) {
        const auto it = m_pending.find(id);
        if (it == m_pending.end())
            continue;
        it->second.waitingForDevice = false;
        startCompiles(it->second);
    }
}

void PoolEvaluator::startCompiles(Pending &p)
{
    if (!m_compiler || !m_pool) {
        finish(p.id, EvalResult::failure(Verdict::Error, tr("The evaluator has no compiler or worker pool.")));
        return;
    }
    const Task &task = p.request.task;
    if (!task.isValid()) {
        finish(p.id, EvalResult::failure(Verdict::Error, tr("No task was given for the evaluation.")));
        return;
    }
    p.arch = !p.request.arch.isEmpty()   ? p.request.arch
             : !m_pool->arch().isEmpty() ? m_pool->arch()
                                         : m_compiler->defaultArch();
    if (task.isTorch()) {
        startTorch(p);
        return;
    }
    CompileRequest ref;
    ref.source = task.referenceSource();
    ref.fileName = u"reference.cu"_s;
    ref.flags = task.nvccFlags();
    ref.arch = p.arch;
    CompileRequest cand;
    cand.source = p.request.candidateSource;
    cand.fileName = p.request.candidateName;
    cand.flags = task.nvccFlags() + p.request.candidateFlags;
    cand.arch = p.arch;
    p.referenceJob = m_compiler->compile(ref);
    p.candidateJob = m_compiler->compile(cand);
    m_byCompileJob.insert(p.referenceJob, p.id);
    m_byCompileJob.insert(p.candidateJob, p.id);
}

void PoolEvaluator::startTorch(Pending &p)
{
    const Task &task = p.request.task;
    QString error;
    CompileResult reference;
    reference.ok = true;
    reference.artifactPath = torchSourceFile(task.referenceFileName(), task.referenceSource().toUtf8(), &error);
    if (reference.artifactPath.isEmpty()) {
        finish(p.id, EvalResult::failure(Verdict::Error, error));
        return;
    }
    p.reference = reference;
    const QString &source = p.request.candidateSource;
    if (isKernelSource(p.request)) {
        // A KForge .cu: the compiler's diagnostics and cache as for a CUDA task; the worker gets the .so.
        CompileRequest cand;
        cand.source = source;
        cand.fileName = p.request.candidateName;
        cand.flags = task.nvccFlags() + p.request.candidateFlags;
        cand.arch = p.arch;
        p.candidateJob = m_compiler->compile(cand);
        m_byCompileJob.insert(p.candidateJob, p.id);
        return;
    }
    // A ModelNew module: nothing to compile here (load_inline builds in the worker's candidate host, or ahead of it
    // through prepare()).
    QString name;
    const QString text = moduleText(p.request, &name);
    CompileResult candidate;
    candidate.ok = true;
    candidate.artifactPath = torchSourceFile(name, text.toUtf8(), &error);
    if (candidate.artifactPath.isEmpty()) {
        finish(p.id, EvalResult::failure(Verdict::Error, error));
        return;
    }
    p.candidate = candidate;
    submitToPool(p);
}

void PoolEvaluator::onCompiled(int compileJob, const CompileResult &result)
{
    const auto byJob = m_byCompileJob.constFind(compileJob);
    if (byJob == m_byCompileJob.cend())
        return;
    const int id = *byJob;
    m_byCompileJob.erase(byJob);
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    Pending &p = it->second;
    if (compileJob == p.referenceJob)
        p.reference = result;
    else
        p.candidate = result;
    if (!p.reference || !p.candidate)
        return;

    Q_EMIT compiled(id, *p.candidate);
    if (!p.candidate->ok) {
        EvalResult r = EvalResult::failure(p.candidate->cancelled ? Verdict::Error : Verdict::CompileError,
                                           p.candidate->errorMessage);
        if (const QString first = p.candidate->firstError(); !first.isEmpty() && first != r.message)
            r.message += u'\n' + first;
        finish(id, r);
        return;
    }
    if (!p.reference->ok) {
        finish(id, EvalResult::failure(Verdict::Error, tr("The task's reference does not compile: %1\n%2")
                                                           .arg(p.reference->errorMessage, p.reference->firstError())));
        return;
    }
    submitToPool(p);
}

void PoolEvaluator::submitToPool(Pending &p)
{
    const int id = p.id;
    Q_EMIT progress(id, u"queued"_s);
    EvalJob job;
    job.referenceSo = p.reference->artifactPath;
    job.candidateSo = p.candidate->artifactPath;
    job.task = p.request.task.toJson();
    job.taskKind = p.request.task.kind();
    job.options = p.request.options;
    job.timeoutMs = int(p.request.task.timeoutS() * 1000);
    p.poolJob = m_pool->submit(job);
    m_byPoolJob.insert(p.poolJob, id);
}

void PoolEvaluator::onPoolFinished(int poolJob, const EvalResult &result)
{
    const auto byJob = m_byPoolJob.constFind(poolJob);
    if (byJob == m_byPoolJob.cend())
        return;
    const int id = *byJob;
    m_byPoolJob.erase(byJob);
    finish(id, result);
}

void PoolEvaluator::cancel(int id)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    Pending &p = it->second;
    if (p.poolJob && m_pool) {
        m_pool->cancel(p.poolJob); // answers through onPoolFinished
        return;
    }
    for (int job : {p.referenceJob, p.candidateJob})
        if (job) {
            m_byCompileJob.remove(job);
            if (m_compiler)
                m_compiler->cancel(job);
        }
    QMetaObject::invokeMethod(
        this,
        [this, id] {
            finish(id, EvalResult::failure(Verdict::Error, tr("The evaluation was cancelled."), u"cancelled"_s));
        },
        Qt::QueuedConnection);
    p.referenceJob = p.candidateJob = 0;
    p.waitingForDevice = false;
}

void PoolEvaluator::finish(int id, EvalResult result)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    result.elapsedMs = double(it->second.clock.nsecsElapsed()) / 1e6;
    m_pending.erase(it);
    Q_EMIT finished(id, result);
}

} // namespace kforge
