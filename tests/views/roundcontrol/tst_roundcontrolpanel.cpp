// The Round control panel: empty states that say what is missing, a round started from the panel against
// the loopback LLM server with progress per candidate and per round, tokens and cost, prompt preview, and
// the prompt held for review, edited and sent exactly as edited; pause and stop.
#include "roundharness.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/roundcontrol/roundprogressmodel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace kforge;
using namespace kforge::test;

class TestRoundControlPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void emptyStatesSayWhatIsMissing()
    {
        QTemporaryDir dir;
        Settings settings(dir.filePath(QStringLiteral("k.ini")));
        settings.setWorkers({});
        SessionStore store;
        LlmClient llm;
        ScriptedEvaluator evaluator(&scriptedResult);
        RoundRunner runner(&store, &llm, &evaluator);
        RoundControlPanel panel(&store, &runner, &settings);
        const QString notice = panel.noticeText();
        QVERIFY2(notice.contains(QStringLiteral("No GPU worker configured — Settings → Workers")), qPrintable(notice));
        QVERIFY(notice.contains(QStringLiteral("No endpoint configured — Settings → Models")));
        QVERIFY(notice.contains(QLatin1String("No session is open")));
        QVERIFY(!panel.startButton()->isEnabled());
        QSignalSpy settingsRequested(&panel, &RoundControlPanel::settingsRequested);
        auto *label = panel.findChild<QLabel *>(QStringLiteral("notice"));
        QVERIFY(label);
        Q_EMIT label->linkActivated(QStringLiteral("workers"));
        QCOMPARE(settingsRequested.size(), 1);
        QCOMPARE(settingsRequested.at(0).at(0).toString(), QStringLiteral("workers"));
        panel.resize(820, 640);
        saveScreenshot(&panel, QStringLiteral("roundcontrol-empty"));

        // Configured: the notices go and Start is offered once a session is open.
        EndpointConfig e;
        e.id = QStringLiteral("local");
        e.baseUrl = QStringLiteral("http://127.0.0.1:9/v1");
        e.defaultModel = QStringLiteral("m1");
        settings.setEndpoints({e});
        settings.setWorkers(Settings::Defaults::workers());
        QVERIFY(panel.noticeText().contains(QLatin1String("No session is open")));
        QVERIFY(!panel.noticeText().contains(QLatin1String("Workers")));
        QCOMPARE(panel.modelBox()->currentText(), QStringLiteral("m1"));
        SessionFixture f;
        QVERIFY(f.create());
        RoundRunner runner2(&f.store(), &llm, &evaluator);
        RoundControlPanel ready(&f.store(), &runner2, &settings);
        QVERIFY(ready.noticeText().isEmpty());
        QVERIFY(ready.startButton()->isEnabled());
    }

    void noticeFollowsThePaletteAfterATheme()
    {
        // Switching to the dark theme at run time (Settings → General) must not leave the notice box light: its
        // style sheet's palette(alternate-base) is resolved when it is polished, so the panel polishes it again.
        QTemporaryDir dir;
        Settings settings(dir.filePath(QStringLiteral("k.ini")));
        settings.setWorkers({});
        SessionStore store;
        LlmClient llm;
        ScriptedEvaluator evaluator(&scriptedResult);
        RoundRunner runner(&store, &llm, &evaluator);
        RoundControlPanel panel(&store, &runner, &settings);
        panel.resize(820, 640);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *label = panel.findChild<QLabel *>(QStringLiteral("notice"));
        QVERIFY(label && label->isVisible());
        const QPalette light = QApplication::palette();
        QPalette dark = light;
        for (const auto role : {QPalette::Window, QPalette::Base, QPalette::AlternateBase, QPalette::Button})
            dark.setColor(role, QColor(0x2b, 0x2b, 0x2b));
        for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
            dark.setColor(role, QColor(0xe0, 0xe0, 0xe0));
        QApplication::setPalette(dark);
        QApplication::processEvents();
        const QImage shot = label->grab().toImage();
        const QColor inside = shot.pixelColor(shot.width() / 2, 2); // padding, above the text
        QApplication::setPalette(light);
        QVERIFY2(inside.lightness() < 100, qPrintable(inside.name()));
    }

    void runsARoundFromThePanel()
    {
        SessionFixture f;
        QVERIFY(f.create());
        RoundHarness h(f);
        QString error;
        CandidateAnswer wrong;
        wrong.verdict = QStringLiteral("incorrect");
        QVERIFY2(h.serve({CandidateAnswer{2.5}, wrong, CandidateAnswer{6.0}}, QStringLiteral("unused"), &error),
                 qPrintable(error));
        RoundControlPanel panel(&f.store(), h.runner.get(), h.settings.get());
        QAbstractItemModelTester tester(panel.progressModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.resize(900, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(panel.endpointBox()->currentText(), QStringLiteral("Loopback replay"));
        QCOMPARE(panel.modelBox()->currentText(), QStringLiteral("replay-model"));
        panel.candidatesBox()->setValue(3);
        panel.repairsBox()->setValue(0);
        panel.hintEdit()->setPlainText(QStringLiteral("Try float4 loads."));

        QSignalSpy finished(h.runner.get(), &RoundRunner::roundFinished);
        QTest::mouseClick(panel.startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(h.runner->isRunning(), 5000);
        QCOMPARE(h.settings->candidatesPerRound(), 3); // what a round starts with becomes the default
        QVERIFY(!panel.startButton()->isEnabled());
        QVERIFY(panel.stopButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(panel.progressModel()->rowCount() == 3, 15000);
        QVERIFY(finished.wait(30000));
        QCOMPARE(int(finished.at(0).at(1).value<RoundState>()), int(RoundState::Finished));

        RoundProgressModel *progress = panel.progressModel();
        QCOMPARE(progress->finishedCount(), 3);
        QStringList stages;
        for (int r = 0; r < progress->rowCount(); ++r)
            stages << progress->index(r, RoundProgressModel::Stage).data().toString();
        QCOMPARE(stages.count(QStringLiteral("done")), 2);
        QCOMPARE(stages.filter(QStringLiteral("failed: ")).size(), 1);
        QVERIFY(panel.statusText().startsWith(QLatin1String("Round 1 finished")));
        QVERIFY2(panel.usageText().contains(QLatin1String("(3 requests)")), qPrintable(panel.usageText()));
        QVERIFY(panel.startButton()->isEnabled());
        QVERIFY(!panel.stopButton()->isEnabled());
        // The round ran with what the panel said.
        const auto round = f.store().rounds().find(finished.at(0).at(0).toLongLong());
        QVERIFY(round);
        const RoundSettings used = RoundSettings::fromJson(round->settings);
        QCOMPARE(used.candidates, 3);
        QCOMPARE(used.hint, QStringLiteral("Try float4 loads."));
        QCOMPARE(used.model, QStringLiteral("replay-model"));
        QCOMPARE(used.endpoint, QStringLiteral("loopback"));
        QVERIFY(f.store().exchanges().prompts(round->id).constFirst().rendered.contains(QLatin1String("Try float4 loads.")));
        saveScreenshot(&panel, QStringLiteral("roundcontrol"));
    }

    void reviewEditsThePromptBeforeItIsSent()
    {
        SessionFixture f;
        QVERIFY(f.create());
        RoundHarness h(f);
        QString error;
        QVERIFY(h.serve({CandidateAnswer{2.0}}, QStringLiteral("unused"), &error));
        RoundControlPanel panel(&f.store(), h.runner.get(), h.settings.get());
        panel.resize(900, 700);
        QVERIFY(panel.previewPrompt());
        QVERIFY(panel.promptEdit()->isReadOnly());
        QVERIFY(panel.promptEdit()->toPlainText().contains(QLatin1String("diag")));

        panel.candidatesBox()->setValue(1);
        panel.reviewBox()->setChecked(true);
        QSignalSpy ready(h.runner.get(), &RoundRunner::promptReady);
        panel.start();
        QVERIFY(ready.wait(15000));
        QVERIFY(!panel.promptEdit()->isReadOnly());
        QCOMPARE(panel.promptEdit()->toPlainText(), ready.at(0).at(1).toString());
        panel.promptEdit()->appendPlainText(QStringLiteral("\nEDITED: keep 256 threads per block."));
        saveScreenshot(&panel, QStringLiteral("roundcontrol-review"));
        QSignalSpy finished(h.runner.get(), &RoundRunner::roundFinished);
        auto *send = panel.findChild<QPushButton *>(QStringLiteral("send"));
        QVERIFY(send && send->isVisibleTo(&panel));
        send->click();
        QVERIFY(finished.wait(30000));
        const QList<PromptRecord> prompts = f.store().exchanges().prompts(finished.at(0).at(0).toLongLong());
        QVERIFY(prompts.constFirst().rendered.endsWith(QLatin1String("EDITED: keep 256 threads per block.")));
        QVERIFY(panel.promptEdit()->isReadOnly());
    }

    void pauseAndStop()
    {
        SessionFixture f;
        QVERIFY(f.create());
        RoundHarness h(f, 400);
        QString error;
        QVERIFY(h.serve({CandidateAnswer{2.0}, CandidateAnswer{3.0}}, QStringLiteral("unused"), &error, 60));
        RoundControlPanel panel(&f.store(), h.runner.get(), h.settings.get());
        panel.candidatesBox()->setValue(2);
        panel.start();
        QTRY_VERIFY_WITH_TIMEOUT(h.runner->state() == RoundRunner::State::Streaming, 15000);
        panel.pauseOrResume();
        QCOMPARE(h.runner->state(), RoundRunner::State::Paused);
        QCOMPARE(panel.pauseButton()->text(), QStringLiteral("Resume"));
        panel.pauseOrResume();
        QVERIFY(h.runner->state() != RoundRunner::State::Paused);
        QCOMPARE(panel.pauseButton()->text(), QStringLiteral("Pause"));
        QSignalSpy finished(h.runner.get(), &RoundRunner::roundFinished);
        QTest::mouseClick(panel.stopButton(), Qt::LeftButton);
        QVERIFY(finished.size() == 1 || finished.wait(15000));
        QCOMPARE(int(finished.at(0).at(1).value<RoundState>()), int(RoundState::Stopped));
        QVERIFY(panel.statusText().contains(QLatin1String("stopped")));
    }

    // With more correct variants than exemplar slots, each candidate draws its own exemplars: the progress list
    // says which ones each saw, choosing a candidate shows the prompt it received, and review offers every
    // candidate's prompt for editing.
    void showsTheExemplarsEachCandidateSaw()
    {
        SessionFixture f;
        QVERIFY(f.create());
        RoundHarness h(f);
        QString error;
        QList<CandidateAnswer> answers{CandidateAnswer{2.5}, CandidateAnswer{6.0}, CandidateAnswer{3.0}};
        for (int i = 0; i < 6; ++i)
            answers << CandidateAnswer{2.0};
        QVERIFY2(h.serve(answers, QStringLiteral("unused"), &error), qPrintable(error));
        RoundControlPanel panel(&f.store(), h.runner.get(), h.settings.get());
        QAbstractItemModelTester tester(panel.progressModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.resize(1000, 760);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.candidatesBox()->setValue(3);
        panel.exemplarsBox()->setValue(2);
        panel.repairsBox()->setValue(0);
        QCOMPARE(panel.exemplarModeBox()->currentData().toInt(), int(ExemplarMode::Auto));
        QSignalSpy finished(h.runner.get(), &RoundRunner::roundFinished);

        // Round 1 has only the reference to show: one prompt for all three.
        panel.start();
        QVERIFY(finished.wait(30000));
        RoundProgressModel *progress = panel.progressModel();
        const qint64 ref = f.store().population().reference()->id;
        for (int r = 0; r < 3; ++r)
            QVERIFY(
                progress->index(r, RoundProgressModel::Exemplars).data().toString().startsWith(QStringLiteral("#%1 (1").arg(ref)));
        const Variant *best = f.store().population().bestCorrect();
        QVERIFY(best && qAbs(*best->eval.speedup - 6.0) < 1e-6);
        const qint64 bestId = best->id;

        // Round 2: four correct variants for two slots, so each candidate draws, the best always in.
        panel.start();
        QVERIFY(finished.wait(30000));
        QCOMPARE(progress->rowCount(), 3);
        QCOMPARE(progress->headerData(RoundProgressModel::Exemplars, Qt::Horizontal).toString(),
                 QStringLiteral("Exemplars"));
        QSet<QString> shown;
        for (int r = 0; r < 3; ++r) {
            const QString text = progress->index(r, RoundProgressModel::Exemplars).data().toString();
            QVERIFY2(text.contains(QStringLiteral("#%1 (6").arg(bestId)), qPrintable(text));
            const auto ids = progress->index(r, 0).data(RoundProgressModel::ExemplarIdsRole).value<QList<qint64>>();
            QCOMPARE(ids.size(), 2);
            const qint64 variant = progress->index(r, 0).data(RoundProgressModel::VariantIdRole).toLongLong();
            QCOMPARE(f.store().population().find(variant)->parentIds, ids);
            shown.insert(text);
        }
        QCOMPARE(shown.size(), 3);
        saveScreenshot(&panel, QStringLiteral("roundcontrol-exemplars"));

        // Choosing a candidate shows the prompt it received.
        panel.progressView()->selectRow(1);
        const auto prompt = f.store().exchanges().prompt(
            progress->index(1, 0).data(RoundProgressModel::PromptIdRole).toLongLong());
        QVERIFY(prompt);
        QCOMPARE(panel.promptEdit()->toPlainText(), prompt->rendered);
        QVERIFY(panel.promptEdit()->isReadOnly());
        panel.progressView()->selectRow(2);
        QVERIFY(panel.promptEdit()->toPlainText() != prompt->rendered);

        // The preview shows one prompt per candidate too.
        QVERIFY(panel.previewPrompt());
        QVERIFY(panel.promptChoiceBox()->isVisibleTo(&panel));
        QCOMPARE(panel.promptChoiceBox()->count(), 3);
        QVERIFY(panel.promptChoiceBox()->itemText(0).contains(QStringLiteral("#%1").arg(bestId)));

        // Review: every candidate's prompt can be read and edited; each is sent as edited.
        panel.reviewBox()->setChecked(true);
        QSignalSpy ready(h.runner.get(), &RoundRunner::promptReady);
        panel.start();
        QVERIFY(ready.wait(15000));
        QCOMPARE(panel.promptChoiceBox()->count(), 3);
        QVERIFY(!panel.promptEdit()->isReadOnly());
        panel.promptChoiceBox()->setCurrentIndex(1);
        QCOMPARE(panel.promptEdit()->toPlainText(), h.runner->candidatePrompts().prompts().at(1).text);
        panel.promptEdit()->appendPlainText(QStringLiteral("EDITED FOR CANDIDATE 2"));
        panel.promptChoiceBox()->setCurrentIndex(0);
        panel.promptChoiceBox()->setCurrentIndex(1);
        QVERIFY(panel.promptEdit()->toPlainText().endsWith(QLatin1String("EDITED FOR CANDIDATE 2"))); // kept
        saveScreenshot(&panel, QStringLiteral("roundcontrol-review-per-candidate"));
        panel.sendPrompt();
        QVERIFY(finished.wait(30000));
        const QList<PromptRecord> sent = f.store().exchanges().prompts(finished.last().at(0).toLongLong());
        QCOMPARE(sent.size(), 3);
        QVERIFY(!sent[0].rendered.contains(QLatin1String("EDITED")));
        QVERIFY(sent[1].rendered.endsWith(QLatin1String("EDITED FOR CANDIDATE 2")));
        QVERIFY(!sent[2].rendered.contains(QLatin1String("EDITED")));
    }
};

QTEST_MAIN(TestRoundControlPanel)
#include "tst_roundcontrolpanel.moc"
