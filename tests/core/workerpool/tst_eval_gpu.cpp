// On a GPU: diag_matmul's good candidate, compiled and evaluated through the real worker, is correct and at
// least 30x faster than the reference (CUDA-L1's headline case). Skips with the reason where there is no GPU.
#include "core/compile/compiler.h"
#include "core/compile/cudatoolkit.h"
#include "core/workerpool/poolevaluator.h"
#include "core/workerpool/workerpool.h"
#include "workertesthelpers.h"

#include <QStandardPaths>

using namespace Qt::StringLiterals;
using namespace kforge;

class TestEvalGpu : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void diagMatmulGoodCandidate();
};

void TestEvalGpu::diagMatmulGoodCandidate()
{
    QStandardPaths::setTestModeEnabled(true);
    if (kforge::test::realWorker().isEmpty())
        QSKIP("kforge-worker is not built here");
    if (CudaToolkit::locateNvcc().isEmpty())
        QSKIP("no nvcc");
    WorkerPool pool;
    WorkerConfig worker;
    worker.command = kforge::test::realWorker() + u" --device 0"_s;
    pool.setWorkers({worker});
    QSignalSpy settled(&pool, &WorkerPool::devicesSettledChanged);
    QVERIFY(settled.wait(180000));
    if (!pool.device(0).isValid())
        QSKIP(qPrintable(u"no GPU: "_s + pool.deviceError(0)));

    Compiler compiler;
    PoolEvaluator evaluator(&compiler, &pool);
    const TaskLoadResult loaded = Task::load(Task::builtinTasksDir() + u"/diag_matmul"_s);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error.message()));
    const auto good = loaded.task->variant(u"good"_s);
    QVERIFY(good);
    EvalRequest req;
    req.task = *loaded.task;
    req.candidateSource = good->source;
    req.candidateName = good->file;
    req.candidateFlags = good->nvccFlags;
    QSignalSpy finished(&evaluator, &Evaluator::finished);
    evaluator.submit(req);
    QVERIFY(finished.wait(300000));
    const EvalResult r = finished.at(0).at(1).value<EvalResult>();
    qInfo("%s: %s, reference %.4f ms, candidate %.4f ms, speedup %.1fx (cv %.3f / %.3f), turnaround %.0f ms",
          qPrintable(pool.device(0).name), qPrintable(verdictToString(r.verdict)), r.reference.medianMs,
          r.candidate.medianMs, r.speedup, r.reference.cv, r.candidate.cv, r.elapsedMs);
    QVERIFY2(r.isCorrect(), qPrintable(r.message));
    QVERIFY2(r.speedup >= 30.0, qPrintable(u"speedup %1"_s.arg(r.speedup)));
}

QTEST_GUILESS_MAIN(TestEvalGpu)
#include "tst_eval_gpu.moc"
