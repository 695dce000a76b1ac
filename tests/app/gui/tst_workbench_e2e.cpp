// End to end through the real main window, as a user would: open the diag_matmul task folder (a working
// session is made), run two rounds from the Round Control dock against the loopback LLM server (real
// LlmClient, RoundRunner and session file; ScriptedEvaluator behind the runner, the one allowed fake, since
// CI has no GPU), watch the reasoning stream, see the Variants table and the speedup chart fill in, pick the
// two best variants in the table, compare them (Compare and Diff docks), open the best one in the editor,
// ask the model why the faster one is faster and read the answer, stored with the pair. Screenshots of the
// window and of each dock go to the test artefacts.
#include "app/gui/mainwindow.h"
#include "core/log/loghub.h"
#include "core/optimizer/roundrunner.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/workbench/workbench.h"
#include "core/workerpool/scriptedevaluator.h"
#include "panelfixture.h"
#include "replayserver.h"
#include "roundharness.h"
#include "views/charts/chartspanel.h"
#include "views/charts/speedupchart.h"
#include "views/compare/comparemetricsmodel.h"
#include "views/compare/comparepanel.h"
#include "views/diff/diffview.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/varianttabbinding.h"
#include "views/reasoning/reasoningentriesmodel.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/roundcontrol/roundhistorymodel.h"
#include "views/roundcontrol/roundprogressmodel.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsfiltermodel.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <QComboBox>
#include <QDockWidget>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMap>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace kforge::test;

namespace {

const QString kWhy = compareAnswerText();

QString exampleTask()
{
    return QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/diag_matmul");
}

void shoot(QWidget *w, const QString &name)
{
    QDir().mkpath(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/workbench"));
    QVERIFY(w->grab().save(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/workbench/%1.png").arg(name)));
}

} // namespace

class TestWorkbenchEndToEnd : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void twoRoundsCompareAndAskInTheMainWindow()
    {
        // The loopback endpoint: round 1 (a fast kernel, a wrong one, a slower one), round 2 (the best, one
        // without metrics, one more), then the answer to "why".
        ReplayServer server;
        QVERIFY(server.listen());
        CandidateAnswer wrong{1.0, QStringLiteral("incorrect")};
        CandidateAnswer noMetrics{4.2};
        noMetrics.metrics = false;
        const QList<CandidateAnswer> answers{CandidateAnswer{3.1}, wrong,     CandidateAnswer{2.2},
                                             CandidateAnswer{8.4}, noMetrics, CandidateAnswer{1.7}};
        server.addScenario(QStringLiteral("round"), roundScenario(answers, kWhy, 10));

        QTemporaryDir dir;
        Settings settings(dir.filePath(QStringLiteral("kforge.ini")));
        settings.setEndpoints({loopbackEndpoint(server.baseUrl(QStringLiteral("round")))});
        // A worker is configured (as a user would), but the runner evaluates through the scripted fake.
        WorkerConfig worker;
        worker.name = QStringLiteral("scripted GPU");
        worker.command = QStringLiteral("true");
        settings.setWorkers({worker});

        ScriptedEvaluator evaluator(&scriptedResult);
        evaluator.setDelayMs(30);
        LogHub log;
        MainWindow w(settings, log, nullptr, &evaluator);
        w.resize(1700, 1050);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));

        // ---- open the task folder: a working session, its reference in the editor and the table
        QSignalSpy opened(&w, &MainWindow::taskOpened);
        w.openTaskFolder(exampleTask());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        SessionStore *store = w.session();
        QVERIFY(store->isOpen());
        QCOMPARE(w.editor()->title(0), QStringLiteral("reference"));

        RoundControlPanel *control = w.roundControlPanel();
        ReasoningPanel *reasoning = w.reasoningPanel();
        VariantsPanel *variants = w.variantsPanel();
        ChartsPanel *charts = w.chartsPanel();
        ComparePanel *compare = w.comparePanel();
        RoundRunner *runner = w.workbench()->runner();
        QCOMPARE(control->endpointBox()->currentText(), QStringLiteral("Loopback replay"));
        control->candidatesBox()->setValue(3);
        control->repairsBox()->setValue(0);

        // ---- two rounds from the Round Control dock; while an answer streams, the Reasoning dock shows it
        QVERIFY(reasoning->followsLive());
        int round = 0;
        QMap<int, bool> streamedLive;
        connect(runner, &RoundRunner::textDelta, this, [&] {
            if (streamedLive.value(round) || !runner->isRunning())
                return;
            reasoning->renderNow();
            if (reasoning->answerText().contains(QLatin1String("Performance analysis"))) {
                streamedLive[round] = true;
                if (round == 1)
                    shoot(&w, QStringLiteral("window-streaming"));
            }
        });
        for (round = 1; round <= 2; ++round) {
            QSignalSpy finished(runner, &RoundRunner::roundFinished);
            QTRY_VERIFY_WITH_TIMEOUT(control->startButton()->isEnabled(), 10000);
            QTest::mouseClick(control->startButton(), Qt::LeftButton);
            // The answers stream into the Reasoning dock while the round runs.
            QVERIFY(finished.wait(60000));
            QVERIFY2(streamedLive[round],
                     qPrintable(QStringLiteral("round %1: the Reasoning dock showed no streaming answer").arg(round)));
            QCOMPARE(int(finished.at(0).at(1).value<RoundState>()), int(RoundState::Finished));
            QCOMPARE(control->progressModel()->finishedCount(), 3);
            if (round == 1) {
                // The user looks at an answer of round 1 (Reasoning stops following); the next round they
                // start is followed live again.
                w.selection()->setCurrent(store->population().reference()->id);
                reasoning->setFollowLive(false);
            }
        }
        QCOMPARE(store->rounds().all().size(), 2);
        // The history follows: both rounds in Round Control, the last one's candidates shown, all six answers listed
        // in Reasoning.
        QTRY_COMPARE(control->roundsModel()->rowCount(), 2);
        QCOMPARE(control->progressModel()->round(), store->rounds().all().last().id);
        QCOMPARE(control->roundsView()->currentIndex().row(), 1);
        QTRY_COMPARE(reasoning->model()->rowCount(), 6);

        // ---- the table and the chart filled in: 6 answers on top of the reference and the task's variants
        int model = 0, done = 0, failed = 0;
        for (const Variant &v : store->population().variants()) {
            if (v.origin != VariantOrigin::Model)
                continue;
            ++model;
            done += v.status == VariantStatus::Done;
            failed += v.status == VariantStatus::Failed;
        }
        QCOMPARE(model, 6);
        QCOMPARE(done, 5);
        QCOMPARE(failed, 1);
        QCOMPARE(variants->model()->rowCount(), int(store->population().size()));
        QTRY_VERIFY(charts->speedupChart()->correctCount() >= done);
        QCOMPARE(charts->speedupChart()->failedCount(), failed);
        QCOMPARE(charts->speedupChart()->bestSoFar(), 8.4);
        shoot(&w, QStringLiteral("window-after-two-rounds"));

        // ---- pick the two best in the table, compare them: Compare and Diff show the pair
        variants->view()->sortByColumn(VariantsModel::Speedup, Qt::DescendingOrder);
        QTRY_COMPARE(variants->model()->pendingDetails(), 0);
        auto *proxy = variants->filterModel();
        const qint64 best = proxy->index(0, 0).data(VariantsModel::IdRole).toLongLong();
        const qint64 second = proxy->index(1, 0).data(VariantsModel::IdRole).toLongLong();
        QCOMPARE(*store->population().find(best)->eval.speedup, 8.4);
        QCOMPARE(*store->population().find(second)->eval.speedup, 4.2);
        variants->view()->selectionModel()->select(QItemSelection(proxy->index(0, 0),
                                                                  proxy->index(1, VariantsModel::ColumnCount - 1)),
                                                   QItemSelectionModel::ClearAndSelect);
        QVERIFY(variants->compareSelected());
        QCOMPARE(compare->variantA(), best);
        QCOMPARE(compare->variantB(), second);
        QVERIFY(w.dockOf(compare)->isVisible());
        const CompareMetricsModel *m = compare->metricsModel();
        QCOMPARE(m->index(m->rowOf(QStringLiteral("speedup")), CompareMetricsModel::A).data().toString(),
                 QStringLiteral("8.40×"));
        QVERIFY(!w.diffView()->model().identical());
        QStringList titles;
        for (const QLabel *l : w.diffView()->findChildren<QLabel *>())
            titles << l->text();
        QVERIFY2(titles.join(u' ').contains(QStringLiteral("#%1 ").arg(second))
                     && titles.join(u' ').contains(QStringLiteral("#%1 ").arg(best)),
                 qPrintable(titles.join(QStringLiteral(" | "))));

        // ---- the best in the editor: read-only, with its kernels' resources
        const int tab = w.tabs()->showVariant(best);
        QCOMPARE(w.editor()->variantId(tab), best);
        QVERIFY(w.editor()->isReadOnly(tab));
        QVERIFY(w.editor()->source(tab).contains(QLatin1String("rowscale_4")));
        QVERIFY2(w.editor()->status(tab).contains(QLatin1String("8.40")), qPrintable(w.editor()->status(tab)));

        // ---- ask why, watch it stream, read the stored answer
        QSignalSpy answered(runner, &RoundRunner::pairAnswered);
        QVERIFY(compare->askButton()->isEnabled());
        QTest::mouseClick(compare->askButton(), Qt::LeftButton);
        QVERIFY(answered.wait(30000));
        const QList<PairAnalysis> pairs = store->analyses().pairAnalyses(best, second);
        QCOMPARE(pairs.size(), 1);
        QVERIFY(pairs.constFirst().answer.contains(QLatin1String("16-byte")));
        QTRY_VERIFY(reasoning->answerText().contains(QLatin1String("Vector width")));
        QVERIFY(compare->pairAnswersText().contains(QLatin1String("Index math")));
        reasoning->renderNow();

        shoot(&w, QStringLiteral("window-why"));
        for (QDockWidget *d : w.findChildren<QDockWidget *>()) {
            d->show();
            d->raise();
            QTest::qWait(50);
            shoot(d->widget(), d->objectName());
        }
        shoot(w.editor(), QStringLiteral("editor"));
    }
};

QTEST_MAIN(TestWorkbenchEndToEnd)
#include "tst_workbench_e2e.moc"
