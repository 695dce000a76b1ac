#pragma once
// A whole optimisation round for the panel tests and the GUI latency benchmark, built from real parts: the
// session store on a temporary file, LlmClient against the loopback replay server (tests/core/llm) streaming
// recorded-style answers, RoundRunner, and ScriptedEvaluator (the one allowed fake) answering with
// worker-shaped results chosen by a marker in each candidate's source.
#include "core/eval/evalresult.h"
#include "core/llm/endpointconfig.h"
#include "core/llm/llmclient.h"
#include "core/optimizer/roundrunner.h"
#include "core/settings/settings.h"
#include "core/workerpool/scriptedevaluator.h"
#include "panelfixture.h"
#include "replayserver.h"

#include <QTemporaryDir>
#include <memory>

namespace kforge::test {

struct CandidateAnswer {
    double speedup = 2.0;
    QString verdict = QStringLiteral("correct"); // or incorrect, compile_error...
    bool metrics = true;
};

// A model answer in the three parts the contrastive prompt asks for; the code carries the marker that
// scriptedResult() reads.
QString answerText(const CandidateAnswer &a, int index);
QString reasoningText(int index);
// The model's answer to the compare prompt: why #A beats #B, in Markdown ("16-byte", "Vector width", "Index math").
QString compareAnswerText();
// The answer as an OpenAI-compatible server streams it: reasoning deltas, content deltas, usage.
QByteArray openAiStream(const QString &text, const QString &reasoning, int deltaChars = 24);
// The replay server's scenario for `answers` in order, then `compareAnswer` (streamed as openAiStream does).
ReplayScenario roundScenario(const QList<CandidateAnswer> &answers, const QString &compareAnswer, int chunkDelayMs = 8);
// The endpoint the tests point at the replay server: OpenAI protocol, model "replay-model", one attempt.
EndpointConfig loopbackEndpoint(const QString &baseUrl);
// What ScriptedEvaluator answers for a candidate: worker-shaped, chosen by "// kforge-test:" in the source.
EvalResult scriptedResult(const EvalRequest &request);

class RoundHarness
{
public:
    explicit RoundHarness(SessionFixture &fixture, int evalDelayMs = 30);
    ~RoundHarness();

    // Serves `answers` in order, then `compareAnswer` for every request after them; points the settings'
    // only endpoint at it. False with *error.
    bool serve(const QList<CandidateAnswer> &answers, const QString &compareAnswer, QString *error, int chunkDelayMs = 8);

    QTemporaryDir dir;
    std::unique_ptr<Settings> settings;
    LlmClient llm;
    ScriptedEvaluator evaluator;
    ReplayServer server;
    std::unique_ptr<RoundRunner> runner;
};

} // namespace kforge::test
