// Running a collection: held-out sizes written over a problem's constants, the results log (a line cut by kill -9
// dropped, the last record of a run counting, --rerun), which run a pair needs next, a task at a looser tolerance,
// and the runner's orchestration over the one evaluation queue on ScriptedEvaluator (the one allowed fake): every
// pair's runs in order, follow-ups only where the main verdict asks for them, a result without verdict not logged,
// at most maxInFlight evaluations at once, the next prepareAhead pairs' builds started ahead (each once, before its
// first evaluation), and a second runner over the same log with nothing left to do.
#include "core/collection/heldoutsizes.h"
#include "core/collection/resultslog.h"
#include "core/collection/verifyrunner.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/workerpool/scriptedevaluator.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

const QString kRowSum = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/torch_row_sum");

const char *kProblem = R"(import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x, w):
        return x @ w

batch_size = 16  # rows
dim, out_dim = 4096, 1024
kernel_size = 3
scale = 0.5


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(dim, out_dim)]
)";

QJsonObject taskFor()
{
    return QJsonObject{
        {u"params"_s,
         QJsonObject{{u"batch_size"_s, 16}, {u"dim"_s, 4096}, {u"out_dim"_s, 1024}, {u"kernel_size"_s, 3}, {u"scale"_s, 0.5}}},
        {u"inputs"_s, QJsonArray{QJsonObject{{u"shape"_s, QJsonArray{u"batch_size"_s, u"dim"_s}}},
                                 QJsonObject{{u"shape"_s, QJsonArray{u"dim"_s, u"out_dim"_s}}}}}};
}

VerifyRecord record(const QString &pair, VerifyRun run, Verdict verdict)
{
    VerifyRecord r;
    r.pair = pair;
    r.run = run;
    r.result.verdict = verdict;
    return r;
}

// A copy of torch_row_sum named `name` under `dir`: a held-out task of its own.
QString taskCopy(const QTemporaryDir &dir, const QString &name)
{
    const QString folder = dir.filePath(name);
    QDir().mkpath(folder);
    QFile::copy(kRowSum + u"/reference.py"_s, folder + u"/reference.py"_s);
    QFile in(kRowSum + u"/task.json"_s);
    in.open(QIODevice::ReadOnly);
    QJsonObject task = QJsonDocument::fromJson(in.readAll()).object();
    task.insert(u"name"_s, name);
    task.remove(u"variants"_s);
    QFile out(folder + u"/task.json"_s);
    out.open(QIODevice::WriteOnly);
    out.write(QJsonDocument(task).toJson());
    return folder;
}

// The verdicts by markers in the candidate: WRONG (off by 0.004: correct from atol 1e-2), HARDCODED (wrong at a
// held-out task), NOVERDICT (no worker), CRASH.
EvalResult script(const EvalRequest &request)
{
    const QString &source = request.candidateSource;
    const double atol = request.task.toJson()[u"tolerance"_s][u"f32"_s][u"atol"_s].toDouble();
    if (source.contains(u"NOVERDICT"))
        return EvalResult::failure(Verdict::Error, u"no GPU worker"_s);
    if (source.contains(u"CRASH"))
        return EvalResult::failure(Verdict::Crashed, u"worker died"_s);
    if ((source.contains(u"WRONG") && atol < 0.004)
        || (source.contains(u"HARDCODED") && request.task.name().contains(u"heldout")))
        return EvalResult::failure(Verdict::Incorrect, u"output differs"_s);
    EvalResult r;
    r.verdict = Verdict::Correct;
    r.reference.medianMs = 2.0;
    r.candidate.medianMs = 1.0;
    r.reference.runs = r.candidate.runs = 100;
    r.speedup = 2.0;
    r.verification.trials = 5;
    return r;
}

QStringList logged(const ResultsLog &log)
{
    QStringList out;
    for (const VerifyRecord &r : log.records())
        out << r.pair + u' ' + runName(r.run) + u' ' + r.result.verdictName();
    out.sort();
    return out;
}

} // namespace

class VerifyRunTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void heldOutSizes()
    {
        QString why;
        const QList<HeldOutProblem> variants = HeldOutSizes::make(QString::fromUtf8(kProblem), taskFor(), &why);
        QCOMPARE(variants.size(), 2);
        QVERIFY(why.isEmpty());
        // The constants that size an input, at least 8: not kernel_size (3) nor scale (a float).
        QCOMPARE(variants[0].describe(), u"batch_size 16→13, dim 4096→3073, out_dim 1024→769"_s);
        QCOMPARE(variants[1].describe(), u"batch_size 16→9, dim 4096→2049, out_dim 1024→513"_s);
        QVERIFY(variants[0].source.contains(u"\nbatch_size = 13  # rows\n"_s));
        QVERIFY(variants[0].source.contains(u"\ndim, out_dim = 3073, 769\n"_s));
        QVERIFY(variants[0].source.contains(u"\nkernel_size = 3\n"_s));
        QVERIFY(variants[1].source.contains(u"\ndim, out_dim = 2049, 513\n"_s));
        // A problem whose sizes are no literals has none, and says why.
        const QList<HeldOutProblem> none =
            HeldOutSizes::make(u"N = 2 ** 12\n"_s,
                               QJsonObject{{u"params"_s, QJsonObject{{u"N"_s, 4096}}},
                                           {u"inputs"_s, QJsonArray{QJsonObject{{u"shape"_s, QJsonArray{u"N"_s}}}}}},
                               &why);
        QVERIFY(none.isEmpty());
        QVERIFY(why.contains(u"no size constant"_s));
    }

    void heldOutValues_data()
    {
        QTest::addColumn<qint64>("value");
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("second");
        QTest::addRow("8") << qint64(8) << qint64(7) << qint64(5);
        QTest::addRow("16") << qint64(16) << qint64(13) << qint64(9);
        QTest::addRow("odd") << qint64(1001) << qint64(751) << qint64(501);
        QTest::addRow("big") << qint64(393216) << qint64(294913) << qint64(196609);
    }
    void heldOutValues()
    {
        QFETCH(qint64, value);
        QFETCH(qint64, first);
        QFETCH(qint64, second);
        QCOMPARE(HeldOutSizes::heldOutValue(value, 1), first);
        QCOMPARE(HeldOutSizes::heldOutValue(value, 2), second);
        QCOMPARE(first % 2, 1);
        QVERIFY(first < value && second < first);
    }

    void resultsLogSurvivesACutLine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"out/results.jsonl"_s);
        QString error;
        {
            ResultsLog log;
            QVERIFY(log.open(path, &error));
            QVERIFY(log.records().isEmpty());
            QVERIFY(log.append(record(u"a"_s, VerifyRun::Main, Verdict::Incorrect), &error));
            QVERIFY(log.append(record(u"b"_s, VerifyRun::Main, Verdict::Correct), &error));
        }
        {
            // kill -9 in the middle of a line.
            QFile f(path);
            QVERIFY(f.open(QIODevice::Append));
            f.write("{\"pair\":\"c\",\"run\":\"main\",\"result\":{\"verd");
        }
        ResultsLog log;
        QVERIFY(log.open(path, &error));
        QCOMPARE(log.records().size(), 2);
        QCOMPARE(log.droppedLines(), 1);
        QVERIFY(log.append(record(u"a"_s, VerifyRun::Main, Verdict::Correct), &error)); // --rerun's new result
        QCOMPARE(log.find(u"a"_s, VerifyRun::Main)->result.verdict, Verdict::Correct);
        QVERIFY(!log.find(u"a"_s, VerifyRun::HeldOut1));
        ResultsLog again;
        QVERIFY(again.open(path, &error));
        QCOMPARE(again.records().size(), 3);
        QCOMPARE(again.droppedLines(), 0);
        QCOMPARE(again.find(u"a"_s, VerifyRun::Main)->result.verdict, Verdict::Correct);
        again.forget({u"a"_s});
        QVERIFY(!again.find(u"a"_s, VerifyRun::Main));
        QVERIFY(again.find(u"b"_s, VerifyRun::Main));
    }

    void recordRoundTrip()
    {
        VerifyRecord r = record(u"level1/2_ReLU.py"_s, VerifyRun::Tolerance2, Verdict::Correct);
        r.claimedSpeedup = 1.35;
        r.task = u"level1_2_relu"_s;
        r.wallS = 1.5;
        r.workerS = 0.75;
        r.finishedAt = QDateTime(QDate(2026, 12, 1), QTime(10, 0), Qt::UTC);
        const std::optional<VerifyRecord> back = VerifyRecord::fromJson(r.toJson());
        QVERIFY(back);
        QCOMPARE(back->toJson(), r.toJson());
        QCOMPARE(back->run, VerifyRun::Tolerance2);
        QVERIFY(!VerifyRecord::fromJson(QJsonObject{{u"pair"_s, u"x"_s}, {u"run"_s, u"sideways"_s}}));
    }

    void nextRun_data()
    {
        QTest::addColumn<QStringList>("records"); // run:verdict
        QTest::addColumn<bool>("heldOut");        // the pair has two held-out tasks
        QTest::addColumn<QString>("next");
        QTest::addRow("nothing yet") << QStringList{} << true << u"main"_s;
        QTest::addRow("correct") << QStringList{u"main:correct"_s} << true << u"heldout_1"_s;
        QTest::addRow("correct, one size")
            << QStringList{u"main:correct"_s, u"heldout_1:incorrect"_s} << true << u"heldout_2"_s;
        QTest::addRow("correct, both sizes")
            << QStringList{u"main:correct"_s, u"heldout_1:correct"_s, u"heldout_2:correct"_s} << true << QString();
        QTest::addRow("correct, no sizes") << QStringList{u"main:correct"_s} << false << QString();
        QTest::addRow("incorrect") << QStringList{u"main:incorrect"_s} << true << u"tol_1e-3"_s;
        QTest::addRow("passes at 1e-3") << QStringList{u"main:incorrect"_s, u"tol_1e-3:correct"_s} << true << QString();
        QTest::addRow("fails at 1e-3") << QStringList{u"main:incorrect"_s, u"tol_1e-3:incorrect"_s} << true << u"tol_1e-2"_s;
        QTest::addRow("fails at 1e-2") << QStringList{u"main:incorrect"_s, u"tol_1e-3:incorrect"_s, u"tol_1e-2:incorrect"_s}
                                       << true << QString();
        QTest::addRow("crashed") << QStringList{u"main:crashed"_s} << true << QString();
        QTest::addRow("compile error") << QStringList{u"main:compile_error"_s} << true << QString();
    }
    void nextRun()
    {
        QFETCH(QStringList, records);
        QFETCH(bool, heldOut);
        QFETCH(QString, next);
        QTemporaryDir dir;
        ResultsLog log;
        QString error;
        QVERIFY(log.open(dir.filePath(u"r.jsonl"_s), &error));
        for (const QString &r : records)
            QVERIFY(log.append(record(u"p"_s, *runFromName(r.section(u':', 0, 0)), *verdictFromString(r.section(u':', 1))),
                               &error));
        VerifyItem item;
        item.pair.id = u"p"_s;
        if (heldOut)
            item.heldOut = {{1, u"N 64→47"_s, u"/t1"_s, {}}, {2, u"N 64→33"_s, u"/t2"_s, {}}};
        const std::optional<VerifyRun> run = VerifyRunner::nextRun(item, log, VerifyRunner::Options{});
        QCOMPARE(run ? runName(*run) : QString(), next);
    }

    void looserTolerance()
    {
        const TaskLoadResult loaded = Task::load(kRowSum);
        QVERIFY(loaded.ok());
        QString error;
        const std::optional<Task> loose = VerifyRunner::withTolerance(*loaded.task, 1e-2, &error);
        QVERIFY2(loose, qPrintable(error));
        const QJsonObject f32 = loose->toJson()[u"tolerance"_s][u"f32"_s].toObject();
        QCOMPARE(f32[u"atol"_s].toDouble(), 1e-2);
        QCOMPARE(f32[u"rtol"_s].toDouble(), 1e-2);
        QCOMPARE(loose->name(), loaded.task->name());
        QCOMPARE(loose->referenceSource(), loaded.task->referenceSource());
    }

    void runsEveryPairThroughTheQueue()
    {
        QTemporaryDir dir;
        const QString main = taskCopy(dir, u"row_sum"_s);
        const QList<HeldOutTask> sizes{{1, u"dim 8192→6145"_s, taskCopy(dir, u"row_sum_heldout1"_s), {}},
                                       {2, u"dim 8192→4097"_s, taskCopy(dir, u"row_sum_heldout2"_s), {}}};
        QList<VerifyItem> items;
        for (const QString &marker : {u"GOOD"_s, u"WRONG"_s, u"HARDCODED"_s, u"CRASH"_s, u"NOVERDICT"_s, u"GOOD2"_s}) {
            VerifyItem item;
            item.pair.id = marker.toLower();
            item.pair.problemKey = u"row_sum"_s;
            item.pair.candidateName = marker.toLower() + u".py"_s;
            item.pair.candidateSource = u"# "_s + marker + u"\nclass ModelNew: pass\n"_s;
            item.pair.kind = CandidateKind::ModelNew;
            item.taskFolder = main;
            item.heldOut = sizes;
            items << item;
        }
        ScriptedEvaluator evaluator(script);
        evaluator.setDelayMs(20);
        SessionStore store;
        EvaluationQueue queue(&store, &evaluator);
        ResultsLog log;
        QString error;
        QVERIFY(log.open(dir.filePath(u"results.jsonl"_s), &error));
        VerifyRunner runner(&queue, &log);
        QSignalSpy done(&runner, &VerifyRunner::finished);
        QSignalSpy runs(&runner, &VerifyRunner::runFinished);
        QSignalSpy noVerdict(&runner, &VerifyRunner::noVerdict);
        VerifyRunner::Options options;
        options.maxInFlight = 3;
        options.prepareAhead = 2;
        runner.start(items, options);
        QTRY_COMPARE(evaluator.submitted().size(), 3); // three at once, no more before one finishes
        // The next two pairs' builds start while the first three are measured.
        const auto names = [](const QList<EvalRequest> &requests) {
            QStringList n;
            for (const EvalRequest &r : requests)
                n << r.candidateName;
            return n;
        };
        QCOMPARE(names(evaluator.prepared()), (QStringList{u"crash.py"_s, u"noverdict.py"_s}));
        QVERIFY(done.wait(10000));
        QCOMPARE(logged(log),
                 (QStringList{u"crash main crashed"_s, u"good heldout_1 correct"_s, u"good heldout_2 correct"_s,
                              u"good main correct"_s, u"good2 heldout_1 correct"_s, u"good2 heldout_2 correct"_s,
                              u"good2 main correct"_s, u"hardcoded heldout_1 incorrect"_s,
                              u"hardcoded heldout_2 incorrect"_s, u"hardcoded main correct"_s,
                              u"wrong main incorrect"_s, u"wrong tol_1e-2 correct"_s, u"wrong tol_1e-3 incorrect"_s}));
        QCOMPARE(runs.size(), 13);
        QCOMPARE(noVerdict.size(), 1);
        QCOMPARE(noVerdict.first().at(0).toString(), u"noverdict"_s);
        QCOMPARE(runner.pairsDone(), 5);
        QCOMPARE(runner.pairsWithoutVerdict(), 1);
        QCOMPARE(evaluator.submitted().size(), 14);
        // Each pair not submitted at once was built ahead exactly once, before its first evaluation.
        QCOMPARE(names(evaluator.prepared()), (QStringList{u"crash.py"_s, u"noverdict.py"_s, u"good2.py"_s}));
        QVERIFY(names(evaluator.submitted()).indexOf(u"good2.py"_s) >= 3);
        // The held-out runs went to the held-out tasks, the tolerance runs to the task at that tolerance.
        for (const EvalRequest &r : evaluator.submitted())
            QVERIFY(r.task.name().startsWith(u"row_sum"_s));
        const VerifyRecord *h = log.find(u"good"_s, VerifyRun::HeldOut2);
        QCOMPARE(h->task, u"row_sum_heldout2"_s);
        QVERIFY(h->result.flags.contains(u"scripted"_s));

        // Started again on the same log: only the pair without a verdict is tried again.
        VerifyRunner again(&queue, &log);
        QSignalSpy againDone(&again, &VerifyRunner::finished);
        again.start(items, options);
        QVERIFY(againDone.wait(10000));
        QCOMPARE(again.pairsDoneAtStart(), 5);
        QCOMPARE(evaluator.submitted().size(), 15);
        QCOMPARE(evaluator.submitted().last().candidateName, u"noverdict.py"_s);
    }
};

QTEST_GUILESS_MAIN(VerifyRunTest)
#include "tst_verifyrun.moc"
