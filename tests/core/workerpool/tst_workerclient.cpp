// WorkerClient against the real kforge-worker (handshake, malformed requests, the no-GPU error) and against
// scripted workers that hang, crash, exit, need a restart or speak another protocol.
#include "core/eval/evaloptions.h"
#include "core/workerpool/workerclient.h"
#include "workertesthelpers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <csignal>

using namespace Qt::StringLiterals;
using namespace kforge;
using kforge::test::realWorker;
using kforge::test::scriptedWorker;
using kforge::test::waitReply;

namespace {

WorkerConfig config(const QString &command)
{
    WorkerConfig c;
    c.command = command;
    c.startTimeoutMs = 20000;
    return c;
}

QJsonObject task(const QString &name)
{
    return QJsonObject{{u"name"_s, name}};
}

// The lines the client logged that start with `prefix`, in order.
QStringList logged(const QSignalSpy &log, QStringView prefix)
{
    QStringList lines;
    for (const QList<QVariant> &args : log)
        if (args.at(0).toString().startsWith(prefix))
            lines << args.at(0).toString();
    return lines;
}

} // namespace

class TestWorkerClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();

    // The real worker.
    void realHandshake();
    void realMalformedRequests_data();
    void realMalformedRequests();
    void realNoGpuIsReported();
    void realRestartsAfterSigkill();

    // Scripted workers.
    void requestsRunOneAtATimeInOrder();
    void progressIsForwarded();
    void measuredIsForwarded();
    void brokenMeasuredIsIgnored();
    void loadByPathOrInline();
    void watchdogKillsAHang();
    void torchTaskWatchdogStartsWithTheEvaluation();
    void deathMidRequestIsCrashed_data();
    void deathMidRequestIsCrashed();
    void sigkillMidRequest();
    void restartRequired();
    void protocolMismatch();
    void helloRefused();
    void diesBeforeReady();
    void neverReady();
    void programMissing();
    void cancelQueued();
    void noEndlessRestarts();
    void stopEndsTheWorker();

    // Protocol hardening: tokens and the result schema.
    void linesWithoutTheTokenAreDropped();
    void malformedResultIsAProtocolError();
    void resultSchema_data();
    void resultSchema();
    void workerWithoutTokensIsRefused();
};

void TestWorkerClient::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    qRegisterMetaType<WorkerReply>();
}

void TestWorkerClient::realHandshake()
{
    if (realWorker().isEmpty())
        QSKIP("kforge-worker is not built here (no CUDA toolkit at configure time)");
    WorkerClient client(config(realWorker() + u" --device 0"_s));
    QSignalSpy ready(&client, &WorkerClient::ready);
    client.start();
    QVERIFY(ready.wait(20000));
    const QJsonObject hello = ready.at(0).at(0).toJsonObject();
    QCOMPARE(hello.value("event"_L1).toString(), u"ready"_s);
    QCOMPARE(hello.value("protocol"_L1).toInt(), 1);
    QCOMPARE(hello.value("abi_version"_L1).toInt(), 1);
    QVERIFY(!hello.value("worker_version"_L1).toString().isEmpty());
    QVERIFY(hello.value("pid"_L1).toInt() > 0);
    QCOMPARE(client.state(), WorkerClient::State::Idle);
    QCOMPARE(client.generation(), 1);

    const WorkerReply r = waitReply(client, client.send(u"hello"_s, {{u"protocol"_s, 1}}));
    QVERIFY2(r.ok, qPrintable(r.errorMessage));
    QCOMPARE(r.body.value("protocol"_L1).toInt(), 1);

    const WorkerReply wrong = waitReply(client, client.send(u"hello"_s, {{u"protocol"_s, 2}}));
    QVERIFY(!wrong.ok);
    QCOMPARE(wrong.errorCode, u"protocol_mismatch"_s);
}

void TestWorkerClient::realMalformedRequests_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("code");
    QTest::newRow("not JSON") << QByteArray("{this is not json") << u"bad_request"_s;
    QTest::newRow("not an object") << QByteArray("[1, 2, 3]") << u"bad_request"_s;
    QTest::newRow("no op") << QByteArray(R"({"id": 7})") << u"bad_request"_s;
    QTest::newRow("unknown op") << QByteArray(R"({"id": 8, "op": "frobnicate"})") << u"bad_request"_s;
    QTest::newRow("load without file") << QByteArray(R"({"id": 9, "op": "load", "slot": "candidate"})") << u"bad_request"_s;
}

void TestWorkerClient::realMalformedRequests()
{
    if (realWorker().isEmpty())
        QSKIP("kforge-worker is not built here");
    QFETCH(QByteArray, line);
    QFETCH(QString, code);
    WorkerClient client(config(realWorker()));
    const WorkerReply r = waitReply(client, client.sendRaw(line));
    QVERIFY2(r.id > 0, "no reply");
    QVERIFY(!r.ok);
    QCOMPARE(r.errorCode, code);
    QVERIFY(!r.errorMessage.isEmpty());
    // The worker survives a malformed request.
    const WorkerReply after = waitReply(client, client.send(u"hello"_s, {{u"protocol"_s, 1}}));
    QVERIFY(after.ok);
    QCOMPARE(client.generation(), 1);
}

void TestWorkerClient::realNoGpuIsReported()
{
    if (realWorker().isEmpty())
        QSKIP("kforge-worker is not built here");
    WorkerClient client(config(realWorker()));
    const WorkerReply info = waitReply(client, client.deviceInfo(), 120000);
    QVERIFY(info.id > 0);
    if (info.ok)
        QSKIP("this machine has a GPU: the no-device path is not reachable");
    QCOMPARE(info.errorCode, u"no_device"_s);
    QVERIFY2(info.errorMessage.contains(u"CUDA", Qt::CaseInsensitive), qPrintable(info.errorMessage));

    const WorkerReply eval = waitReply(client, client.evaluate(task(u"x"_s), TaskKind::Cuda, EvalOptions(), 30000));
    QVERIFY(!eval.ok);
    const EvalResult r = eval.toEvalResult();
    QCOMPARE(r.verdict, Verdict::Error);
    QVERIFY(!r.message.isEmpty());
    QCOMPARE(client.generation(), 1); // an error answer is not a crash
}

void TestWorkerClient::realRestartsAfterSigkill()
{
    if (realWorker().isEmpty())
        QSKIP("kforge-worker is not built here");
    WorkerClient client(config(realWorker()));
    QSignalSpy ready(&client, &WorkerClient::ready);
    QSignalSpy exited(&client, &WorkerClient::exited);
    client.start();
    QVERIFY(ready.wait(20000));
    const int pid = client.readyEvent().value("pid"_L1).toInt();
    QVERIFY(pid > 0);
    ::kill(pid, SIGKILL);
    QVERIFY(exited.wait(10000));
    QCOMPARE(exited.at(0).at(1).toInt(), SIGKILL);
    // Restarted at once, so the next request finds a warm worker.
    QVERIFY(ready.count() == 2 || ready.wait(20000));
    QCOMPARE(client.generation(), 2);
    QVERIFY(client.readyEvent().value("pid"_L1).toInt() != pid);
    QVERIFY(waitReply(client, client.send(u"hello"_s, {{u"protocol"_s, 1}})).ok);
}

void TestWorkerClient::requestsRunOneAtATimeInOrder()
{
    WorkerClient client(config(scriptedWorker(u"normal"_s)));
    QSignalSpy replied(&client, &WorkerClient::replied);
    // Sent before the worker is even started: queued, answered in order once it is ready.
    const int a = client.deviceInfo();
    const int b = client.send(u"hello"_s);
    const int c = client.send(u"nonsense"_s);
    QCOMPARE(client.pendingRequests(), 3);
    QCOMPARE(replied.count(), 0);
    while (replied.count() < 3)
        QVERIFY(replied.wait(20000));
    QCOMPARE(replied.at(0).at(0).toInt(), a);
    QCOMPARE(replied.at(1).at(0).toInt(), b);
    QCOMPARE(replied.at(2).at(0).toInt(), c);
    const auto info = replied.at(0).at(1).value<WorkerReply>();
    QVERIFY(info.ok);
    QCOMPARE(info.op, u"device_info"_s);
    QCOMPARE(DeviceInfo::fromJson(info.body.value("device"_L1).toObject()).smArch(), u"sm_80"_s);
    const auto bad = replied.at(2).at(1).value<WorkerReply>();
    QVERIFY(!bad.ok);
    QCOMPARE(bad.errorCode, u"bad_request"_s);
    QCOMPARE(client.pendingRequests(), 0);
    QCOMPARE(client.state(), WorkerClient::State::Idle);
}

void TestWorkerClient::progressIsForwarded()
{
    WorkerClient client(config(scriptedWorker(u"normal"_s)));
    QSignalSpy progress(&client, &WorkerClient::progress);
    const int id = client.evaluate(task(u"fine"_s), TaskKind::Cuda, EvalOptions(), 20000);
    const WorkerReply r = waitReply(client, id);
    QVERIFY(r.ok);
    QCOMPARE(progress.count(), 2);
    QCOMPARE(progress.at(0).at(0).toInt(), id);
    QCOMPARE(progress.at(0).at(1).toString(), u"verifying"_s);
    QCOMPARE(progress.at(1).at(1).toString(), u"timing"_s);
    const EvalResult result = r.toEvalResult();
    QCOMPARE(result.verdict, Verdict::Incorrect);
    QVERIFY(result.hasFlag(u"scripted"_s));
    QCOMPARE(result.verification.mismatches, 3);
}

void TestWorkerClient::measuredIsForwarded()
{
    // The result after timing comes once, ahead of the passes, as provisional with the passes still to run; the final
    // response still answers the request and is the result that counts (the precision pass added a flag).
    WorkerClient client(config(scriptedWorker(u"measured"_s)));
    QSignalSpy measured(&client, &WorkerClient::measured);
    QSignalSpy progress(&client, &WorkerClient::progress);
    QSignalSpy log(&client, &WorkerClient::log);
    QList<QString> order;
    connect(&client, &WorkerClient::measured, this, [&order] { order << u"measured"_s; });
    connect(&client, &WorkerClient::progress, this, [&order](int, const QString &stage) { order << stage; });
    connect(&client, &WorkerClient::replied, this, [&order] { order << u"replied"_s; });
    const int id = client.evaluate(task(u"fine"_s), TaskKind::Cuda, EvalOptions(), 20000);
    const WorkerReply r = waitReply(client, id);
    QVERIFY(r.ok);
    QCOMPARE(order, (QList<QString>{u"verifying"_s, u"timing"_s, u"measured"_s, u"tracing"_s, u"replied"_s}));
    QCOMPARE(measured.count(), 1); // the second measured event of the request is not forwarded
    QCOMPARE(measured.at(0).at(0).toInt(), id);
    const EvalResult provisional = measured.at(0).at(1).value<EvalResult>();
    QVERIFY(provisional.provisional);
    QCOMPARE(provisional.pending, (QStringList{u"precision"_s, u"trace"_s, u"metrics"_s}));
    QCOMPARE(provisional.verdict, Verdict::Correct);
    QCOMPARE(provisional.speedup, 36.3);
    QCOMPARE(provisional.candidate.medianMs, 0.1);
    QVERIFY(!provisional.hasFlag(u"precision_loss"_s));
    QVERIFY(provisional.elapsedMs >= 0);
    QVERIFY(!provisional.extra.contains(u"provisional"_s)); // typed, not kept as an unknown field
    // Written back as the worker sent it, and read again the same.
    const QJsonObject json = provisional.toJson();
    QCOMPARE(json.value(u"provisional"_s).toBool(), true);
    QCOMPARE(EvalResult::fromJson(json).pending, provisional.pending);

    const EvalResult final = r.toEvalResult();
    QVERIFY(!final.provisional);
    QVERIFY(final.pending.isEmpty());
    QVERIFY(!final.toJson().contains(u"provisional"_s));
    QVERIFY(!final.toJson().contains(u"pending"_s));
    QCOMPARE(final.speedup, 35.9);
    QVERIFY(final.hasFlag(u"precision_loss"_s));
    QCOMPARE(client.rejectedLines(), 0);
    QCOMPARE(logged(log, u"Ignored a second measured event").size(), 1);
    // The next request gets its own measured event.
    QVERIFY(waitReply(client, client.evaluate(task(u"again"_s), TaskKind::Cuda, EvalOptions(), 20000)).ok);
    QCOMPARE(measured.count(), 2);
}

void TestWorkerClient::brokenMeasuredIsIgnored()
{
    // A measured event with a wrong token, one whose result breaks the schema and one without a result: none is
    // forwarded, each is logged, and the request still finishes with its final result.
    WorkerClient client(config(scriptedWorker(u"measured"_s)));
    QSignalSpy measured(&client, &WorkerClient::measured);
    QSignalSpy log(&client, &WorkerClient::log);
    const int id = client.evaluate(task(u"badmeasured"_s), TaskKind::Cuda, EvalOptions(), 20000);
    const WorkerReply r = waitReply(client, id);
    QVERIFY(r.ok);
    QCOMPARE(measured.count(), 0);
    const EvalResult final = r.toEvalResult();
    QCOMPARE(final.verdict, Verdict::Correct);
    QCOMPARE(final.speedup, 35.9);
    QVERIFY(!final.provisional);
    QCOMPARE(client.rejectedLines(), 1); // the wrong token
    const QStringList ignored = logged(log, u"Ignored a measured event");
    QCOMPARE(ignored.size(), 2);
    QVERIFY2(ignored.at(0).contains(u"verdict is missing or not a string"), qPrintable(ignored.at(0)));
    QVERIFY2(ignored.at(1).contains(u"the reply has no result object"), qPrintable(ignored.at(1)));
}

void TestWorkerClient::loadByPathOrInline()
{
    QTemporaryFile so;
    QVERIFY(so.open());
    so.write("not really a shared object");
    so.close();
    // A torch task's module goes the same way; inline it is its source with its file name ("source_base64", "filename").
    QTemporaryDir dir;
    const QString module = dir.filePath(u"reference.py"_s);
    QFile py(module);
    QVERIFY(py.open(QIODevice::WriteOnly));
    py.write("import torch\n");
    py.close();
    for (const auto transfer : {WorkerConfig::Transfer::Path, WorkerConfig::Transfer::Inline}) {
        for (const QString &file : {so.fileName(), module}) {
            WorkerConfig c = config(scriptedWorker(u"normal"_s));
            c.transfer = transfer;
            WorkerClient client(c);
            QSignalSpy log(&client, &WorkerClient::log);
            const WorkerReply r = waitReply(client, client.load(u"reference"_s, file));
            QVERIFY(r.ok);
            QCOMPARE(client.loaded(u"reference"_s), QFileInfo(file).absoluteFilePath());
            QVERIFY(client.loaded(u"candidate"_s).isEmpty());
            const bool inlined = transfer == WorkerConfig::Transfer::Inline;
            const QString expected = u"loaded reference "_s
                                     + (!inlined             ? u"via path from "_s + QFileInfo(file).absoluteFilePath()
                                        : file == module ? u"via base64 as reference.py"_s
                                                           : u"via base64"_s);
            QString line;
            for (const auto &args : std::as_const(log))
                if (args.at(0).toString().contains(u"loaded reference"_s))
                    line = args.at(0).toString();
            QVERIFY2(line.endsWith(expected), qPrintable(line + u" | expected: "_s + expected));
        }
    }
    QVERIFY(config(u"ssh gpu-box kforge-worker"_s).sendsInline());
    QVERIFY(config(u"srun -p gpu kforge-worker"_s).sendsInline());
    QVERIFY(!config(u"kforge-worker --device 1"_s).sendsInline());
}

// A torch task's modules may take minutes to start (a first load_inline build): the evaluation's timeout_s runs from
// the worker's first progress event, not from the request. A CUDA task's starts with the request.
void TestWorkerClient::torchTaskWatchdogStartsWithTheEvaluation()
{
    WorkerClient client(config(scriptedWorker(u"normal"_s)));
    QJsonObject torch = task(u"slowstart"_s);
    torch.insert(u"kind"_s, u"torch"_s);
    const WorkerReply slow = waitReply(client, client.evaluate(torch, TaskKind::Torch, EvalOptions(), 800));
    QVERIFY2(slow.ok, qPrintable(slow.errorMessage));
    const WorkerReply cuda = waitReply(client, client.evaluate(task(u"slowstart"_s), TaskKind::Cuda, EvalOptions(), 800));
    QCOMPARE(cuda.errorCode, WorkerReply::Timeout);
    // Once the evaluation has begun, its own timeout holds, and the message names it.
    QJsonObject hang = task(u"hang"_s);
    hang.insert(u"kind"_s, u"torch"_s);
    const WorkerReply r = waitReply(client, client.evaluate(hang, TaskKind::Torch, EvalOptions(), 500));
    QCOMPARE(r.errorCode, WorkerReply::Timeout);
    QVERIFY(r.elapsedMs >= 450 && r.elapsedMs < 10000);
    QVERIFY2(r.toEvalResult().message.contains(u"0.5 s"), qPrintable(r.toEvalResult().message));
}

void TestWorkerClient::watchdogKillsAHang()
{
    WorkerClient client(config(scriptedWorker(u"normal"_s)));
    QSignalSpy ready(&client, &WorkerClient::ready);
    const WorkerReply r = waitReply(client, client.evaluate(task(u"hang"_s), TaskKind::Cuda, EvalOptions(), 500));
    QVERIFY(!r.ok);
    QCOMPARE(r.errorCode, WorkerReply::Timeout);
    QVERIFY(r.elapsedMs >= 450 && r.elapsedMs < 10000);
    const EvalResult result = r.toEvalResult();
    QCOMPARE(result.verdict, Verdict::Timeout);
    QVERIFY2(result.message.contains(u"0.5 s"), qPrintable(result.message));
    // A fresh worker takes the next request.
    const WorkerReply next = waitReply(client, client.send(u"hello"_s));
    QVERIFY(next.ok);
    QCOMPARE(client.generation(), 2);
    QCOMPARE(ready.count(), 2);
}

void TestWorkerClient::deathMidRequestIsCrashed_data()
{
    QTest::addColumn<QString>("taskName");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<int>("exitSignal");
    QTest::addColumn<QString>("described");
    QTest::newRow("segfault") << u"crash"_s << -1 << int(SIGSEGV) << u"signal 11"_s;
    QTest::newRow("exit()") << u"exit"_s << 7 << 0 << u"exit code 7"_s;
}

void TestWorkerClient::deathMidRequestIsCrashed()
{
    QFETCH(QString, taskName);
    QFETCH(int, exitCode);
    QFETCH(int, exitSignal);
    QFETCH(QString, described);
    WorkerClient client(config(scriptedWorker(u"normal"_s)));
    const WorkerReply r = waitReply(client, client.evaluate(task(taskName), TaskKind::Cuda, EvalOptions(), 20000));
    QVERIFY(!r.ok);
    QCOMPARE(r.errorCode, WorkerReply::Crashed);
    QCOMPARE(r.exitCode, exitCode);
    QCOMPARE(r.exitSignal, exitSignal);
    const EvalResult result = r.toEvalResult();
    QCOMPARE(result.verdict, Verdict::Crashed);
    QCOMPARE(result.exitSignal, exitSignal);
    QVERIFY2(result.message.contains(described), qPrintable(result.message));
    QVERIFY2(result.message.contains(u"scripted-worker: evaluate"), qPrintable(result.message)); // stderr tail
    QVERIFY(waitReply(client, client.send(u"hello"_s)).ok);
    QCOMPARE(client.generation(), 2);
}

void TestWorkerClient::sigkillMidRequest()
{
    WorkerClient client(config(scriptedWorker(u"normal"_s)));
    QSignalSpy progress(&client, &WorkerClient::progress);
    const int id = client.evaluate(task(u"hang"_s), TaskKind::Cuda, EvalOptions(), 60000);
    QVERIFY(progress.wait(20000)); // it is running
    QCOMPARE(client.state(), WorkerClient::State::Busy);
    ::kill(client.readyEvent().value("pid"_L1).toInt(), SIGKILL);
    const WorkerReply r = waitReply(client, id);
    QCOMPARE(r.errorCode, WorkerReply::Crashed);
    QCOMPARE(r.exitSignal, int(SIGKILL));
    QVERIFY(waitReply(client, client.send(u"hello"_s)).ok);
}

void TestWorkerClient::restartRequired()
{
    WorkerClient client(config(scriptedWorker(u"normal"_s)));
    QSignalSpy log(&client, &WorkerClient::log);
    QSignalSpy exited(&client, &WorkerClient::exited);
    const WorkerReply r = waitReply(client, client.evaluate(task(u"sticky"_s), TaskKind::Cuda, EvalOptions(), 20000));
    QVERIFY(r.ok);
    const EvalResult result = r.toEvalResult();
    QCOMPARE(result.verdict, Verdict::CudaError);
    QCOMPARE(result.cudaError, u"cudaErrorIllegalAddress"_s);
    QVERIFY(result.restartRequired);
    QVERIFY(exited.count() == 1 || exited.wait(10000));
    QCOMPARE(exited.at(0).at(0).toInt(), 3);
    QVERIFY(waitReply(client, client.send(u"hello"_s)).ok);
    QCOMPARE(client.generation(), 2);
    for (const auto &args : std::as_const(log))
        QVERIFY2(!args.at(0).toString().contains(u"unexpectedly"), qPrintable(args.at(0).toString()));
}

void TestWorkerClient::protocolMismatch()
{
    WorkerClient client(config(scriptedWorker(u"mismatch"_s)));
    QSignalSpy failed(&client, &WorkerClient::failed);
    const WorkerReply r = waitReply(client, client.send(u"hello"_s));
    QVERIFY(!r.ok);
    QCOMPARE(r.errorCode, WorkerReply::Unavailable);
    QVERIFY2(r.errorMessage.contains(u"protocol version 99"), qPrintable(r.errorMessage));
    QCOMPARE(failed.count(), 1);
    QCOMPARE(client.state(), WorkerClient::State::Failed);
    QCOMPARE(client.generation(), 0);
}

void TestWorkerClient::helloRefused()
{
    WorkerClient client(config(scriptedWorker(u"refuse"_s)));
    QSignalSpy ready(&client, &WorkerClient::ready);
    const WorkerReply r = waitReply(client, client.send(u"hello"_s));
    QCOMPARE(r.errorCode, WorkerReply::Unavailable);
    QVERIFY2(r.errorMessage.contains(u"this worker speaks protocol 2"), qPrintable(r.errorMessage));
    QCOMPARE(ready.count(), 0);
    QCOMPARE(client.state(), WorkerClient::State::Failed);
}

void TestWorkerClient::diesBeforeReady()
{
    WorkerClient client(config(scriptedWorker(u"die"_s)));
    const WorkerReply r = waitReply(client, client.send(u"hello"_s));
    QCOMPARE(r.errorCode, WorkerReply::Unavailable);
    QVERIFY2(r.errorMessage.contains(u"exit code 1"), qPrintable(r.errorMessage));
    QVERIFY2(r.errorMessage.contains(u"cannot open /dev/nvidia0"), qPrintable(r.errorMessage));
    QCOMPARE(client.state(), WorkerClient::State::Failed);
    // The next request tries again (and fails the same way) instead of hanging.
    QCOMPARE(waitReply(client, client.send(u"hello"_s)).errorCode, WorkerReply::Unavailable);
}

void TestWorkerClient::neverReady()
{
    WorkerConfig c = config(scriptedWorker(u"silent"_s));
    c.startTimeoutMs = 500;
    WorkerClient client(c);
    const WorkerReply r = waitReply(client, client.send(u"hello"_s));
    QCOMPARE(r.errorCode, WorkerReply::Unavailable);
    QVERIFY2(r.errorMessage.contains(u"did not report ready"), qPrintable(r.errorMessage));
}

void TestWorkerClient::programMissing()
{
    WorkerClient client(config(u"/no/such/dir/kforge-worker-missing --device 0"_s));
    QSignalSpy failed(&client, &WorkerClient::failed);
    const int id = client.send(u"hello"_s);
    QCOMPARE(failed.count(), 0); // never answered inside send()
    const WorkerReply r = waitReply(client, id);
    QCOMPARE(r.errorCode, WorkerReply::Unavailable);
    QVERIFY2(r.errorMessage.contains(u"kforge-worker-missing"), qPrintable(r.errorMessage));
    QCOMPARE(failed.count(), 1);

    WorkerConfig empty;
    empty.command = u"  "_s;
    WorkerClient none(empty);
    QCOMPARE(waitReply(none, none.send(u"hello"_s)).errorCode, WorkerReply::Unavailable);
}

void TestWorkerClient::cancelQueued()
{
    WorkerClient client(config(scriptedWorker(u"normal"_s)));
    const int a = client.send(u"hello"_s);
    const int b = client.send(u"hello"_s);
    client.cancel(b);
    QSignalSpy replied(&client, &WorkerClient::replied);
    while (replied.count() < 2)
        QVERIFY(replied.wait(20000));
    QCOMPARE(replied.at(0).at(0).toInt(), b);
    QCOMPARE(replied.at(0).at(1).value<WorkerReply>().errorCode, WorkerReply::Cancelled);
    QCOMPARE(replied.at(1).at(0).toInt(), a);
    QVERIFY(replied.at(1).at(1).value<WorkerReply>().ok);
}

void TestWorkerClient::noEndlessRestarts()
{
    // A worker that dies right after the handshake is restarted a few times, then left for the next request.
    WorkerClient client(config(scriptedWorker(u"flaky"_s)));
    QSignalSpy ready(&client, &WorkerClient::ready);
    QSignalSpy exited(&client, &WorkerClient::exited);
    client.start();
    while (exited.count() < 3)
        QVERIFY(exited.wait(10000));
    QVERIFY(!exited.wait(1000));
    QCOMPARE(ready.count(), 3);
    QCOMPARE(client.state(), WorkerClient::State::Stopped);
    // The next request starts it again; this worker dies before answering, which is a crash.
    const WorkerReply r = waitReply(client, client.send(u"device_info"_s));
    QVERIFY(r.errorCode == WorkerReply::Crashed || r.errorCode == WorkerReply::Unavailable);
    QCOMPARE(ready.count(), 4);
}

void TestWorkerClient::stopEndsTheWorker()
{
    WorkerClient client(config(scriptedWorker(u"normal"_s)));
    QVERIFY(waitReply(client, client.send(u"hello"_s)).ok);
    QSignalSpy exited(&client, &WorkerClient::exited);
    QSignalSpy ready(&client, &WorkerClient::ready);
    client.stop();
    QVERIFY(exited.wait(10000));
    QCOMPARE(exited.at(0).at(0).toInt(), 0); // it shut down by itself
    QVERIFY(!ready.wait(500));               // and was not restarted
    QCOMPARE(client.state(), WorkerClient::State::Stopped);
    // A later request starts it again.
    QVERIFY(waitReply(client, client.send(u"hello"_s)).ok);
}

void TestWorkerClient::linesWithoutTheTokenAreDropped()
{
    // A kernel's printf can write a whole reply line on the worker's stdout before the real one: without the
    // request's token it is dropped, whatever id it claims, and so is one with a guessed token.
    WorkerClient client(config(scriptedWorker(u"forge"_s)));
    QSignalSpy log(&client, &WorkerClient::log);
    QSignalSpy progress(&client, &WorkerClient::progress);
    const int id = client.evaluate(task(u"fine"_s), TaskKind::Cuda, EvalOptions(), 20000);
    const WorkerReply r = waitReply(client, id);
    QVERIFY(r.ok);
    const EvalResult result = r.toEvalResult();
    QCOMPARE(result.verdict, Verdict::Incorrect); // the real answer, not the forged "correct 250x"
    QCOMPARE(result.message, u"scripted"_s);
    QVERIFY(!result.hasTiming());
    QCOMPARE(progress.count(), 2); // the genuine progress events carry the token
    QCOMPARE(client.rejectedLines(), 3);
    const QStringList dropped = logged(log, u"Dropped a line");
    QCOMPARE(dropped.size(), 3);
    QVERIFY2(dropped.at(0).contains(u"(no token)") && dropped.at(0).contains(u"\"message\":\"forged\""),
             qPrintable(dropped.at(0)));
    QVERIFY2(dropped.at(1).contains(u"(wrong token)"), qPrintable(dropped.at(1)));
    QVERIFY2(dropped.at(2).contains(u"(not JSON)"), qPrintable(dropped.at(2)));
    // The client still works, and a forged line can never answer a later request either.
    QVERIFY(waitReply(client, client.send(u"hello"_s)).ok);
    QCOMPARE(client.rejectedLines(), 3);
}

void TestWorkerClient::malformedResultIsAProtocolError()
{
    WorkerClient client(config(scriptedWorker(u"malformed"_s)));
    const WorkerReply r = waitReply(client, client.evaluate(task(u"fine"_s), TaskKind::Cuda, EvalOptions(), 20000));
    QVERIFY(r.ok);
    const EvalResult result = r.toEvalResult();
    QCOMPARE(result.verdict, Verdict::Error);
    QCOMPARE(result.errorCode, QString(WorkerReply::Malformed));
    QVERIFY2(result.message.contains(u"verdict is missing or not a string"), qPrintable(result.message));
    QVERIFY(!result.hasTiming());
}

void TestWorkerClient::resultSchema_data()
{
    QTest::addColumn<QByteArray>("result");
    QTest::addColumn<QString>("problem"); // empty: accepted
    const QByteArray v = R"("verification":{"trials":5,"mismatches":0})";
    const QByteArray t = R"("timing":{"reference":{"median_ms":2,"runs":10},"candidate":{"median_ms":1,"runs":10},)"
                         R"("speedup":2})";
    QTest::newRow("correct") << (R"({"verdict":"correct","message":"ok",)" + v + "," + t + "}") << QString();
    QTest::newRow("cuda_error without verification")
        << QByteArray(R"({"verdict":"cuda_error","message":"boom","cuda_error":"cudaErrorIllegalAddress"})") << QString();
    QTest::newRow("no result") << QByteArray("{}") << u"no result object"_s;
    QTest::newRow("unknown verdict") << QByteArray(R"({"verdict":"splendid","message":""})")
                                     << u"unknown verdict 'splendid'"_s;
    QTest::newRow("no message") << ("{\"verdict\":\"correct\"," + v + "}") << u"message is missing"_s;
    QTest::newRow("correct without verification")
        << QByteArray(R"({"verdict":"correct","message":"ok"})") << u"verification is missing"_s;
    QTest::newRow("correct with mismatches")
        << QByteArray(R"({"verdict":"correct","message":"ok","verification":{"trials":5,"mismatches":2}})")
        << u"a correct verdict with mismatches"_s;
    QTest::newRow("trials as text") << QByteArray(
        R"({"verdict":"incorrect","message":"","verification":{"trials":"5","mismatches":1}})")
                                    << u"verification lacks a numeric trials"_s;
    QTest::newRow("timing as text") << (R"({"verdict":"correct","message":"ok",)" + v + R"(,"timing":"fast"})")
                                    << u"timing is not an object"_s;
    QTest::newRow("median as text")
        << (R"({"verdict":"correct","message":"ok",)" + v
            + R"(,"timing":{"reference":{"median_ms":2,"runs":10},"candidate":{"median_ms":"0.001","runs":10}}})")
        << u"timing.candidate lacks a numeric median_ms"_s;
    QTest::newRow("speedup as text") << (R"({"verdict":"correct","message":"ok",)" + v + "," + t.chopped(12)
                                         + R"("speedup":"250"}})")
                                     << u"timing.speedup is not a number"_s;
    QTest::newRow("flags not strings") << (R"({"verdict":"correct","message":"ok",)" + v + R"(,"flags":[1]})")
                                       << u"flags holds something other than strings"_s;
}

void TestWorkerClient::resultSchema()
{
    QFETCH(QByteArray, result);
    QFETCH(QString, problem);
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(result, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + u' ' + QString::fromUtf8(result)));
    const QString found = WorkerReply::schemaProblem(doc.object());
    if (problem.isEmpty())
        QVERIFY2(found.isEmpty(), qPrintable(found));
    else
        QVERIFY2(found.contains(problem), qPrintable(found));
    WorkerReply reply;
    reply.ok = true;
    reply.body = QJsonObject{{u"result"_s, doc.object()}};
    QCOMPARE(reply.toEvalResult().errorCode == WorkerReply::Malformed, !problem.isEmpty());
    // A response is never provisional, even one that says it is.
    QJsonObject claims = doc.object();
    claims.insert(u"provisional"_s, true);
    claims.insert(u"pending"_s, QJsonArray{u"trace"_s});
    reply.body = QJsonObject{{u"result"_s, claims}};
    QVERIFY(!reply.toEvalResult().provisional);
    QVERIFY(reply.toEvalResult().pending.isEmpty());
}

void TestWorkerClient::workerWithoutTokensIsRefused()
{
    // An older worker does not echo tokens: nothing it says could be told from a forged line, so the handshake
    // fails with a message saying why instead of every reply being dropped until the watchdog fires.
    WorkerClient client(config(scriptedWorker(u"notoken"_s)));
    const WorkerReply r = waitReply(client, client.send(u"hello"_s));
    QCOMPARE(r.errorCode, WorkerReply::Unavailable);
    QVERIFY2(r.errorMessage.contains(u"does not echo request tokens"), qPrintable(r.errorMessage));
    QCOMPARE(client.state(), WorkerClient::State::Failed);
}

QTEST_GUILESS_MAIN(TestWorkerClient)
#include "tst_workerclient.moc"
