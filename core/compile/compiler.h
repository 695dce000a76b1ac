#pragma once
// The compile service: nvcc through event-driven QProcess into a shared object (or PTX/SASS), with a
// content-addressed cache and a queue that runs up to one nvcc job per core (a cache hit waits for none).
// Results arrive as finished(jobId) signals, always asynchronously (cache hits too); diagnostics and
// per-kernel resources come parsed. A shared object's nvcc steps run through NvccRun, host and device halves
// at the same time.
#include "core/compile/compileresult.h"
#include "core/compile/kernelbuildflags.h"
#include "core/eval/timingdefaults.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <deque>
#include <map>
#include <memory>

class QProcess;

#include <atomic>
#include <memory>
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
    // The cache is kept under this many bytes: after an entry is stored, the least recently used entries
    // (a hit counts as a use) are removed off the calling thread until it fits. The entry just stored or
    // used stays. 0: no limit.
    static constexpr qint64 kDefaultCacheLimitBytes = qint64(2) << 30;
    void setCacheLimitBytes(qint64 bytes);
    qint64 cacheLimitBytes() const { return m_cacheLimit; }
    // Removes least recently used entries of the cache folder `dir` until its size is at most `limitBytes`,
    // never the entry named `keep`; returns how many entries it removed. Thread-safe; work folders and
    // anything that is not an entry are left alone.
    static int pruneCache(const QString &dir, qint64 limitBytes, const QString &keep = {});
    void setMaxParallel(int jobs); // default QThread::idealThreadCount()
    int maxParallel() const;
    void setAbiIncludeDir(const QString &dir); // default CudaToolkit::locateAbiIncludeDir()
    QString abiIncludeDir() const;
    void setTimeoutMs(int ms); // per nvcc run; default 5 minutes
    // Shared objects: run nvcc's host front end and device compile at the same time (NvccRun); default on.
    // Off runs plain nvcc. The result is the same either way; only the wall time differs.
    void setParallelSteps(bool on);
    bool parallelSteps() const { return m_parallelSteps; }
    // With parallel steps: the host compile includes a precompiled header of the CUDA headers' part of
    // cudafe++'s output (HostPch, kept in cacheDir()/host-pch); default on, off with KFORGE_HOST_PCH=0.
    // The object is the same either way.
    void setHostPch(bool on) { m_hostPch = on; }
    bool hostPch() const { return m_hostPch; }
    // With parallel steps: no device link where no code is relocatable, the final link through gold where
    // the host has it (NvccRun::setLeanLink); default on, off with KFORGE_LEAN_LINK=0.
    void setLeanLink(bool on) { m_leanLink = on; }
    bool leanLink() const { return m_leanLink; }
    // Optimisation and debug-info flags that come before everything else; default "-O3 -lineinfo".
    void setBaseFlags(const QStringList &flags);
    QStringList baseFlags() const { return m_baseFlags; }
    QString nvccVersion() const; // "13.0.88" once known

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
    // mayRunNvcc false: only a cache hit or a follower of a compile in flight starts; anything else goes back
    // to the front of the queue.
    void startJob(Job &job, bool mayRunNvcc = true);
    // Queued jobs that need no nvcc (a cache hit, the key of a compile in flight) are answered at once, not
    // after the misses queued before them got a slot.
    void answerQueuedHits();
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
    void schedulePrune(const QString &keep);
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
    int m_timeoutMs = TimingDefaults::compileMs;
    bool m_parallelSteps = true;
    bool m_hostPch = qEnvironmentVariable("KFORGE_HOST_PCH") != QLatin1String("0");
    bool m_leanLink = qEnvironmentVariable("KFORGE_LEAN_LINK") != QLatin1String("0");
    QStringList m_baseFlags = KernelBuildFlags::defaults();
    QString m_nvccVersion;       // short form
    QByteArray m_nvccVersionKey; // full `nvcc --version` text, part of the cache key
    QPointer<QProcess> m_versionProbe;
    bool m_schedulePosted = false;
    qint64 m_cacheLimit = kDefaultCacheLimitBytes;
    std::shared_ptr<std::atomic<bool>> m_pruning = std::make_shared<std::atomic<bool>>(false);

    int m_nextId = 1;
    int m_running = 0;
    std::deque<int> m_queue;
    std::map<int, std::unique_ptr<Job>> m_jobs;
    QHash<QString, int> m_inflight; // cache key -> the job compiling it; later jobs with that key wait
};

} // namespace kforge
