#include "core/compile/compiler.h"

#include "core/compile/cudatoolkit.h"
#include "core/compile/diagnosticparser.h"
#include "core/compile/nvccrun.h"
#include "core/compile/ptxasresourceparser.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString artifactName(CompileOutput output)
{
    switch (output) {
    case CompileOutput::SharedObject: return u"kernel.so"_s;
    case CompileOutput::Ptx: return u"kernel.ptx"_s;
    case CompileOutput::Sass: return u"kernel.sass"_s;
    }
    return {};
}

bool isLinkFlag(const QString &flag)
{
    return flag.startsWith(u"-l") || flag.startsWith(u"-L") || flag.startsWith(u"--library") || flag == u"-Xlinker"
           || flag.startsWith(u"-Xlinker=") || flag.startsWith(u"--linker-options");
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

} // namespace

QString readCompilerText(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

struct Compiler::Job {
    int id = 0;
    CompileRequest request;
    QString arch;
    QString key;
    QString fileName;
    QElapsedTimer clock;
    std::unique_ptr<QTemporaryDir> work;
    QPointer<NvccRun> nvcc;
    QPointer<QProcess> process; // the disassembler
    QPointer<QTimer> timer;
    bool disassembling = false;
    bool timedOut = false;
    bool cancelled = false;
    QString log;
    QString disassembly;
    QStringList command;
    QList<CompilePhase> phases;
    QList<int> followers; // queued jobs with the same cache key, answered from this job's result
};

Compiler::Compiler(QObject *parent)
    : QObject(parent)
    , m_defaultArch(u"sm_90"_s)
    , m_maxParallel(qMax(1, QThread::idealThreadCount()))
{
    qRegisterMetaType<kforge::CompileResult>();
}

Compiler::~Compiler()
{
    // Processes are children; stop them without running the result handlers on a half-destroyed object.
    for (auto &[id, job] : m_jobs) {
        if (job->nvcc) {
            job->nvcc->disconnect(this);
            delete job->nvcc; // kills its tools and waits for them
        }
        if (job->process) {
            job->process->disconnect(this);
            job->process->kill();
            job->process->waitForFinished(1000);
        }
    }
    if (m_versionProbe) {
        m_versionProbe->disconnect(this);
        m_versionProbe->kill();
        m_versionProbe->waitForFinished(1000);
    }
}

void Compiler::setNvccPath(const QString &path)
{
    if (path == m_nvccOverride)
        return;
    m_nvccOverride = path;
    m_nvccResolved = false;
    m_nvccVersion.clear();
    m_nvccVersionKey.clear();
}

QString Compiler::nvccPath() const
{
    if (!m_nvccResolved) {
        m_nvcc = CudaToolkit::locateNvcc(m_nvccOverride);
        m_nvccResolved = true;
    }
    return m_nvcc;
}

void Compiler::setDefaultArch(const QString &arch)
{
    m_defaultArch = arch;
}
QString Compiler::defaultArch() const
{
    return m_defaultArch;
}
void Compiler::setCacheDir(const QString &dir)
{
    m_cacheDir = dir;
}
void Compiler::setCacheLimitBytes(qint64 bytes)
{
    m_cacheLimit = qMax<qint64>(0, bytes);
}

void Compiler::setMaxParallel(int jobs)
{
    m_maxParallel = qMax(1, jobs);
}
QString Compiler::sanitizedFileName(const QString &name)
{
    QString base = QFileInfo(name).fileName();
    static const QRegularExpression unsafe(u"[^A-Za-z0-9_.+-]"_s);
    base.replace(unsafe, u"_"_s);
    if (base.isEmpty() || base.startsWith(u'.'))
        base = u"kernel.cu"_s;
    if (!base.endsWith(u".cu"))
        base += u".cu"_s;
    return base;
}

int Compiler::maxParallel() const
{
    return m_maxParallel;
}
void Compiler::setAbiIncludeDir(const QString &dir)
{
    m_abiIncludeDir = dir;
}

QString Compiler::abiIncludeDir() const
{
    return m_abiIncludeDir.isEmpty() ? CudaToolkit::locateAbiIncludeDir() : m_abiIncludeDir;
}

void Compiler::setTimeoutMs(int ms)
{
    m_timeoutMs = qMax(1000, ms);
}
void Compiler::setParallelSteps(bool on)
{
    m_parallelSteps = on;
}

void Compiler::setBaseFlags(const QStringList &flags)
{
    m_baseFlags = flags;
}
QString Compiler::nvccVersion() const
{
    return m_nvccVersion;
}

int Compiler::pendingJobs() const
{
    return int(m_jobs.size());
}

QStringList Compiler::arguments(const CompileRequest &request, const QString &arch, const QString &outputFile) const
{
    QStringList args = m_baseFlags;
    args << KernelBuildFlags::arch(arch);
    const bool link = request.output == CompileOutput::SharedObject;
    switch (request.output) {
    case CompileOutput::SharedObject:
        args << KernelBuildFlags::sharedObject()
             << KernelBuildFlags::sharedObjectChecks(CudaToolkit::libraryDir(nvccPath()));
        break;
    case CompileOutput::Ptx: args << KernelBuildFlags::ptx(); break;
    case CompileOutput::Sass: args << KernelBuildFlags::sass(); break;
    }
    if (const QString inc = abiIncludeDir(); !inc.isEmpty())
        args << u"-I"_s + inc;
    for (qsizetype i = 0; i < request.flags.size(); ++i) {
        const QString &flag = request.flags.at(i);
        if (!link && isLinkFlag(flag)) {
            if (flag == u"-Xlinker" || flag == u"-l" || flag == u"-L")
                ++i; // and its value
            continue;
        }
        args << flag;
    }
    args << u"-o"_s << outputFile << sanitizedFileName(request.fileName);
    return args;
}

int Compiler::compile(const CompileRequest &request)
{
    auto job = std::make_unique<Job>();
    job->id = m_nextId++;
    job->request = request;
    job->fileName = sanitizedFileName(request.fileName);
    job->clock.start();
    const int id = job->id;
    m_jobs.emplace(id, std::move(job));
    m_queue.push_back(id);
    if (!m_schedulePosted) {
        m_schedulePosted = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_schedulePosted = false;
                schedule();
            },
            Qt::QueuedConnection);
    }
    return id;
}

void Compiler::cancel(int jobId)
{
    const auto it = m_jobs.find(jobId);
    if (it == m_jobs.end())
        return;
    Job &job = *it->second;
    job.cancelled = true;
    if (job.nvcc) {
        job.nvcc->kill(); // onNvccFinished reports it
        return;
    }
    if (job.process) {
        job.process->kill(); // onProcessFinished reports it
        return;
    }
    // Queued, or waiting on another job with the same key.
    std::erase(m_queue, jobId);
    for (auto &[id, other] : m_jobs)
        other->followers.removeAll(jobId);
    CompileResult r;
    r.cancelled = true;
    r.errorMessage = tr("Compilation was cancelled.");
    QMetaObject::invokeMethod(
        this,
        [this, jobId, r] {
            if (const auto j = m_jobs.find(jobId); j != m_jobs.end())
                finish(*j->second, r);
        },
        Qt::QueuedConnection);
}

void Compiler::failQueued(const QString &message)
{
    while (!m_queue.empty()) {
        const int id = m_queue.front();
        m_queue.pop_front();
        CompileResult r;
        r.errorMessage = message;
        if (const auto it = m_jobs.find(id); it != m_jobs.end())
            finish(*it->second, r);
    }
}

void Compiler::schedule()
{
    while (!m_queue.empty() && m_running < m_maxParallel) {
        if (nvccPath().isEmpty()) {
            failQueued(CudaToolkit::missingNvccMessage());
            return;
        }
        if (m_nvccVersionKey.isEmpty()) {
            startVersionProbe();
            return;
        }
        const int id = m_queue.front();
        m_queue.pop_front();
        const auto it = m_jobs.find(id);
        if (it != m_jobs.end() && !it->second->cancelled)
            startJob(*it->second);
    }
    answerQueuedHits();
}

void Compiler::answerQueuedHits()
{
    if (m_queue.empty() || m_running < m_maxParallel || m_nvccVersionKey.isEmpty() || nvccPath().isEmpty()
        || abiIncludeDir().isEmpty())
        return;
    // Ids first: answering a job emits finished(), whose receivers may queue more.
    std::vector<int> ready;
    for (const int id : m_queue) {
        const auto it = m_jobs.find(id);
        if (it == m_jobs.end() || it->second->cancelled || !it->second->request.useCache)
            continue;
        const Job &job = *it->second;
        const QString key = cacheKey(job.request, job.request.arch.isEmpty() ? m_defaultArch : job.request.arch);
        if (m_inflight.contains(key) || QFileInfo::exists(cacheDir() + u'/' + key + u"/meta.json"_s))
            ready.push_back(id);
    }
    for (const int id : ready) {
        const auto pos = std::find(m_queue.begin(), m_queue.end(), id);
        const auto it = m_jobs.find(id);
        if (pos == m_queue.end() || it == m_jobs.end() || it->second->cancelled)
            continue;
        m_queue.erase(pos);
        startJob(*it->second, false);
    }
}

void Compiler::startVersionProbe()
{
    if (m_versionProbe)
        return;
    auto *probe = new QProcess(this);
    m_versionProbe = probe;
    probe->setProcessChannelMode(QProcess::MergedChannels);
    connect(probe, &QProcess::finished, this, [this, probe](int code, QProcess::ExitStatus status) {
        const QByteArray text = probe->readAll();
        probe->deleteLater();
        static const QRegularExpression version(uR"(release [\d.]+, V([\d.]+))"_s);
        const auto m = version.match(QString::fromUtf8(text));
        if (status != QProcess::NormalExit || code != 0 || !m.hasMatch()) {
            failQueued(
                tr("'%1 --version' failed (exit code %2): %3").arg(nvccPath()).arg(code).arg(QString::fromUtf8(text).trimmed()));
            return;
        }
        m_nvccVersion = m.captured(1);
        m_nvccVersionKey = text.trimmed();
        schedule();
    });
    connect(probe, &QProcess::errorOccurred, this, [this, probe](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        probe->deleteLater();
        failQueued(tr("Could not start the CUDA compiler %1: %2").arg(nvccPath(), probe->errorString()));
    });
    probe->start(nvccPath(), {u"--version"_s});
}

bool Compiler::loadCacheEntry(const QString &key, const Job &job, CompileResult &result) const
{
    const QString dir = cacheDir() + u'/' + key;
    QFile meta(dir + u"/meta.json"_s);
    if (!meta.open(QIODevice::ReadOnly))
        return false;
    const QJsonObject o = QJsonDocument::fromJson(meta.readAll()).object();
    CompileResult r = CompileResult::fromJson(o);
    if (!r.ok || r.hash != key)
        return false;
    r.artifactPath = dir + u'/' + r.artifactPath;
    if (!QFileInfo::exists(r.artifactPath))
        return false;
    if (job.request.output != CompileOutput::SharedObject)
        r.text = readCompilerText(r.artifactPath);
    // Warnings name the file the source had when it was compiled; name it as this request does.
    const QString storedName = o.value("file_name"_L1).toString();
    if (!storedName.isEmpty() && storedName != job.fileName)
        for (Diagnostic &d : r.diagnostics)
            if (d.file == storedName)
                d.file = job.fileName;
    r.cacheHit = true;
    result = r;
    return true;
}

void Compiler::startJob(Job &job, bool mayRunNvcc)
{
    static const QRegularExpression archRe(u"^(sm|compute)_\\d+[a-z]?$"_s);
    job.arch = job.request.arch.isEmpty() ? m_defaultArch : job.request.arch;
    if (!archRe.match(job.arch).hasMatch()) {
        CompileResult r;
        r.errorMessage = tr("'%1' is not a GPU architecture nvcc accepts (expected e.g. sm_90).").arg(job.arch);
        finish(job, r);
        return;
    }
    if (abiIncludeDir().isEmpty()) {
        CompileResult r;
        r.errorMessage = tr("The kernel ABI header kforge/kernel.h was not found; the KForge installation "
                            "is incomplete.");
        finish(job, r);
        return;
    }
    job.key = cacheKey(job.request, job.arch);
    if (job.request.useCache) {
        CompileResult cached;
        if (loadCacheEntry(job.key, job, cached)) {
            Q_EMIT started(job.id);
            // A use: the least recently used entries are the ones pruning removes.
            QFile meta(cacheDir() + u'/' + job.key + u"/meta.json"_s);
            if (meta.open(QIODevice::ReadWrite))
                meta.setFileTime(QDateTime::currentDateTime(), QFileDevice::FileModificationTime);
            finish(job, cached);
            return;
        }
        if (const auto leader = m_inflight.constFind(job.key); leader != m_inflight.cend()) {
            if (const auto it = m_jobs.find(*leader); it != m_jobs.end()) {
                Q_EMIT started(job.id);
                it->second->followers.append(job.id);
                return;
            }
        }
        if (!mayRunNvcc) {
            m_queue.push_front(job.id); // the entry went between the look and the load: it waits for a slot
            return;
        }
        m_inflight.insert(job.key, job.id);
    }
    Q_EMIT started(job.id);
    startNvcc(job);
}

void Compiler::startNvcc(Job &job)
{
    QDir().mkpath(cacheDir());
    job.work = std::make_unique<QTemporaryDir>(cacheDir() + u"/tmp-XXXXXX"_s);
    if (!job.work->isValid()) {
        CompileResult r;
        r.errorMessage = tr("Could not create a work folder in %1: %2").arg(cacheDir(), job.work->errorString());
        finish(job, r);
        return;
    }
    if (!writeFile(job.work->filePath(job.fileName), job.request.source.toUtf8())) {
        CompileResult r;
        r.errorMessage = tr("Could not write the kernel source to %1.").arg(job.work->path());
        finish(job, r);
        return;
    }
    const QString out = job.request.output == CompileOutput::Sass ? u"kernel.cubin"_s : artifactName(job.request.output);
    const QStringList args = arguments(job.request, job.arch, out);
    job.command = QStringList{nvccPath()} + args;

    auto *run = new NvccRun(nvccPath(), args, job.work->path(), this);
    job.nvcc = run;
    // Only a shared object has a host side to compile beside the device code.
    run->setParallel(m_parallelSteps && job.request.output == CompileOutput::SharedObject);
    run->setModuleIdSeed(job.key);
    if (m_hostPch)
        run->setHostPchDir(cacheDir() + u"/host-pch"_s);
    run->setLeanLink(m_leanLink);
    const int id = job.id;
    connect(run, &NvccRun::finished, this, [this, id] { onNvccFinished(id); });
    auto *timer = new QTimer(run);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [this, id] { onTimeout(id); });
    job.timer = timer;
    ++m_running;
    timer->start(m_timeoutMs);
    run->start();
}

void Compiler::startDisassembler(Job &job)
{
    const QString nvcc = nvccPath();
    // nvdisasm first: --print-line-info-inline marks every instruction's source line and the lines it was
    // inlined at, which the assembly panel maps to the editor (the kernel's outermost line, as the worker's
    // source-level pass counts samples); cuobjdump prints none.
    QString tool = CudaToolkit::locateTool(u"nvdisasm"_s, nvcc);
    QStringList args{u"--print-line-info-inline"_s, u"-c"_s, u"kernel.cubin"_s};
    if (tool.isEmpty()) {
        tool = CudaToolkit::locateTool(u"cuobjdump"_s, nvcc);
        args = QStringList{u"-sass"_s, u"kernel.cubin"_s};
    }
    if (tool.isEmpty()) {
        --m_running;
        CompileResult r;
        r.errorMessage = tr("Showing SASS needs cuobjdump or nvdisasm from the CUDA toolkit; neither was found "
                            "next to %1 or on PATH. PTX is available.")
                             .arg(nvcc);
        r.diagnostics = DiagnosticParser::parse(job.log, {{job.fileName, job.request.source}});
        r.resources = PtxasResourceParser::parse(job.log);
        r.log = job.log;
        finish(job, r);
        return;
    }
    job.disassembling = true;
    job.command = QStringList{tool} + args;
    auto *process = new QProcess(this);
    job.process = process;
    process->setWorkingDirectory(job.work->path());
    process->setProcessChannelMode(QProcess::SeparateChannels);
    const int id = job.id;
    connect(process, &QProcess::finished, this, [this, id] { onProcessFinished(id); });
    connect(process, &QProcess::errorOccurred, this, [this, id, process](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        const auto it = m_jobs.find(id);
        if (it == m_jobs.end())
            return;
        --m_running;
        CompileResult r;
        r.errorMessage = tr("Could not start %1: %2").arg(process->program(), process->errorString());
        process->deleteLater();
        finish(*it->second, r);
    });
    auto *timer = new QTimer(process);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [this, id] { onTimeout(id); });
    job.timer = timer;
    timer->start(m_timeoutMs);
    process->start(tool, args);
}

void Compiler::onTimeout(int jobId)
{
    const auto it = m_jobs.find(jobId);
    if (it == m_jobs.end())
        return;
    Job &job = *it->second;
    if (job.nvcc) {
        job.timedOut = true;
        job.nvcc->kill();
    } else if (job.process) {
        job.timedOut = true;
        job.process->kill();
    }
}

void Compiler::onNvccFinished(int jobId)
{
    const auto it = m_jobs.find(jobId);
    if (it == m_jobs.end())
        return;
    Job &job = *it->second;
    NvccRun *run = job.nvcc;
    if (!run)
        return;
    job.nvcc = nullptr;
    run->deleteLater();
    job.phases = run->phases();
    if (run->failedToStart()) {
        --m_running;
        CompileResult r;
        r.errorMessage = tr("Could not start %1: %2").arg(nvccPath(), run->errorString());
        finish(job, r);
        return;
    }
    job.log += run->log();
    toolFinished(job, run->exitCode(), run->crashed());
}

void Compiler::onProcessFinished(int jobId)
{
    const auto it = m_jobs.find(jobId);
    if (it == m_jobs.end())
        return;
    Job &job = *it->second;
    QProcess *process = job.process;
    if (!process)
        return;
    job.process = nullptr;
    process->deleteLater();
    const int exitCode = process->exitCode();
    const bool crashed = process->exitStatus() != QProcess::NormalExit;
    job.disassembly = QString::fromUtf8(process->readAllStandardOutput());
    const QString err = QString::fromUtf8(process->readAllStandardError());
    if (!err.isEmpty())
        job.log += err;
    toolFinished(job, exitCode, crashed);
}

void Compiler::toolFinished(Job &job, int exitCode, bool crashed)
{
    const QString program = QFileInfo(job.command.value(0)).fileName();
    CompileResult r;
    r.log = job.log;
    r.diagnostics = DiagnosticParser::parse(job.log, {{job.fileName, job.request.source}});
    r.resources = PtxasResourceParser::parse(job.log);
    if (job.cancelled) {
        --m_running;
        r.cancelled = true;
        r.errorMessage = tr("Compilation was cancelled.");
        finish(job, r);
        return;
    }
    if (job.timedOut) {
        --m_running;
        r.errorMessage = tr("%1 did not finish within %2 s and was stopped.").arg(program).arg(m_timeoutMs / 1000);
        finish(job, r);
        return;
    }
    if (crashed || exitCode != 0) {
        --m_running;
        if (crashed)
            r.errorMessage = tr("%1 crashed.").arg(program);
        else if (r.errorCount() > 0)
            r.errorMessage = tr("%1 failed with %n error(s).", "", r.errorCount()).arg(program);
        else
            r.errorMessage =
                tr("%1 failed with exit code %2: %3").arg(program).arg(exitCode).arg(job.log.trimmed().right(500));
        finish(job, r);
        return;
    }
    if (job.request.output == CompileOutput::Sass && !job.disassembling) {
        startDisassembler(job);
        return;
    }
    --m_running;
    completeSuccess(job);
}

void Compiler::completeSuccess(Job &job)
{
    const QString artifact = artifactName(job.request.output);
    if (job.request.output == CompileOutput::Sass)
        writeFile(job.work->filePath(artifact), job.disassembly.toUtf8());

    CompileResult r;
    r.ok = QFileInfo::exists(job.work->filePath(artifact));
    r.output = job.request.output;
    r.log = job.log;
    r.diagnostics = DiagnosticParser::parse(job.log, {{job.fileName, job.request.source}});
    r.resources = PtxasResourceParser::parse(job.log);
    r.hash = job.key;
    r.arch = job.arch;
    r.nvccVersion = m_nvccVersion;
    r.commandLine = job.command;
    r.elapsedMs = double(job.clock.nsecsElapsed()) / 1e6;
    r.phases = job.phases;
    if (!r.ok) {
        r.errorMessage = tr("nvcc reported success but wrote no %1.").arg(artifact);
        finish(job, r);
        return;
    }

    // Publish the entry atomically: write everything in the work folder, then rename it into place.
    r.artifactPath = artifact;
    QJsonObject meta = r.toJson();
    meta.insert(u"file_name"_s, job.fileName);
    writeFile(job.work->filePath(u"meta.json"_s), QJsonDocument(meta).toJson());
    const QString finalDir = cacheDir() + u'/' + job.key;
    job.work->setAutoRemove(false);
    bool published = QDir().rename(job.work->path(), finalDir);
    if (!published && !job.request.useCache) {
        // A forced rebuild replaces the entry it was told not to trust.
        QDir(finalDir).removeRecursively();
        published = QDir().rename(job.work->path(), finalDir);
    }
    if (!published) {
        // Another compiler (another KForge process) published the same key first; theirs is equivalent.
        job.work->setAutoRemove(true);
        if (!QFileInfo::exists(finalDir + u'/' + artifact)) {
            r.ok = false;
            r.errorMessage = tr("Could not store the compiled kernel in %1.").arg(finalDir);
            finish(job, r);
            return;
        }
    }
    r.artifactPath = finalDir + u'/' + artifact;
    if (job.request.output != CompileOutput::SharedObject)
        r.text = job.request.output == CompileOutput::Sass ? job.disassembly : readCompilerText(r.artifactPath);
    schedulePrune(job.key);
    finish(job, r);
}

void Compiler::finish(Job &job, CompileResult result)
{
    const int id = job.id;
    result.jobId = id;
    if (result.arch.isEmpty())
        result.arch = job.arch;
    if (result.nvccVersion.isEmpty())
        result.nvccVersion = m_nvccVersion;
    if (result.hash.isEmpty())
        result.hash = job.key;
    if (result.commandLine.isEmpty())
        result.commandLine = job.command;
    result.output = job.request.output;
    if (!result.cacheHit && result.elapsedMs == 0)
        result.elapsedMs = double(job.clock.nsecsElapsed()) / 1e6;
    if (result.cacheHit)
        result.elapsedMs = double(job.clock.nsecsElapsed()) / 1e6;

    QList<int> followers = job.followers;
    if (!job.key.isEmpty() && m_inflight.value(job.key) == id)
        m_inflight.remove(job.key);
    std::unique_ptr<Job> keep = std::move(m_jobs[id]); // the work folder must outlive the signal
    m_jobs.erase(id);

    if (result.cancelled && !followers.isEmpty()) {
        // The jobs waiting on a cancelled one still want their result: queue them again.
        for (auto it = followers.crbegin(); it != followers.crend(); ++it)
            m_queue.push_front(*it);
        followers.clear();
    }
    Q_EMIT finished(id, result);
    for (const int f : std::as_const(followers)) {
        const auto it = m_jobs.find(f);
        if (it == m_jobs.end())
            continue;
        CompileResult copy = result;
        copy.cacheHit = result.ok;
        finish(*it->second, copy);
    }
    keep.reset();
    QMetaObject::invokeMethod(this, &Compiler::schedule, Qt::QueuedConnection);
}

} // namespace kforge
