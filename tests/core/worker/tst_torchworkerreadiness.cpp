// A torch task's worker readiness names the missing piece and the fix, through real parts: the real
// kforge-torch-worker (torchworker/, found from the source tree) run by a WorkerPool serving a torch task, with a
// python3 that cannot see torch (`python3 -I -S` in a wrapper named by KFORGE_TORCH_PYTHON), a KFORGE_TORCH_PYTHON
// that does not exist, and a PATH without python3 (the script's `#!/usr/bin/env python3` fails). Also the
// wording without a worker, and a worker message made one line (a traceback becomes its exception line).
#include "tests/core/worker/workertesthelpers.h"
#include "core/worker/torchworkerdiagnosis.h"
#include "core/worker/workerpool.h"

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

// Sets an environment variable for one scope.
class ScopedEnv
{
public:
    ScopedEnv(const char *name, const QByteArray &value)
        : m_name(name)
        , m_had(qEnvironmentVariableIsSet(name))
        , m_old(qgetenv(name))
    {
        qputenv(name, value);
    }
    ~ScopedEnv()
    {
        if (m_had)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }

private:
    const char *m_name;
    bool m_had;
    QByteArray m_old;
};

WorkerReadiness settledReadiness(WorkerPool &pool)
{
    QSignalSpy settled(&pool, &WorkerPool::devicesSettledChanged);
    if (!pool.devicesSettled() && !settled.wait(60000))
        return WorkerReadiness(WorkerReadiness::State::Starting);
    return pool.readiness();
}

} // namespace

class TestTorchWorkerReadiness : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_noTorch; // a python3 that cannot see torch

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        if (QStandardPaths::findExecutable(u"python3"_s).isEmpty())
            QSKIP("no python3 to run kforge-torch-worker with");
        m_noTorch = kforge::test::pythonWithoutTorch(m_dir.path());
        QVERIFY(!m_noTorch.isEmpty());
    }

    void oneLine_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("line");
        QTest::addRow("one line") << u"no CUDA device"_s << u"no CUDA device"_s;
        QTest::addRow("traceback") << u"The worker exited before it was ready (exit code 1).\nNo CUDA runtime is found\n"
                                      "Traceback (most recent call last):\n  File \"/x/kforge-torch-worker\", line 16, "
                                      "in <module>\n    import torch\nModuleNotFoundError: No module named 'torch'"_s
                                   << u"The worker exited before it was ready (exit code 1): ModuleNotFoundError: No "
                                      "module named 'torch'"_s;
        QTest::addRow("stderr line") << u"The worker exited before it was ready (exit code 127).\n/usr/bin/env: "
                                        "'python3': No such file or directory"_s
                                     << u"The worker exited before it was ready (exit code 127): /usr/bin/env: "
                                        "'python3': No such file or directory"_s;
    }
    void oneLine()
    {
        QFETCH(QString, message);
        QFETCH(QString, line);
        QCOMPARE(oneLineWorkerMessage(message), line);
    }

    void diagnosis_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("missing");
        QTest::addRow("no_torch") << u"no_torch"_s << u"/usr/bin/python3 cannot import torch"_s
                                  << int(TorchWorkerDiagnosis::Missing::Torch);
        QTest::addRow("old worker's traceback")
            << u"worker_unavailable"_s
            << u"The worker exited before it was ready (exit code 1).\nTraceback (most recent call last):\n  File "
               "\"x\", line 1\nModuleNotFoundError: No module named 'torch'"_s
            << int(TorchWorkerDiagnosis::Missing::Torch);
        QTest::addRow("env: python3") << u"worker_unavailable"_s
                                      << u"The worker exited before it was ready (exit code 127).\n/usr/bin/env: "
                                         "'python3': No such file or directory"_s
                                      << int(TorchWorkerDiagnosis::Missing::Python);
        QTest::addRow("no CUDA") << u"no_device"_s
                                 << u"no CUDA device: torch.cuda.is_available() is False (torch 1.13.0a0)"_s
                                 << int(TorchWorkerDiagnosis::Missing::Cuda);
        QTest::addRow("other") << u"internal"_s << u"KeyError: 'x'"_s << int(TorchWorkerDiagnosis::Missing::Nothing);
    }
    void diagnosis()
    {
        QFETCH(QString, code);
        QFETCH(QString, message);
        QFETCH(int, missing);
        const TorchWorkerDiagnosis d = TorchWorkerDiagnosis::of(code, message);
        QCOMPARE(int(d.missing), missing);
        QVERIFY2(!d.cause.contains(u'\n') && !d.cause.contains(u"Traceback"_s), qPrintable(d.cause));
        if (d.missing == TorchWorkerDiagnosis::Missing::Torch)
            QVERIFY2(d.cause.contains(u"KFORGE_TORCH_PYTHON"_s) || code == u"no_torch", qPrintable(d.cause));
    }

    // Without a worker a torch task's banner speaks of its candidates, not of kernels compiled here.
    void noWorkerWording()
    {
        WorkerPool pool;
        QSignalSpy changed(&pool, &WorkerPool::readinessChanged);
        pool.setTaskKind(TaskKind::Torch);
        QCOMPARE(changed.size(), 1); // the wording follows the kind even without workers
        const WorkerReadiness r = pool.readiness();
        QCOMPARE(r.state(), WorkerReadiness::State::NoWorker);
        QCOMPARE(r.taskKind(), TaskKind::Torch);
        QVERIFY2(!r.explanation().contains(u"kernels are compiled"_s), qPrintable(r.explanation()));
        QVERIFY2(r.explanation().contains(u"PyTorch"_s) && r.explanation().contains(u"kforge-torch-worker"_s),
                 qPrintable(r.explanation()));
        QVERIFY(WorkerReadiness(WorkerReadiness::State::NoWorker).explanation().contains(u"kernels are compiled"_s));
    }

    void missingPiece_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<int>("state");
        QTest::addColumn<QStringList>("says");
        QTest::addRow("python3 without torch")
            << u"wrapper"_s << int(WorkerReadiness::State::NoTorch)
            << QStringList{u"cannot import torch"_s, u"No module named 'torch'"_s, u"KFORGE_TORCH_PYTHON"_s,
                           u"python3-torch"_s};
        QTest::addRow("KFORGE_TORCH_PYTHON missing")
            << u"nonexistent"_s << int(WorkerReadiness::State::NoPython)
            << QStringList{u"KFORGE_TORCH_PYTHON=/nonexistent/python3 is not an executable file"_s, u"python3"_s};
        QTest::addRow("no python3 on PATH") << u"path"_s << int(WorkerReadiness::State::NoPython)
                                            << QStringList{u"python3"_s, u"No such file or directory"_s, u"exit code 127"_s};
    }
    void missingPiece()
    {
        QFETCH(QString, how);
        QFETCH(int, state);
        QFETCH(QStringList, says);
        const QByteArray python = how == u"wrapper"     ? m_noTorch.toLocal8Bit()
                                  : how == u"nonexistent" ? QByteArrayLiteral("/nonexistent/python3")
                                                          : QByteArray();
        std::optional<ScopedEnv> env;
        std::optional<ScopedEnv> path;
        if (!python.isEmpty())
            env.emplace("KFORGE_TORCH_PYTHON", python);
        else
            path.emplace("PATH", m_dir.path().toLocal8Bit()); // no python3 there
        WorkerPool pool;
        pool.setTaskKind(TaskKind::Torch);
        WorkerConfig w;
        w.command = u"kforge-worker --device cpu"_s;
        pool.setWorkers({w});
        const WorkerReadiness r = settledReadiness(pool);
        const QString text = r.summary() + u" | "_s + r.explanation();
        QCOMPARE(int(r.state()), state);
        QCOMPARE(r.taskKind(), TaskKind::Torch);
        for (const QString &s : std::as_const(says))
            QVERIFY2(text.contains(s), qPrintable(s + u" not in: "_s + text));
        QVERIFY2(!text.contains(u"Traceback"_s) && !text.contains(u'\n'), qPrintable(text));
        QVERIFY2(!text.contains(u"Check its command"_s), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestTorchWorkerReadiness)
#include "tst_torchworkerreadiness.moc"
