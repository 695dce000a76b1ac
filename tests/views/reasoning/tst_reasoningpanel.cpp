// The Reasoning panel: stored answers open from the selection with their analysis and design as Markdown,
// the reasoning text collapsible, the exact prompt viewable; a live round streams into it with throttled
// re-rendering; <think> blocks go to the reasoning section.
#include "roundharness.h"
#include "views/reasoning/reasoningentriesmodel.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/variants/variantselection.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDialog>
#include <QFile>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace kforge;
using namespace kforge::test;

namespace {

// A model variant with its prompt and raw answer stored, as a finished round leaves it.
qint64 storedModelVariant(SessionFixture &f, const QString &raw, const QString &reasoning, qint64 *promptId = nullptr)
{
    PromptRecord p;
    p.kind = QStringLiteral("contrastive");
    p.templateName = QStringLiteral("contrastive");
    p.rendered = QStringLiteral("You are optimizing diag(A) @ B.\nExemplar 1: reference, 11.8 ms.\nWrite a faster kernel.");
    p.exemplarIds = {f.reference()};
    const qint64 prompt = f.store().exchanges().addPrompt(p);
    ResponseRecord r;
    r.promptId = prompt;
    r.rawText = raw;
    r.reasoningText = reasoning;
    r.parseStatus = QStringLiteral("ok");
    r.finishStatus = QStringLiteral("stop");
    r.model = QStringLiteral("replay-model");
    const qint64 response = f.store().exchanges().addResponse(r);
    Variant v;
    v.origin = VariantOrigin::Model;
    v.promptId = prompt;
    v.responseId = response;
    v.parentIds = {f.reference()};
    v.label = QStringLiteral("R1.1");
    const qint64 id = f.store().variants().add(v, {QStringLiteral("// code"),
                                                   QStringLiteral("B is read **once**: 2577 GB/s."),
                                                   QStringLiteral("- `float4` loads\n- one block per row")});
    if (promptId)
        *promptId = prompt;
    return id;
}

} // namespace

class TestReasoningPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void showsStoredAnswerOfSelectedVariant()
    {
        SessionFixture f;
        QVERIFY(f.create());
        f.measureReference();
        const QString raw = answerText(CandidateAnswer{}, 1);
        const qint64 id = storedModelVariant(f, raw, QStringLiteral("Thinking about bandwidth first."));
        VariantSelection selection;
        ReasoningPanel panel(&f.store(), &selection, nullptr);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        selection.setCurrent(id);
        QCOMPARE(panel.shownVariant(), id);
        QVERIFY(!panel.followsLive()); // the user chose a variant
        // The parsed analysis and design, rendered from Markdown (no markup left).
        QVERIFY2(panel.answerText().contains(QLatin1String("B is read once: 2577 GB/s.")), qPrintable(panel.answerText()));
        QVERIFY(panel.answerText().contains(QLatin1String("Design")));
        QVERIFY(!panel.answerText().contains(QLatin1String("KF_ENTRY")));
        QVERIFY(!panel.isReasoningExpanded());
        QCOMPARE(panel.reasoningText(), QStringLiteral("Thinking about bandwidth first."));
        panel.setReasoningExpanded(true);
        QVERIFY(panel.isReasoningExpanded());
        QVERIFY(panel.headerText().contains(QStringLiteral("variant #%1").arg(id)));
        QVERIFY(panel.promptText().startsWith(QLatin1String("You are optimizing diag(A) @ B.")));
        QDialog *dialog = panel.showPrompt();
        QVERIFY(dialog);
        QCOMPARE(dialog->findChild<QPlainTextEdit *>()->toPlainText(), panel.promptText());
        dialog->close();
        QCOMPARE(panel.model()->rowCount(), 1);

        // The reference has no model text.
        selection.setCurrent(f.reference());
        QVERIFY(panel.answerText().contains(QLatin1String("not written by the model")));
        QVERIFY(panel.promptText().isEmpty());
        QCOMPARE(panel.model()->rowCount(), 1);

        selection.setCurrent(id);
        panel.resize(760, 620);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        saveScreenshot(&panel, QStringLiteral("reasoning-stored"));
    }

    void thinkBlocksGoToTheReasoningSection()
    {
        SessionFixture f;
        QVERIFY(f.create());
        qint64 prompt = 0;
        storedModelVariant(f, QStringLiteral("x"), QString(), &prompt);
        ResponseRecord r;
        r.promptId = prompt;
        r.rawText = QStringLiteral("<think>Compare DRAM bytes first.</think>\n\nA is faster because it reads **B** once.");
        r.finishStatus = QStringLiteral("stop");
        const qint64 response = f.store().exchanges().addResponse(r);
        ReasoningPanel panel(&f.store(), nullptr, nullptr);
        QVERIFY(panel.showResponse(response));
        QCOMPARE(panel.answerText().trimmed(), QStringLiteral("A is faster because it reads B once."));
        QCOMPARE(panel.reasoningText(), QStringLiteral("Compare DRAM bytes first."));
        QVERIFY(!panel.showResponse(987654));
    }

    void streamsALiveRound()
    {
        SessionFixture f;
        QVERIFY(f.create());
        RoundHarness h(f);
        QString error;
        QVERIFY2(h.serve({CandidateAnswer{3.0}, CandidateAnswer{5.0}}, QStringLiteral("unused"), &error, 25),
                 qPrintable(error));
        VariantSelection selection;
        ReasoningPanel panel(&f.store(), &selection, h.runner.get());
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.resize(760, 620);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        LlmRequest request;
        request.endpoint = h.settings->endpoints().constFirst();
        h.runner->setRequestTemplate(request);
        RoundSettings s;
        s.candidates = 2;
        s.maxConcurrent = 1; // one answer at a time: the panel follows each
        s.repairAttempts = 0;
        QSignalSpy deltas(h.runner.get(), &RoundRunner::textDelta);
        QSignalSpy finished(h.runner.get(), &RoundRunner::roundFinished);
        QVERIFY2(h.runner->start(s), qPrintable(h.runner->errorString()));
        // While it streams: partial text is shown, re-rendered far less often than deltas arrive.
        QTRY_VERIFY_WITH_TIMEOUT(panel.shownResponse() != 0 && panel.answerText().contains(QLatin1String("Candidate 1")),
                                 20000);
        const int rendersBefore = panel.renderCount();
        QVERIFY(
            panel.model()->index(panel.model()->rowOf(panel.shownResponse()), 0).data(ReasoningEntriesModel::LiveRole).toBool());
        saveScreenshot(&panel, QStringLiteral("reasoning-streaming"));
        QVERIFY(finished.wait(30000));
        QCOMPARE(int(finished.at(0).at(1).value<RoundState>()), int(RoundState::Finished));
        QVERIFY2(panel.renderCount() - rendersBefore < deltas.size() / 3,
                 qPrintable(
                     QStringLiteral("%1 renders for %2 deltas").arg(panel.renderCount() - rendersBefore).arg(deltas.size())));
        QCOMPARE(panel.model()->rowCount(), 2);
        // Following live moved on to the second answer; once parsed, its analysis and design are shown.
        QTRY_VERIFY(panel.shownVariant() != 0);
        QVERIFY(panel.answerText().contains(QLatin1String("Candidate 2")));
        QVERIFY(panel.reasoningText().contains(QLatin1String("Candidate 2 thinks")));
        QVERIFY2(panel.headerText().contains(QStringLiteral("Round 1 · answer 2")), qPrintable(panel.headerText()));
        QVERIFY(panel.promptText().contains(QLatin1String("diag")));
        saveScreenshot(&panel, QStringLiteral("reasoning"));
    }

    // Issue 37: the list holds every answer of the session, not only those already looked at.
    void listsEveryAnswerOfAStoredSession()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("gui.kforge"));
        QVERIFY(QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge"), file));
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        SessionStore store;
        VariantSelection selection;
        ReasoningPanel panel(&store, &selection, nullptr);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(store.open(file));
        // Looked at before the history is in: that answer is listed once, in its place.
        QVERIFY(panel.showResponse(5));
        QTRY_COMPARE(panel.model()->rowCount(), 7);
        QStringList rows;
        for (int r = 0; r < panel.model()->rowCount(); ++r)
            rows << panel.model()->index(r, 0).data().toString();
        QCOMPARE(rows.join(u'\n'), QStringLiteral("Round 1 · answer 1 — 2,579 characters\n"
                                                  "Round 1 · answer 2 — 1,137 characters\n"
                                                  "Round 1 · answer 3 — 861 characters\n"
                                                  "Round 2 · answer 1 — 2,309 characters\n"
                                                  "Round 2 · answer 2 — 1,338 characters\n"
                                                  "Round 2 · answer 3 — 2,740 characters\n"
                                                  "Why #6 beats #8 — 1,056 characters"));
        QCOMPARE(panel.shownResponse(), qint64(5));
        auto *combo = panel.findChild<QComboBox *>();
        QVERIFY(combo);
        QCOMPARE(combo->currentIndex(), 4);
        // A listed answer's text is read when it is chosen, with the variant it made.
        const auto *listed = panel.model()->entry(0);
        QVERIFY(listed && !listed->loaded && listed->text.isEmpty());
        QVERIFY(panel.showResponse(1));
        QCOMPARE(panel.shownVariant(), qint64(6));
        QVERIFY(panel.model()->entry(0)->loaded);
        QVERIFY2(panel.headerText().contains(QStringLiteral("Round 1 · answer 1")), qPrintable(panel.headerText()));
        QVERIFY(!panel.answerText().isEmpty());
        QVERIFY(panel.showResponse(7));
        QVERIFY2(panel.headerText().startsWith(QLatin1String("Why #6 beats #8")), qPrintable(panel.headerText()));
        QCOMPARE(panel.model()->rowCount(), 7);
        // Another session: its answers only.
        store.close();
        QCOMPARE(panel.model()->rowCount(), 0);
    }
};

QTEST_MAIN(TestReasoningPanel)
#include "tst_reasoningpanel.moc"
