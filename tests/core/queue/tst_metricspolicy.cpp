// Metrics when they pay: a round's candidate asks for the hardware-metrics pass with the speedup it needs to be
// among the session's best (metrics_min_speedup); the worker runs the pass after timing only when it gets there,
// in the same evaluation. A result that went without says why ("metrics_skipped"), which the panels show as
// "not measured", never as zeros; one the session passed while it was measured is evaluated again with the pass
// (the follow-up). On a real SQLite session with ScriptedEvaluator (the one allowed fake), which decides the
// pass as kforge-worker does (MetricsPass::wanted, core/runtime/worker/profilepasses.h).
#include "core/eval/evaloptions.h"
#include "core/eval/measurementfigures.h"
#include "core/queue/evaluationqueue.h"
#include "core/queue/metricspolicy.h"
#include "core/session/sessionstore.h"
#include "core/workerpool/scriptedevaluator.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

const QString kTask = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/diag_matmul");

// Speedup from a marker "SPEEDUP=<x>"; metrics only when the request asks for the pass.
EvalResult script(const EvalRequest &req)
{
    EvalResult r;
    r.verdict = Verdict::Correct;
    const qsizetype at = req.candidateSource.indexOf(u"SPEEDUP=");
    const double speedup = at < 0 ? 1.0 : req.candidateSource.mid(at + 8).section(u'\n', 0, 0).toDouble();
    r.reference.medianMs = 2.0;
    r.candidate.medianMs = 2.0 / speedup;
    r.reference.runs = r.candidate.runs = 100;
    r.speedup = speedup;
    r.verification.trials = 5;
    if (req.options.metrics && req.options.metricsMinSpeedup > 0 && speedup < req.options.metricsMinSpeedup)
        r.metricsSkipped = u"not_among_best"_s;
    else if (req.options.metrics)
        r.metrics = QJsonObject{
            {u"candidate"_s,
             QJsonObject{{u"available"_s, true},
                         {u"kernels"_s, QJsonArray{QJsonObject{{u"name"_s, u"k"_s}, {u"time_ns"_s, 1000.0}}}}}}};
    return r;
}

struct Session {
    QTemporaryDir dir;
    SessionStore store;
    ScriptedEvaluator evaluator{script};
    std::unique_ptr<EvaluationQueue> queue;

    bool setUp(MetricsPolicy::Mode mode, int best = 1)
    {
        if (!store.create(dir.filePath(u"m.kforge"_s), kTask))
            return false;
        queue = std::make_unique<EvaluationQueue>(&store, &evaluator);
        MetricsPolicy policy;
        policy.mode = mode;
        policy.best = best;
        queue->setMetricsPolicy(policy);
        return true;
    }
    qint64 add(double speedup)
    {
        Variant v;
        v.origin = VariantOrigin::Model;
        return store.variants().add(v, {u"// SPEEDUP=%1\n"_s.arg(speedup), {}, {}});
    }
    // Submits `id` as a round candidate and waits for its ticket.
    QueuedEvaluation evaluate(qint64 id)
    {
        QSignalSpy spy(queue.get(), &EvaluationQueue::finished);
        const int ticket = queue->submit(id, EvalOptions{}, /*roundId*/ 1);
        while (spy.wait(5000))
            for (const auto &args : std::as_const(spy))
                if (const auto e = args.at(0).value<QueuedEvaluation>(); e.ticket == ticket) {
                    spy.clear();
                    QTest::qWait(50); // nothing more may follow for this ticket
                    if (!spy.isEmpty())
                        qWarning("ticket %d finished twice", ticket);
                    return e;
                }
        return {};
    }
    // How many requests the evaluator got for `id`'s source, and with the metrics pass.
    std::pair<int, int> requestsFor(qint64 id) const
    {
        int all = 0, withMetrics = 0;
        for (const EvalRequest &r : evaluator.submitted())
            if (r.candidateSource == store.variants().source(id)) {
                ++all;
                withMetrics += r.options.metrics ? 1 : 0;
            }
        return {all, withMetrics};
    }
};

} // namespace

class TstMetricsPolicy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<QueuedEvaluation>();
    }

    void modesAndRanks()
    {
        for (auto m : {MetricsPolicy::Mode::Always, MetricsPolicy::Mode::WhenTheyPay, MetricsPolicy::Mode::Never})
            QCOMPARE(MetricsPolicy::modeFromString(MetricsPolicy::toString(m)), m);
        QVERIFY(!MetricsPolicy::modeFromString(u"sometimes"_s));
        MetricsPolicy p;
        p.best = 2;
        QVERIFY(p.amongBest(3.0, {1.0, 2.0, 5.0}));  // one faster
        QVERIFY(!p.amongBest(3.0, {4.0, 5.0, 1.0})); // two faster
        QVERIFY(p.amongBest(3.0, {3.0, 3.0, 3.0}));  // ties are not faster
        QVERIFY(p.amongBest(1.0, {}));
        QVERIFY(!p.amongBest(std::numeric_limits<double>::quiet_NaN(), {}));

        QCOMPARE(p.minSpeedupAmongBest({1.0, 2.0, 5.0}), 2.0); // the 2nd fastest: 2.0 and up are among the best
        QCOMPARE(p.minSpeedupAmongBest({7.0}), 0.0);           // fewer than 2 others: any speedup is
        QCOMPARE(p.minSpeedupAmongBest({std::numeric_limits<double>::quiet_NaN(), 3.0}), 0.0);

        EvalOptions o;
        p.mode = MetricsPolicy::Mode::Always;
        QCOMPARE(p.firstPass(o, 2.0), QString());
        QVERIFY(o.metrics);
        QCOMPARE(o.metricsMinSpeedup, 0.0);
        p.mode = MetricsPolicy::Mode::WhenTheyPay;
        QCOMPARE(p.firstPass(o, 2.0), QString()); // the worker decides, with the speedup needed
        QVERIFY(o.metrics);
        QCOMPARE(o.metricsMinSpeedup, 2.0);
        QCOMPARE(o.toJson().value(u"metrics_min_speedup"_s).toDouble(), 2.0);
        QCOMPARE(EvalOptions::fromJson(o.toJson()).metricsMinSpeedup, 2.0);
        o.metrics = false;
        QCOMPARE(p.firstPass(o, 2.0), u"off"_s); // asked for no pass: stays off, and says so
        QVERIFY(!o.toJson().contains(u"metrics_min_speedup"_s));
        o.metrics = true;
        p.mode = MetricsPolicy::Mode::Never;
        QCOMPARE(p.firstPass(o), u"off"_s);
        QVERIFY(!o.metrics);
    }

    // The best so far gets the pass in its one evaluation; a slower one does not and says why.
    void onlyTheBestAreProfiled()
    {
        Session s;
        QVERIFY2(s.setUp(MetricsPolicy::Mode::WhenTheyPay, 1), qPrintable(s.store.errorString()));
        const qint64 fast = s.add(4.0), slow = s.add(2.0), faster = s.add(8.0);

        const QueuedEvaluation first = s.evaluate(fast);
        QVERIFY(!first.metricsFollowUp); // no second evaluation: the pass ran in the first
        QCOMPARE(s.requestsFor(fast), std::make_pair(1, 1));
        QCOMPARE(s.evaluator.submitted().constLast().options.metricsMinSpeedup, 0.0); // nothing to beat yet
        QVERIFY(!first.result.metrics.isEmpty());
        QVERIFY(first.result.metricsSkipped.isEmpty());
        const Evaluation latest = *s.store.evaluations().latest(fast);
        QVERIFY(!latest.result.contains(u"metrics_skipped"_s));
        QVERIFY(latest.figures().hasHardwareMetrics());

        const QueuedEvaluation second = s.evaluate(slow);
        QVERIFY(!second.metricsFollowUp);
        QCOMPARE(s.requestsFor(slow), std::make_pair(1, 1));
        QCOMPARE(s.evaluator.submitted().constLast().options.metricsMinSpeedup, 4.0);
        QVERIFY(second.result.metrics.isEmpty());
        QCOMPARE(second.result.metricsSkipped, u"not_among_best"_s);
        const Measurement stored = Measurement::fromJson(s.store.evaluations().latest(slow)->result);
        QCOMPARE(stored.metricsSkipped, u"not_among_best"_s);
        const MeasurementFigures shown = s.store.evaluations().latest(slow)->figures();
        QVERIFY(!shown.hasHardwareMetrics());
        QCOMPARE(shown.metricsProblem, metricsSkippedText(u"not_among_best"_s));
        QVERIFY(!shown.achievedOccupancyPct && !shown.dramThroughputPct); // not measured is not zero

        const QueuedEvaluation third = s.evaluate(faster); // a new best is profiled, in its one evaluation
        QVERIFY(!third.metricsFollowUp);
        QVERIFY(!third.result.metrics.isEmpty());
        QCOMPARE(s.requestsFor(faster), std::make_pair(1, 1));
    }

    void alwaysAndNever()
    {
        for (auto mode : {MetricsPolicy::Mode::Always, MetricsPolicy::Mode::Never}) {
            Session s;
            QVERIFY(s.setUp(mode));
            const qint64 id = s.add(4.0);
            const QueuedEvaluation e = s.evaluate(id);
            QVERIFY(!e.metricsFollowUp);
            const bool always = mode == MetricsPolicy::Mode::Always;
            QCOMPARE(s.requestsFor(id), std::make_pair(1, always ? 1 : 0));
            QCOMPARE(e.result.metricsSkipped, always ? QString() : u"off"_s);
            // The reference of a round keeps the pass whatever the mode (the worker measures it once).
            QSignalSpy spy(s.queue.get(), &EvaluationQueue::finished);
            s.queue->submit(s.store.population().reference()->id, EvalOptions{}, 1);
            QVERIFY(spy.wait(5000));
            QVERIFY(s.evaluator.submitted().constLast().options.metrics);
        }
    }
};

QTEST_GUILESS_MAIN(TstMetricsPolicy)
#include "tst_metricspolicy.moc"
