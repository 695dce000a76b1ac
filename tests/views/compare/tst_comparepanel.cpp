// The Compare panel: two stored, worker-shaped results side by side with deltas and the verdict of each row,
// the bound of each, their kernel lists, the model's analyses, the stored answers about the pair, and a clear
// reason wherever a measurement is missing.
#include "panelfixture.h"
#include "views/compare/comparemetricsmodel.h"
#include "views/compare/comparepanel.h"
#include "views/compare/kernellistmodel.h"
#include "views/compare/timeratio.h"
#include "views/variants/variantselection.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
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

MeasurementFigures timed(double median, std::optional<double> p10, std::optional<double> p90, std::optional<double> cv)
{
    MeasurementFigures m;
    m.medianMs = median;
    m.p10Ms = p10;
    m.p90Ms = p90;
    m.cv = cv;
    return m;
}

// A copy of a real H200 session of the repository (a session file is locked while open, and tests must not
// write into docs/).
QString copyOfDocsSession(const QTemporaryDir &dir, const char *name)
{
    const QString to = dir.filePath(QLatin1String(name));
    QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/") + QLatin1String(name), to);
    QFile(to).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return to;
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
        MeasurementFigures a, b;
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

    void timeRatio_data()
    {
        QTest::addColumn<MeasurementFigures>("a");
        QTest::addColumn<MeasurementFigures>("b");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<bool>("noise");
        QTest::addColumn<int>("basis");
        // #6 and #8 of docs/h200-diag_matmul-gui.kforge: 2.7% apart, bands overlap.
        QTest::newRow("H200 #6 vs #8") << timed(0.041408, 0.040896, 0.042656, 0.0173)
                                       << timed(0.042544, 0.041856, 0.0437024, 0.0236) << 0.041408 / 0.042544
                                       << 0.040896 / 0.0437024 << 0.042656 / 0.041856 << true << 0;
        // #6 and #9: 10% apart, bands apart.
        QTest::newRow("H200 #6 vs #9") << timed(0.041408, 0.040896, 0.042656, 0.0173)
                                       << timed(0.046, 0.04512, 0.047296, 0.0202) << 0.041408 / 0.046
                                       << 0.040896 / 0.047296 << 0.042656 / 0.04512 << false << 0;
        // No percentiles: an 80% band from the CVs (1.2816 sigma in log space).
        const double half = 1.2816 * std::sqrt(0.05 * 0.05 + 0.05 * 0.05);
        QTest::newRow("cv, within") << timed(1.0, {}, {}, 0.05) << timed(1.05, {}, {}, 0.05) << 1 / 1.05
                                    << std::exp(-half) / 1.05 << std::exp(half) / 1.05 << true << 1;
        QTest::newRow("cv, real") << timed(1.0, {}, {}, 0.01) << timed(1.2, {}, {}, 0.01) << 1 / 1.2
                                  << std::exp(-1.2816 * std::sqrt(2e-4)) / 1.2
                                  << std::exp(1.2816 * std::sqrt(2e-4)) / 1.2 << false << 1;
        QTest::newRow("no spread at all")
            << timed(2.0, {}, {}, {}) << timed(1.0, {}, {}, {}) << 2.0 << 2.0 << 2.0 << false << 1;
    }

    void timeRatio()
    {
        QFETCH(MeasurementFigures, a);
        QFETCH(MeasurementFigures, b);
        QFETCH(double, ratio);
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(bool, noise);
        QFETCH(int, basis);
        const std::optional<TimeRatio> r = kforge::timeRatio(a, b);
        QVERIFY(r);
        QVERIFY2(std::abs(r->ratio - ratio) < 1e-9, qPrintable(QString::number(r->ratio)));
        QVERIFY2(std::abs(r->low - low) < 1e-9, qPrintable(QString::number(r->low)));
        QVERIFY2(std::abs(r->high - high) < 1e-9, qPrintable(QString::number(r->high)));
        QCOMPARE(r->withinNoise(), noise);
        QCOMPARE(int(r->basis), basis);
        QVERIFY(r->low <= r->ratio && r->ratio <= r->high);
        // The same figures the other way round: the interval turns over, the verdict stays.
        const std::optional<TimeRatio> back = kforge::timeRatio(b, a);
        QVERIFY(std::abs(back->ratio - 1 / ratio) < 1e-9);
        QCOMPARE(back->withinNoise(), noise);
    }

    void timeRatioNeedsTwoTimes()
    {
        QVERIFY(!kforge::timeRatio(timed(1.0, {}, {}, 0.01), MeasurementFigures()));
        QVERIFY(!kforge::timeRatio(MeasurementFigures(), timed(1.0, {}, {}, 0.01)));
    }

    void h200SessionSaysWhetherTheGapIsReal()
    {
        QTemporaryDir dir;
        SessionStore store;
        QVERIFY2(store.open(copyOfDocsSession(dir, "h200-diag_matmul-gui.kforge")), qPrintable(store.errorString()));
        VariantSelection selection;
        ComparePanel panel(&store, &selection, nullptr);
        QAbstractItemModelTester tester(panel.metricsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const CompareMetricsModel &m = *panel.metricsModel();

        // #6 (65.2x) against #8 (63.4x): 2.7% apart, inside each other's run-to-run spread.
        selection.setComparePair(6, 8);
        QVERIFY2(panel.headlineText().startsWith(
                     QStringLiteral("#6 and #8 take the same time within noise: 41.4 µs "
                                    "against 42.5 µs; the 80% interval of the ratio, 0.981× to 1.07×, holds 1.")),
                 qPrintable(panel.headlineText()));
        QCOMPARE(value(m, "time", CompareMetricsModel::Delta), QStringLiteral("1.03× faster, within noise"));
        QVERIFY(m.index(m.rowOf(QStringLiteral("time")), CompareMetricsModel::Delta)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("within noise")));
        // The spread of each time, with its runs.
        QCOMPARE(value(m, "time_band", CompareMetricsModel::A), QStringLiteral("40.9–42.7 µs"));
        QCOMPARE(value(m, "cv", CompareMetricsModel::A), QStringLiteral("1.73%"));
        QCOMPARE(value(m, "runs", CompareMetricsModel::A), QStringLiteral("355"));
        QCOMPARE(value(m, "runs", CompareMetricsModel::B), QStringLiteral("354"));
        // It leads with what differs most: the time first, then the rows by how much they differ.
        QCOMPARE(m.index(0, CompareMetricsModel::Metric).data(CompareMetricsModel::KeyRole).toString(),
                 QStringLiteral("time"));
        const QList<int> largest = m.largestDifferences(3);
        QVERIFY(!largest.isEmpty());
        double previous = 1e9;
        for (int row : largest) {
            const double d = m.index(row, 0).data(CompareMetricsModel::DifferenceRole).toDouble();
            QVERIFY(d > 0 && d <= previous);
            previous = d;
            QVERIFY(m.index(row, 0).data(Qt::FontRole).value<QFont>().bold());
            QVERIFY2(panel.headlineText().contains(m.index(row, CompareMetricsModel::Metric).data().toString()),
                     qPrintable(panel.headlineText()));
        }
        for (const char *mirror : {"time", "speedup", "sol", "bandwidth", "gflops", "kernel_time"})
            QVERIFY2(!largest.contains(m.rowOf(QLatin1String(mirror))), mirror);
        QVERIFY(panel.headlineText().contains(QLatin1String("What differs most: ")));
        // One unit per row: both sides of every amount read in the same unit.
        const QRegularExpression unit(QStringLiteral("([^0-9.,\\s]*)$")); // the trailing unit: ms, %, KiB, GB/s, ×
        for (int row = 0; row < m.rowCount(); ++row) {
            const QString a = m.index(row, CompareMetricsModel::A).data().toString();
            const QString b = m.index(row, CompareMetricsModel::B).data().toString();
            if (a == u"—" || b == u"—" || m.index(row, 0).data(CompareMetricsModel::KeyRole).toString() == u"bound")
                continue;
            QCOMPARE(unit.match(a).captured(1), unit.match(b).captured(1));
        }
        QCOMPARE(panel.noticeText().split(QLatin1Char('\n')).value(0), QStringLiteral("Both are memory-bound."));
        panel.resize(1280, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        saveScreenshot(&panel, QStringLiteral("compare-h200-within-noise"));

        // #6 against #9 (58.7x): 10% apart and the bands do not meet.
        selection.setComparePair(6, 9);
        QVERIFY2(panel.headlineText().startsWith(
                     QStringLiteral("#6 is 1.11× faster than #9 (41.4 µs against 46.0 µs); the "
                                    "80% interval of the ratio is 1.06× to 1.16×, so the gap is real.")),
                 qPrintable(panel.headlineText()));
        QCOMPARE(value(m, "time", CompareMetricsModel::Delta), QStringLiteral("1.11× faster"));
        // Swapped, the same verdict from B's side.
        selection.setComparePair(9, 6);
        QVERIFY2(panel.headlineText().startsWith(QStringLiteral("#6 is 1.11× faster than #9")),
                 qPrintable(panel.headlineText()));
        QCOMPARE(value(m, "time", CompareMetricsModel::Delta), QStringLiteral("1.11× slower"));
        saveScreenshot(&panel, QStringLiteral("compare-h200-real-gap"));

        // A failed variant has no time: the headline says so instead of guessing.
        selection.setComparePair(6, 4);
        QCOMPARE(panel.headlineText().section(QLatin1Char('\n'), 0, 0),
                 QStringLiteral("The times cannot be compared: both variants need a measured time."));
    }

    void measurementReadsWorkerResults()
    {
        ResultSpec spec;
        spec.speedup = 4.0;
        spec.kernels = {KernelSpec{QStringLiteral("void gemm_tiled<32>(float const*, float const*, float*, long)"),
                                   2500, 1, 72, 8192, 2e9, 4e8},
                        KernelSpec{QStringLiteral("scatter(float*)"), 450, 2, 16, 0, 1e6, 3e7}};
        spec.spillBytes = 24;
        const MeasurementFigures m = MeasurementFigures::fromResult(workerResult(spec), h200Device());
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
        const auto solPct = m.speedOfLight.percent();
        QVERIFY(solPct && *solPct > 0.9 && *solPct < 1.2); // 2.95 ms against a 0.0334 ms floor
        QCOMPARE(*m.theoreticalOccupancyPct, 50.0);

        spec.metrics = false;
        const MeasurementFigures without = MeasurementFigures::fromResult(workerResult(spec));
        QVERIFY(!without.hasHardwareMetrics());
        QVERIFY2(without.metricsProblem.contains(QLatin1String("performance counters"))
                     && without.metricsProblem.contains(QLatin1String("NVreg_RestrictProfilingToAdminUsers")),
                 qPrintable(without.metricsProblem));
        QVERIFY(!without.achievedOccupancyPct);
        QCOMPARE(without.kernels.size(), 2); // the trace is still there

        ResultSpec wrong;
        wrong.verdict = QStringLiteral("incorrect");
        wrong.message = QStringLiteral("unwritten output elements");
        const MeasurementFigures failed = MeasurementFigures::fromResult(workerResult(wrong));
        QCOMPARE(failed.metricsProblem,
                 QStringLiteral("the candidate was not measured (incorrect: unwritten output elements)"));
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
        naive.kernels = {KernelSpec{QStringLiteral("gemm_tiled(float const*, float const*, float*, long, long, long)"),
                                    61300, 1, 38, 8320, 0, 0},
                         KernelSpec{QStringLiteral("scatter_diagonal(float const*, float*, long)"), 6.1, 1, 16, 0, 0, 0}};
        const qint64 slow = f.addMeasured(QStringLiteral("naive"), naive);
        const qint64 pair = f.store().analyses().addPairAnalysis(
            PairAnalysis{0, fast, slow, QStringLiteral("Why is A faster than B?"), {}, 0, {}});
        QVERIFY(f.store().analyses().setPairAnswer(
            pair, QStringLiteral("A reads **B once**; the naive kernel runs a full GEMM."), 0));

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
        // The two times by the names of the report and the exports; both sides of a row in the larger one's unit.
        QCOMPARE(value(m, "time", CompareMetricsModel::Metric), QStringLiteral("Event time (median)"));
        QCOMPARE(value(m, "kernel_time", CompareMetricsModel::Metric), QStringLiteral("Kernel time (CUPTI)"));
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
        QVERIFY(panel.kernelsB()
                    ->index(0, KernelListModel::Name)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("gemm_tiled(float const*, float const*, float*, long, long, long)")));
        QCOMPARE(panel.kernelsB()->index(0, KernelListModel::Grid).data().toString(), QStringLiteral("4096×1×1"));
        QCOMPARE(panel.kernelsB()->index(0, KernelListModel::MsPerRun).data().toString(), QStringLiteral("61.3 ms"));
        QCOMPARE(panel.kernelsB()->index(0, KernelListModel::Registers).data().toInt(), 38);
        QVERIFY(panel.pairAnswersText().contains(QLatin1String("the naive kernel runs a full GEMM")));

        // A new evaluation of one side refreshes the panel.
        f.store().evaluations().add(Evaluation::fromResult(slow, workerResult(ResultSpec{}), h200Device()));
        QCOMPARE(value(*panel.metricsModel(), "speedup", CompareMetricsModel::B), QStringLiteral("1×"));

        panel.resize(1000, 760);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        f.store().evaluations().add(Evaluation::fromResult(slow, workerResult(naive), h200Device()));
        saveScreenshot(&panel, QStringLiteral("compare"));

        f.store().close();
        QCOMPARE(panel.metricsModel()->rowCount(), 0);
    }

    // Issue 37: the session's stored answers about pairs are offered, with or without a pair chosen.
    void offersStoredAnalyses()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("gui.kforge"));
        QVERIFY(QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge"), file));
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        SessionStore store;
        VariantSelection selection;
        ComparePanel panel(&store, &selection, nullptr);
        panel.resize(700, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(!panel.storedBox()->isVisible());
        QVERIFY(store.open(file));
        QTRY_COMPARE(panel.storedBox()->count(), 1);
        QVERIFY(panel.storedBox()->isVisible());
        QCOMPARE(panel.storedBox()->itemText(0), QStringLiteral("Why #6 beats #8 · answers: 1"));
        QCOMPARE(panel.variantA(), qint64(0)); // nothing chosen yet: the empty page says where to look
        panel.showStored(0);
        QCOMPARE(selection.comparePair(), std::make_pair(qint64(6), qint64(8)));
        QCOMPARE(panel.variantA(), qint64(6));
        QCOMPARE(panel.variantB(), qint64(8));
        QVERIFY2(panel.pairAnswersText().contains(QLatin1String("#6 against #8")), qPrintable(panel.pairAnswersText()));
        QVERIFY(panel.pairAnswersText().size() > 500);
        saveScreenshot(&panel, QStringLiteral("compare-stored"));
        store.close();
        QVERIFY(!panel.storedBox()->isVisibleTo(&panel));
    }
};

QTEST_MAIN(TestComparePanel)
#include "tst_comparepanel.moc"
