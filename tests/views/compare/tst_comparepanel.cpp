// The Compare panel: two stored, worker-shaped results side by side with deltas and the verdict of each row,
// the bound of each, their kernel lists, the model's analyses, the stored answers about the pair, and a clear
// reason wherever a measurement is missing.
#include "panelfixture.h"
#include "views/compare/comparemetricsmodel.h"
#include "views/compare/comparepanel.h"
#include "views/compare/kernellistmodel.h"
#include "views/variants/variantselection.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

using namespace kforge;
using namespace kforge::test;

namespace {

QString value(const CompareMetricsModel &m, const char *key, int column)
{
    const int row = m.rowOf(QLatin1String(key));
    return row < 0 ? QStringLiteral("<no row>") : m.index(row, column).data().toString();
}

int verdict(const CompareMetricsModel &m, const char *key)
{
    return m.index(m.rowOf(QLatin1String(key)), CompareMetricsModel::Delta).data(CompareMetricsModel::VerdictRole).toInt();
}

} // namespace

class TestComparePanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void deltas_data()
    {
        QTest::addColumn<double>("timeA");
        QTest::addColumn<double>("timeB");
        QTest::addColumn<QString>("delta");
        QTest::addColumn<int>("verdict");
        QTest::newRow("A twice as fast") << 1.0 << 2.0 << QStringLiteral("2× faster") << 1;
        QTest::newRow("A slower") << 3.0 << 1.0 << QStringLiteral("3× slower") << -1;
        QTest::newRow("same") << 1.5 << 1.5 << QStringLiteral("same") << 0;
    }

    void deltas()
    {
        QFETCH(double, timeA);
        QFETCH(double, timeB);
        QFETCH(QString, delta);
        QFETCH(int, verdict);
        VariantMeasurement a, b;
        a.medianMs = timeA;
        b.medianMs = timeB;
        a.achievedOccupancyPct = 80;
        b.achievedOccupancyPct = 62.5;
        a.metricsProblem = QString();
        b.metricsProblem = QStringLiteral("CUPTI was busy");
        b.smThroughputPct = std::nullopt;
        CompareMetricsModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setMeasurements(a, b, QStringLiteral("#1"), QStringLiteral("#2"));
        QCOMPARE(value(m, "time", CompareMetricsModel::Delta), delta);
        QCOMPARE(::verdict(m, "time"), verdict);
        QCOMPARE(value(m, "occupancy", CompareMetricsModel::Delta), QStringLiteral("+17.5 pp"));
        QCOMPARE(::verdict(m, "occupancy"), 0); // neither direction is better by itself
        // Missing on one side: no delta, and the reason in the tooltip.
        QCOMPARE(value(m, "sm_throughput", CompareMetricsModel::B), QStringLiteral("—"));
        QCOMPARE(m.index(m.rowOf(QStringLiteral("sm_throughput")), CompareMetricsModel::B).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("Not measured: CUPTI was busy"));
        QVERIFY(value(m, "sm_throughput", CompareMetricsModel::Delta).isEmpty());
        QCOMPARE(m.headerData(CompareMetricsModel::A, Qt::Horizontal).toString(), QStringLiteral("A: #1"));
    }

    void measurementReadsWorkerResults()
    {
        ResultSpec spec;
        spec.speedup = 4.0;
        spec.kernels = {KernelSpec{QStringLiteral("void gemm_tiled<32>(float const*, float const*, float*, long)"), 2500, 1, 72,
                                   8192, 2e9, 4e8},
                        KernelSpec{QStringLiteral("scatter(float*)"), 450, 2, 16, 0, 1e6, 3e7}};
        spec.spillBytes = 24;
        const VariantMeasurement m = VariantMeasurement::fromResult(workerResult(spec), h200Device());
        QCOMPARE(m.verdict, QStringLiteral("correct"));
        QCOMPARE(*m.speedup, 4.0);
        QCOMPARE(m.kernels.size(), 2);
        QCOMPARE(m.kernels[0].name, QStringLiteral("void gemm_tiled<32>(float const*, float const*, float*, long)"));
        QCOMPARE(*m.kernels[1].msPerRun(m.traceRuns), 0.9); // 2 launches of 450 us per run
        QCOMPARE(m.kernels[0].grid, (QList<int>{4096, 1, 1}));
        QCOMPARE(*m.registers, 72);
        QCOMPARE(*m.sharedBytes, 8192);
        QCOMPARE(*m.spillBytes, 24);
        QCOMPARE(*m.kernelTimeMs, 3.4);
        QCOMPARE(*m.launchesPerRun, 2.0);
        QCOMPARE(m.bound, QStringLiteral("compute"));
        QCOMPARE(m.rooflineKernels.size(), 2);
        QVERIFY(m.rooflineTask.has_value());
        QCOMPARE(*m.peakGbps, 4020.0);
        QVERIFY(m.hasHardwareMetrics());
        QCOMPARE(*m.dramBytes, 4e8 + 2 * 3e7);
        QVERIFY(m.solPct && *m.solPct > 0.9 && *m.solPct < 1.2); // 2.95 ms against a 0.0334 ms floor
        QCOMPARE(*m.theoreticalOccupancyPct, 50.0);

        spec.metrics = false;
        const VariantMeasurement without = VariantMeasurement::fromResult(workerResult(spec));
        QVERIFY(!without.hasHardwareMetrics());
        QVERIFY2(without.metricsProblem.contains(QLatin1String("performance counters"))
                     && without.metricsProblem.contains(QLatin1String("NVreg_RestrictProfilingToAdminUsers")),
                 qPrintable(without.metricsProblem));
        QVERIFY(!without.achievedOccupancyPct);
        QCOMPARE(without.kernels.size(), 2); // the trace is still there

        ResultSpec wrong;
        wrong.verdict = QStringLiteral("incorrect");
        wrong.message = QStringLiteral("unwritten output elements");
        const VariantMeasurement failed = VariantMeasurement::fromResult(workerResult(wrong));
        QCOMPARE(failed.metricsProblem, QStringLiteral("the candidate was not measured (incorrect: unwritten output elements)"));
        QCOMPARE(failed.timingProblem, failed.metricsProblem);
    }

    void panelShowsPair()
    {
        SessionFixture f;
        QVERIFY(f.create());
        f.measureReference();
        const qint64 fast = f.addMeasured(QStringLiteral("rowscale"), 42.0);
        ResultSpec naive;
        naive.speedup = 0.19;
        naive.metrics = false;
        naive.kernels = {KernelSpec{QStringLiteral("gemm_tiled(float const*, float const*, float*, long, long, long)"), 61300, 1,
                                    38, 8320, 0, 0},
                         KernelSpec{QStringLiteral("scatter_diagonal(float const*, float*, long)"), 6.1, 1, 16, 0, 0, 0}};
        const qint64 slow = f.addMeasured(QStringLiteral("naive"), naive);
        const qint64 pair = f.store().addPairAnalysis(PairAnalysis{0, fast, slow, QStringLiteral("Why is A faster than B?"), {}, 0, {}});
        QVERIFY(f.store().setPairAnswer(pair, QStringLiteral("A reads **B once**; the naive kernel runs a full GEMM."), 0));

        VariantSelection selection;
        ComparePanel panel(&f.store(), &selection, nullptr);
        QAbstractItemModelTester t1(panel.metricsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(panel.kernelsA(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(panel.kernelsB(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(panel.metricsModel()->rowCount(), 0);
        selection.setComparePair(slow, fast);
        QCOMPARE(panel.variantA(), slow);
        // The model is asked about the faster one, whichever is A.
        QCOMPARE(panel.askedPair(), std::make_pair(fast, slow));
        QCOMPARE(panel.askButton()->text(), QStringLiteral("Ask the model why #%1 is faster than #%2").arg(fast).arg(slow));
        QVERIFY(!panel.askButton()->isEnabled());
        QCOMPARE(panel.askWhy(), 0);
        QVERIFY(panel.statusText().contains(QLatin1String("no connection")));

        selection.setComparePair(fast, slow);
        const CompareMetricsModel &m = *panel.metricsModel();
        QCOMPARE(value(m, "time", CompareMetricsModel::A), QStringLiteral("0.281 ms"));
        QCOMPARE(value(m, "time", CompareMetricsModel::B), QStringLiteral("62.1 ms"));
        QCOMPARE(value(m, "time", CompareMetricsModel::Delta), QStringLiteral("221× faster"));
        QCOMPARE(verdict(m, "time"), 1);
        QCOMPARE(verdict(m, "speedup"), 1);
        QCOMPARE(value(m, "bound", CompareMetricsModel::A), QStringLiteral("memory"));
        QCOMPARE(value(m, "bound", CompareMetricsModel::B), QStringLiteral("—"));
        QCOMPARE(value(m, "occupancy", CompareMetricsModel::B), QStringLiteral("—"));
        QCOMPARE(value(m, "registers", CompareMetricsModel::B), QStringLiteral("38"));
        QVERIFY2(panel.noticeText().contains(
                     QLatin1String("B: no hardware metrics: The profiler needs access to the GPU performance counters.")),
                 qPrintable(panel.noticeText()));
        QVERIFY(panel.noticeText().contains(QLatin1String("A is memory-bound")));
        QCOMPARE(panel.kernelsA()->rowCount(), 1);
        QCOMPARE(panel.kernelsB()->rowCount(), 2);
        // The short name in the cell (kernelDisplayName, issue 18), the demangled one in its tooltip.
        QCOMPARE(panel.kernelsB()->index(0, KernelListModel::Name).data().toString(), QStringLiteral("gemm_tiled"));
        QVERIFY(panel.kernelsB()->index(0, KernelListModel::Name).data(Qt::ToolTipRole).toString().startsWith(
            QStringLiteral("gemm_tiled(float const*, float const*, float*, long, long, long)")));
        QCOMPARE(panel.kernelsB()->index(0, KernelListModel::Grid).data().toString(), QStringLiteral("4096×1×1"));
        QCOMPARE(panel.kernelsB()->index(0, KernelListModel::MsPerRun).data().toString(), QStringLiteral("61.3 ms"));
        QCOMPARE(panel.kernelsB()->index(0, KernelListModel::Registers).data().toInt(), 38);
        QVERIFY(panel.pairAnswersText().contains(QLatin1String("the naive kernel runs a full GEMM")));

        // A new evaluation of one side refreshes the panel.
        f.store().addEvaluation(Evaluation::fromResult(slow, workerResult(ResultSpec{}), h200Device()));
        QCOMPARE(value(*panel.metricsModel(), "speedup", CompareMetricsModel::B), QStringLiteral("1×"));

        panel.resize(1000, 760);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        f.store().addEvaluation(Evaluation::fromResult(slow, workerResult(naive), h200Device()));
        saveScreenshot(&panel, QStringLiteral("compare"));

        f.store().close();
        QCOMPARE(panel.metricsModel()->rowCount(), 0);
    }
};

QTEST_MAIN(TestComparePanel)
#include "tst_comparepanel.moc"
