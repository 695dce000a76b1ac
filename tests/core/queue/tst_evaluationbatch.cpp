// Several candidates in one go (`kforge-cli eval TASK a.cu b.cu ...`): every candidate is submitted at once, so
// compiles run side by side while compiled ones are evaluated, results come back in the order given, and one
// worker process serves them all with the reference loaded once. Orchestration on ScriptedEvaluator (the one
// allowed fake); the compile concurrency and the one warm worker on the real nvcc and the scripted worker process.
#include "core/compile/compiler.h"
#include "core/compile/cudatoolkit.h"
#include "core/queue/evaluationbatch.h"
#include "core/session/sessionstore.h"
#include "core/workerpool/poolevaluator.h"
#include "core/workerpool/scriptedevaluator.h"
#include "core/workerpool/workerclient.h"
#include "core/workerpool/workerpool.h"
#include "tests/core/workerpool/workertesthelpers.h"

#include <QSignalSpy>
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
        return EvalResult::failure(Verdict::Incorrect, u"output C differs"_s);
    EvalResult r;
    r.verdict = Verdict::Correct;
    r.reference.medianMs = 2.0;
    r.candidate.medianMs = req.candidateSource.contains(u"FAST") ? 0.5 : 2.0;
    r.reference.runs = r.candidate.runs = 100;
    r.speedup = r.reference.medianMs / r.candidate.medianMs;
    r.verification.trials = 5;
    return r;
}

Task loadTask()
{
    const TaskLoadResult loaded = Task::load(kTask);
    return loaded.ok() ? *loaded.task : Task();
}

QList<EvalRequest> requests(const Task &task, const QStringList &sources)
{
    QList<EvalRequest> list;
    for (qsizetype i = 0; i < sources.size(); ++i) {
        EvalRequest r;
        r.task = task;
        r.candidateSource = sources.at(i);
        r.candidateName = u"c%1.cu"_s.arg(i);
        list << r;
    }
    return list;
}

bool waitFinished(EvaluationBatch &batch, QSignalSpy &spy, int timeoutMs)
{
    return batch.isFinished() || spy.wait(timeoutMs);
}

} // namespace

class TstEvaluationBatch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Everything is submitted before anything finishes; each candidate's result arrives once, in its own slot.
    void everyCandidateAtOnceResultsInOrder()
    {
        const Task task = loadTask();
        QVERIFY(task.isValid());
        ScriptedEvaluator evaluator{script};
        evaluator.setDelayMs(30);
        SessionStore store;
        EvaluationQueue queue(&store, &evaluator);
        EvaluationBatch batch(&queue);
        QSignalSpy done(&batch, &EvaluationBatch::finished);
        QSignalSpy each(&batch, &EvaluationBatch::candidateFinished);
        const QStringList sources{u"// FAST 0\n"_s, u"// WRONG_RESULT 1\n"_s, u"// 2\n"_s,
                                  u"// FAST 3\n"_s, u"// WRONG_RESULT 4\n"_s, u"// FAST 5\n"_s};
        batch.start(requests(task, sources));
        QCOMPARE(evaluator.submitted().size(), sources.size()); // no candidate waits for another to be submitted
        QCOMPARE(batch.finishedCount(), 0);
        QVERIFY(waitFinished(batch, done, 10000));
        QCOMPARE(done.size(), 1);
        QCOMPARE(each.size(), sources.size());
        QSet<int> indices;
        for (const auto &args : std::as_const(each))
            indices.insert(args.at(0).toInt());
        QCOMPARE(indices.size(), int(sources.size()));
        for (int i = 0; i < batch.size(); ++i) {
            const EvaluationBatch::Item &item = batch.item(i);
            QVERIFY(item.done);
            QCOMPARE(item.request.candidateSource, sources.at(i));
            const bool wrong = sources.at(i).contains(u"WRONG_RESULT");
            QCOMPARE(verdictToString(item.evaluated.result.verdict),
                     verdictToString(wrong ? Verdict::Incorrect : Verdict::Correct));
            if (!wrong)
                QCOMPARE(item.evaluated.result.speedup, sources.at(i).contains(u"FAST") ? 4.0 : 1.0);
            QVERIFY(item.finishedAtMs >= 0 && item.finishedAtMs <= batch.wallMs());
        }
        QVERIFY(batch.wallMs() > 0);
        QCOMPARE(batch.perMinute(), batch.size() * 60000.0 / batch.wallMs());
        QCOMPARE(store.evaluations().count(), 0); // sources outside a session: nothing stored by the batch
    }

    void emptyBatchFinishes()
    {
        ScriptedEvaluator evaluator{script};
        SessionStore store;
        EvaluationQueue queue(&store, &evaluator);
        EvaluationBatch batch(&queue);
        QSignalSpy done(&batch, &EvaluationBatch::finished);
        batch.start({});
        QVERIFY(done.wait(2000));
        QVERIFY(batch.isFinished());
        QCOMPARE(batch.perMinute(), 0.0);
    }

    void cancelAnswersEveryCandidate()
    {
        const Task task = loadTask();
        ScriptedEvaluator evaluator{script};
        evaluator.setDelayMs(300); // the scripted evaluator answers a cancelled id when its delay is over
        SessionStore store;
        EvaluationQueue queue(&store, &evaluator);
        EvaluationBatch batch(&queue);
        QSignalSpy done(&batch, &EvaluationBatch::finished);
        batch.start(requests(task, {u"// 0\n"_s, u"// 1\n"_s, u"// 2\n"_s}));
        batch.cancel();
        QVERIFY(waitFinished(batch, done, 5000));
        for (int i = 0; i < batch.size(); ++i)
            QVERIFY2(batch.item(i).evaluated.cancelled(), qPrintable(batch.item(i).evaluated.result.message));
    }

    // The real path without a GPU: nvcc compiles the candidates side by side (more than one nvcc at a time),
    // and the one scripted worker process answers every candidate: started once, the reference loaded once.
    void realCompilesOverlapOneWarmWorker()
    {
        if (CudaToolkit::locateNvcc().isEmpty())
            QSKIP("no nvcc");
        const Task task = loadTask();
        QTemporaryDir cache;
        Compiler compiler;
        compiler.setCacheDir(cache.path());
        compiler.setMaxParallel(3);
        int running = 0, mostAtOnce = 0;
        connect(&compiler, &Compiler::started, this, [&](int) { mostAtOnce = qMax(mostAtOnce, ++running); });
        connect(&compiler, &Compiler::finished, this, [&](int, const CompileResult &) { --running; });
        WorkerPool pool;
        WorkerConfig worker;
        worker.name = u"scripted"_s;
        worker.command = kforge::test::scriptedWorker(u"normal"_s);
        pool.setWorkers({worker});
        int loads = 0;
        connect(&pool, &WorkerPool::log, this, [&](int, const QString &line) {
            if (line.startsWith(u"scripted-worker: load "))
                ++loads;
        });
        PoolEvaluator evaluator(&compiler, &pool);
        SessionStore store;
        EvaluationQueue queue(&store, &evaluator);
        EvaluationBatch batch(&queue);
        QSignalSpy done(&batch, &EvaluationBatch::finished);
        // Three distinct candidates (distinct sources: no cache hit between them).
        QStringList sources;
        for (int i = 0; i < 3; ++i)
            sources << task.referenceSource() + u"\n// candidate %1\n"_s.arg(i);
        batch.start(requests(task, sources));
        QVERIFY(waitFinished(batch, done, 300000));
        QVERIFY2(mostAtOnce >= 2, qPrintable(u"at most %1 nvcc job(s) at a time"_s.arg(mostAtOnce)));
        for (int i = 0; i < batch.size(); ++i) {
            const EvaluationBatch::Item &item = batch.item(i);
            QVERIFY2(item.evaluated.compiled && item.evaluated.compiled->ok, qPrintable(item.evaluated.result.message));
            QVERIFY(!item.evaluated.compiled->cacheHit);
            QVERIFY(item.evaluated.result.hasFlag(u"scripted"_s)); // the worker process answered it
            QVERIFY(item.compiledAtMs >= 0 && item.compiledAtMs <= item.finishedAtMs);
        }
        QCOMPARE(pool.worker(0)->generation(), 1); // one worker process for all of them
        QCOMPARE(loads, int(sources.size()) + 1);  // the reference once, each candidate once
    }
};

QTEST_GUILESS_MAIN(TstEvaluationBatch)
#include "tst_evaluationbatch.moc"
