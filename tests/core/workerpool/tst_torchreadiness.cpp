// Whether kforge-worker can judge a torch task, and when not the missing piece and the fix, as the pool reads it off
// each worker's device_info: the GPU (no_device), and the "torch" probe of the python its module hosts run with.
// Through the pool with scripted workers whose probe says the python has no torch, is not there, or is missing (a
// worker from before torch tasks), and with the real kforge-worker; the workers are the same for both kinds of task.
// Also the wording without a worker, TorchDiagnosis row by row, and a worker message made one line.
#include "core/workerpool/torchdiagnosis.h"
#include "core/workerpool/workerpool.h"
#include "tests/core/workerpool/workertesthelpers.h"

#include <QJsonDocument>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;
using kforge::test::scriptedWorker;

namespace {

WorkerReadiness settledReadiness(WorkerPool &pool)
{
    QSignalSpy settled(&pool, &WorkerPool::devicesSettledChanged);
    if (!pool.devicesSettled() && !settled.wait(60000))
        return WorkerReadiness(WorkerReadiness::State::Starting);
    return pool.readiness();
}

WorkerConfig worker(const QString &command)
{
    WorkerConfig w;
    w.name = u"gpu-box"_s;
    w.command = command;
    return w;
}

// A device_info reply as the worker writes it (the probe's JSON as text, "" for none).
QJsonObject reply(const char *torch)
{
    QJsonObject o{{u"ok"_s, true}};
    if (*torch)
        o.insert(u"torch"_s, QJsonDocument::fromJson(torch).object());
    return o;
}

} // namespace

class TestTorchReadiness : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void oneLine_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("line");
        QTest::addRow("one line") << u"no CUDA device"_s << u"no CUDA device"_s;
        QTest::addRow("traceback") << u"The worker exited before it was ready (exit code 1).\nNo CUDA runtime is found\n"
                                      "Traceback (most recent call last):\n  File \"/x/probe.py\", line 16, "
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

    void ofWorker_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QJsonObject>("reply");
        QTest::addColumn<int>("missing");
        QTest::addColumn<QString>("cause");
        const auto torch = int(TorchDiagnosis::Missing::Torch);
        QTest::addRow("has torch") << QString() << reply(R"({"python": "/usr/bin/python3", "version": "2.5.1"})")
                                   << int(TorchDiagnosis::Missing::Nothing) << QString();
        QTest::addRow("no torch") << QString()
                                  << reply(R"({"python": "/usr/bin/python3", "version": null, "error":
                                              "ModuleNotFoundError: No module named 'torch'"})")
                                  << torch << u"/usr/bin/python3: ModuleNotFoundError: No module named 'torch'"_s;
        QTest::addRow("a library torch needs") // "No such file" about a library is torch failing, not python
            << QString()
            << reply(R"({"python": "/usr/bin/python3", "version": null,
                         "error": "OSError: libcudart.so.12: cannot open shared object file: No such file or directory"})")
            << torch << u"/usr/bin/python3: OSError: libcudart.so.12: cannot open"_s;
        QTest::addRow("no python") << QString()
                                   << reply(R"({"python": "/opt/py/bin/python3", "version": null, "error":
                                               "cannot run /opt/py/bin/python3: No such file or directory"})")
                                   << int(TorchDiagnosis::Missing::Python) << u"/opt/py/bin/python3: cannot run"_s;
        QTest::addRow("no probe") << QString() << reply("") << torch << u"before it judged torch tasks"_s;
        QTest::addRow("no GPU") << u"no_device"_s << QJsonObject() << int(TorchDiagnosis::Missing::Cuda)
                                << u"CUDA driver version is insufficient"_s;
        QTest::addRow("did not start") << u"worker_unavailable"_s << QJsonObject()
                                       << int(TorchDiagnosis::Missing::Nothing) << u"CUDA driver version is insufficient"_s;
    }
    void ofWorker()
    {
        QFETCH(QString, code);
        QFETCH(QJsonObject, reply);
        QFETCH(int, missing);
        QFETCH(QString, cause);
        const QString message = code.isEmpty() ? QString() : u"CUDA driver version is insufficient for CUDA runtime"_s;
        const TorchDiagnosis d = TorchDiagnosis::ofWorker(code, message, TorchProbe::fromReply(reply));
        QCOMPARE(int(d.missing), missing);
        QVERIFY2(d.cause.contains(cause), qPrintable(d.cause));
        QCOMPARE(d.cause.isEmpty(), cause.isEmpty());
        QVERIFY2(!d.cause.contains(u'\n'), qPrintable(d.cause));
    }

    // An evaluation without a verdict: what it lacked, from its error code or the module host's words.
    void ofResult()
    {
        QCOMPARE(TorchDiagnosis::ofResult(u"no_device"_s, u"no CUDA device"_s).missing, TorchDiagnosis::Missing::Cuda);
        const TorchDiagnosis torch = TorchDiagnosis::ofResult(
            u"load_failed"_s, u"cand.py: step import\nTraceback (most recent call last):\n  File \"x\", line 1\n"
                              "ModuleNotFoundError: No module named 'torch'"_s);
        QCOMPARE(torch.missing, TorchDiagnosis::Missing::Torch);
        QCOMPARE(torch.cause, u"cand.py: step import: ModuleNotFoundError: No module named 'torch'"_s);
        QCOMPARE(TorchDiagnosis::ofResult(u"internal"_s, u"KeyError: 'x'"_s).missing, TorchDiagnosis::Missing::Nothing);
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
        QVERIFY2(r.explanation().contains(u"PyTorch"_s) && r.explanation().contains(u"kforge-worker"_s),
                 qPrintable(r.explanation()));
        QVERIFY2(!r.explanation().contains(u"kforge-torch-worker"_s), qPrintable(r.explanation()));
        QVERIFY(WorkerReadiness(WorkerReadiness::State::NoWorker).explanation().contains(u"kernels are compiled"_s));
    }

    void missingPiece_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("state");
        QTest::addColumn<QStringList>("says");
        const QStringList fix{u"KFORGE_TORCH_PYTHON"_s, u"--torch-python"_s, u"Settings → Workers"_s};
        QTest::addRow("python without torch")
            << u"notorch"_s << int(WorkerReadiness::State::NoTorch)
            << QStringList{u"kforge-worker's Python has no torch"_s, u"/usr/bin/python3"_s,
                           u"No module named 'torch'"_s, u"pip install torch"_s} + fix;
        QTest::addRow("python not there")
            << u"nopython"_s << int(WorkerReadiness::State::NoPython)
            << QStringList{u"kforge-worker cannot run the Python"_s, u"/opt/none/python3"_s,
                           u"No such file or directory"_s} + fix;
        QTest::addRow("a worker from before torch tasks")
            << u"noprobe"_s << int(WorkerReadiness::State::NoTorch)
            << QStringList{u"does not say which Python"_s, u"install this KForge's kforge-worker"_s};
        QTest::addRow("no GPU") << u"nodevice"_s << int(WorkerReadiness::State::NoGpu)
                                << QStringList{u"No usable GPU"_s, u"PyTorch task"_s, u"kforge-worker"_s};
        QTest::addRow("ready") << u"normal"_s << int(WorkerReadiness::State::Ready) << QStringList{};
    }
    void missingPiece()
    {
        QFETCH(QString, mode);
        QFETCH(int, state);
        QFETCH(QStringList, says);
        WorkerPool pool;
        pool.setWorkers({worker(scriptedWorker(mode))});
        // A CUDA task needs no torch: any worker with its GPU can judge it.
        const WorkerReadiness cuda = settledReadiness(pool);
        QCOMPARE(cuda.state(), mode == u"nodevice" ? WorkerReadiness::State::NoGpu : WorkerReadiness::State::Ready);
        WorkerClient *const client = pool.worker(0);
        QSignalSpy restarted(client, &WorkerClient::ready);
        pool.setTaskKind(TaskKind::Torch);
        const WorkerReadiness r = pool.readiness();
        QCOMPARE(int(r.state()), state);
        QCOMPARE(r.taskKind(), TaskKind::Torch);
        // The same worker serves both kinds: nothing was restarted or replaced.
        QCOMPARE(pool.worker(0), client);
        QVERIFY(!restarted.wait(300));
        const QString text = r.summary() + u" | "_s + r.explanation();
        for (const QString &s : std::as_const(says))
            QVERIFY2(text.contains(s), qPrintable(s + u" not in: "_s + text));
        QVERIFY2(!text.contains(u"Traceback"_s) && !text.contains(u'\n'), qPrintable(text));
        QVERIFY2(!text.contains(u"kforge-torch-worker"_s) && !text.contains(u"compiled here"_s), qPrintable(text));
        if (r.isUnusable())
            QVERIFY2(r.details().value(0).startsWith(u"gpu-box: "_s), qPrintable(r.details().join(u"; "_s)));
        // Settings → Workers shows the probe with the GPU.
        if (mode == u"normal" || mode == u"notorch")
            QVERIFY2(pool.status(0).details().contains(mode == u"normal" ? u"PyTorch tasks: torch 2.5.1 (/usr/bin/python3)"_s
                                                                         : u"PyTorch tasks: not judged here"_s),
                     qPrintable(pool.status(0).details()));
    }

    // A torch job on a worker that lacks a piece ends without a verdict (the module host could not even start or
    // import the reference), with what is missing and the fix, never as the candidate's load error.
    void aJobWithoutAPieceSaysWhy_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("starts");
        QTest::addColumn<QString>("says");
        QTest::addRow("no torch") << u"notorch"_s << u"kforge-worker's Python has no torch"_s
                                  << u"No module named 'torch'"_s;
        QTest::addRow("no python") << u"nopython"_s << u"kforge-worker cannot run the Python"_s
                                   << u"/opt/none/python3"_s;
        QTest::addRow("no probe") << u"noprobe"_s << u"kforge-worker's Python has no torch"_s
                                  << u"before it judged torch tasks"_s;
    }
    void aJobWithoutAPieceSaysWhy()
    {
        QFETCH(QString, mode);
        QFETCH(QString, starts);
        QFETCH(QString, says);
        WorkerPool pool;
        pool.setTaskKind(TaskKind::Torch);
        pool.setWorkers({worker(scriptedWorker(mode))});
        QSignalSpy finished(&pool, &WorkerPool::finished);
        EvalJob job;
        job.referenceSo = u"/tmp/task/reference.py"_s;
        job.candidateSo = u"/tmp/task/candidate.py"_s;
        job.task = QJsonObject{{u"kind"_s, u"torch"_s}, {u"name"_s, u"relu"_s}};
        job.taskKind = TaskKind::Torch;
        job.timeoutMs = 20000;
        pool.submit(job);
        QVERIFY(finished.wait(30000));
        const EvalResult r = finished.first().at(1).value<EvalResult>();
        QCOMPARE(r.verdict, Verdict::Error);
        QVERIFY2(r.message.startsWith(starts), qPrintable(r.message));
        QVERIFY2(r.message.contains(says) && !r.message.contains(u'\n'), qPrintable(r.message));
    }

    // The real kforge-worker for a torch task, its python for torch tasks one that cannot import torch: without a GPU
    // it says so in a torch task's words; with one, that its python has no torch (its device_info probe).
    void realWorkerForATorchTask()
    {
        if (kforge::test::realWorker().isEmpty())
            QSKIP("kforge-worker is not built here");
        QTemporaryDir dir;
        const QString noTorch = kforge::test::pythonWithoutTorch(dir.path());
        if (noTorch.isEmpty())
            QSKIP("no python3 here");
        const QByteArray old = qgetenv("KFORGE_TORCH_PYTHON");
        qputenv("KFORGE_TORCH_PYTHON", noTorch.toLocal8Bit()); // a local worker inherits it
        WorkerPool pool;
        pool.setTaskKind(TaskKind::Torch);
        pool.setWorkers({worker(kforge::test::realWorker())});
        const WorkerReadiness r = settledReadiness(pool);
        old.isNull() ? qunsetenv("KFORGE_TORCH_PYTHON") : qputenv("KFORGE_TORCH_PYTHON", old);
        const QString text = r.summary() + u" | "_s + r.explanation();
        qInfo("kforge-worker here, for a torch task: %s", qPrintable(text));
        if (!pool.device(0).isValid()) {
            QCOMPARE(r.state(), WorkerReadiness::State::NoGpu);
            QVERIFY2(text.contains(u"PyTorch task"_s) && !text.contains(u"compiled here"_s), qPrintable(text));
            return;
        }
        QCOMPARE(r.state(), WorkerReadiness::State::NoTorch);
        QVERIFY2(text.contains(noTorch) && text.contains(u"No module named 'torch'"_s), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestTorchReadiness)
#include "tst_torchreadiness.moc"
