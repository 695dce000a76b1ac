// End to end through the panels, as a user would: open a session of diag_matmul, start a round from the
// Round control panel against the loopback LLM server (ScriptedEvaluator behind RoundRunner), watch the
// reasoning stream, see the Variants table and the speedup chart fill in, pick the two best variants,
// compare them, ask the model why the faster one is faster, and read the answer, stored with the pair.
// Screenshots of every panel go to the test artefacts.
#include "roundharness.h"
#include "views/charts/chartspanel.h"
#include "views/charts/speedupchart.h"
#include "views/compare/comparemetricsmodel.h"
#include "views/compare/comparepanel.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/roundcontrol/roundprogressmodel.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsfiltermodel.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <QDockWidget>
#include <QItemSelectionModel>
#include <QMainWindow>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QTimer>

using namespace kforge;
using namespace kforge::test;

namespace {

const QString kWhy = compareAnswerText();

QDockWidget *dock(QMainWindow &w, QWidget *panel, const QString &title, Qt::DockWidgetArea area)
{
    auto *d = new QDockWidget(title, &w);
    d->setWidget(panel);
    w.addDockWidget(area, d);
    return d;
}

} // namespace

class TestPanelsEndToEnd : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void roundCompareAndAskThroughThePanels()
    {
        SessionFixture f;
        QVERIFY2(f.create(), qPrintable(f.store().errorString()));
        RoundHarness h(f);
        QString error;
        CandidateAnswer wrong;
        wrong.verdict = QStringLiteral("incorrect");
        CandidateAnswer noMetrics{4.2};
        noMetrics.metrics = false;
        QVERIFY2(h.serve({CandidateAnswer{3.1}, wrong, CandidateAnswer{8.4}, noMetrics}, kWhy, &error), qPrintable(error));

        QMainWindow window;
        VariantSelection selection;
        auto *variants = new VariantsPanel(&f.store(), &selection);
        auto *compare = new ComparePanel(&f.store(), &selection, h.runner.get());
        auto *charts = new ChartsPanel(&f.store(), &selection);
        auto *reasoning = new ReasoningPanel(&f.store(), &selection, h.runner.get());
        auto *control = new RoundControlPanel(&f.store(), h.runner.get(), h.settings.get());
        window.setCentralWidget(charts);
        dock(window, control, QStringLiteral("Round"), Qt::LeftDockWidgetArea);
        dock(window, reasoning, QStringLiteral("Reasoning"), Qt::RightDockWidgetArea);
        QDockWidget *variantsDock = dock(window, variants, QStringLiteral("Variants"), Qt::BottomDockWidgetArea);
        QDockWidget *compareDock = dock(window, compare, QStringLiteral("Compare"), Qt::BottomDockWidgetArea);
        window.tabifyDockWidget(variantsDock, compareDock);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // ---- a round from the Round control panel
        control->candidatesBox()->setValue(4);
        QSignalSpy finished(h.runner.get(), &RoundRunner::roundFinished);
        QSignalSpy started(h.runner.get(), &RoundRunner::requestStarted);
        // The scripted round is fast: an answer may stream in and the panel move on to the next one (a repair
        // has no "Performance analysis") between two looks, so the panel is watched all along.
        bool streamedIntoPanel = false;
        QTimer watch;
        connect(&watch, &QTimer::timeout, &watch,
                [&] { streamedIntoPanel |= reasoning->answerText().contains(QLatin1String("Performance analysis")); });
        watch.start(2);
        QVERIFY(control->startButton()->isEnabled());
        QTest::mouseClick(control->startButton(), Qt::LeftButton);
        // The reference is measured first, then the answers stream into the Reasoning panel.
        QTRY_VERIFY_WITH_TIMEOUT(started.size() >= 1, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(streamedIntoPanel, 15000);
        saveScreenshot(&window, QStringLiteral("e2e-streaming"));
        // The round may have finished already (QSignalSpy::wait() would wait for a second one).
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() >= 1, 60000);
        watch.stop();
        QCOMPARE(int(finished.at(0).at(1).value<RoundState>()), int(RoundState::Finished));
        QCOMPARE(control->progressModel()->finishedCount(), control->progressModel()->rowCount());
        QVERIFY(control->progressModel()->rowCount() >= 4); // four answers, plus any repair of the wrong one

        // ---- the table and the chart filled in
        const int expected = f.store().population().size();
        QVERIFY(expected >= 5);
        QCOMPARE(variants->model()->rowCount(), expected);
        int done = 0, failed = 0;
        for (const auto &v : f.store().population().variants()) {
            done += v.status == VariantStatus::Done;
            failed += v.status == VariantStatus::Failed;
        }
        QVERIFY(done >= 4 && failed >= 1);
        QTRY_COMPARE(charts->speedupChart()->correctCount(), done);
        QCOMPARE(charts->speedupChart()->failedCount(), failed);
        QCOMPARE(charts->speedupChart()->bestSoFar(), 8.4);

        // ---- pick the two best in the table and compare them
        variants->view()->sortByColumn(VariantsModel::Speedup, Qt::DescendingOrder);
        QTRY_COMPARE(variants->model()->pendingDetails(), 0);
        auto *proxy = variants->filterModel();
        const qint64 best = proxy->index(0, 0).data(VariantsModel::IdRole).toLongLong();
        const qint64 second = proxy->index(1, 0).data(VariantsModel::IdRole).toLongLong();
        QCOMPARE(*f.store().population().find(best)->eval.speedup, 8.4);
        QCOMPARE(*f.store().population().find(second)->eval.speedup, 4.2);
        QItemSelection sel(proxy->index(0, 0), proxy->index(1, VariantsModel::ColumnCount - 1));
        variants->view()->selectionModel()->select(sel, QItemSelectionModel::ClearAndSelect);
        QVERIFY(variants->compareSelected());
        QCOMPARE(compare->variantA(), best);
        QCOMPARE(compare->variantB(), second);
        const CompareMetricsModel *m = compare->metricsModel();
        QCOMPARE(m->index(m->rowOf(QStringLiteral("speedup")), CompareMetricsModel::A).data().toString(),
                 QStringLiteral("8.40×"));
        QVERIFY(compare->noticeText().contains(QLatin1String("B: no hardware metrics")));
        compareDock->raise();

        // ---- ask why, watch it stream, read the stored answer
        QSignalSpy answered(h.runner.get(), &RoundRunner::pairAnswered);
        QVERIFY(compare->askButton()->isEnabled());
        QTest::mouseClick(compare->askButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(answered.size() >= 1, 30000);
        const QList<PairAnalysis> pairs = f.store().analyses().pairAnalyses(best, second);
        QCOMPARE(pairs.size(), 1);
        QVERIFY(pairs.constFirst().answer.contains(QLatin1String("16-byte")));
        QVERIFY(pairs.constFirst().responseId != 0);
        QTRY_VERIFY(reasoning->answerText().contains(QLatin1String("Vector width")));
        QVERIFY(reasoning->headerText().contains(QStringLiteral("Why #%1 beats #%2").arg(best).arg(second)));
        QVERIFY(compare->pairAnswersText().contains(QLatin1String("Index math")));
        QVERIFY(compare->statusText().contains(QLatin1String("stored with the pair")));
        saveScreenshot(&window, QStringLiteral("e2e-workbench"));
        saveScreenshot(reasoning, QStringLiteral("e2e-reasoning"));
        saveScreenshot(compare, QStringLiteral("e2e-compare"));
        saveScreenshot(control, QStringLiteral("e2e-roundcontrol"));
        charts->tabs()->setCurrentIndex(2); // the roofline of the two compared variants
        saveScreenshot(charts, QStringLiteral("e2e-roofline"));
        charts->tabs()->setCurrentIndex(0);
        saveScreenshot(charts, QStringLiteral("e2e-charts"));
        variantsDock->raise();
        saveScreenshot(variants, QStringLiteral("e2e-variants"));

        // Choosing the faster variant afterwards shows the answer that produced it.
        selection.setCurrent(best);
        QCOMPARE(reasoning->shownVariant(), best);
        QVERIFY(reasoning->answerText().contains(QLatin1String("Expected: about 8.4x")));
    }
};

QTEST_MAIN(TestPanelsEndToEnd)
#include "tst_panels_e2e.moc"
