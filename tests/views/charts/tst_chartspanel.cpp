// The Charts panel: speedup by round (log scale, failures and suspicious results marked, best-so-far step),
// kernel time bars and the roofline from worker-shaped results; clicks select variants; rebuilds are
// throttled and skipped while hidden; export writes real PNG, SVG and PDF files.
#include "core/eval/deviceinfo.h"
#include "panelfixture.h"
#include "views/charts/chartspanel.h"
#include "views/charts/kerneltimechart.h"
#include "views/charts/rooflinechart.h"
#include "views/charts/speedupchart.h"
#include "views/variants/variantselection.h"

#include <QApplication>
#include <QFile>
#include <QLineF>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

using namespace kforge;
using namespace kforge::test;

namespace {

struct Plotted {
    qint64 r1a = 0, r1b = 0, r1fail = 0, r2a = 0, r2held = 0, r2meta = 0;
};

Plotted fill(SessionFixture &f)
{
    Plotted p;
    f.measureReference();
    const qint64 round1 = f.store().rounds().add({});
    const qint64 round2 = f.store().rounds().add({});
    p.r1a = f.addMeasured(QStringLiteral("r1a"), 3.0, {}, round1);
    p.r1b = f.addMeasured(QStringLiteral("r1b"), 0.6, {}, round1);
    ResultSpec wrong;
    wrong.verdict = QStringLiteral("incorrect");
    wrong.message = QStringLiteral("mismatch");
    p.r1fail = f.addMeasured(QStringLiteral("r1fail"), wrong, {}, round1);
    p.r2a = f.addMeasured(QStringLiteral("r2a"), 7.5, {p.r1a}, round2);
    p.r2held = f.addMeasured(QStringLiteral("r2held"), 40.0, {p.r1a}, round2); // over 10x: held for review
    ResultSpec noMetrics;
    noMetrics.speedup = 5.0;
    noMetrics.metrics = false;
    p.r2meta = f.addMeasured(QStringLiteral("r2 no metrics"), noMetrics, {p.r1a}, round2);
    return p;
}

// A session filled by fill() and a Charts panel over it, built in that order as the tests did by hand.
struct FilledCharts {
    SessionFixture f;
    bool created = f.create();
    Plotted p = created ? fill(f) : Plotted{};
    VariantSelection selection;
    ChartsPanel panel{&f.store(), &selection};

    bool show(QSize size)
    {
        panel.resize(size);
        panel.show();
        return QTest::qWaitForWindowExposed(&panel);
    }
};

DeviceInfo h200()
{
    return DeviceInfo::fromJson(h200Device());
}

} // namespace

class TestChartsPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void speedupChartPlotsEveryVariant()
    {
        SessionFixture f;
        QVERIFY(f.create());
        const Plotted p = fill(f);
        VariantSelection selection;
        SpeedupChart chart(&f.store(), &selection);
        chart.refreshNow();
        QCOMPARE(chart.correctCount(), 5); // reference, r1a, r1b, r2a, no-metrics
        QCOMPARE(chart.suspiciousCount(), 1);
        QCOMPARE(chart.failedCount(), 1);
        QCOMPARE(chart.bestSoFar(), 7.5); // the held result does not count until accepted
        QCOMPARE(chart.pointCount(), 7);
        QVERIFY(chart.yAxis->scaleType() == QCPAxis::stLogarithmic);
        // Failures sit below every measured speedup.
        QVERIFY(chart.pixelOf(p.r1fail).y() > chart.pixelOf(p.r1b).y());
        f.store().variants().setAccepted(p.r2held, true);
        chart.refreshNow();
        QCOMPARE(chart.suspiciousCount(), 0);
        QCOMPARE(chart.bestSoFar(), 40.0);
    }

    void clickSelectsVariant()
    {
        FilledCharts c;
        QVERIFY(c.created);
        QVERIFY(c.show({900, 560}));
        SpeedupChart *chart = c.panel.speedupChart();
        chart->refreshNow();
        chart->replot();
        QSignalSpy clicked(&c.panel, &ChartsPanel::variantClicked);
        const QPoint at = chart->pixelOf(c.p.r2a).toPoint();
        QVERIFY(chart->rect().contains(at));
        QCOMPARE(chart->variantAt(at + QPoint(2, -1)), c.p.r2a);
        QTest::mouseClick(chart, Qt::LeftButton, {}, at);
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.at(0).at(0).toLongLong(), c.p.r2a);
        QCOMPARE(c.selection.current(), c.p.r2a);
        // Ctrl adds to the selection.
        QTest::mouseClick(chart, Qt::LeftButton, Qt::ControlModifier, chart->pixelOf(c.p.r1a).toPoint());
        QCOMPARE(c.selection.selected(), (QList<qint64>{c.p.r2a, c.p.r1a}));
        // Nothing there: nothing changes.
        QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(3, 3));
        QCOMPARE(c.selection.selected().size(), 2);
        saveScreenshot(&c.panel, QStringLiteral("charts-speedup"));
    }

    void rebuildsAreThrottledAndSkippedWhileHidden()
    {
        SessionFixture f;
        QVERIFY(f.create());
        f.measureReference();
        VariantSelection selection;
        ChartsPanel panel(&f.store(), &selection);
        panel.resize(700, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        SpeedupChart *chart = panel.speedupChart();
        chart->setThrottleMs(80);
        QTRY_VERIFY(chart->rebuildCount() >= 1);
        const int before = chart->rebuildCount();
        const int hiddenBefore = panel.kernelTimeChart()->rebuildCount();
        for (int i = 0; i < 30; ++i)
            f.addMeasured(QStringLiteral("v%1").arg(i), 1.0 + i * 0.25);
        QTRY_COMPARE(chart->correctCount(), 31);
        QVERIFY2(chart->rebuildCount() - before <= 2, qPrintable(QString::number(chart->rebuildCount() - before)));
        // The kernel chart is on a hidden tab: it waited, and catches up when shown.
        QCOMPARE(panel.kernelTimeChart()->rebuildCount(), hiddenBefore);
        panel.tabs()->setCurrentWidget(panel.kernelTimeChart());
        QTRY_VERIFY(panel.kernelTimeChart()->rebuildCount() > hiddenBefore);
    }

    void kernelBarsAndRoofline()
    {
        FilledCharts c;
        QVERIFY(c.created);
        QVERIFY(c.show({900, 560}));

        KernelTimeChart *bars = c.panel.kernelTimeChart();
        c.panel.tabs()->setCurrentWidget(bars);
        bars->refreshNow();
        QCOMPARE(bars->barCount(), 0);
        c.selection.setSelected({c.f.reference(), c.p.r2a, c.p.r1fail});
        bars->refreshNow();
        QCOMPARE(bars->barCount(), 3); // the reference's two kernels and r2a's one; the failure has none
        // The axis names the time it shows and takes the unit its longest bar picks (core/eval/measureformat.h).
        QVERIFY2(bars->xAxis->label().startsWith(QStringLiteral("Kernel time (CUPTI) per run (")),
                 qPrintable(bars->xAxis->label()));
        bars->replot();
        QSignalSpy clicked(&c.panel, &ChartsPanel::variantClicked);
        QTest::mouseClick(bars, Qt::LeftButton, {}, bars->pixelOf(c.p.r2a).toPoint() - QPoint(3, 0));
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.at(0).at(0).toLongLong(), c.p.r2a);
        c.selection.setSelected({c.f.reference(), c.p.r2a, c.p.r1fail});
        bars->refreshNow();
        saveScreenshot(&c.panel, QStringLiteral("charts-kernels"));

        RooflineChart *roof = c.panel.rooflineChart();
        c.panel.tabs()->setCurrentWidget(roof);
        // Without a device the peaks come from the stored results.
        c.selection.setSelected({c.p.r2a, c.p.r2meta});
        roof->refreshNow();
        QVERIFY(roof->hasRoofs());
        QCOMPARE(roof->peakGbps(), 4020.0);
        QCOMPARE(roof->kernelPointCount(), 1); // r2a's kernel; the other has no metrics, only its task point
        QCOMPARE(roof->pointCount(), 3);
        DeviceInfo device = h200();
        device.peakCopyGbps = 4800;
        c.panel.setDevice(device);
        roof->refreshNow();
        QCOMPARE(roof->peakGbps(), 4800.0);
        // Nothing selected: the reference and the best so far.
        c.selection.setSelected({});
        roof->refreshNow();
        QVERIFY(roof->kernelPointCount() >= 2);
        saveScreenshot(&c.panel, QStringLiteral("charts-roofline"));
    }

    void rooflineOnTheH200Session()
    {
        // docs/h200-diag_matmul-gui.kforge: #6 and #8 put their kernels within 2% of each other.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("h200.kforge"));
        QVERIFY(QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge"), file));
        QFile(file).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        SessionStore store;
        QVERIFY2(store.open(file), qPrintable(store.errorString()));
        VariantSelection selection;
        ChartsPanel panel(&store, &selection);
        panel.resize(1000, 620);
        RooflineChart *roof = panel.rooflineChart();
        panel.tabs()->setCurrentWidget(roof);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));

        // The roofs say they were measured on this GPU, with the figures.
        selection.setSelected({6, 8}, 6);
        roof->refreshNow();
        roof->replot();
        QCOMPARE(roof->roofLabels(), (QStringList{QStringLiteral("measured: 4219 GB/s"),
                                                  QStringLiteral("FP32 roof, measured on NVIDIA H200: 62.9 TFLOP/s")}));
        // The selected variants' points carry labels.
        const QStringList labels = roof->pointLabels();
        for (const QString &l : {QStringLiteral("#6 rowscale4"), QStringLiteral("#8 row_per_block"),
                                 QStringLiteral("#6 task"), QStringLiteral("#8 task")})
            QVERIFY2(labels.contains(l), qPrintable(labels.join(QStringLiteral(" | "))));
        // Every point is drawn where it was measured; the coincident ones are told apart by rings around the
        // spot and by labels spread around it (issue 37, item 8: they used to be moved by about 25% sideways).
        QCOMPARE(roof->drawnPixels().size(), 4);
        QCOMPARE(roof->drawnPixels(), roof->measuredPixels());
        auto closest = [](const QList<QPointF> &px) {
            double d = 1e9;
            for (int i = 0; i < px.size(); ++i)
                for (int j = i + 1; j < px.size(); ++j)
                    d = std::min(d, QLineF(px[i], px[j]).length());
            return d;
        };
        QVERIFY2(closest(roof->measuredPixels()) < 7.0, "the H200 session's #6 and #8 kernels share a spot");
        QVERIFY(roof->ringCount() >= 1);
        QCOMPARE(roof->labelPixels().size(), 4);
        QVERIFY2(closest(roof->labelPixels()) >= 14.0, qPrintable(QString::number(closest(roof->labelPixels()))));
        // Hovering names every point under the cursor with its figures.
        const QPointF six = roof->pixelOf(6);
        const QString tip = roof->toolTipAt(six.toPoint());
        QVERIFY2(tip.contains(QLatin1String("#6 R1.1, kernel rowscale4(float const*, float4 const*, float4*, long, long): "
                                            "0.127 FLOP/byte, 494 GFLOP/s")),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QLatin1String("of the roof above it, memory-bound")), qPrintable(tip));
        QVERIFY(roof->toolTipAt(QPoint(2, 2)).isEmpty());
        saveScreenshot(&panel, QStringLiteral("charts-roofline-h200"));

        // Zoom with the wheel: the points stay where they were measured at the new scale, and a rebuild keeps
        // the view.
        const QCPRange before = roof->xAxis->range();
        const QPointF centre = roof->axisRect()->rect().center();
        QWheelEvent wheel(centre, roof->mapToGlobal(centre), QPoint(), QPoint(0, 480), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(roof, &wheel);
        QVERIFY(roof->isZoomed());
        QVERIFY(roof->xAxis->range().size() < before.size());
        roof->replot();
        QCOMPARE(roof->drawnPixels(), roof->measuredPixels());
        const QCPRange zoomed = roof->xAxis->range();
        roof->refreshNow();
        QCOMPARE(roof->xAxis->range().lower, zoomed.lower);
        // A drag pans.
        QTest::mousePress(roof, Qt::LeftButton, {}, QPoint(int(centre.x()), int(centre.y())));
        QMouseEvent drag(QEvent::MouseMove, QPointF(centre.x() + 80, centre.y()),
                         roof->mapToGlobal(QPointF(centre.x() + 80, centre.y())), Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QApplication::sendEvent(roof, &drag);
        QTest::mouseRelease(roof, Qt::LeftButton, {}, QPoint(int(centre.x() + 80), int(centre.y())));
        QVERIFY(roof->xAxis->range().lower < zoomed.lower);
        // A double-click fits the view again.
        QTest::mouseDClick(roof, Qt::LeftButton, {}, QPoint(5, 5));
        QVERIFY(!roof->isZoomed());
        QCOMPARE(roof->xAxis->range().lower, before.lower);

        // Nothing selected: the reference and the best; no labels, and hovering names a point.
        selection.setSelected({});
        roof->refreshNow();
        roof->replot();
        QVERIFY(roof->pointLabels().isEmpty());
        const QPointF best = roof->pixelOf(6);
        QMouseEvent hover(QEvent::MouseMove, best, roof->mapToGlobal(best), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(roof, &hover);
        QCOMPARE(roof->pointLabels().size(), 1);
        QVERIFY2(roof->pointLabels().first().startsWith(QLatin1String("#6 ")), qPrintable(roof->pointLabels().join(u' ')));
        saveScreenshot(&panel, QStringLiteral("charts-roofline-h200-hover"));
    }

    void exportsPngSvgPdf_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("png") << QStringLiteral("png") << QByteArray("\x89PNG");
        QTest::newRow("svg") << QStringLiteral("svg") << QByteArray("<?xml");
        QTest::newRow("pdf") << QStringLiteral("pdf") << QByteArray("%PDF");
    }

    void exportsPngSvgPdf()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, magic);
        FilledCharts c;
        QVERIFY(c.created);
        c.panel.resize(800, 500);
        const QString path = QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/panels/speedup.") + suffix;
        QFile::remove(path);
        QString error;
        QVERIFY2(c.panel.exportCurrent(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray data = file.readAll();
        QVERIFY2(data.startsWith(magic), data.left(16).constData());
        QVERIFY(data.size() > 1000);
        if (suffix == QLatin1String("svg"))
            QVERIFY(data.contains("<svg"));
    }

    void exportRejectsUnknownFormats()
    {
        SessionStore store;
        VariantSelection selection;
        ChartsPanel panel(&store, &selection);
        QString error;
        QVERIFY(!panel.exportCurrent(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/panels/chart.bmpx"), &error));
        QVERIFY(error.contains(QLatin1String("bmpx")));
    }
};

QTEST_MAIN(TestChartsPanel)
#include "tst_chartspanel.moc"
