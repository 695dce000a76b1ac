#pragma once
// One nvcc run that takes less wall time than nvcc itself. nvcc runs its steps one after the other; here the
// steps come from `nvcc --dryrun` for the very same arguments (NvccPlan) and run as nvcc runs them, each
// through /bin/sh, except that the host front end and the device compile overlap. The log, the exit code and
// the files are those of the plain run. Where the plan has a shape NvccPlan does not know, or parallel steps
// are off, it runs plain nvcc. Every process starts in its own process group, so kill() stops the tools too.
#include "core/compile/compileresult.h"
#include "core/compile/nvccplan.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <array>
#include <optional>

class QProcess;

namespace kforge {

class NvccRun : public QObject
{
    Q_OBJECT
public:
    NvccRun(const QString &nvcc, const QStringList &arguments, const QString &workDir, QObject *parent = nullptr);
    ~NvccRun() override;

    void setParallel(bool on) { m_parallel = on; } // default true
    // Hex digits for the module id (the cache key makes builds of the same source reproducible).
    void setModuleIdSeed(const QString &hex) { m_seed = hex; }
    // Where precompiled headers for the host compile are kept (HostPch); empty (the default): none.
    void setHostPchDir(const QString &dir) { m_hostPchDir = dir; }
    // No device link where there is no relocatable device code, and the final link through gold where the
    // host has it (NvccPlan::dropDeviceLink, useLinker); default off.
    void setLeanLink(bool on) { m_leanLink = on; }

    void start();
    void kill(); // finished() follows, with crashed()

    // After finished():
    bool failedToStart() const { return m_failedToStart; }
    QString errorString() const { return m_errorString; }
    bool crashed() const { return m_crashed; }
    int exitCode() const { return m_exitCode; }
    QString log() const { return m_log; } // stdout and stderr of nvcc and its tools, in nvcc's order
    bool ranParallel() const { return m_plan.has_value(); }
    QList<CompilePhase> phases() const { return m_phases; }

Q_SIGNALS:
    void finished();

private:
    struct Track {
        QList<int> steps;
        qsizetype next = 0;
        QPointer<QProcess> process;
        QElapsedTimer clock;
        QString log;
        bool started = false;
        bool done = false;
        int exitCode = 0;
    };
    QProcess *newProcess();
    void startPlain();
    void startDryrun();
    void onDryrunFinished();
    void runNext(int track);
    void onStepFinished(int track);
    void advance();
    void finish(int exitCode, bool crashed, const QString &log);
    bool anyRunning() const;
    void prepareHostCompile();
    bool retryHostCompileWithoutHeader();

    QString m_nvcc;
    QStringList m_arguments;
    QString m_workDir;
    QString m_keepDir;
    QString m_seed;
    QString m_hostPchDir;
    bool m_hostPchTried = false; // the host compile was prepared (at most once: a retry runs without)
    QByteArray m_hostSourceText; // what cudafe++ wrote, while the host compile runs with a header
    QString m_hostPchEntry;
    bool m_retriedWithoutHeader = false;
    bool m_leanLink = false;
    int m_fallbackStep = -1; // the step now running its fallback command
    bool m_parallel = true;
    QProcessEnvironment m_environment;
    std::optional<NvccPlan> m_plan;
    std::array<Track, 3> m_tracks; // NvccPlan::Track order
    QPointer<QProcess> m_single;   // plain nvcc or the dry run

    bool m_killed = false;
    bool m_finished = false;
    bool m_failedToStart = false;
    QString m_errorString;
    bool m_crashed = false;
    int m_exitCode = 0;
    QString m_log;
    QList<CompilePhase> m_phases;
};

} // namespace kforge
