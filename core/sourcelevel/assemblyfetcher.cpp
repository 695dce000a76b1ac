#include "core/sourcelevel/assemblyfetcher.h"

#include "core/async/lateresultguard.h"
#include "core/compile/compiler.h"
#include "core/compile/compileresult.h"
#include "core/compile/cudatoolkit.h"
#include "core/workerpool/workerclient.h"
#include "core/workerpool/workerpool.h"
#include "core/workerpool/workerreply.h"

#include <QJsonArray>
#include <QtConcurrent>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

bool localDisassembler(const QString &nvcc)
{
    return !CudaToolkit::locateTool(u"nvdisasm"_s, nvcc).isEmpty()
           || !CudaToolkit::locateTool(u"cuobjdump"_s, nvcc).isEmpty();
}

// The worker that can answer soonest: an idle one, else a busy one (the request queues behind its job),
// else one still starting. Failed and stopped workers cannot answer.
WorkerClient *pickWorker(const WorkerPool *pool, int *index)
{
    if (!pool)
        return nullptr;
    for (WorkerClient::State wanted :
         {WorkerClient::State::Idle, WorkerClient::State::Busy, WorkerClient::State::Starting}) {
        for (int i = 0; i < pool->workerCount(); ++i) {
            if (WorkerClient *w = pool->worker(i); w && w->state() == wanted) {
                *index = i;
                return w;
            }
        }
    }
    return nullptr;
}

} // namespace

SassListing AssemblyFetcher::parseDisassembly(const QJsonObject &body)
{
    SassListing listing;
    for (const QJsonValue &c : body.value("cubins"_L1).toArray())
        listing.append(SassListing::parseNvdisasm(c.toObject().value("sass"_L1).toString()));
    if (listing.functions.isEmpty() && body.contains("cuobjdump_sass"_L1))
        listing = SassListing::parseCuobjdump(body.value("cuobjdump_sass"_L1).toString());
    if (listing.arch.isEmpty())
        listing.arch = body.value("arch"_L1).toString();
    return listing;
}

AssemblyFetcher::AssemblyFetcher(Compiler *compiler, WorkerPool *pool, QObject *parent)
    : QObject(parent)
    , m_compiler(compiler)
    , m_pool(pool)
{
    connect(compiler, &Compiler::finished, this, &AssemblyFetcher::onCompiled);
}

AssemblyFetcher::~AssemblyFetcher() = default;

int AssemblyFetcher::fetch(CompileRequest request)
{
    const int id = m_nextId++;
    Job &job = m_jobs[id];
    job.id = id;
    job.request = request;
    job.assembly.fileName = Compiler::sanitizedFileName(request.fileName);
    request.output = CompileOutput::Ptx;
    job.ptxCompile = m_compiler->compile(request);
    // SASS locally when this toolkit has a disassembler; else build the .so and ask a worker.
    request.output = localDisassembler(m_compiler->nvccPath()) ? CompileOutput::Sass : CompileOutput::SharedObject;
    (request.output == CompileOutput::Sass ? job.sassCompile : job.soCompile) = m_compiler->compile(request);
    return id;
}

void AssemblyFetcher::cancel(int id)
{
    const auto it = m_jobs.find(id);
    if (it == m_jobs.end())
        return;
    for (int c : {it->second.ptxCompile, it->second.sassCompile, it->second.soCompile}) {
        if (c > 0 && m_compiler)
            m_compiler->cancel(c);
    }
    if (auto *w = qobject_cast<WorkerClient *>(it->second.worker.data()); w && it->second.workerRequest > 0)
        w->cancel(it->second.workerRequest);
    m_jobs.erase(it);
}

AssemblyFetcher::Job *AssemblyFetcher::jobOfCompile(int compileJob)
{
    for (auto &[id, job] : m_jobs) {
        if (job.ptxCompile == compileJob || job.sassCompile == compileJob || job.soCompile == compileJob)
            return &job;
    }
    return nullptr;
}

void AssemblyFetcher::onCompiled(int compileJob, const CompileResult &result)
{
    Job *job = jobOfCompile(compileJob);
    if (!job)
        return;
    const int id = job->id;
    if (compileJob == job->ptxCompile) {
        job->ptxCompile = 0;
        if (!result.ok) {
            job->assembly.ptxError = tr("nvcc could not produce PTX: %1").arg(result.firstError());
            job->assembly.ptxDone = true;
            Q_EMIT updated(id, job->assembly);
            maybeFinish(id);
            return;
        }
        const auto parsed = QtConcurrent::run([text = result.text] { return PtxListing::parse(text); });
        whenFinished(this, parsed, [this, id](const PtxListing &ptx) {
            const auto it = m_jobs.find(id);
            if (it == m_jobs.end())
                return; // cancelled meanwhile
            Assembly &a = it->second.assembly;
            a.ptx = ptx;
            a.ptxDone = true;
            if (!a.ptx.hasLineInfo())
                a.ptxError = tr("The PTX has no line table, so lines cannot be matched: compile with -lineinfo.");
            Q_EMIT updated(id, a);
            maybeFinish(id);
        });
        return;
    }
    if (!result.resources.isEmpty())
        job->assembly.resources = result.resources;
    if (compileJob == job->sassCompile) {
        job->sassCompile = 0;
        if (!result.ok) {
            sassFailed(*job, tr("No SASS: %1").arg(result.firstError()));
            return;
        }
        const QString tool = result.commandLine.isEmpty() ? QString() : QFileInfo(result.commandLine.first()).fileName();
        const auto parsed = QtConcurrent::run([text = result.text] { return SassListing::parse(text); });
        whenFinished(this, parsed, [this, id, tool](const SassListing &sass) { sassParsed(id, sass, tr("%1 (local)").arg(tool)); });
        return;
    }
    // The .so for a worker to disassemble.
    job->soCompile = 0;
    if (!result.ok) {
        sassFailed(*job, tr("No SASS: the kernel does not compile: %1").arg(result.firstError()));
        return;
    }
    askWorker(*job, result.artifactPath);
}

void AssemblyFetcher::askWorker(Job &job, const QString &soPath)
{
    int index = -1;
    WorkerClient *worker = pickWorker(m_pool, &index);
    if (!worker) {
        const QString nvcc = m_compiler ? m_compiler->nvccPath() : QString();
        sassFailed(job, m_pool && m_pool->workerCount() > 0
                            ? tr("No SASS: this machine's CUDA toolkit (%1) has neither nvdisasm nor cuobjdump, and no "
                                 "worker is running to disassemble on its GPU host. Start a worker (Settings → "
                                 "Workers) or install the toolkit's nvdisasm here.")
                                  .arg(nvcc.isEmpty() ? tr("no nvcc found") : nvcc)
                            : tr("No SASS: this machine's CUDA toolkit (%1) has neither nvdisasm nor cuobjdump, and no "
                                 "worker is configured to disassemble on a GPU host. Add a worker (Settings → Workers) "
                                 "or install the toolkit's nvdisasm here (package cuda-nvdisasm).")
                                  .arg(nvcc.isEmpty() ? tr("no nvcc found") : nvcc));
        return;
    }
    job.worker = worker;
    job.workerName = worker->config().name.isEmpty() ? QString::number(index + 1) : worker->config().name;
    // One connection per worker; replies to other requests (the pool's evaluations) match no job.
    if (!m_connected.contains(worker)) {
        m_connected.insert(worker);
        connect(worker, &WorkerClient::replied, this, [this, worker](int requestId, const WorkerReply &reply) {
            for (auto &[id, j] : m_jobs) {
                if (j.worker == worker && j.workerRequest == requestId) {
                    onWorkerReply(id, reply);
                    return;
                }
            }
        });
        connect(worker, &QObject::destroyed, this, [this, worker] { m_connected.remove(worker); });
    }
    job.workerRequest = worker->disassemble(soPath);
}

void AssemblyFetcher::onWorkerReply(int id, const WorkerReply &reply)
{
    const auto it = m_jobs.find(id);
    if (it == m_jobs.end())
        return;
    Job &job = it->second;
    job.workerRequest = 0;
    if (!reply.ok) {
        if (reply.errorCode == u"no_disassembler")
            sassFailed(job, tr("No SASS: the worker host has no disassembler (%1). Install the CUDA toolkit's nvdisasm "
                               "or cuobjdump there, or put its bin folder on the worker's PATH.")
                                .arg(reply.errorMessage));
        else if (reply.errorCode == u"bad_request")
            sassFailed(job, tr("No SASS: worker %1 does not know the disassemble request (%2); update kforge-worker on "
                               "its host.")
                                .arg(job.workerName, reply.errorMessage));
        else
            sassFailed(job,
                       tr("No SASS: worker %1 could not disassemble the kernel: %2").arg(job.workerName, reply.errorMessage));
        return;
    }
    const QJsonObject body = reply.body;
    const QString tool = tr("%1 on worker %2").arg(body.value("tool"_L1).toString(u"?"_s), job.workerName);
    whenFinished(this, QtConcurrent::run([body] { return parseDisassembly(body); }),
                 [this, id, tool](const SassListing &sass) { sassParsed(id, sass, tool); });
}

void AssemblyFetcher::sassParsed(int id, SassListing listing, const QString &tool)
{
    const auto it = m_jobs.find(id);
    if (it == m_jobs.end())
        return;
    Assembly &a = it->second.assembly;
    a.sass = std::move(listing);
    a.sassTool = tool;
    a.sassDone = true;
    if (a.sass.functions.isEmpty())
        a.sassError = tr("The disassembler (%1) printed no functions.").arg(tool);
    else if (!a.sass.hasLineInfo())
        a.sassError = tr("The SASS from %1 has no line information (cuobjdump prints none; nvdisasm --print-line-info "
                         "on a -lineinfo build does), so instructions cannot be matched to source lines.")
                          .arg(tool);
    Q_EMIT updated(id, a);
    maybeFinish(id);
}

void AssemblyFetcher::sassFailed(Job &job, const QString &message)
{
    job.assembly.sassError = message;
    job.assembly.sassDone = true;
    Q_EMIT updated(job.id, job.assembly);
    maybeFinish(job.id);
}

void AssemblyFetcher::maybeFinish(int id)
{
    const auto it = m_jobs.find(id);
    if (it == m_jobs.end() || !it->second.assembly.ptxDone || !it->second.assembly.sassDone)
        return;
    const Assembly a = it->second.assembly;
    m_jobs.erase(it);
    Q_EMIT finished(id, a);
}

} // namespace kforge
