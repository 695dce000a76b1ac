// Rounds on a PyTorch task: two rounds of two candidates on an imported KernelBench-format problem
// (tests/fixtures/torch_problems/level1_04_relu.py with the task.json `kforge-cli import` writes for it,
// tests/fixtures/torch_rounds/level1_04_relu.task.json), the real LlmClient against the LLM
// tests' replay server on loopback, whose answers are ```python ModelNew modules (two correct, one wrong) and one
// ```cuda kernel, and the one allowed fake, ScriptedEvaluator, in place of the worker pool: the PyTorch prompt, each
// answer kept in its language and sent for evaluation as the module or kernel it is, the reference measured first
// as reference.py, and the verdicts landing in the session. Measuring a torch task is kforge-worker's (its own
// tests); this is the orchestration around it, and needs neither torch nor a GPU.
#include "core/llm/endpointpresets.h"
#include "core/llm/llmclient.h"
#include "core/optimizer/roundrunner.h"
#include "core/session/sessionstore.h"
#include "core/task/sourcelanguage.h"
#include "core/workerpool/scriptedevaluator.h"
#include "replayserver.h"
#include "scriptedresults.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;
using kforge::test::ReplayResponse;
using kforge::test::ReplayScenario;
using kforge::test::ReplayServer;
using kforge::test::scriptedCorrect;

namespace {

const QString kFixtures = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/torch_rounds/");

QString fixture(const QString &name)
{
    QFile f(kFixtures + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(f.fileName()));
    return QString::fromUtf8(f.readAll());
}

QByteArray openAiStream(const QString &text)
{
    QByteArray out;
    auto event = [&](const QJsonObject &o) {
        out += "data: " + QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n\n";
    };
    for (qsizetype i = 0; i < text.size(); i += 64)
        event({{u"model"_s, u"test-model"_s},
               {u"choices"_s, QJsonArray{QJsonObject{{u"index"_s, 0},
                                                     {u"delta"_s, QJsonObject{{u"content"_s, text.mid(i, 64)}}},
                                                     {u"finish_reason"_s, QJsonValue::Null}}}}});
    event({{u"choices"_s,
            QJsonArray{QJsonObject{{u"index"_s, 0}, {u"delta"_s, QJsonObject{}}, {u"finish_reason"_s, u"stop"_s}}}}});
    event({{u"choices"_s, QJsonArray{}},
           {u"usage"_s, QJsonObject{{u"prompt_tokens"_s, 1500}, {u"completion_tokens"_s, 400}}}});
    return out + "data: [DONE]\n\n";
}

// Verdicts by what the source is; never a measurement (ScriptedEvaluator flags every result "scripted").
EvalResult script(const EvalRequest &req)
{
    const QString s = req.candidateSource;
    const auto correct = [](double speedup) { return scriptedCorrect(0.2, 0.2 / speedup); };
    if (!req.task.isTorch())
        return EvalResult::failure(Verdict::Error, u"not a torch task"_s);
    if (s.contains(u"+ 0.5"_s)) {
        EvalResult r = EvalResult::failure(Verdict::Incorrect, u"output out differs in 2097152 elements"_s);
        r.verification.trials = 1;
        r.verification.mismatches = 2097152;
        return r;
    }
    if (s.contains(u"KF_ENTRY"_s))
        return correct(2.0);
    if (s.contains(u"class ModelNew"_s))
        return correct(s.contains(u"clamp_min"_s) ? 1.25 : 1.1);
    if (s.contains(u"class Model("_s))
        return correct(1.0);
    return EvalResult::failure(Verdict::Error, u"unexpected source in the test"_s);
}

} // namespace

class TstTorchOptimize : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Round 1 answers a correct and a wrong ModelNew, round 2 another correct ModelNew and a .cu kernel.
    void twoRounds()
    {
        QTemporaryDir dir;
        ReplayServer server;
        ReplayScenario scenario;
        for (const char *name : {"relu_clamp.md", "relu_shifted.md", "relu_mask.md", "relu_kernel.md"}) {
            ReplayResponse r;
            r.body = openAiStream(fixture(QLatin1String(name)));
            r.chunkBytes = 256;
            scenario.responses << r;
        }
        server.addScenario(u"torch"_s, scenario);
        QVERIFY(server.listen());
        // The task folder as the import leaves it: the problem as reference.py beside its task.json.
        const QString task = dir.filePath(u"level1_04_relu"_s);
        QVERIFY(QDir().mkpath(task));
        QVERIFY(QFile::copy(kFixtures + u"level1_04_relu.task.json"_s, task + u"/task.json"_s));
        QVERIFY(QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/torch_problems/level1_04_relu.py"),
                            task + u"/reference.py"_s));
        SessionStore store;
        QVERIFY2(store.create(dir.filePath(u"relu.kforge"_s), task), qPrintable(store.errorString()));
        QCOMPARE(store.task().json().value(u"kind"_s).toString(), u"torch"_s);
        ScriptedEvaluator evaluator(script);
        evaluator.setDelayMs(10);
        auto llm = std::make_unique<LlmClient>();
        {
            RoundRunner runner(&store, llm.get(), &evaluator);
            LlmRequest t;
            t.endpoint = EndpointPresets::forUrl(server.baseUrl(u"torch"_s), LlmProtocol::OpenAi);
            t.model = u"test-model"_s;
            t.endpoint.limits.maxAttempts = 1;
            runner.setRequestTemplate(t);
            RoundSettings settings;
            settings.candidates = 2;
            settings.repairAttempts = 0;
            settings.sampler.count = 2;
            for (int round = 0; round < 2; ++round) {
                QSignalSpy finished(&runner, &RoundRunner::roundFinished);
                QVERIFY2(runner.start(settings), qPrintable(runner.errorString()));
                QVERIFY(finished.wait(30000));
                QCOMPARE(toString(finished.first().at(1).value<RoundState>()), u"finished"_s);
            }
        }
        llm.reset();
        QTest::qWait(200); // the server sees its clients go before it is destroyed
        QCOMPARE(server.requests().size(), 4);

        const Variant *ref = store.population().reference();
        QVERIFY(ref && ref->isCorrect()); // the reference measured as a candidate against itself
        QCOMPARE(sourceLanguage(store.variants().source(ref->id)), SourceLanguage::Python);
        QCOMPARE(store.rounds().all().size(), 2);

        // What went to the evaluator: the torch task with each source as it is, the reference under its own name.
        const QList<EvalRequest> requests = evaluator.submitted();
        QCOMPARE(requests.size(), 5);
        QCOMPARE(requests.first().candidateName, u"reference.py"_s);
        QVERIFY(requests.first().candidateSource.contains(u"class Model(nn.Module)"_s));
        int kernels = 0;
        for (const EvalRequest &r : requests) {
            QVERIFY(r.task.isTorch());
            QCOMPARE(r.task.name(), u"level1_04_relu"_s);
            kernels += sourceLanguage(r.candidateSource) == SourceLanguage::Cuda ? 1 : 0;
        }
        QCOMPARE(kernels, 1);

        QStringList verdicts[2];
        for (int round = 0; round < 2; ++round) {
            const RoundRecord rec = store.rounds().all().at(round);
            QCOMPARE(toString(rec.state), u"finished"_s);
            const QList<PromptRecord> prompts = store.exchanges().prompts(rec.id);
            QVERIFY(!prompts.isEmpty());
            for (const PromptRecord &p : prompts) {
                if (p.kind != u"contrastive")
                    continue;
                // The PyTorch template: the reference module as Python, both answer forms explained.
                QCOMPARE(p.templateName, u"contrastive_torch"_s);
                QVERIFY2(p.rendered.contains(u"```python\nimport torch"_s), qPrintable(p.rendered));
                QVERIFY(p.rendered.contains(u"A `ModelNew` module"_s));
                QVERIFY(p.rendered.contains(u"A KForge `.cu` kernel"_s));
                QVERIFY(p.rendered.contains(u"- `x`: f32, shape [batch_size, dim]"_s));
                if (round == 1) {
                    // Round 2 shows round 1's correct ModelNew as an exemplar, in a python fence.
                    QVERIFY2(p.rendered.contains(u"torch.clamp_min(x, 0.0)"_s), qPrintable(p.rendered));
                    QVERIFY(p.rendered.contains(u"first explain why Variant"_s));
                }
            }
            for (qint64 id : store.variants().ofRound(rec.id)) {
                const auto e = store.evaluations().latest(id);
                QVERIFY(e);
                verdicts[round] << e->summary.verdictName();
                const QString source = store.variants().source(id);
                const bool python = source.contains(u"class ModelNew"_s);
                QCOMPARE(sourceLanguage(source), python ? SourceLanguage::Python : SourceLanguage::Cuda);
                QCOMPARE(e->summary.verdict == Verdict::Incorrect, source.contains(u"+ 0.5"_s));
            }
            std::sort(verdicts[round].begin(), verdicts[round].end());
        }
        QCOMPARE(verdicts[0], (QStringList{u"correct"_s, u"incorrect"_s}));
        QCOMPARE(verdicts[1], (QStringList{u"correct"_s, u"correct"_s}));
    }
};

QTEST_GUILESS_MAIN(TstTorchOptimize)
#include "tst_torchoptimize.moc"
