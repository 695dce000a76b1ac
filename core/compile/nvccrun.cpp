#include "core/compile/nvccrun.h"

#include "core/compile/hostpch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcess>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>

#ifdef Q_OS_UNIX
#include <csignal>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcNvccRun, "kforge.compile.nvcc", QtWarningMsg)

namespace kforge {

namespace {

constexpr int kHost = int(NvccPlan::Track::Host);
constexpr int kDevice = int(NvccPlan::Track::Device);
constexpr int kTail = int(NvccPlan::Track::Tail);

void killTree(QProcess *p)
{
    if (!p || p->state() == QProcess::NotRunning)
        return;
#ifdef Q_OS_UNIX
    // The process leads its own group (see newProcess): this also reaches the tools sh and nvcc started.
    if (const qint64 pid = p->processId(); pid > 0)
        ::kill(-pid_t(pid), SIGKILL);
#endif
    p->kill();
}

QString trackPrefix(int track)
{
    return track == kHost ? u"host: "_s : track == kDevice ? u"device: "_s : QString();
}

// nvcc's own words when a tool dies, so the log reads as nvcc's would.
QString diedMessage(const QString &tool, int signal)
{
    return u"nvcc error   : '%1' died due to signal %2\n"_s.arg(tool).arg(signal);
}

} // namespace

NvccRun::NvccRun(const QString &nvcc, const QStringList &arguments, const QString &workDir, QObject *parent)
    : QObject(parent)
    , m_nvcc(nvcc)
    , m_arguments(arguments)
    , m_workDir(workDir)
{
}

NvccRun::~NvccRun()
{
    m_killed = true;
    for (Track &t : m_tracks)
        if (t.process) {
            t.process->disconnect(this);
            killTree(t.process);
            t.process->waitForFinished(1000);
        }
    if (m_single) {
        m_single->disconnect(this);
        killTree(m_single);
        m_single->waitForFinished(1000);
    }
}

QProcess *NvccRun::newProcess()
{
    auto *p = new QProcess(this);
    p->setWorkingDirectory(m_workDir);
#ifdef Q_OS_UNIX
    p->setChildProcessModifier([] { ::setpgid(0, 0); });
#endif
    return p;
}

void NvccRun::start()
{
#ifndef Q_OS_UNIX
    m_parallel = false; // the steps are shell commands for /bin/sh
#endif
    if (m_parallel)
        startDryrun();
    else
        startPlain();
}

void NvccRun::kill()
{
    if (m_finished || m_killed)
        return;
    m_killed = true;
    if (!anyRunning()) {
        QMetaObject::invokeMethod(
            this, [this] { finish(-1, true, m_log); }, Qt::QueuedConnection);
        return;
    }
    for (Track &t : m_tracks)
        killTree(t.process);
    killTree(m_single);
}

bool NvccRun::anyRunning() const
{
    for (const Track &t : m_tracks)
        if (t.process && t.process->state() != QProcess::NotRunning)
            return true;
    return m_single && m_single->state() != QProcess::NotRunning;
}

void NvccRun::startPlain()
{
    m_plan.reset();
    QProcess *p = newProcess();
    m_single = p;
    p->setProcessChannelMode(QProcess::MergedChannels);
    QElapsedTimer *clock = &m_tracks[kTail].clock;
    clock->start();
    connect(p, &QProcess::finished, this, [this, p, clock](int code, QProcess::ExitStatus status) {
        m_phases.append({u"nvcc"_s, double(clock->nsecsElapsed()) / 1e6});
        const QString out = QString::fromUtf8(p->readAll());
        p->deleteLater();
        finish(code, status != QProcess::NormalExit || m_killed, m_log + out);
    });
    connect(p, &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return; // crashes also end in finished()
        m_failedToStart = true;
        m_errorString = p->errorString();
        p->deleteLater();
        finish(-1, false, m_log);
    });
    p->start(m_nvcc, m_arguments);
}

void NvccRun::startDryrun()
{
    // The intermediate files go to a folder of our own (not /tmp under names chosen by another process).
    m_keepDir = u".nvcc-steps"_s;
    if (!QDir(m_workDir).mkpath(m_keepDir)) {
        startPlain();
        return;
    }
    QProcess *p = newProcess();
    m_single = p;
    p->setProcessChannelMode(QProcess::SeparateChannels);
    m_tracks[kTail].clock.start();
    connect(p, &QProcess::finished, this, &NvccRun::onDryrunFinished);
    connect(p, &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        m_failedToStart = true;
        m_errorString = p->errorString();
        p->deleteLater();
        finish(-1, false, QString());
    });
    p->start(m_nvcc, m_arguments + QStringList{u"--dryrun"_s, u"--keep"_s, u"--keep-dir"_s, m_keepDir});
}

void NvccRun::onDryrunFinished()
{
    QProcess *p = m_single;
    if (!p)
        return;
    m_single = nullptr;
    p->deleteLater();
    if (m_killed) {
        finish(-1, true, QString());
        return;
    }
    m_phases.append({u"nvcc --dryrun"_s, double(m_tracks[kTail].clock.nsecsElapsed()) / 1e6});
    const QString text = QString::fromUtf8(p->readAllStandardError()) + QString::fromUtf8(p->readAllStandardOutput());
    QString whyNot;
    std::optional<NvccPlan> plan;
    if (p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0)
        plan = NvccPlan::fromDryrun(text, &whyNot);
    else
        whyNot = u"the dry run failed"_s;
    if (!plan) {
        // nvcc itself reports what is wrong with the arguments, or runs the plan we do not know.
        qCInfo(lcNvccRun) << "running plain nvcc:" << whyNot;
        startPlain();
        return;
    }

    const QString sourceName = QFileInfo(m_arguments.value(m_arguments.size() - 1)).fileName();
    const QString seed = m_seed.size() >= 16 ? m_seed : QUuid::createUuid().toString(QUuid::Id128);
    QFile id(QDir(m_workDir).absoluteFilePath(plan->moduleIdFile));
    if (!id.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || id.write(NvccPlan::moduleIdText(sourceName, seed).toUtf8()) < 0) {
        qCInfo(lcNvccRun) << "running plain nvcc: cannot write" << id.fileName();
        startPlain();
        return;
    }
    id.close();

    if (m_leanLink) {
        QString why;
        if (!plan->dropDeviceLink(&why))
            qCInfo(lcNvccRun) << "keeping nvcc's device link:" << why;
        static const bool gold = !QStandardPaths::findExecutable(u"ld.gold"_s).isEmpty();
        if (gold)
            plan->useLinker(u"gold"_s);
    }
    m_environment = QProcessEnvironment::systemEnvironment();
    for (const auto &[name, value] : std::as_const(plan->environment))
        m_environment.insert(name, value);
    m_log = plan->messages;
    for (qsizetype i = 0; i < plan->steps.size(); ++i)
        m_tracks[int(plan->steps.at(i).track)].steps.append(int(i));
    m_plan = std::move(plan);
    m_tracks[kHost].started = m_tracks[kDevice].started = true;
    runNext(kHost);
    runNext(kDevice);
}

void NvccRun::runNext(int track)
{
    Track &t = m_tracks[track];
    while (t.next < t.steps.size() && !m_plan->steps.at(t.steps.at(t.next)).remove.isEmpty()) {
        for (const QString &f : m_plan->steps.at(t.steps.at(t.next)).remove)
            QFile::remove(QDir(m_workDir).absoluteFilePath(f));
        ++t.next;
    }
    if (t.next >= t.steps.size()) {
        t.done = true;
        advance();
        return;
    }
    const int index = t.steps.at(t.next++);
    const NvccPlan::Step &step = m_plan->steps.at(index);
    if (index == m_plan->hostCompile)
        prepareHostCompile();
    QProcess *p = newProcess();
    t.process = p;
    p->setProcessEnvironment(m_environment);
    p->setProcessChannelMode(QProcess::MergedChannels);
    connect(p, &QProcess::finished, this, [this, track] { onStepFinished(track); });
    connect(p, &QProcess::errorOccurred, this, [this, track, p](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        Track &t = m_tracks[track];
        t.log += u"could not start /bin/sh: %1\n"_s.arg(p->errorString());
        t.exitCode = 127;
        t.done = true;
        t.process = nullptr;
        p->deleteLater();
        advance();
    });
    t.clock.start();
    p->start(u"/bin/sh"_s, {u"-c"_s, index == m_fallbackStep ? step.fallback : step.command});
}

void NvccRun::onStepFinished(int track)
{
    Track &t = m_tracks[track];
    QProcess *p = t.process;
    if (!p)
        return;
    t.process = nullptr;
    p->deleteLater();
    const int index = t.steps.at(t.next - 1);
    const NvccPlan::Step &step = m_plan->steps.at(index);
    const bool failed = p->exitStatus() != QProcess::NormalExit || p->exitCode() != 0;
    if (failed && !m_killed && !step.fallback.isEmpty() && m_fallbackStep != index) {
        m_fallbackStep = index; // as nvcc would have run it, for nvcc's own messages
        --t.next;
        runNext(track);
        return;
    }
    const bool withHeader = index == m_plan->hostCompile && !m_hostSourceText.isNull();
    if (withHeader && failed && !m_killed) {
        // The header must never turn a compile that works into one that fails: the same compile again on
        // cudafe++'s own text decides, and where that one works the header is not used again.
        if (retryHostCompileWithoutHeader()) {
            --t.next;
            runNext(track);
            return;
        }
    }
    if (index == m_plan->hostCompile && m_retriedWithoutHeader && !failed)
        HostPch::markBroken(m_hostPchEntry);
    m_hostSourceText = QByteArray();
    QString name = trackPrefix(track) + step.name;
    if (withHeader)
        name = step.name.section(u" ("_s, 0, 0) + u" (compiling, precompiled header)"_s;
    const auto same = std::count_if(m_phases.cbegin(), m_phases.cend(), [&name](const CompilePhase &p) {
        return p.name == name || p.name.startsWith(name + u" #"_s);
    });
    if (same > 0)
        name += u" #%1"_s.arg(same + 1); // as `nvcc --time` tells a second gcc compile from the first
    m_phases.append({name, double(t.clock.nsecsElapsed()) / 1e6});
    t.log += QString::fromUtf8(p->readAll());
    const bool crashed = p->exitStatus() != QProcess::NormalExit;
    if (crashed || p->exitCode() != 0 || m_killed) {
        t.exitCode = p->exitCode() != 0 ? p->exitCode() : 1;
        // sh runs the tool in its own place, so a tool that crashes is a crashed process here; nvcc would
        // report that the tool died and fail. (Killed by us: advance() decides what that means.)
        if (crashed && !m_killed && !(track == kDevice && m_tracks[kHost].done && m_tracks[kHost].exitCode != 0))
            t.log += diedMessage(step.name.section(u' ', 0, 0), p->exitCode());
        t.done = true;
        advance();
        return;
    }
    runNext(track);
}

void NvccRun::prepareHostCompile()
{
    m_hostSourceText = QByteArray();
    if (m_hostPchDir.isEmpty() || m_hostPchTried)
        return; // off, or this is the compile again without it
    m_hostPchTried = true;
    const QString source = QDir(m_workDir).absoluteFilePath(m_plan->hostSource);
    QFile original(source);
    if (!original.open(QIODevice::ReadOnly))
        return; // the compile itself reports it
    const QByteArray text = original.readAll();
    original.close();
    QString why;
    HostPch pch(m_hostPchDir);
    const HostPch::Use use = pch.prepare(source, text, *m_plan, m_environment, &why);
    m_hostPchEntry = pch.entry();
    if (use == HostPch::Use::Used)
        m_hostSourceText = text;
    else if (use == HostPch::Use::None)
        qCInfo(lcNvccRun) << "host compile without a precompiled header:" << why;
}

bool NvccRun::retryHostCompileWithoutHeader()
{
    QFile source(QDir(m_workDir).absoluteFilePath(m_plan->hostSource));
    if (!source.open(QIODevice::WriteOnly | QIODevice::Truncate) || source.write(m_hostSourceText) < 0)
        return false;
    m_retriedWithoutHeader = true;
    m_hostSourceText = QByteArray();
    return true;
}

void NvccRun::advance()
{
    if (m_finished)
        return;
    if (m_killed) {
        if (!anyRunning())
            finish(-1, true, m_log);
        return;
    }
    Track &host = m_tracks[kHost];
    Track &device = m_tracks[kDevice];
    Track &tail = m_tracks[kTail];
    // nvcc runs the host steps first: when they fail it never starts the device compile, whose front end
    // would report the same errors again. So a host failure is the whole answer.
    if (host.done && host.exitCode != 0) {
        if (device.process && device.process->state() != QProcess::NotRunning) {
            killTree(device.process);
            return; // back here when it has ended
        }
        finish(host.exitCode, false, m_log + host.log);
        return;
    }
    if (!host.done)
        return;
    if (!device.done)
        return;
    if (device.exitCode != 0) {
        finish(device.exitCode, false, m_log + host.log + device.log);
        return;
    }
    if (!tail.started) {
        tail.started = true;
        runNext(kTail);
        return;
    }
    if (tail.done)
        finish(tail.exitCode, false, m_log + host.log + device.log + tail.log);
}

void NvccRun::finish(int exitCode, bool crashed, const QString &log)
{
    if (m_finished)
        return;
    m_finished = true;
    m_exitCode = exitCode;
    m_crashed = crashed;
    m_log = log;
    if (!m_keepDir.isEmpty())
        QDir(QDir(m_workDir).absoluteFilePath(m_keepDir)).removeRecursively();
    Q_EMIT finished();
}

} // namespace kforge
