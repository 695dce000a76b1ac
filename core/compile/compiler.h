#pragma once
// The compile service: nvcc through event-driven QProcess into a shared object (or PTX/SASS), with a
// content-addressed cache and a queue that runs up to one job per core. Results arrive as finished(jobId)
// signals, always asynchronously (cache hits too); diagnostics and per-kernel resources come parsed.
// A shared object's nvcc steps run through NvccRun, host and device halves at the same time.
#include "core/compile/compileresult.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <deque>
#include <map>
#include <memory>

class QProcess;

namespace kforge {

class NvccRun;

class Compiler : public QObject
{
    Q_OBJECT
public:
    // A plain file name for a source inside the work folder (what nvcc's diagnostics will name): the request's
    // file name with anything but letters, digits and "_.+-" replaced, ending in ".cu".
    static QString sanitizedFileName(const QString &name);

    explicit Compiler(QObject *parent = nullptr);
    ~Compiler() override;

    // Settings override for nvcc (file or folder); empty: search CUDA_HOME, /usr/local/cuda, PATH.
    void setNvccPath(const QString &path);
    QString nvccPath() const; // resolved; empty when there is no nvcc
    // The arch for requests that name none; the evaluator sets it from the worker's compute capability.
    void setDefaultArch(const QString &arch);
    QString defaultArch() const;
    // Default: QStandardPaths::CacheLocation + "/kernels".
    void setCacheDir(const QString &dir);
    QString cacheDir() const;
    void setMaxParallel(int jobs); // default QThread::idealThreadCount()
    int maxParallel() const;
    void setAbiIncludeDir(const QString &dir); // default CudaToolkit::locateAbiIncludeDir()
    QString abiIncludeDir() const;
    void setTimeoutMs(int ms);                 // per nvcc run; default 5 minutes
    // Shared objects: run nvcc's host front end and device compile at the same time (NvccRun); default on.
    // Off runs plain nvcc. The result is the same either way; only the wall time differs.
    void setParallelSteps(bool on);
    bool parallelSteps() const { return m_parallelSteps; }
    // Optimisation and debug-info flags that come before everything else; default "-O3 -lineinfo".
    void setBaseFlags(const QStringList &flags);
    QStringList baseFlags() const { return m_baseFlags; }
    QString nvccVersion() const;               // "13.0.88" once known

    // Queues a job; returns its id (> 0). finished(id, ...) follows exactly once, cancelled jobs included.
    int compile(const CompileRequest &request);
    void cancel(int jobId);
    int pendingJobs() const;

    // The nvcc arguments for a request (without the program), as they will run.
    QStringList arguments(const CompileRequest &request, const QString &arch, const QString &outputFile) const;

Q_SIGNALS:
    void started(int jobId);
    void finished(int jobId, const kforge::CompileResult &result);

private:
    struct Job;
    void schedule();
    void startVersionProbe();
    void startJob(Job &job);
    void startNvcc(Job &job);
    void startDisassembler(Job &job);
    void onNvccFinished(int jobId);
    void onProcessFinished(int jobId);
    void toolFinished(Job &job, int exitCode, bool crashed);
    void onTimeout(int jobId);
    void completeSuccess(Job &job);
    void finish(Job &job, CompileResult result);
    bool loadCacheEntry(const QString &key, const Job &job, CompileResult &result) const;
    QString cacheKey(const CompileRequest &request, const QString &arch);
    QByteArray abiHeader();
    void failQueued(const QString &message);

    QString m_nvccOverride;
    mutable QString m_nvcc;
    mutable bool m_nvccResolved = false;
    QString m_defaultArch;
    QString m_cacheDir;
    QString m_abiIncludeDir;
    QByteArray m_abiHeader;
    QString m_abiHeaderFrom;
    int m_maxParallel;
    int m_timeoutMs = 5 * 60 * 1000;
    bool m_parallelSteps = true;
    QStringList m_baseFlags{QStringLiteral("-O3"), QStringLiteral("-lineinfo")};
    QString m_nvccVersion;     // short form
    QByteArray m_nvccVersionKey; // full `nvcc --version` text, part of the cache key
    QPointer<QProcess> m_versionProbe;
    bool m_schedulePosted = false;

    int m_nextId = 1;
    int m_running = 0;
    std::deque<int> m_queue;
    std::map<int, std::unique_ptr<Job>> m_jobs;
    QHash<QString, int> m_inflight; // cache key -> the job compiling it; later jobs with that key wait
};

} // namespace kforge
