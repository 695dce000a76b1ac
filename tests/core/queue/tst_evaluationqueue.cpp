// The one evaluation queue on a real SQLite session: every way into it (a round's candidate and its reference,
// Ctrl+Enter's manual variant, a fork, a re-run, the CLI's source outside any session) builds its request from
// the session's task record and commits the result the moment it arrives; cancellation leaves a clear status
// and nothing stored. Orchestration runs on ScriptedEvaluator, the one allowed fake; what the compiler says
// about a candidate is checked with the real nvcc behind the real PoolEvaluator and the scripted worker
// process (no GPU needed).
#include "core/compile/compiler.h"
#include "core/compile/cudatoolkit.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/workerpool/poolevaluator.h"
#include "core/workerpool/scriptedevaluator.h"
#include "core/workerpool/workerpool.h"
#include "tests/core/workerpool/workertesthelpers.h"

#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

const QString kTask = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/diag_matmul");

// Verdicts by markers in the source; never a measurement (ScriptedEvaluator flags every result "scripted").
EvalResult script(const EvalRequest &req)
{
    if (req.candidateSource.contains(u"WRONG_RESULT"))
        return EvalResult::failure(Verdict::Incorrect, u"output C differs in 3 of 16 elements\nsecond line"_s);
    EvalResult r;
    r.verdict = Verdict::Correct;
    r.reference.medianMs = 2.0;
    r.candidate.medianMs = req.candidateSource.contains(u"FAST") ? 0.5 : 2.0;
    // TOO_GOOD: 40x, over the session's suspicious speedup; what its deep check finds by marker.
    if (req.candidateSource.contains(u"TOO_GOOD"))
        r.candidate.medianMs = 0.05;
    if (req.options.deep && !req.candidateSource.contains(u"DEEP_UNSUPPORTED")) {
        r.extra.insert(u"deep"_s, QJsonObject{{u"ran"_s, true}, {u"trials"_s, 20}});
        if (req.candidateSource.contains(u"DEEP_FAILS"))
            return [] {
                EvalResult f = EvalResult::failure(Verdict::Incorrect, u"timed run 17: output C differs"_s);
                f.extra.insert(u"deep"_s, QJsonObject{{u"ran"_s, true}});
                return f;
            }();
        if (req.candidateSource.contains(u"DEEP_STILL_UNDER_FLOOR"))
            r.flags << u"below_speed_of_light"_s;
    }
    r.reference.runs = r.candidate.runs = 100;
    r.speedup = r.reference.medianMs / r.candidate.medianMs;
    r.verification.trials = 5;
    r.deviceName = u"Scripted GPU"_s;
    r.workerName = u"w0"_s;
    return r;
}

// Waits for the queue's finished() of `ticket`.
QueuedEvaluation waitFor(EvaluationQueue &queue, int ticket, int timeoutMs = 10000)
{
    QSignalSpy spy(&queue, &EvaluationQueue::finished);
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        for (const auto &args : std::as_const(spy))
            if (const auto e = args.at(0).value<QueuedEvaluation>(); e.ticket == ticket)
                return e;
        if (clock.elapsed() > timeoutMs || !spy.wait(int(timeoutMs - clock.elapsed())))
            break;
    }
    for (const auto &args : std::as_const(spy))
        if (const auto e = args.at(0).value<QueuedEvaluation>(); e.ticket == ticket)
            return e;
    qWarning("ticket %d did not finish", ticket);
    return {};
}

struct Session {
    QTemporaryDir dir;
    SessionStore store;
    ScriptedEvaluator evaluator{script};
    std::unique_ptr<EvaluationQueue> queue;

    bool setUp()
    {
        if (!store.create(dir.filePath(u"queue.kforge"_s), kTask, /*importTaskVariants*/ true))
            return false;
        evaluator.setDelayMs(20);
        queue = std::make_unique<EvaluationQueue>(&store, &evaluator);
        EvalOptions defaults;
        defaults.trials = 3;
        queue->setDefaultOptions(defaults);
        return true;
    }
    qint64 referenceId() const { return store.population().reference()->id; }
    const Variant &variant(qint64 id) const { return *store.population().find(id); }
};

} // namespace

class TstEvaluationQueue : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<QueuedEvaluation>();
    }

    // The task the evaluator gets is the session's own copy, built in memory: the same as the folder's.
    void taskComesFromTheSessionRecord()
    {
        Session s;
        QVERIFY2(s.setUp(), qPrintable(s.store.errorString()));
        const Task *t = s.queue->task();
        QVERIFY2(t, qPrintable(s.queue->errorString()));
        const TaskLoadResult folder = Task::load(kTask);
        QVERIFY(folder.ok());
        QCOMPARE(t->toJson(), folder.task->toJson());
        QCOMPARE(t->referenceSource(), folder.task->referenceSource());
        QCOMPARE(t->variants().size(), 2);
        QCOMPARE(t->variant(u"good"_s)->source, folder.task->variant(u"good"_s)->source);
        QVERIFY(t->folder().isEmpty()); // no folder behind it, temporary or not
        QCOMPARE(t->nvccFlags(), QStringList{u"-lcublas"_s});
    }

    void taskFromFilesNamesWhatIsMissing_data()
    {
        QTest::addColumn<QString>("drop");
        QTest::addColumn<QString>("expected");
        QTest::newRow("reference") << u"reference.cu"_s << u"diag_matmul/reference.cu: missing"_s;
        QTest::newRow("variant") << u"variants/naive.cu"_s
                                 << u"diag_matmul/task.json: field 'variants[0].file': variants/naive.cu is missing"_s;
        QTest::newRow("task.json") << u"task.json"_s << u"diag_matmul/task.json: missing"_s;
    }

    void taskFromFilesNamesWhatIsMissing()
    {
        QFETCH(QString, drop);
        QFETCH(QString, expected);
        Session s;
        QVERIFY(s.setUp());
        QMap<QString, QByteArray> files = s.store.task().files;
        QVERIFY(files.remove(drop) == 1);
        const TaskLoadResult r = Task::fromFiles(u"diag_matmul"_s, files);
        QVERIFY(!r.ok());
        QCOMPARE(r.error.message(), expected);
    }

    void taskFromFilesReportsTheParser()
    {
        QMap<QString, QByteArray> files{{u"task.json"_s, "{\"name\": \"x\","}, {u"reference.cu"_s, "//"}};
        const TaskLoadResult r = Task::fromFiles(u"broken"_s, files);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.message().startsWith(u"broken/task.json"), qPrintable(r.error.message()));
    }

    // A round's candidate: the round's options and the candidate's flags reach the evaluator; the result is in
    // the session before finished() is seen, with the status its verdict gives.
    void roundCandidateIsCommittedAtOnce()
    {
        Session s;
        QVERIFY(s.setUp());
        Variant v;
        v.origin = VariantOrigin::Model;
        v.roundId = 0;
        v.nvccFlags = {u"-DTILE=32"_s};
        const qint64 id = s.store.variants().add(v, {u"// FAST\n"_s, u"analysis"_s, u"design"_s});
        QVERIFY(id);
        EvalOptions round;
        round.trials = 7;
        round.metrics = false;
        QSignalSpy added(&s.store, &SessionStore::evaluationAdded);
        bool storedFirst = false;
        connect(s.queue.get(), &EvaluationQueue::finished, this, [&](const QueuedEvaluation &e) {
            storedFirst = e.variantId == id && added.count() == 1 && s.store.evaluations().latest(id).has_value()
                          && s.variant(id).status == VariantStatus::Done;
        });
        const int ticket = s.queue->submit(id, round, /*roundId*/ 42);
        QVERIFY(ticket > 0);
        QCOMPARE(toString(s.variant(id).status), toString(VariantStatus::Compiling));
        QVERIFY(s.queue->isEvaluating(id));
        const QueuedEvaluation done = waitFor(*s.queue, ticket);
        QCOMPARE(done.ticket, ticket);
        QCOMPARE(done.roundId, qint64(42));
        QVERIFY(storedFirst);
        QVERIFY(done.evaluationId > 0);
        QCOMPARE(s.store.evaluations().latest(id)->summary.id, done.evaluationId);
        QVERIFY(done.stored);
        QCOMPARE(done.stored->toJson().value(u"verdict"_s).toString(), u"correct"_s);
        QCOMPARE(s.variant(id).eval.speedup.value_or(0), 4.0);
        QCOMPARE(s.store.evaluations().latest(id)->device.value(u"worker"_s).toString(), u"w0"_s);
        QVERIFY(!s.queue->isEvaluating(id));
        QCOMPARE(s.queue->pendingCount(), 0);

        const EvalRequest sent = s.evaluator.submitted().constLast();
        QCOMPARE(sent.options.trials, 7);
        QVERIFY(!sent.options.metrics);
        QCOMPARE(sent.candidateFlags, QStringList{u"-DTILE=32"_s});
        QCOMPARE(sent.candidateName, u"candidate.cu"_s);
        QCOMPARE(sent.candidateSource, u"// FAST\n"_s);
        QCOMPARE(sent.task.name(), u"diag_matmul"_s);
    }

    // The worker's result after timing reaches the caller before finished(), and only to be shown: nothing of it is
    // stored, the variant keeps its stages, and the final result is what the session gets. A deep check's own
    // provisional result is not relayed (its stages stay "deep check running").
    void provisionalComesFirstAndIsNotStored_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("provisionals");
        QTest::addColumn<double>("stored");
        QTest::addColumn<int>("evaluations");
        QTest::newRow("candidate") << u"// FAST\n"_s << 1 << 4.0 << 1;
        QTest::newRow("too good: the deep check's is not relayed") << u"// TOO_GOOD\n"_s << 1 << 40.0 << 2;
    }
    void provisionalComesFirstAndIsNotStored()
    {
        QFETCH(QString, source);
        QFETCH(int, provisionals);
        QFETCH(double, stored);
        QFETCH(int, evaluations);
        Session s;
        QVERIFY(s.setUp());
        s.evaluator.setMeasuredScript([](const EvalRequest &) -> std::optional<EvalResult> {
            return test::timedCorrect(3.63, 0.1, {u"precision"_s, u"trace"_s});
        });
        Variant v;
        v.origin = VariantOrigin::Model;
        const qint64 id = s.store.variants().add(v, {source, u"analysis"_s, u"design"_s});
        QVERIFY(id);
        QSignalSpy added(&s.store, &SessionStore::evaluationAdded);
        QStringList order;
        int ticketOfProvisional = 0;
        bool storedNothing = false;
        connect(s.queue.get(), &EvaluationQueue::provisional, this, [&](int ticket, const EvalResult &r) {
            order << u"provisional"_s;
            ticketOfProvisional = ticket;
            storedNothing = r.provisional && qFuzzyCompare(r.speedup, 36.3) && added.isEmpty()
                            && !s.store.evaluations().latest(id).has_value() && !s.variant(id).eval.speedup
                            && s.variant(id).status == VariantStatus::Timing && s.queue->variantOf(ticket) == id;
        });
        connect(s.queue.get(), &EvaluationQueue::finished, this, [&](const QueuedEvaluation &) { order << u"finished"_s; });
        const int ticket = s.queue->submit(id, EvalOptions{}, /*roundId*/ 1);
        const QueuedEvaluation done = waitFor(*s.queue, ticket);
        QCOMPARE(order.count(u"provisional"_s), provisionals);
        QCOMPARE(order.constFirst(), u"provisional"_s);
        QCOMPARE(order.constLast(), u"finished"_s);
        QCOMPARE(ticketOfProvisional, ticket);
        QVERIFY(storedNothing);
        QVERIFY(!done.result.provisional);
        QVERIFY(done.stored);
        QVERIFY(!done.stored->toJson().contains(u"provisional"_s));
        QCOMPARE(s.variant(id).eval.speedup.value_or(0), stored);
        QCOMPARE(s.store.evaluations().ofVariant(id).size(), evaluations); // the first, and its deep check
        for (const EvaluationSummary &e : s.store.evaluations().ofVariant(id))
            QCOMPARE(e.speedup.value_or(0), stored); // none at 36.3
        QCOMPARE(s.queue->variantOf(ticket), qint64(0)); // no longer in flight
    }

    // The reference is evaluated under its own file name and without candidate flags.
    void referenceIsEvaluatedAsTheReference()
    {
        Session s;
        QVERIFY(s.setUp());
        const int ticket = s.queue->submit(s.referenceId(), EvalOptions{});
        QVERIFY(ticket);
        const QueuedEvaluation done = waitFor(*s.queue, ticket);
        QCOMPARE(done.variantId, s.referenceId());
        const EvalRequest sent = s.evaluator.submitted().constLast();
        QCOMPARE(sent.candidateName, u"reference.cu"_s);
        QVERIFY(sent.candidateFlags.isEmpty());
        QCOMPARE(sent.candidateSource, s.store.task().referenceSource);
        QVERIFY(s.variant(s.referenceId()).isCorrect());
    }

    // Ctrl+Enter in the editor: a manual variant with its parents, evaluated with the default options; a wrong
    // result is stored too, with the verdict and the message's first line as the status.
    void manualVariantFromTheEditor()
    {
        Session s;
        QVERIFY(s.setUp());
        QSignalSpy finished(s.queue.get(), &EvaluationQueue::finished);
        const qint64 id = s.queue->addManualVariant(u"// WRONG_RESULT\n"_s, {s.referenceId()}, u"tab 1"_s);
        QVERIFY2(id, qPrintable(s.queue->errorString()));
        QCOMPARE(toString(s.variant(id).origin), toString(VariantOrigin::Manual));
        QCOMPARE(s.variant(id).parentIds, QList<qint64>{s.referenceId()});
        QCOMPARE(s.variant(id).label, u"tab 1"_s);
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(s.evaluator.submitted().constLast().options.trials, 3); // the default options
        QCOMPARE(toString(s.variant(id).status), toString(VariantStatus::Failed));
        QCOMPARE(s.variant(id).statusMessage,
                 verdictDisplayName(Verdict::Incorrect) + u": output C differs in 3 of 16 elements"_s);
        QCOMPARE(s.variant(id).eval.verdictName(), u"incorrect"_s);
        // Nothing to evaluate: refused with a clear message, nothing created.
        const qsizetype before = s.store.population().size();
        QCOMPARE(s.queue->addManualVariant(u"   \n"_s), 0);
        QCOMPARE(s.queue->errorString(), EvaluationQueue::tr("The variant has no source."));
        QCOMPARE(s.store.population().size(), before);
    }

    void forkKeepsItsParent()
    {
        Session s;
        QVERIFY(s.setUp());
        const qint64 parent = s.queue->addManualVariant(u"// base\n"_s, {}, u"mine"_s);
        QVERIFY(parent);
        QVERIFY(waitFor(*s.queue, 1).variantId == parent);
        const qint64 forked = s.queue->fork(parent, {});
        QVERIFY(forked);
        QCOMPARE(s.variant(forked).parentIds, QList<qint64>{parent});
        QCOMPARE(s.variant(forked).label, EvaluationQueue::tr("fork of %1").arg(u"mine"_s));
        QCOMPARE(s.store.variants().source(forked), u"// base\n"_s); // no source given: the parent's
        QVERIFY(waitFor(*s.queue, 2).variantId == forked);
        QVERIFY(s.variant(forked).isCorrect());
        QCOMPARE(s.queue->fork(9999, u"// x\n"_s), 0);
        QCOMPARE(s.queue->errorString(), EvaluationQueue::tr("There is no variant %1 to fork.").arg(9999));
    }

    // A re-run adds an evaluation; a variant already in the queue is not queued twice.
    void rerunAddsAnEvaluation()
    {
        Session s;
        QVERIFY(s.setUp());
        const qint64 naive = s.store.population().variants().at(1).id; // imported from task.json
        QVERIFY(s.queue->reevaluate(naive));
        QVERIFY(!s.queue->reevaluate(naive));
        QCOMPARE(s.queue->errorString(), EvaluationQueue::tr("Variant %1 is being evaluated already.").arg(naive));
        waitFor(*s.queue, 1);
        QVERIFY(s.queue->reevaluate(naive));
        waitFor(*s.queue, 2);
        QCOMPARE(s.store.evaluations().ofVariant(naive).size(), 2);
        QCOMPARE(s.evaluator.submitted().size(), 2);
        QVERIFY(!s.queue->reevaluate(9999));
        QCOMPARE(s.queue->errorString(), EvaluationQueue::tr("There is no variant %1.").arg(9999));
    }

    // Cancelled: finished() once, marked cancelled, the variant failed with the reason, nothing stored.
    void cancellationStoresNothing()
    {
        Session s;
        QVERIFY(s.setUp());
        s.evaluator.setDelayMs(200);
        const qint64 id = s.queue->addManualVariant(u"// FAST\n"_s);
        QVERIFY(id);
        QSignalSpy finished(s.queue.get(), &EvaluationQueue::finished);
        s.queue->cancel(1);
        QVERIFY(finished.wait(5000));
        QTest::qWait(250);
        QCOMPARE(finished.count(), 1);
        const auto done = finished.first().at(0).value<QueuedEvaluation>();
        QVERIFY(done.cancelled());
        QCOMPARE(done.evaluationId, qint64(0));
        QVERIFY(!done.stored);
        QCOMPARE(toString(s.variant(id).status), toString(VariantStatus::Failed));
        QCOMPARE(s.variant(id).statusMessage, EvaluationQueue::tr("The evaluation was cancelled."));
        QCOMPARE(s.store.evaluations().count(), 0);
        // A closed session: what was in flight is cancelled and lands nowhere.
        const qint64 other = s.queue->addManualVariant(u"// FAST\n"_s);
        QVERIFY(other);
        s.store.close();
        QCOMPARE(s.queue->pendingCount(), 0);
        QVERIFY(!finished.wait(400));
    }

    // `kforge-cli eval`: a source outside any session is evaluated and nothing is stored; with --session the
    // CLI commits what it got the way the queue commits a round's result, with the full device description.
    void cliSourceOutsideTheSession()
    {
        Session s;
        QVERIFY(s.setUp());
        EvalRequest req;
        req.task = *Task::load(kTask).task;
        req.candidateSource = u"// FAST\n"_s;
        req.candidateName = u"mine.cu"_s;
        QSignalSpy added(&s.store, &SessionStore::evaluationAdded);
        const int ticket = s.queue->submitSource(req);
        QVERIFY(ticket);
        const QueuedEvaluation done = waitFor(*s.queue, ticket);
        QCOMPARE(done.variantId, qint64(0));
        QCOMPARE(done.result.verdict, Verdict::Correct);
        QVERIFY(!done.stored);
        QCOMPARE(added.count(), 0);
        QCOMPARE(s.evaluator.submitted().constLast().candidateName, u"mine.cu"_s);

        Variant v;
        v.origin = VariantOrigin::Imported;
        const qint64 id = s.store.variants().add(v, {req.candidateSource, {}, {}});
        const QJsonObject device{{u"name"_s, u"NVIDIA H200"_s}, {u"sm_count"_s, 132}};
        const qint64 evaluationId = s.queue->commit(id, done.result, done.compiled, device);
        QVERIFY(evaluationId);
        const Evaluation e = *s.store.evaluations().find(evaluationId);
        QCOMPARE(e.device.value(u"sm_count"_s).toInt(), 132);
        QCOMPARE(e.device.value(u"worker"_s).toString(), u"w0"_s);
        QCOMPARE(e.result, EvaluationQueue::storedResult(done.result, std::nullopt).toJson());
        QCOMPARE(toString(s.variant(id).status), toString(VariantStatus::Done));
    }

    // Nothing is queued that could only fail: no worker, no evaluation and no variant.
    void unusableWorkersQueueNothing()
    {
        QTemporaryDir dir;
        SessionStore store;
        QVERIFY(store.create(dir.filePath(u"s.kforge"_s), kTask));
        WorkerPool pool;
        Compiler compiler;
        PoolEvaluator evaluator(&compiler, &pool);
        EvaluationQueue queue(&store, &evaluator);
        QCOMPARE(queue.cannotEvaluate(), pool.readiness().explanation());
        QCOMPARE(queue.addManualVariant(u"// mine\n"_s), 0);
        QCOMPARE(queue.errorString(), pool.readiness().explanation());
        QVERIFY(!queue.reevaluate(store.population().reference()->id));
        QCOMPARE(store.population().size(), 1);
        QCOMPARE(store.evaluations().count(), 0);
    }

    // The real path without a GPU: nvcc compiles, the scripted worker process answers. A candidate that does
    // not compile is stored with the compiler's own words (file names, no cache paths) and its command line;
    // one that compiles reaches the worker, whose stages move the variant's status.
    void realCompilerThroughTheQueue()
    {
        if (CudaToolkit::locateNvcc().isEmpty())
            QSKIP("no nvcc");
        QTemporaryDir dir, cache;
        SessionStore store;
        QVERIFY(store.create(dir.filePath(u"s.kforge"_s), kTask, true));
        Compiler compiler;
        compiler.setCacheDir(cache.path());
        WorkerPool pool;
        WorkerConfig worker;
        worker.name = u"scripted"_s;
        worker.command = kforge::test::scriptedWorker(u"normal"_s);
        pool.setWorkers({worker});
        PoolEvaluator evaluator(&compiler, &pool);
        EvaluationQueue queue(&store, &evaluator);
        QList<VariantStatus> seen;
        connect(&store, &SessionStore::variantChanged, this, [&](qint64 id) {
            if (const Variant *v = store.population().find(id); v && (seen.isEmpty() || seen.constLast() != v->status))
                seen << v->status;
        });

        // The error inside a header given by its absolute path, as nvcc reports errors of included files.
        QFile header(dir.filePath(u"bad.h"_s));
        QVERIFY(header.open(QIODevice::WriteOnly));
        header.write("// a header with an error\nint broken_declaration = ;\n");
        header.close();
        const qint64 broken = queue.addManualVariant(
            u"#include \"kforge/kernel.h\"\n#include \"%1\"\nKF_ENTRY(in, nin, out, nout, params, stream) {\n  return nope;\n}\n"_s
                .arg(header.fileName()));
        QVERIFY2(broken, qPrintable(queue.errorString()));
        const QueuedEvaluation failed = waitFor(queue, 1, 180000);
        QCOMPARE(failed.result.verdict, Verdict::CompileError);
        QVERIFY2(failed.compiled && failed.compiled->log.contains(dir.path()), "nvcc names the header by its path");
        const QJsonObject compile = store.evaluations().latest(broken)->result.value(u"compile"_s).toObject();
        QVERIFY(!compile.value(u"ok"_s).toBool());
        QStringList where;
        for (const QJsonValue &d : compile.value(u"diagnostics"_s).toArray())
            where << d.toObject().value(u"file"_s).toString() + u':'
                         + QString::number(d.toObject().value(u"line"_s).toInt());
        QVERIFY2(where.contains(u"candidate.cu:4"_s), qPrintable(where.join(u", ")));
        const QString log = compile.value(u"log"_s).toString();
        QVERIFY2(log.contains(u"bad.h(2)"), qPrintable(log));
        QVERIFY2(!log.contains(dir.path()), qPrintable(log)); // no folder of this machine in the session
        QVERIFY2(compile.value(u"command"_s).toString().startsWith(u"nvcc "),
                 qPrintable(compile.value(u"command"_s).toString()));
        QCOMPARE(toString(store.population().find(broken)->status), toString(VariantStatus::Failed));

        seen.clear();
        const qint64 good = store.population().variants().at(2).id; // "good", imported from task.json
        QVERIFY(queue.reevaluate(good));
        const QueuedEvaluation measured = waitFor(queue, 2, 180000);
        QCOMPARE(measured.result.verdict, Verdict::Incorrect); // the scripted worker's answer, stored as it is
        QVERIFY(measured.result.hasFlag(u"scripted"_s));
        const Evaluation e = *store.evaluations().latest(good);
        QCOMPARE(e.result.value(u"compile"_s).toObject().value(u"arch"_s).toString(), u"sm_80"_s);
        QCOMPARE(e.device.value(u"worker"_s).toString(), u"scripted"_s);
        QVERIFY(seen.contains(VariantStatus::Compiling));
        QVERIFY(seen.contains(VariantStatus::Verifying));
        QVERIFY(seen.contains(VariantStatus::Timing));
        QCOMPARE(toString(seen.constLast()), toString(VariantStatus::Failed));
    }

    // A correct result that looks too good is measured again with the deep check before its ticket finishes.
    // Passing accepts it (an exemplar at once); failing keeps the failure as the latest evaluation; a worker
    // that cannot run the check, or a result still under the floor, stays held for review.
    void tooGoodResultsGetTheDeepCheck_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<bool>("deep");           // a deep check was run
        QTest::addColumn<QString>("verdict");     // of the latest evaluation
        QTest::addColumn<QString>("flag");        // the latest evaluation carries it (empty: none asked)
        QTest::addColumn<bool>("usable");         // an exemplar now
        QTest::addColumn<QString>("heldBecause"); // empty: not held
        QTest::newRow("4x: no deep check") << u"// FAST"_s << false << u"correct"_s << QString() << true << QString();
        QTest::newRow("passes") << u"// TOO_GOOD"_s << true << u"correct"_s << u"deep_checked"_s << true << QString();
        QTest::newRow("fails") << u"// TOO_GOOD DEEP_FAILS"_s << true << u"incorrect"_s << QString() << false
                               << u"the deep check failed (incorrect): timed run 17: output C differs"_s;
        QTest::newRow("older worker") << u"// TOO_GOOD DEEP_UNSUPPORTED"_s << true << u"correct"_s
                                      << u"held_for_review"_s << false << u"did not run the deep check"_s;
        QTest::newRow("still under the floor") << u"// TOO_GOOD DEEP_STILL_UNDER_FLOOR"_s << true << u"correct"_s
                                               << u"held_for_review"_s << false << u"speed-of-light floor"_s;
    }

    void tooGoodResultsGetTheDeepCheck()
    {
        QFETCH(QString, source);
        QFETCH(bool, deep);
        QFETCH(QString, verdict);
        QFETCH(QString, flag);
        QFETCH(bool, usable);
        QFETCH(QString, heldBecause);
        Session s;
        QVERIFY(s.setUp());
        Variant v;
        v.origin = VariantOrigin::Model;
        const qint64 id = s.store.variants().add(v, {source, {}, {}});
        QVERIFY(id);
        QSignalSpy started(s.queue.get(), &EvaluationQueue::deepCheckStarted);
        QSignalSpy finished(s.queue.get(), &EvaluationQueue::finished);
        QString statusWhileChecking;
        connect(s.queue.get(), &EvaluationQueue::deepCheckStarted, this, [&](int, qint64 variantId, const QString &) {
            const Variant &checked = s.variant(variantId);
            statusWhileChecking = toString(checked.status) + u' ' + checked.statusMessage;
            QVERIFY(!checked.usableAsExemplar()); // held while the check runs
        });
        EvalOptions options;
        options.sourceProfile = true;
        const int ticket = s.queue->submit(id, options, /*roundId*/ 7);
        const QueuedEvaluation done = waitFor(*s.queue, ticket);
        QCOMPARE(done.ticket, ticket);
        QCOMPARE(finished.count(), 1); // once per ticket, after the deep check
        QCOMPARE(done.roundId, qint64(7));
        QCOMPARE(done.deepChecked, deep);
        QCOMPARE(started.count(), deep ? 1 : 0);
        const QList<EvalRequest> sent = s.evaluator.submitted();
        QCOMPARE(sent.size(), deep ? 2 : 1);
        QVERIFY(!sent.first().options.deep);
        if (deep) {
            QVERIFY(sent.last().options.deep);
            QVERIFY(!sent.last().options.sourceProfile);
            QCOMPARE(sent.last().candidateSource, source);
            QVERIFY2(statusWhileChecking.startsWith(u"verifying deep check running: 40.0x faster"),
                     qPrintable(statusWhileChecking));
        }
        const QList<EvaluationSummary> evaluations = s.store.evaluations().ofVariant(id);
        QCOMPARE(evaluations.size(), deep ? 2 : 1);
        QCOMPARE(evaluations.first().verdictName(), u"correct"_s); // the first run stays on record
        QCOMPARE(done.evaluationId, evaluations.last().id);
        QCOMPARE(done.firstEvaluationId, deep ? evaluations.first().id : 0);
        const Variant &after = s.variant(id);
        QCOMPARE(after.eval.id, evaluations.last().id);
        QCOMPARE(after.eval.verdictName(), verdict);
        if (!flag.isEmpty())
            QVERIFY2(after.eval.flags.contains(flag), qPrintable(after.eval.flags.join(u' ')));
        QCOMPARE(after.usableAsExemplar(), usable);
        QCOMPARE(after.suspicious && !after.accepted, !heldBecause.isEmpty());
        QVERIFY2(after.suspiciousReason.contains(heldBecause), qPrintable(after.suspiciousReason));
        QCOMPARE(toString(after.status), toString(verdict == u"correct" ? VariantStatus::Done : VariantStatus::Failed));
        QVERIFY(!s.queue->isEvaluating(id));
        // The state survives reopening the session file.
        const QString path = s.store.path();
        s.queue.reset();
        s.store.close();
        SessionStore reopened;
        QVERIFY(reopened.open(path));
        const Variant *r = reopened.population().find(id);
        QVERIFY(r);
        QCOMPARE(r->usableAsExemplar(), usable);
        QCOMPARE(r->suspicious && !r->accepted, !heldBecause.isEmpty());
    }

    // Cancelling during the deep check keeps the first result on record, held.
    void cancelDuringTheDeepCheck()
    {
        Session s;
        QVERIFY(s.setUp());
        Variant v;
        const qint64 id = s.store.variants().add(v, {u"// TOO_GOOD"_s, {}, {}});
        int ticket = 0;
        connect(s.queue.get(), &EvaluationQueue::deepCheckStarted, this,
                [&](int t, qint64, const QString &) { s.queue->cancel(t); });
        ticket = s.queue->submit(id, EvalOptions());
        const QueuedEvaluation done = waitFor(*s.queue, ticket);
        QVERIFY(done.cancelled());
        QCOMPARE(s.store.evaluations().ofVariant(id).size(), 1);
        const Variant &after = s.variant(id);
        QCOMPARE(after.eval.verdictName(), u"correct"_s);
        QVERIFY(after.suspicious && !after.accepted);
        QVERIFY2(after.suspiciousReason.contains(u"the deep check was cancelled"), qPrintable(after.suspiciousReason));
        QCOMPARE(toString(after.status), toString(VariantStatus::Done));
    }
};

QTEST_GUILESS_MAIN(TstEvaluationQueue)
#include "tst_evaluationqueue.moc"
