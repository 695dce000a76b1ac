// Full rounds against a real HTTP server on loopback (the LLM tests' ReplayServer replaying answers as
// OpenAI streams), the real LlmClient and SessionStore, and the one allowed fake, ScriptedEvaluator, which
// answers by markers in the candidate's source: a fast correct kernel, a wrong one and one that does not
// compile must each land in the session as what they are.
#include "core/llm/endpointpresets.h"
#include "core/llm/llmclient.h"
#include "core/optimizer/roundrunner.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/workerpool/scriptedevaluator.h"
#include "replayserver.h"
#include "roundanswers.h"
#include "scriptedresults.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using kforge::test::kRoundFixtures;
using kforge::test::ReplayResponse;
using kforge::test::ReplayScenario;
using kforge::test::ReplayServer;
using kforge::test::roundAnswer;
using kforge::test::scriptedCorrect;
using kforge::test::scriptedTiming;

namespace {

// An answer as an OpenAI Chat Completions stream: content in small deltas, a stop, usage, [DONE].
QByteArray openAiStream(const QString &text, int promptTokens = 1500, int completionTokens = 700)
{
    QByteArray out;
    auto event = [&](const QJsonObject &o) {
        out += "data: " + QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n\n";
    };
    auto chunk = [&](const QJsonObject &delta, const QJsonValue &finish) {
        event({{QStringLiteral("id"), QStringLiteral("chatcmpl-test")},
               {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
               {QStringLiteral("model"), QStringLiteral("test-model")},
               {QStringLiteral("choices"), QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                                  {QStringLiteral("delta"), delta},
                                                                  {QStringLiteral("finish_reason"), finish}}}}});
    };
    chunk({{QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), QString()}}, QJsonValue::Null);
    for (qsizetype i = 0; i < text.size(); i += 48)
        chunk({{QStringLiteral("content"), text.mid(i, 48)}}, QJsonValue::Null);
    chunk({}, QStringLiteral("stop"));
    event({{QStringLiteral("id"), QStringLiteral("chatcmpl-test")},
           {QStringLiteral("choices"), QJsonArray()},
           {QStringLiteral("usage"), QJsonObject{{QStringLiteral("prompt_tokens"), promptTokens},
                                                 {QStringLiteral("completion_tokens"), completionTokens},
                                                 {QStringLiteral("total_tokens"), promptTokens + completionTokens}}}});
    out += "data: [DONE]\n\n";
    return out;
}

ReplayScenario scenario(const QStringList &answers, int delayMs = 1)
{
    ReplayScenario s;
    for (const QString &a : answers) {
        ReplayResponse r;
        r.body = openAiStream(roundAnswer(a));
        r.chunkBytes = 400;
        r.delayMs = delayMs;
        s.responses << r;
    }
    return s;
}

// Deterministic verdicts from markers in the source; never a measurement (ScriptedEvaluator flags it so).
EvalResult script(const EvalRequest &req)
{
    const QString s = req.candidateSource;
    const auto correct = scriptedCorrect;
    if (s.contains(QLatin1String("FAST_ROWSCALE")))
        return correct(11.84, 11.84 / 35.0);
    if (s.contains(QLatin1String("REPAIRED_ROWSCALE")) || s.contains(QLatin1String("MANUAL_OK")))
        return correct(11.84, 11.84 / 3.0);
    if (s.contains(QLatin1String("WRONG_RESULT"))) {
        EvalResult r = EvalResult::failure(Verdict::Incorrect,
                                           QStringLiteral("output C differs in 16773120 of 16777216 elements"));
        r.verification.trials = 1;
        r.verification.mismatches = 16773120;
        r.verification.maxAbsErr = 4.5;
        r.verification.maxRelErr = 1.0;
        r.verification.firstMismatch = {QStringLiteral("C"), 4096, 0.5, -1.25};
        return r;
    }
    if (s.contains(QLatin1String("BROKEN")))
        return EvalResult::failure(Verdict::CompileError, QStringLiteral("candidate.cu(8): error: expected a \";\""));
    if (s.contains(QLatin1String("cublasSgemm")))
        return correct(11.84, 11.84);
    return EvalResult::failure(Verdict::Error, QStringLiteral("unexpected source in the test"));
}

struct Rig {
    QTemporaryDir dir;
    ReplayServer server;
    SessionStore store;
    std::unique_ptr<LlmClient> llmClient = std::make_unique<LlmClient>();
    LlmClient &llm = *llmClient;
    ScriptedEvaluator evaluator{script};
    std::unique_ptr<RoundRunner> runner;

    ~Rig()
    {
        runner.reset();
        llmClient.reset();
        // Let the server see its clients go before it is destroyed: ReplayServer's destructor does not
        // cope with connections that close while it aborts them.
        QTest::qWait(200);
    }

    bool setUp(const QString &scenarioName, const ReplayScenario &s)
    {
        server.addScenario(scenarioName, s);
        if (!server.listen())
            return false;
        if (!store.create(dir.filePath(QStringLiteral("round.kforge")), kRoundFixtures + QLatin1String("task_diag")))
            return false;
        evaluator.setDelayMs(20);
        runner = std::make_unique<RoundRunner>(&store, &llm, &evaluator);
        LlmRequest t;
        t.endpoint = EndpointPresets::forUrl(server.baseUrl(scenarioName), LlmProtocol::OpenAi);
        t.model = QStringLiteral("test-model");
        t.endpoint.limits.maxAttempts = 1;
        runner->setRequestTemplate(t);
        return true;
    }

    // Runs a round to its end; the final state.
    RoundState run(const RoundSettings &settings, int timeoutMs = 30000)
    {
        QSignalSpy finished(runner.get(), &RoundRunner::roundFinished);
        if (!runner->start(settings))
            qFatal("start: %s", qPrintable(runner->errorString()));
        if (!finished.wait(timeoutMs))
            qFatal("the round did not finish");
        return finished.first().at(1).value<RoundState>();
    }

    // A measured, correct variant added by hand (as a population a few rounds old would hold).
    qint64 addMeasured(const QString &marker, double speedup)
    {
        Variant v;
        v.origin = VariantOrigin::Manual;
        v.label = marker;
        const qint64 id = store.variants().add(v, {QStringLiteral("// %1\n").arg(marker), {}, {}});
        EvalResult r;
        r.verdict = Verdict::Correct;
        r.reference = scriptedTiming(11.84);
        r.candidate = scriptedTiming(11.84 / speedup);
        r.speedup = speedup;
        r.verification.trials = 5;
        store.evaluations().add(Evaluation::fromResult(id, r.toJson()));
        return id;
    }

    const Variant *byMarker(const QString &marker)
    {
        for (const auto &v : store.population().variants())
            if (store.variants().source(v.id).contains(marker))
                return store.population().find(v.id);
        return nullptr;
    }
};

} // namespace

class TstRoundRunner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void fullRoundLandsEveryOutcome()
    {
        Rig rig;
        QVERIFY(rig.setUp(QStringLiteral("round"),
                          scenario({QStringLiteral("fast"), QStringLiteral("wrong"), QStringLiteral("broken"),
                                    QStringLiteral("repaired"), QStringLiteral("broken_again")})));
        QSignalSpy deltas(rig.runner.get(), &RoundRunner::textDelta);
        QSignalSpy states(rig.runner.get(), &RoundRunner::stateChanged);
        QSignalSpy added(&rig.store, &SessionStore::variantAdded);
        RoundSettings s;
        s.candidates = 3;
        s.repairAttempts = 1;
        s.profileNewBest = true;
        QCOMPARE(toString(rig.run(s)), toString(RoundState::Finished));
        QCOMPARE(rig.runner->outcome(), RoundRunner::Outcome::Finished);
        QVERIFY(deltas.count() > 10); // streamed, not delivered at once

        const SessionStore &st = rig.store;
        const Variant *ref = st.population().reference();
        QVERIFY(ref->isCorrect()); // measured first, to show the model
        QCOMPARE(*ref->eval.speedup, 1.0);

        // The fast, correct kernel: measured, and over 10x, so held for review and not an exemplar yet.
        const Variant *fast = rig.byMarker(QStringLiteral("FAST_ROWSCALE"));
        QVERIFY(fast);
        QCOMPARE(toString(fast->status), QStringLiteral("done"));
        QCOMPARE(fast->eval.verdictName(), QStringLiteral("correct"));
        QVERIFY(qAbs(*fast->eval.speedup - 35.0) < 1e-9);
        QVERIFY(fast->suspicious && !fast->usableAsExemplar());
        QCOMPARE(toString(fast->origin), QStringLiteral("model"));
        QCOMPARE(fast->parentIds, QList<qint64>{ref->id}); // the exemplar it was shown
        QVERIFY(st.variants().texts(fast->id).analysis.contains(QLatin1String("11.84 ms")));
        QVERIFY(st.variants().texts(fast->id).design.contains(QLatin1String("float4")));
        QVERIFY(
            st.evaluations().latest(fast->id)->result.value(QLatin1String("flags")).toArray().contains(QStringLiteral("scripted")));

        // The wrong kernel: failed verification, with the reason, and one repair attempt.
        const Variant *wrong = rig.byMarker(QStringLiteral("WRONG_RESULT"));
        QVERIFY(wrong);
        QCOMPARE(toString(wrong->status), QStringLiteral("failed"));
        QCOMPARE(wrong->eval.verdictName(), QStringLiteral("incorrect"));
        QVERIFY(wrong->statusMessage.contains(QLatin1String("differs")));

        // The broken kernel: a compile error, stored as an evaluation, and one repair attempt.
        const Variant *broken = rig.byMarker(QStringLiteral("BROKEN_SYNTAX"));
        QVERIFY(broken);
        QCOMPARE(toString(broken->status), QStringLiteral("failed"));
        QCOMPARE(broken->eval.verdictName(), QStringLiteral("compile_error"));

        // Repairs: one per failure, each the child of what it repairs, no repair of a repair.
        QList<const Variant *> repairs;
        for (const auto &v : st.population().variants())
            if (v.tags.contains(QLatin1String("repair")))
                repairs << &v;
        QCOMPARE(repairs.size(), 2);
        QSet<qint64> repaired;
        for (const Variant *r : repairs) {
            QCOMPARE(r->parentIds.size(), 1);
            repaired.insert(r->parentIds.first());
        }
        QCOMPARE(repaired, (QSet<qint64>{wrong->id, broken->id}));

        // The round's new best usable variant is measured once more with the source-level pass, and nothing
        // else is: rounds run without it (EvalOptions::sourceProfile off by default; RoundSettings::profileNewBest on here).
        const Variant *best = st.population().bestCorrect();
        QVERIFY(best && best->origin != VariantOrigin::Reference);
        const auto profiled = [&] {
            QStringList sources;
            for (const EvalRequest &r : rig.evaluator.submitted())
                if (r.options.sourceProfile)
                    sources << r.candidateSource;
            return sources;
        };
        QTRY_COMPARE(profiled().size(), 1);
        QCOMPARE(profiled().first(), st.variants().source(best->id));
        const Variant *fixed = rig.byMarker(QStringLiteral("REPAIRED_ROWSCALE"));
        const Variant *again = rig.byMarker(QStringLiteral("BROKEN_AGAIN"));
        QVERIFY(fixed && again);
        QVERIFY(fixed->isCorrect() && fixed->usableAsExemplar());
        QCOMPARE(again->eval.verdictName(), QStringLiteral("compile_error"));
        QVERIFY(st.population().children(again->id).isEmpty());
        QCOMPARE(added.count(), 5);

        // Prompts and responses, usage.
        const RoundRecord round = st.rounds().all().last();
        QCOMPARE(round.usage.requests, 5);
        QCOMPARE(round.usage.promptTokens, 5 * 1500);
        QCOMPARE(round.usage.completionTokens, 5 * 700);
        const QList<PromptRecord> prompts = st.exchanges().prompts(round.id);
        QCOMPARE(prompts.size(), 3);
        QCOMPARE(prompts[0].kind, QStringLiteral("contrastive"));
        QCOMPARE(prompts[0].exemplarIds, QList<qint64>{ref->id});
        QVERIFY(prompts[0].rendered.contains(QLatin1String("Variant A (the reference): 1.00x the reference")));
        QCOMPARE(st.exchanges().responses(prompts[0].id).size(), 3);
        for (const auto &r : st.exchanges().responses(prompts[0].id)) {
            QCOMPARE(r.finishStatus, QStringLiteral("complete"));
            QCOMPARE(r.parseStatus, QStringLiteral("ok"));
            QCOMPARE(r.model, QStringLiteral("test-model"));
            QVERIFY(r.rawText.contains(QLatin1String("KF_ENTRY")));
        }
        QStringList repairPrompts;
        for (int i = 1; i < 3; ++i) {
            QCOMPARE(prompts[i].kind, QStringLiteral("repair"));
            repairPrompts << prompts[i].rendered;
        }
        const QString all = repairPrompts.join(QLatin1Char('\n'));
        QVERIFY(all.contains(QLatin1String("It does not compile")) && all.contains(QLatin1String("expected a \";\"")));
        QVERIFY(all.contains(QLatin1String("It computes the wrong result"))
                && all.contains(QLatin1String("16773120 output elements differ")));
        // What the server received: the system prompt and the rendered prompt, the model asked for.
        QCOMPARE(rig.server.requests().size(), 5);
        const QJsonObject body = QJsonDocument::fromJson(rig.server.requests().first().body).object();
        QCOMPARE(body.value(QLatin1String("model")).toString(), QStringLiteral("test-model"));
        QVERIFY(
            QString::fromUtf8(rig.server.requests().first().body).contains(QLatin1String("expert CUDA performance engineer")));
        // The state machine went through its phases and came back to idle.
        QList<RoundRunner::State> seen;
        for (const auto &args : states)
            seen << args.first().value<RoundRunner::State>();
        QCOMPARE(seen.first(), RoundRunner::State::Preparing);
        QVERIFY(seen.contains(RoundRunner::State::Sampling));
        QVERIFY(seen.contains(RoundRunner::State::Streaming));
        QVERIFY(seen.contains(RoundRunner::State::Evaluating));
        QCOMPARE(seen.last(), RoundRunner::State::Idle);

        // The next round shows the repaired variant (correct, 3x) next to the reference, never the
        // unreviewed 35x one; once accepted, it is eligible. (Population pointers die with the next insert.)
        const qint64 refId = ref->id, fixedId = fixed->id, fastId = fast->id;
        QCOMPARE(toString(rig.run(s)), toString(RoundState::Finished));
        const PromptRecord second = st.exchanges().prompts(st.rounds().all().last().id).first();
        QCOMPARE(QSet<qint64>(second.exemplarIds.begin(), second.exemplarIds.end()), (QSet<qint64>{refId, fixedId}));
        QVERIFY(!st.population().find(fastId)->accepted);
        // Headless (--accept-suspicious): what an earlier round left held is accepted before the next one samples,
        // so it can be shown (the scripted evaluator runs no deep check: every 35x result stays held until then).
        RoundSettings headless = s;
        headless.acceptSuspicious = true;
        QCOMPARE(toString(rig.run(headless)), toString(RoundState::Finished));
        QVERIFY(st.population().find(fastId)->accepted);
        QVERIFY(st.population().find(fastId)->usableAsExemplar());
    }

    void promptReviewSendsTheEditedPrompt()
    {
        Rig rig;
        QVERIFY(rig.setUp(QStringLiteral("review"), scenario({QStringLiteral("fast")})));
        rig.runner->setPromptReview(true);
        QSignalSpy ready(rig.runner.get(), &RoundRunner::promptReady);
        QSignalSpy finished(rig.runner.get(), &RoundRunner::roundFinished);
        RoundSettings s;
        s.candidates = 1;
        s.hint = QStringLiteral("Think about float4.");
        QVERIFY(rig.runner->start(s));
        QVERIFY(ready.wait(20000));
        QCOMPARE(rig.runner->state(), RoundRunner::State::AwaitingApproval);
        const QString rendered = ready.first().at(1).toString();
        QVERIFY(rendered.contains(QLatin1String("Think about float4.")));
        QCOMPARE(rig.server.requests().size(), 0); // nothing sent before approval
        const QString edited = rendered + QLatin1String("\nEDITED BY THE USER\n");
        rig.runner->approvePrompt(edited);
        QVERIFY(finished.wait(20000));
        const PromptRecord p = rig.store.exchanges().prompts(finished.first().first().toLongLong()).first();
        QCOMPARE(p.rendered, edited);
        QCOMPARE(p.hint, QStringLiteral("Think about float4."));
        QVERIFY(QString::fromUtf8(rig.server.requests().first().body).contains(QLatin1String("EDITED BY THE USER")));

        // Rejecting drops the round without a request.
        QSignalSpy ready2(rig.runner.get(), &RoundRunner::promptReady);
        QSignalSpy finished2(rig.runner.get(), &RoundRunner::roundFinished);
        QVERIFY(rig.runner->start(s));
        QVERIFY(ready2.wait(20000));
        rig.runner->rejectPrompt();
        QCOMPARE(finished2.count(), 1);
        QCOMPARE(toString(finished2.first().at(1).value<RoundState>()), toString(RoundState::Stopped));
        QCOMPARE(rig.server.requests().size(), 1);
    }

    void budgetStopsTheRoundEarly()
    {
        Rig rig;
        QVERIFY(rig.setUp(QStringLiteral("budget"), scenario({QStringLiteral("fast"), QStringLiteral("repaired")})));
        RoundSettings s;
        s.candidates = 4;
        s.maxConcurrent = 1;
        s.budget.maxTokens = 3000; // each answer uses 2,200
        QCOMPARE(toString(rig.run(s)), toString(RoundState::Finished));
        const RoundRecord r = rig.store.rounds().all().last();
        QCOMPARE(r.usage.requests, 2);
        QVERIFY2(r.message.contains(QLatin1String("budget")), qPrintable(r.message));
        // Callers (the CLI's exit status) learn it from the typed outcome, not from the message.
        QCOMPARE(rig.runner->outcome(), RoundRunner::Outcome::BudgetSpent);
        // A spent session budget refuses the next round.
        rig.runner->setSessionBudget(Budget{2, 0, 0});
        QVERIFY(!rig.runner->start(s));
        QVERIFY(rig.runner->errorString().contains(QLatin1String("budget")));
        QCOMPARE(rig.runner->outcome(), RoundRunner::Outcome::BudgetSpent);
    }

    void stopCancelsWhatRuns()
    {
        Rig rig;
        ReplayScenario slow = scenario({QStringLiteral("fast")}, 400); // 400 ms between pieces
        QVERIFY(rig.setUp(QStringLiteral("slow"), slow));
        QSignalSpy started(rig.runner.get(), &RoundRunner::requestStarted);
        QSignalSpy finished(rig.runner.get(), &RoundRunner::roundFinished);
        RoundSettings s;
        s.candidates = 2;
        QVERIFY(rig.runner->start(s));
        QVERIFY(started.wait(20000));
        rig.runner->stop();
        QVERIFY(finished.count() == 1 || finished.wait(20000));
        QCOMPARE(toString(finished.first().at(1).value<RoundState>()), toString(RoundState::Stopped));
        QCOMPARE(rig.runner->outcome(), RoundRunner::Outcome::Stopped);
        const auto prompt = rig.store.exchanges().prompts(finished.first().first().toLongLong()).first();
        for (const auto &r : rig.store.exchanges().responses(prompt.id))
            QCOMPARE(r.finishStatus, QStringLiteral("cancelled"));
        QCOMPARE(rig.store.population().size(), 1); // nothing but the reference
        QCOMPARE(rig.runner->state(), RoundRunner::State::Idle);
    }

    void pauseHoldsNewWork()
    {
        Rig rig;
        QVERIFY(rig.setUp(QStringLiteral("pause"), scenario({QStringLiteral("fast"), QStringLiteral("repaired")}, 30)));
        QSignalSpy started(rig.runner.get(), &RoundRunner::requestStarted);
        QSignalSpy answered(rig.runner.get(), &RoundRunner::responseFinished);
        QSignalSpy finished(rig.runner.get(), &RoundRunner::roundFinished);
        RoundSettings s;
        s.candidates = 2;
        s.maxConcurrent = 1;
        QVERIFY(rig.runner->start(s));
        QVERIFY(started.wait(20000));
        rig.runner->pause();
        QCOMPARE(toString(rig.store.rounds().find(rig.runner->currentRound())->state), QStringLiteral("paused"));
        QVERIFY(answered.wait(20000)); // the request in flight completes...
        QTest::qWait(300);
        QCOMPARE(started.count(), 1); // ...but nothing new starts
        const qint64 variant = answered.first().at(1).toLongLong();
        QCOMPARE(toString(rig.store.population().find(variant)->status), QStringLiteral("generated"));
        rig.runner->unpause();
        QVERIFY(finished.wait(20000));
        QCOMPARE(toString(finished.first().at(1).value<RoundState>()), toString(RoundState::Finished));
        QCOMPARE(started.count(), 2);
        QVERIFY(rig.store.population().find(variant)->isCorrect());
    }

    void resumesAnInterruptedRound()
    {
        Rig rig;
        QVERIFY(rig.setUp(QStringLiteral("resume"), scenario({QStringLiteral("repaired")})));
        const QString path = rig.store.path();
        // What a killed process leaves behind: a running round, its prompt, one answer in, one streaming,
        // one variant under evaluation.
        const qint64 ref = rig.store.population().reference()->id;
        rig.store.evaluations().add(
            Evaluation::fromResult(ref, script(EvalRequest{{}, rig.store.variants().source(ref)}).toJson()));
        RoundSettings s;
        s.candidates = 3;
        const qint64 round = rig.store.rounds().add(s.toJson());
        PromptRecord p;
        p.roundId = round;
        p.kind = QStringLiteral("contrastive");
        p.templateName = QStringLiteral("contrastive");
        p.rendered = QStringLiteral("the prompt as it was sent");
        p.exemplarIds = {ref};
        const qint64 prompt = rig.store.exchanges().addPrompt(p);
        ResponseRecord done;
        done.promptId = prompt;
        done.rawText = roundAnswer(QStringLiteral("fast"));
        done.parseStatus = QStringLiteral("ok");
        done.finishStatus = QStringLiteral("complete");
        const qint64 doneId = rig.store.exchanges().addResponse(done);
        ResponseRecord streaming;
        streaming.promptId = prompt;
        streaming.finishStatus = QStringLiteral("streaming");
        const qint64 streamingId = rig.store.exchanges().addResponse(streaming);
        Variant v;
        v.origin = VariantOrigin::Model;
        v.roundId = round;
        v.promptId = prompt;
        v.responseId = doneId;
        v.parentIds = {ref};
        v.status = VariantStatus::Timing;
        const qint64 inFlight = rig.store.variants().add(v, {QStringLiteral("// FAST_ROWSCALE\n"), {}, {}});
        rig.store.close();

        QVERIFY(rig.store.open(path));
        QCOMPARE(rig.store.interruptedRounds(), QList<qint64>{round});
        QSignalSpy finished(rig.runner.get(), &RoundRunner::roundFinished);
        QVERIFY2(rig.runner->resume(round), qPrintable(rig.runner->errorString()));
        QVERIFY(finished.wait(20000));
        QCOMPARE(toString(finished.first().at(1).value<RoundState>()), toString(RoundState::Finished));
        // The variant under evaluation was evaluated again; the streaming answer is marked and asked for again
        // with the stored prompt (3 candidates - 1 answer in = 2 requests).
        QVERIFY(rig.store.population().find(inFlight)->isCorrect());
        QCOMPARE(rig.store.exchanges().response(streamingId)->finishStatus, QStringLiteral("interrupted"));
        QCOMPARE(rig.server.requests().size(), 2);
        QVERIFY(QString::fromUtf8(rig.server.requests().first().body).contains(QLatin1String("the prompt as it was sent")));
        QCOMPARE(rig.store.exchanges().responses(prompt).size(), 4);
        QCOMPARE(rig.store.variants().ofRound(round).size(), 3);
        QCOMPARE(toString(rig.store.rounds().find(round)->state), QStringLiteral("finished"));
        QVERIFY(!rig.runner->resume(round)); // finished rounds stay finished
    }

    // CUDA-L1 draws exemplars for every generation: with more correct variants than slots, each candidate gets
    // its own draw (the best always in it), its own prompt and request, and its variant links to that prompt.
    void eachCandidateDrawsItsOwnExemplars()
    {
        Rig rig;
        QVERIFY(rig.setUp(QStringLiteral("per-candidate"), scenario(QStringList(6, QStringLiteral("repaired")))));
        const qint64 ref = rig.store.population().reference()->id;
        rig.store.evaluations().add(
            Evaluation::fromResult(ref, script(EvalRequest{{}, rig.store.variants().source(ref)}).toJson()));
        const qint64 best = rig.addMeasured(QStringLiteral("V4"), 4.0);
        const QSet<qint64> others{ref, rig.addMeasured(QStringLiteral("V15"), 1.5),
                                  rig.addMeasured(QStringLiteral("V2"), 2.0), rig.addMeasured(QStringLiteral("V29"), 2.9)};
        RoundSettings s;
        s.candidates = 4;
        s.repairAttempts = 0;
        s.seed = 7;
        // Buckets of speedup factors of sqrt(2): each of the five variants in its own bucket, and a temperature
        // that makes the buckets about equally likely, so the best is in a prompt only because it must be.
        s.sampler.temperature = 50;
        QCOMPARE(toString(s.effectiveExemplarMode(5)),
                 toString(ExemplarMode::PerCandidate)); // the default, as the population allows
        QCOMPARE(toString(s.effectiveExemplarMode(2)), toString(ExemplarMode::PerRound));
        QCOMPARE(toString(rig.run(s)), toString(RoundState::Finished));
        const qint64 round = rig.store.rounds().all().last().id;
        const QString path = rig.store.path();

        // Stored per candidate, read back from the file.
        rig.store.close();
        QVERIFY(rig.store.open(path));
        const QList<PromptRecord> prompts = rig.store.exchanges().prompts(round);
        QCOMPARE(prompts.size(), 4);
        QSet<QSet<qint64>> sets;
        QSet<QString> texts;
        for (const PromptRecord &p : prompts) {
            QCOMPARE(p.kind, QStringLiteral("contrastive"));
            QCOMPARE(p.exemplarIds.size(), 2);
            QVERIFY2(p.exemplarIds.contains(best), qPrintable(QString::number(p.exemplarIds.first())));
            for (qint64 id : p.exemplarIds)
                QVERIFY(id == best || others.contains(id));
            sets.insert(QSet<qint64>(p.exemplarIds.begin(), p.exemplarIds.end()));
            texts.insert(p.rendered);
            QCOMPARE(rig.store.exchanges().responses(p.id).size(), 1); // one candidate each
        }
        QCOMPARE(sets.size(), 4); // four different draws
        const QList<qint64> variants = rig.store.variants().ofRound(round);
        QCOMPARE(variants.size(), 4);
        QSet<qint64> promptsUsed;
        for (qint64 id : variants) {
            const Variant *v = rig.store.population().find(id);
            const auto p = rig.store.exchanges().prompt(v->promptId);
            QVERIFY(p && p->roundId == round);
            QCOMPARE(v->parentIds, p->exemplarIds); // the exemplars it was shown
            QCOMPARE(rig.store.exchanges().response(v->responseId)->promptId, p->id);
            promptsUsed.insert(p->id);
        }
        QCOMPARE(promptsUsed.size(), 4);
        // Four different requests, each exactly one stored prompt.
        QCOMPARE(rig.server.requests().size(), 4);
        QSet<QString> sent;
        for (const auto &request : rig.server.requests()) {
            const QJsonArray messages =
                QJsonDocument::fromJson(request.body).object().value(QLatin1String("messages")).toArray();
            sent.insert(messages.last().toObject().value(QLatin1String("content")).toString());
        }
        QCOMPARE(sent, texts);

        // One prompt per round, when asked for: every candidate sees the same draw.
        s.exemplarMode = ExemplarMode::PerRound;
        s.candidates = 2;
        QCOMPARE(toString(rig.run(s)), toString(RoundState::Finished));
        const QList<PromptRecord> one = rig.store.exchanges().prompts(rig.store.rounds().all().last().id);
        QCOMPARE(one.size(), 1);
        QCOMPARE(rig.store.exchanges().responses(one.first().id).size(), 2);
        QCOMPARE(toString(RoundSettings::fromJson(rig.store.rounds().all().last().settings).exemplarMode),
                 toString(ExemplarMode::PerRound));
    }

    // An interrupted round with a prompt per candidate: the candidates without an answer are asked again, each
    // with its own prompt.
    void resumesPerCandidatePrompts()
    {
        Rig rig;
        QVERIFY(rig.setUp(QStringLiteral("resume-per-candidate"),
                          scenario({QStringLiteral("repaired"), QStringLiteral("repaired")})));
        const QString path = rig.store.path();
        const qint64 ref = rig.store.population().reference()->id;
        rig.store.evaluations().add(
            Evaluation::fromResult(ref, script(EvalRequest{{}, rig.store.variants().source(ref)}).toJson()));
        RoundSettings s;
        s.candidates = 3;
        s.repairAttempts = 0;
        const qint64 round = rig.store.rounds().add(s.toJson());
        QList<qint64> prompts;
        for (int i = 1; i <= 3; ++i) {
            PromptRecord p;
            p.roundId = round;
            p.kind = QStringLiteral("contrastive");
            p.templateName = QStringLiteral("contrastive");
            p.rendered = QStringLiteral("prompt of candidate %1").arg(i);
            p.exemplarIds = {ref};
            prompts << rig.store.exchanges().addPrompt(p);
        }
        ResponseRecord done;
        done.promptId = prompts[1];
        done.rawText = roundAnswer(QStringLiteral("repaired"));
        done.parseStatus = QStringLiteral("ok");
        done.finishStatus = QStringLiteral("complete");
        const qint64 doneId = rig.store.exchanges().addResponse(done);
        Variant v;
        v.origin = VariantOrigin::Model;
        v.roundId = round;
        v.promptId = prompts[1];
        v.responseId = doneId;
        v.parentIds = {ref};
        v.status = VariantStatus::Done;
        rig.store.variants().add(v, {QStringLiteral("// REPAIRED_ROWSCALE\n"), {}, {}});
        ResponseRecord streaming;
        streaming.promptId = prompts[2];
        streaming.finishStatus = QStringLiteral("streaming");
        rig.store.exchanges().addResponse(streaming);
        rig.store.close();

        QVERIFY(rig.store.open(path));
        QSignalSpy finished(rig.runner.get(), &RoundRunner::roundFinished);
        QVERIFY2(rig.runner->resume(round), qPrintable(rig.runner->errorString()));
        QVERIFY(finished.wait(20000));
        QCOMPARE(toString(finished.first().at(1).value<RoundState>()), toString(RoundState::Finished));
        QStringList bodies;
        for (const auto &request : rig.server.requests())
            bodies << QString::fromUtf8(request.body);
        QCOMPARE(bodies.size(), 2);
        QCOMPARE(bodies.filter(QLatin1String("prompt of candidate 1")).size(), 1);
        QCOMPARE(bodies.filter(QLatin1String("prompt of candidate 3")).size(), 1);
        QCOMPARE(rig.store.exchanges().responses(prompts[0]).size(), 1);
        QCOMPARE(rig.store.exchanges().responses(prompts[1]).size(), 1);
        QCOMPARE(rig.store.exchanges().responses(prompts[2]).size(), 2);
        for (qint64 id : rig.store.variants().ofRound(round)) {
            const Variant *c = rig.store.population().find(id);
            QVERIFY(prompts.contains(c->promptId));
        }
        QCOMPARE(rig.store.variants().ofRound(round).size(), 3);
    }

    void steering()
    {
        Rig rig;
        QVERIFY(rig.setUp(QStringLiteral("why"), scenario({QStringLiteral("why")})));
        QSignalSpy evaluated(rig.runner.get(), &RoundRunner::evaluationFinished);
        const qint64 ref = rig.store.population().reference()->id;
        // A hand-written variant and a fork of it are evaluated at once.
        const qint64 manual = rig.runner->queue()->addManualVariant(QStringLiteral("// MANUAL_OK\n"), {ref},
                                                                    QStringLiteral("mine"));
        QVERIFY(manual);
        QVERIFY(evaluated.wait(5000));
        QVERIFY(rig.store.population().find(manual)->isCorrect());
        QCOMPARE(toString(rig.store.population().find(manual)->origin), QStringLiteral("manual"));
        const qint64 forked = rig.runner->queue()->fork(manual, QStringLiteral("// WRONG_RESULT\n"));
        QVERIFY(forked);
        QVERIFY(evaluated.wait(5000));
        const Variant *f = rig.store.population().find(forked);
        QCOMPARE(f->parentIds, QList<qint64>{manual});
        QCOMPARE(f->eval.verdictName(), QStringLiteral("incorrect"));
        QCOMPARE(f->label, QStringLiteral("fork of mine"));
        QVERIFY(rig.store.population().children(forked).isEmpty()); // no repair outside rounds
        // Re-evaluation adds an evaluation.
        QVERIFY(rig.runner->queue()->reevaluate(manual));
        QVERIFY(evaluated.wait(5000));
        QCOMPARE(rig.store.evaluations().ofVariant(manual).size(), 2);
        // Pins and exclusions reach the store.
        QVERIFY(rig.store.variants().setPinned(manual, true));
        QVERIFY(rig.store.population().find(manual)->pinned);
        QVERIFY(rig.store.variants().setExcluded(manual, true));
        QVERIFY(!rig.store.population().find(manual)->pinned);
        // A hint for the next round.
        rig.runner->setNextHint(QStringLiteral("use warp shuffles"));
        QCOMPARE(rig.runner->nextHint(), QStringLiteral("use warp shuffles"));
        // Why is A faster than B.
        QSignalSpy answered(rig.runner.get(), &RoundRunner::pairAnswered);
        const qint64 pair = rig.runner->askWhyFaster(manual, ref);
        QVERIFY(pair);
        QVERIFY(answered.wait(20000));
        const auto analyses = rig.store.analyses().pairAnalyses(manual, ref);
        QCOMPARE(analyses.size(), 1);
        QVERIFY(analyses.first().answer.contains(QLatin1String("never builds the diagonal matrix")));
        QVERIFY(analyses.first().responseId > 0);
        QVERIFY(QString::fromUtf8(rig.server.requests().first().body).contains(QLatin1String("MANUAL_OK")));
        QVERIFY(!rig.runner->queue()->addManualVariant(QStringLiteral("  ")));
    }
};

QTEST_GUILESS_MAIN(TstRoundRunner)
#include "tst_roundrunner.moc"
