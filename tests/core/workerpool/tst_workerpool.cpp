// WorkerPool and PoolEvaluator: jobs to free workers, the reference kept loaded, a worker killed with
// SIGKILL mid-job and restarted, the watchdog, cancellation; PoolEvaluator compiling with the real nvcc
// for the workers' architecture and surfacing compile errors and the real worker's no-GPU error, and sending a
// torch task's modules as files to the same workers.
#include "core/compile/compiler.h"
#include "core/compile/cudatoolkit.h"
#include "core/llm/llmclient.h"
#include "core/optimizer/roundrunner.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/workerpool/poolevaluator.h"
#include "core/workerpool/scriptedevaluator.h"
#include "core/workerpool/workerclient.h"
#include "core/workerpool/workerpool.h"
#include "workertesthelpers.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <csignal>

using namespace Qt::StringLiterals;
using namespace kforge;
using kforge::test::realWorker;
using kforge::test::scriptedWorker;
using kforge::test::unreachableHost;

namespace {

WorkerConfig scripted(const QString &name = {})
{
    WorkerConfig c;
    c.name = name;
    c.command = scriptedWorker(u"normal"_s);
    return c;
}

EvalJob job(const QString &taskName, const QString &candidate = u"/tmp/candidate.so"_s, int timeoutMs = 20000)
{
    EvalJob j;
    j.referenceSo = u"/tmp/reference.so"_s;
    j.candidateSo = candidate;
    j.task = QJsonObject{{u"name"_s, taskName}};
    j.timeoutMs = timeoutMs;
    return j;
}

// Collects finished(id, result) of a pool or an evaluator.
template <typename Emitter, typename Signal>
QHash<int, EvalResult> waitFinished(Emitter *emitter, Signal signal, int count, int timeoutMs = 60000)
{
    QSignalSpy spy(emitter, signal);
    QHash<int, EvalResult> out;
    QElapsedTimer clock;
    clock.start();
    while (spy.count() < count && clock.elapsed() < timeoutMs)
        spy.wait(int(timeoutMs - clock.elapsed()));
    for (const auto &args : std::as_const(spy))
        out.insert(args.at(0).toInt(), args.at(1).value<EvalResult>());
    return out;
}

int countLog(const QSignalSpy &log, const QString &text)
{
    int n = 0;
    for (const auto &args : log)
        n += args.at(1).toString().contains(text) ? 1 : 0;
    return n;
}

Task builtin(const QString &name)
{
    const TaskLoadResult r = Task::load(Task::builtinTasksDir() + u'/' + name);
    if (!r.ok())
        qFatal("%s", qPrintable(r.error.message()));
    return *r.task;
}

// A compiler on `cacheDir`, a pool on `worker` whose log is recorded from before it starts, and the
// PoolEvaluator over both with its compiled() recorded; built in that order (members in declaration order).
struct EvaluatorRig {
    Compiler compiler;
    WorkerPool pool;
    QSignalSpy log{&pool, &WorkerPool::log};
    bool started;
    PoolEvaluator evaluator{&compiler, &pool};
    QSignalSpy compiled{&evaluator, &Evaluator::compiled};

    EvaluatorRig(const QString &cacheDir, const WorkerConfig &worker)
        : started(start(cacheDir, worker))
    {
    }

private:
    bool start(const QString &cacheDir, const WorkerConfig &worker)
    {
        compiler.setCacheDir(cacheDir);
        pool.setWorkers({worker});
        return true;
    }
};

} // namespace

class TestWorkerPool : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void deviceIsReported();
    void referenceStaysLoaded();
    void jobsSpreadOverWorkers();
    void sigkillMidJobThenNextJobRuns();
    void watchdogTimeout();
    void torchJobWaitsForItsModules();
    void cancelQueuedAndRunning();
    void noWorkers();
    void unavailableWorkerFailsJobs();

    void evaluatorCompileError();
    void evaluatorCompilesForTheWorkersArch();
    void evaluatorSurfacesNoGpu();
    void evaluatorSendsTorchModulesAsFiles();
    void scriptedEvaluator();
    void readiness_data();
    void readiness();
    void unusableWorkersCreateNothing();
    void realWorkerReadiness();

private:
    std::unique_ptr<QTemporaryDir> m_cache;
};

void TestWorkerPool::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    qRegisterMetaType<EvalResult>();
    qRegisterMetaType<CompileResult>();
    m_cache = std::make_unique<QTemporaryDir>();
}

void TestWorkerPool::deviceIsReported()
{
    WorkerPool pool;
    QSignalSpy reported(&pool, &WorkerPool::deviceReported);
    QSignalSpy settled(&pool, &WorkerPool::devicesSettledChanged);
    QVERIFY(pool.arch().isEmpty());
    pool.setWorkers({scripted()});
    QVERIFY(!pool.devicesSettled());
    QVERIFY(reported.wait(20000));
    QCOMPARE(reported.at(0).at(1).value<DeviceInfo>().name, u"Scripted GPU"_s);
    QCOMPARE(pool.arch(), u"sm_80"_s);
    QVERIFY(pool.devicesSettled());
    QCOMPARE(settled.count(), 1);
}

void TestWorkerPool::referenceStaysLoaded()
{
    WorkerPool pool;
    QSignalSpy log(&pool, &WorkerPool::log);
    QSignalSpy progress(&pool, &WorkerPool::progress);
    pool.setWorkers({scripted(u"one"_s)});
    const int a = pool.submit(job(u"t"_s, u"/tmp/a.so"_s));
    const int b = pool.submit(job(u"t"_s, u"/tmp/b.so"_s));
    QCOMPARE(pool.pendingJobs(), 2);
    const auto results = waitFinished(&pool, &WorkerPool::finished, 2);
    QCOMPARE(results.size(), 2);
    for (int id : {a, b}) {
        QCOMPARE(results.value(id).verdict, Verdict::Incorrect); // what the scripted worker says
        QCOMPARE(results.value(id).workerName, u"one"_s);
        QCOMPARE(results.value(id).deviceName, u"Scripted GPU"_s);
    }
    QCOMPARE(countLog(log, u"loaded reference"_s), 1);
    QCOMPARE(countLog(log, u"loaded candidate"_s), 2);
    QStringList stages;
    for (const auto &args : std::as_const(progress))
        if (args.at(0).toInt() == a)
            stages << args.at(1).toString();
    QCOMPARE(stages, (QStringList{u"loading"_s, u"verifying"_s, u"timing"_s}));
    QCOMPARE(pool.pendingJobs(), 0);
}

void TestWorkerPool::jobsSpreadOverWorkers()
{
    WorkerPool pool;
    QSignalSpy started(&pool, &WorkerPool::jobStarted);
    pool.setWorkers({scripted(u"w0"_s), scripted(u"w1"_s)});
    QCOMPARE(pool.workerCount(), 2);
    for (int i = 0; i < 4; ++i)
        pool.submit(job(u"t"_s, u"/tmp/c%1.so"_s.arg(i)));
    const auto results = waitFinished(&pool, &WorkerPool::finished, 4);
    QCOMPARE(results.size(), 4);
    QSet<int> workers;
    for (const auto &args : std::as_const(started))
        workers.insert(args.at(1).toInt());
    QCOMPARE(workers, (QSet<int>{0, 1}));
}

void TestWorkerPool::sigkillMidJobThenNextJobRuns()
{
    WorkerPool pool;
    QSignalSpy log(&pool, &WorkerPool::log);
    QSignalSpy progress(&pool, &WorkerPool::progress);
    pool.setWorkers({scripted()});
    const int hung = pool.submit(job(u"hang"_s, u"/tmp/hang.so"_s, 120000));
    const int next = pool.submit(job(u"t"_s, u"/tmp/next.so"_s));
    // Wait until the first job is evaluating, then kill the worker the hard way.
    QElapsedTimer clock;
    clock.start();
    bool verifying = false;
    while (!verifying && clock.elapsed() < 20000) {
        for (const auto &args : std::as_const(progress))
            verifying = verifying || (args.at(0).toInt() == hung && args.at(1).toString() == u"verifying");
        if (!verifying)
            progress.wait(1000);
    }
    QVERIFY(verifying);
    const int pid = pool.worker(0)->readyEvent().value("pid"_L1).toInt();
    QVERIFY(pid > 0);
    ::kill(pid, SIGKILL);

    const auto results = waitFinished(&pool, &WorkerPool::finished, 2);
    QCOMPARE(results.value(hung).verdict, Verdict::Crashed);
    QCOMPARE(results.value(hung).exitSignal, int(SIGKILL));
    QVERIFY2(results.value(hung).message.contains(u"signal 9"), qPrintable(results.value(hung).message));
    // The restarted worker holds nothing: the reference is loaded again for the next job.
    QCOMPARE(results.value(next).verdict, Verdict::Incorrect);
    QCOMPARE(countLog(log, u"loaded reference"_s), 2);
    QCOMPARE(pool.worker(0)->generation(), 2);
}

void TestWorkerPool::watchdogTimeout()
{
    WorkerPool pool;
    pool.setWorkers({scripted()});
    const int id = pool.submit(job(u"hang"_s, u"/tmp/hang.so"_s, 400));
    const auto results = waitFinished(&pool, &WorkerPool::finished, 1);
    QCOMPARE(results.value(id).verdict, Verdict::Timeout);
    // And the pool keeps working.
    const int after = pool.submit(job(u"t"_s));
    QCOMPARE(waitFinished(&pool, &WorkerPool::finished, 1).value(after).verdict, Verdict::Incorrect);
}

// The job's typed kind reaches the worker client: a torch task's modules get their start-up time (the scripted
// worker's "slowstart" takes 1.5 s before the evaluation begins) on top of its 0.8 s; a CUDA task's do not.
void TestWorkerPool::torchJobWaitsForItsModules()
{
    WorkerPool pool;
    pool.setWorkers({scripted()});
    EvalJob torch = job(u"slowstart"_s, u"/tmp/torch.so"_s, 800);
    torch.taskKind = TaskKind::Torch;
    const int started = pool.submit(torch);
    QCOMPARE(waitFinished(&pool, &WorkerPool::finished, 1).value(started).verdict, Verdict::Incorrect);
    const int cuda = pool.submit(job(u"slowstart"_s, u"/tmp/cuda.so"_s, 800));
    QCOMPARE(waitFinished(&pool, &WorkerPool::finished, 1).value(cuda).verdict, Verdict::Timeout);
}

void TestWorkerPool::cancelQueuedAndRunning()
{
    WorkerPool pool;
    QSignalSpy progress(&pool, &WorkerPool::progress);
    pool.setWorkers({scripted()});
    const int running = pool.submit(job(u"hang"_s, u"/tmp/hang.so"_s, 120000));
    const int queued = pool.submit(job(u"t"_s));
    QVERIFY(progress.wait(20000));
    pool.cancel(queued);
    pool.cancel(running);
    const auto results = waitFinished(&pool, &WorkerPool::finished, 2);
    QCOMPARE(results.size(), 2);
    QCOMPARE(results.value(queued).errorCode, WorkerReply::Cancelled);
    QCOMPARE(results.value(running).errorCode, WorkerReply::Cancelled);
    QCOMPARE(results.value(running).verdict, Verdict::Error);
    // A stopped worker comes back for the next job.
    const int after = pool.submit(job(u"t"_s));
    const EvalResult next = waitFinished(&pool, &WorkerPool::finished, 1).value(after);
    QVERIFY2(next.verdict == Verdict::Incorrect, qPrintable(next.message));
}

void TestWorkerPool::noWorkers()
{
    WorkerPool pool;
    pool.setWorkers({});
    QVERIFY(pool.devicesSettled());
    const int id = pool.submit(job(u"t"_s));
    const auto r = waitFinished(&pool, &WorkerPool::finished, 1).value(id);
    QCOMPARE(r.verdict, Verdict::Error);
    QVERIFY(r.message.contains(u"No GPU worker"));
}

void TestWorkerPool::unavailableWorkerFailsJobs()
{
    WorkerConfig dead;
    dead.command = scriptedWorker(u"die"_s);
    WorkerPool pool;
    QSignalSpy failed(&pool, &WorkerPool::deviceFailed);
    pool.setWorkers({dead});
    QVERIFY(failed.wait(20000));
    QVERIFY(pool.devicesSettled());
    QVERIFY(pool.deviceError(0).contains(u"cannot open /dev/nvidia0"));
    const int id = pool.submit(job(u"t"_s));
    const auto r = waitFinished(&pool, &WorkerPool::finished, 1).value(id);
    QCOMPARE(r.verdict, Verdict::Error);
    QCOMPARE(r.errorCode, WorkerReply::Unavailable);
    QVERIFY(r.message.contains(u"cannot open /dev/nvidia0"));
}

void TestWorkerPool::evaluatorCompileError()
{
    if (CudaToolkit::locateNvcc().isEmpty())
        QSKIP("no nvcc");
    EvaluatorRig rig(m_cache->path(), scripted());
    EvalRequest req;
    req.task = builtin(u"diag_matmul"_s);
    req.candidateSource = u"#include \"kforge/kernel.h\"\nKF_ENTRY(in, nin, out, nout, params, stream) {\n  return nope;\n}\n"_s;
    req.candidateName = u"mine.cu"_s;
    const int id = rig.evaluator.submit(req);
    const EvalResult r = waitFinished(&rig.evaluator, &Evaluator::finished, 1, 120000).value(id);
    QCOMPARE(r.verdict, Verdict::CompileError);
    QVERIFY2(r.message.contains(u"mine.cu:3"), qPrintable(r.message));
    QCOMPARE(rig.compiled.count(), 1);
    const auto cr = rig.compiled.at(0).at(1).value<CompileResult>();
    QCOMPARE(cr.diagnostics.value(0).file, u"mine.cu"_s);
    QCOMPARE(cr.diagnostics.value(0).line, 3);
    QCOMPARE(countLog(rig.log, u"scripted-worker: load"_s), 0); // never reached a worker
}

void TestWorkerPool::evaluatorCompilesForTheWorkersArch()
{
    if (CudaToolkit::locateNvcc().isEmpty())
        QSKIP("no nvcc");
    EvaluatorRig rig(m_cache->path(), scripted(u"scripted"_s));
    QSignalSpy progress(&rig.evaluator, &Evaluator::progress);
    const Task task = builtin(u"diag_matmul"_s);
    EvalRequest req;
    req.task = task;
    req.candidateSource = task.variant(u"good"_s)->source;
    const int id = rig.evaluator.submit(req); // submitted before the worker reported its device
    const EvalResult r = waitFinished(&rig.evaluator, &Evaluator::finished, 1, 180000).value(id);
    QCOMPARE(r.verdict, Verdict::Incorrect); // the scripted worker's answer, passed through
    QVERIFY(r.hasFlag(u"scripted"_s));
    QCOMPARE(r.workerName, u"scripted"_s);
    QVERIFY(r.elapsedMs > 0);
    QCOMPARE(rig.compiled.count(), 1);
    const auto cr = rig.compiled.at(0).at(1).value<CompileResult>();
    QVERIFY(cr.ok);
    QCOMPARE(cr.arch, u"sm_80"_s); // the scripted device's compute capability
    QStringList stages;
    for (const auto &args : std::as_const(progress))
        stages << args.at(1).toString();
    QCOMPARE(stages, (QStringList{u"compiling"_s, u"queued"_s, u"loading"_s, u"verifying"_s, u"timing"_s}));
    QCOMPARE(countLog(rig.log, u"loaded reference"_s), 1);
}

void TestWorkerPool::evaluatorSurfacesNoGpu()
{
    if (CudaToolkit::locateNvcc().isEmpty())
        QSKIP("no nvcc");
    if (realWorker().isEmpty())
        QSKIP("kforge-worker is not built here");
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    WorkerPool pool;
    WorkerConfig real;
    real.command = realWorker();
    pool.setWorkers({real});
    PoolEvaluator evaluator(&compiler, &pool);
    const Task task = builtin(u"diag_matmul"_s);
    EvalRequest req;
    req.task = task;
    req.candidateSource = task.variant(u"naive"_s)->source;
    const int id = evaluator.submit(req);
    const EvalResult r = waitFinished(&evaluator, &Evaluator::finished, 1, 180000).value(id);
    if (r.verdict == Verdict::Correct)
        QSKIP("this machine has a GPU: the no-device path is not reachable");
    QCOMPARE(r.verdict, Verdict::Error);
    QCOMPARE(r.errorCode, u"no_device"_s);
    QVERIFY2(r.message.contains(u"CUDA", Qt::CaseInsensitive), qPrintable(r.message));
    QVERIFY(!pool.deviceError(0).isEmpty());
}

// A torch task goes to the same worker as a CUDA task (no other program, no restart): its reference.py and a ModelNew
// candidate are not compiled but written to files the worker loads by path; the reference measured as a candidate
// is its Model under the name the worker looks up.
void TestWorkerPool::evaluatorSendsTorchModulesAsFiles()
{
    EvaluatorRig rig(m_cache->path(), scripted(u"scripted"_s));
    const Task task = builtin(u"torch_softmax"_s);
    QVERIFY(task.isTorch());
    const auto loadedFile = [&rig](const QString &slot) {
        QString file;
        for (const auto &args : std::as_const(rig.log))
            if (const QString line = args.at(1).toString(); line.contains(u"loaded "_s + slot + u" via path from "_s))
                file = line.section(u" from "_s, -1);
        return file;
    };
    const auto readAll = [](const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    };
    const QString modelNew = readAll(Task::builtinTasksDir() + u"/torch_softmax/variants/explicit.py"_s);
    QVERIFY(modelNew.contains(u"class ModelNew"_s));
    // (the name given, the file the worker gets): a round's candidate has the default name, its language decides.
    for (const auto &[given, name] : {std::pair{u"explicit.py"_s, u"explicit.py"_s},
                                      std::pair{u"candidate.cu"_s, u"candidate.py"_s},
                                      std::pair{u"reference.py"_s, u"reference.py"_s}}) {
        EvalRequest req;
        req.task = task;
        req.candidateSource = given == u"reference.py" ? task.referenceSource() : modelNew;
        req.candidateName = given;
        const int id = rig.evaluator.submit(req);
        const EvalResult r = waitFinished(&rig.evaluator, &Evaluator::finished, 1, 60000).value(id);
        QCOMPARE(r.verdict, Verdict::Incorrect); // the scripted worker's answer, passed through
        QVERIFY(r.hasFlag(u"scripted"_s));
        QCOMPARE(r.workerName, u"scripted"_s);
        QCOMPARE(rig.pool.taskKind(), TaskKind::Torch);
        const QString reference = loadedFile(u"reference"_s);
        QVERIFY2(reference.endsWith(u"/reference.py"_s), qPrintable(reference));
        QCOMPARE(readAll(reference), task.referenceSource());
        const QString candidate = loadedFile(u"candidate"_s);
        QVERIFY2(candidate.endsWith(u'/' + name), qPrintable(candidate));
        QCOMPARE(readAll(candidate).contains(u"ModelNew = Model"_s), name == u"reference.py");
    }
    QCOMPARE(rig.compiled.count(), 0);                            // nothing compiled, no nvcc needed
    QCOMPARE(countLog(rig.log, u"scripted-worker: device_info"_s), 1); // one worker process for both
    QCOMPARE(countLog(rig.log, u"loaded reference"_s), 1);             // and it kept the reference
}

void TestWorkerPool::scriptedEvaluator()
{
    int calls = 0;
    ScriptedEvaluator evaluator([&calls](const EvalRequest &req) {
        ++calls;
        EvalResult r;
        r.verdict = req.candidateSource.contains(u"fast") ? Verdict::Correct : Verdict::Incorrect;
        r.speedup = 2.0;
        return r;
    });
    evaluator.setDelayMs(10);
    EvalRequest fast;
    fast.candidateSource = u"fast"_s;
    EvalRequest slow;
    slow.candidateSource = u"slow"_s;
    const int a = evaluator.submit(fast);
    const int b = evaluator.submit(slow);
    const int c = evaluator.submit(slow);
    evaluator.cancel(c);
    const auto results = waitFinished(&evaluator, &Evaluator::finished, 3);
    QCOMPARE(results.value(a).verdict, Verdict::Correct);
    QVERIFY(results.value(a).hasFlag(u"scripted"_s));
    QCOMPARE(results.value(b).verdict, Verdict::Incorrect);
    QCOMPARE(results.value(c).errorCode, u"cancelled"_s);
    QCOMPARE(calls, 2);
    QCOMPARE(evaluator.submitted().size(), 3);
}

void TestWorkerPool::readiness_data()
{
    QTest::addColumn<QString>("command"); // empty: no worker at all
    QTest::addColumn<int>("state");
    QTest::addRow("none") << QString() << int(WorkerReadiness::State::NoWorker);
    QTest::addRow("command not found") << u"/nonexistent/bin/kforge-worker"_s << int(WorkerReadiness::State::CannotStart);
    QTest::addRow("dies at start") << scriptedWorker(u"die"_s) << int(WorkerReadiness::State::CannotStart);
    QTest::addRow("host unknown to ssh") << unreachableHost() << int(WorkerReadiness::State::CannotStart);
    QTest::addRow("no GPU") << scriptedWorker(u"nodevice"_s) << int(WorkerReadiness::State::NoGpu);
    QTest::addRow("ready") << scriptedWorker(u"normal"_s) << int(WorkerReadiness::State::Ready);
}

void TestWorkerPool::readiness()
{
    QFETCH(QString, command);
    QFETCH(int, state);
    WorkerPool pool;
    QCOMPARE(pool.readiness().state(), WorkerReadiness::State::NoWorker);
    QSignalSpy changed(&pool, &WorkerPool::readinessChanged);
    WorkerConfig config;
    config.name = u"gpu-box"_s;
    config.command = command;
    pool.setWorkers(command.isEmpty() ? QList<WorkerConfig>{} : QList<WorkerConfig>{config});
    if (command.startsWith(u'"')) // a process that has to answer first
        QCOMPARE(pool.readiness().state(), WorkerReadiness::State::Starting);
    QTRY_COMPARE_WITH_TIMEOUT(int(pool.readiness().state()), state, 20000);
    const WorkerReadiness r = pool.readiness();
    if (!command.isEmpty()) {
        QVERIFY(!changed.isEmpty());
        QCOMPARE(changed.constLast().at(0).value<WorkerReadiness>(), r);
    }
    QCOMPARE(r.canEvaluate(), state == int(WorkerReadiness::State::Ready));
    QCOMPARE(r.isUnusable(), state != int(WorkerReadiness::State::Ready));
    if (r.isUnusable()) {
        // Plain and pointing the right way: what to do, never "update your driver".
        QVERIFY2(r.explanation().contains(u"Settings → Workers"_s), qPrintable(r.explanation()));
        // The example command only while nothing failed: it could be exactly the one that just did.
        QCOMPARE(r.explanation().contains(u"ssh gpu-box kforge-worker"_s), state == int(WorkerReadiness::State::NoWorker));
        if (state == int(WorkerReadiness::State::CannotStart)) // the cause, in the launcher's own words
            QVERIFY2(r.explanation().contains(WorkerStatus::keyLine(r.details().value(0))), qPrintable(r.explanation()));
        if (command == unreachableHost())
            QVERIFY2(r.explanation().contains(u"(ssh: Could not resolve hostname gpu-box: Name or service not known)"_s),
                     qPrintable(r.explanation()));
        QVERIFY2(!r.explanation().contains(u"driver"_s, Qt::CaseInsensitive), qPrintable(r.explanation()));
    } else {
        QVERIFY(r.explanation().isEmpty());
    }
    if (state == int(WorkerReadiness::State::NoGpu)) // the worker's own words stay available
        QCOMPARE(r.details(), QStringList{u"gpu-box: CUDA driver version is insufficient for CUDA runtime version"_s});
    // The evaluator passes the pool's readiness on, and its changes.
    Compiler compiler;
    PoolEvaluator evaluator(&compiler, &pool);
    QCOMPARE(evaluator.readiness(), r);
    QSignalSpy passed(&evaluator, &Evaluator::readinessChanged);
    pool.setWorkers({});
    if (state != int(WorkerReadiness::State::NoWorker)) {
        QCOMPARE(passed.count(), 1);
        QCOMPARE(passed.first().at(0).value<WorkerReadiness>().state(), WorkerReadiness::State::NoWorker);
    }
}

void TestWorkerPool::unusableWorkersCreateNothing()
{
    QTemporaryDir dir;
    SessionStore store;
    QVERIFY2(store.create(dir.filePath(u"s.kforge"_s), Task::builtinTasksDir() + u"/diag_matmul"_s),
             qPrintable(store.errorString()));
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    WorkerPool pool;
    pool.setWorkers({});
    PoolEvaluator evaluator(&compiler, &pool);
    LlmClient llm;
    RoundRunner runner(&store, &llm, &evaluator);
    const qsizetype variants = store.population().size();
    // No round, no variant and no evaluation that could only fail.
    QVERIFY(!runner.start(RoundSettings{}));
    QCOMPARE(runner.errorString(), pool.readiness().explanation());
    QVERIFY(store.rounds().all().isEmpty());
    QCOMPARE(runner.queue()->addManualVariant(u"// mine\n"_s), 0);
    QCOMPARE(runner.queue()->errorString(), pool.readiness().explanation());
    QCOMPARE(store.population().size(), variants);
    QVERIFY(!runner.queue()->reevaluate(store.population().reference()->id));
    QCOMPARE(store.evaluations().count(), 0);
    QVERIFY(!runner.isRunning());
    // Workers that are still starting are not refused: the work waits for their device (kforge-cli starts so).
    pool.setWorkers({scripted()});
    QCOMPARE(pool.readiness().state(), WorkerReadiness::State::Starting);
    QVERIFY(runner.queue()->addManualVariant(u"// mine\n"_s) > 0);
    QCOMPARE(store.population().size(), variants + 1);
}

// The real kforge-worker: ready on a GPU host; elsewhere "no usable GPU", with its own words in the details only.
void TestWorkerPool::realWorkerReadiness()
{
    if (realWorker().isEmpty())
        QSKIP("kforge-worker is not built here");
    WorkerConfig config;
    config.name = u"local"_s;
    config.command = realWorker();
    WorkerPool pool;
    pool.setWorkers({config});
    QTRY_VERIFY_WITH_TIMEOUT(pool.readiness().state() != WorkerReadiness::State::Starting, 60000);
    const WorkerReadiness r = pool.readiness();
    qInfo("kforge-worker here: %s %s", qPrintable(r.summary()), qPrintable(r.details().join(u"; "_s)));
    if (pool.device(0).isValid()) {
        QCOMPARE(r.state(), WorkerReadiness::State::Ready);
        return;
    }
    QCOMPARE(r.state(), WorkerReadiness::State::NoGpu);
    QCOMPARE(r.details().size(), 1);
    QVERIFY(r.details().constFirst().startsWith(u"local: "_s));
    QVERIFY2(!r.explanation().contains(u"driver"_s, Qt::CaseInsensitive), qPrintable(r.explanation()));
}

QTEST_GUILESS_MAIN(TestWorkerPool)
#include "tst_workerpool.moc"
