#pragma once
// Shared by the worker tests: where the scripted worker and the real kforge-worker are, waiting for one reply, and
// a timed correct result.
#include "core/workerpool/workerclient.h"

#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QSignalSpy>
#include <QTest>

namespace kforge::test {

inline QString scriptedWorker(const QString &mode)
{
    return QStringLiteral("\"" KFORGE_TEST_SOURCE_DIR "/tests/fixtures/workers/scripted-worker.sh\" ") + mode;
}

// What `ssh gpu-box kforge-worker` does when gpu-box cannot be resolved (prints ssh's message, exits 255).
inline QString unreachableHost()
{
    return QStringLiteral("\"" KFORGE_TEST_SOURCE_DIR "/tests/fixtures/workers/unreachable-host.sh\" gpu-box");
}

// A python3 that cannot see torch (-I -S: no site-packages), written into `dir`; empty when there is no python3.
inline QString pythonWithoutTorch(const QString &dir)
{
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty())
        return {};
    const QString path = dir + QStringLiteral("/python3-without-torch");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write("#!/bin/sh\n# -I -S: no site-packages, so no torch\nexec " + python.toLocal8Bit() + " -I -S \"$@\"\n");
    f.close();
    return f.setPermissions(f.permissions() | QFile::ExeOwner) ? path : QString();
}

// The real kforge-worker (CTest sets KFORGE_WORKER when the target is built); empty when not built.
inline QString realWorker()
{
    const QString path = qEnvironmentVariable("KFORGE_WORKER");
    return !path.isEmpty() && QFileInfo(path).isExecutable() ? path : QString();
}

// A correct result timed at `referenceMs` against `candidateMs` (100 runs each, 5 trials), as a worker's timing leaves
// it; `pending`: the passes still to run when it is a provisional one.
inline EvalResult timedCorrect(double referenceMs, double candidateMs, const QStringList &pending = {})
{
    EvalResult r;
    r.verdict = Verdict::Correct;
    r.reference.medianMs = referenceMs;
    r.candidate.medianMs = candidateMs;
    r.reference.runs = r.candidate.runs = 100;
    r.speedup = referenceMs / candidateMs;
    r.verification.trials = 5;
    r.pending = pending;
    return r;
}

// Waits for the reply to `id`; a default WorkerReply (id 0) when none came within timeoutMs.
inline WorkerReply waitReply(WorkerClient &client, int id, int timeoutMs = 20000)
{
    QSignalSpy spy(&client, &WorkerClient::replied);
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        for (const auto &args : std::as_const(spy))
            if (args.at(0).toInt() == id)
                return args.at(1).value<WorkerReply>();
        spy.wait(int(qMax<qint64>(1, timeoutMs - clock.elapsed())));
    }
    return {};
}

} // namespace kforge::test
