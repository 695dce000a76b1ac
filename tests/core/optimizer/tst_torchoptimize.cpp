// Rounds on a PyTorch task, end to end on the CPU: `kforge-cli import` of a KernelBench-format problem, then
// `kforge-cli optimize` for two rounds against the LLM tests' replay server on loopback, whose answers are
// ```python ModelNew modules (two correct, one wrong) and one ```cuda kernel, evaluated by kforge-torch-worker
// on the CPU, or on GPU $KFORGE_TORCH_DEVICE (started through the worker command `kforge-worker --device cpu`, which a torch task turns into
// kforge-torch-worker); and `kforge-cli eval` of a ModelNew file on the imported task. Needs a python3 with
// torch (KFORGE_TORCH_PYTHON, python3 or /usr/bin/python3): SKIP without.
#include "core/session/sessionstore.h"
#include "core/task/sourcelanguage.h"
#include "replayserver.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;
using kforge::test::ReplayResponse;
using kforge::test::ReplayScenario;
using kforge::test::ReplayServer;

namespace {

const QString kFixtures = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/torch_rounds/");
const QString kProblem = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/torch_problems/level1_04_relu.py");

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

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

// kforge-cli with its settings, cache and data in `home` and the torch worker run by `python`, serving the
// event loop meanwhile (the replay server lives in this process).
Run cli(const QStringList &args, const QString &home, const QString &python)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_CONFIG_HOME"_s, home + u"/config"_s);
    env.insert(u"XDG_CACHE_HOME"_s, home + u"/cache"_s);
    env.insert(u"XDG_DATA_HOME"_s, home + u"/data"_s);
    env.insert(u"KFORGE_TORCH_PYTHON"_s, python);
    p.setProcessEnvironment(env);
    QSignalSpy finished(&p, &QProcess::finished);
    // $KFORGE_CLI: the bundle's kforge-cli on a GPU host (tests/gpu), else the one built beside this test.
    p.start(qEnvironmentVariable("KFORGE_CLI", QStringLiteral(KFORGE_CLI)), args);
    if (!p.waitForStarted() || !finished.wait(540000))
        qFatal("kforge-cli %s did not finish", qPrintable(args.value(0)));
    const Run r{p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    qInfo().noquote() << "kforge-cli" << args.join(u' ') << "output:\n" << r.out << r.err;
    return r;
}

// The torch worker's device: KFORGE_TORCH_DEVICE (as the torch worker's own tests), a GPU index on the H200
// (tests/gpu), else the CPU.
QString torchDevice()
{
    const QString d = qEnvironmentVariable("KFORGE_TORCH_DEVICE");
    return d.isEmpty() ? u"cpu"_s : d;
}

QString workerCommand()
{
    return u"kforge-worker --device "_s + torchDevice();
}

bool onGpu()
{
    return torchDevice() != u"cpu";
}

} // namespace

class TstTorchOptimize : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QStringList pythons;
        if (const QString env = qEnvironmentVariable("KFORGE_TORCH_PYTHON"); !env.isEmpty())
            pythons << env;
        pythons << u"python3"_s << u"/usr/bin/python3"_s;
        for (const QString &python : std::as_const(pythons)) {
            QProcess p;
            p.start(python, {u"-c"_s, u"import torch"_s});
            if (p.waitForFinished(120000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0) {
                m_python = python;
                break;
            }
        }
        if (m_python.isEmpty())
            QSKIP("SKIP: no python3 with torch (tried KFORGE_TORCH_PYTHON, python3, /usr/bin/python3): the torch "
                  "worker cannot run here");
        QVERIFY(m_home.isValid());
        const Run r = cli({u"import"_s, kProblem, u"--out"_s, m_home.filePath(u"tasks"_s), u"--python"_s, m_python},
                          m_home.path(), m_python);
        QCOMPARE(r.exitCode, 0);
        m_task = m_home.filePath(u"tasks/level1_04_relu"_s);
        QVERIFY(QFile::exists(m_task + u"/reference.py"_s));
    }

    // Two rounds of two candidates: round 1 answers a correct and a wrong ModelNew, round 2 another correct
    // ModelNew and a .cu kernel (compiled here; on a CPU worker its verdict is load_error, "needs a GPU").
    void twoRounds()
    {
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
        const QString session = m_home.filePath(u"relu.kforge"_s);
        const Run r = cli({u"optimize"_s, m_task, u"--rounds"_s, u"2"_s, u"--candidates"_s, u"2"_s, u"--endpoint"_s,
                           server.baseUrl(u"torch"_s), u"--model"_s, u"test-model"_s, u"--session"_s, session,
                           u"--repair"_s, u"0"_s, u"--exemplars"_s, u"2"_s, u"--worker"_s,
                           workerCommand(), u"--no-metrics"_s},
                          m_home.path(), m_python);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(server.requests().size(), 4);

        SessionStore store;
        QVERIFY2(store.open(session), qPrintable(store.errorString()));
        QCOMPARE(store.task().name, u"level1_04_relu"_s);
        const Variant *ref = store.population().reference();
        QVERIFY(ref && ref->isCorrect()); // the reference measured as a candidate against itself
        QCOMPARE(sourceLanguage(store.source(ref->id)), SourceLanguage::Python);
        QCOMPARE(store.rounds().size(), 2);

        QStringList verdicts[2];
        for (int round = 0; round < 2; ++round) {
            const RoundRecord rec = store.rounds().at(round);
            QCOMPARE(toString(rec.state), u"finished"_s);
            const QList<PromptRecord> prompts = store.prompts(rec.id);
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
            for (qint64 id : store.variantsOfRound(rec.id)) {
                const auto e = store.latestEvaluation(id);
                QVERIFY(e);
                verdicts[round] << e->summary.verdict;
                const QString source = store.source(id);
                const bool python = source.contains(u"class ModelNew"_s);
                QCOMPARE(sourceLanguage(source), python ? SourceLanguage::Python : SourceLanguage::Cuda);
                if (e->summary.verdict == u"incorrect")
                    QVERIFY(source.contains(u"+ 0.5"_s));
                if (e->summary.verdict == u"load_error") {
                    QVERIFY(!python);
                    QVERIFY2(e->measurement().message.contains(u"needs a GPU"_s), qPrintable(e->measurement().message));
                }
            }
            std::sort(verdicts[round].begin(), verdicts[round].end());
        }
        QCOMPARE(verdicts[0], (QStringList{u"correct"_s, u"incorrect"_s}));
        // On a GPU worker the .cu kernel (compiled by kforge-cli's compiler, its .so sent) is measured too.
        QCOMPARE(verdicts[1], onGpu() ? (QStringList{u"correct"_s, u"correct"_s})
                                      : (QStringList{u"correct"_s, u"load_error"_s}));
        QVERIFY(r.out.contains(u"Session: "_s + store.path()));
    }

    // kforge-cli eval of a ModelNew file on the imported task: correct (exit 0), and a wrong one (exit 1).
    void evalModelNew_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("verdict");
        QTest::newRow("correct") << u"relu_modelnew_good.py"_s << 0 << u"correct"_s;
        QTest::newRow("wrong") << u"relu_modelnew_wrong.py"_s << 1 << u"incorrect"_s;
    }

    void evalModelNew()
    {
        QFETCH(QString, file);
        QFETCH(int, exitCode);
        QFETCH(QString, verdict);
        const Run r = cli({u"eval"_s, m_task, kFixtures + file, u"--worker"_s, workerCommand(),
                           u"--no-metrics"_s, u"--json"_s},
                          m_home.path(), m_python);
        QCOMPARE(r.exitCode, exitCode);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonObject result = o.value(u"result"_s).toObject();
        QCOMPARE(result.value(u"verdict"_s).toString(), verdict);
        QCOMPARE(o.value(u"device"_s).toObject().value(u"kind"_s).toString() == u"cpu"_s, !onGpu());
        if (verdict == u"correct")
            QVERIFY(result.value(u"timing"_s).toObject().contains(u"speedup"_s));
    }

private:
    QString m_python;
    QTemporaryDir m_home;
    QString m_task;
};

QTEST_GUILESS_MAIN(TstTorchOptimize)
#include "tst_torchoptimize.moc"
