// `kforge-cli optimize` as a user runs it: against the LLM tests' replay server on loopback (in this process)
// and the real compiler and kforge-worker. Where there is no GPU, the round must fail with a clear reason and
// still leave a session; on a GPU (label gpu, KFORGE_GPU_ROUND) a fast correct kernel, a wrong one and one
// that does not compile must land in the session as what they are, with the fast one's measured speedup.
#include "core/session/sessionstore.h"
#include "replayserver.h"
#include "roundanswers.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
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

namespace {

QByteArray openAiStream(const QString &text)
{
    QByteArray out;
    auto event = [&](const QJsonObject &o) {
        out += "data: " + QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n\n";
    };
    for (qsizetype i = 0; i < text.size(); i += 64)
        event({{QStringLiteral("model"), QStringLiteral("test-model")},
               {QStringLiteral("choices"),
                QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                       {QStringLiteral("delta"), QJsonObject{{QStringLiteral("content"), text.mid(i, 64)}}},
                                       {QStringLiteral("finish_reason"), QJsonValue::Null}}}}});
    event({{QStringLiteral("choices"), QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                              {QStringLiteral("delta"), QJsonObject{}},
                                                              {QStringLiteral("finish_reason"), QStringLiteral("stop")}}}}});
    event({{QStringLiteral("choices"), QJsonArray{}},
           {QStringLiteral("usage"),
            QJsonObject{{QStringLiteral("prompt_tokens"), 2000}, {QStringLiteral("completion_tokens"), 900}}}});
    return out + "data: [DONE]\n\n";
}

ReplayScenario answers(const QStringList &names)
{
    ReplayScenario s;
    for (const QString &name : names) {
        ReplayResponse r;
        r.body = openAiStream(roundAnswer(name));
        r.chunkBytes = 512;
        s.responses << r;
    }
    return s;
}

// A fast correct kernel, a wrong one and one that does not compile.
const QStringList kThreeOutcomes{QStringLiteral("fast"), QStringLiteral("wrong"), QStringLiteral("broken")};

// `server` on loopback, playing the answers `names` in order for `scenario`.
bool serve(ReplayServer &server, const QString &scenario, const QStringList &names)
{
    server.addScenario(scenario, answers(names));
    return server.listen();
}

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

// Runs kforge-cli with its settings, cache and data in `home`, serving the event loop meanwhile.
Run cli(const QStringList &args, const QString &home, int timeoutMs = 540000)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QLatin1String("/config"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QLatin1String("/cache"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QLatin1String("/data"));
    p.setProcessEnvironment(env);
    QSignalSpy finished(&p, &QProcess::finished);
    p.start(QStringLiteral(KFORGE_CLI), QStringList{QStringLiteral("optimize")} + args);
    if (!p.waitForStarted() || !finished.wait(timeoutMs))
        qFatal("kforge-cli optimize did not finish");
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

enum class Metrics { OnGpu, Never };

// `kforge-cli optimize` with `args`, collecting metrics only on a GPU round unless told never to, its output logged.
Run optimize(QStringList args, const QString &home, Metrics metrics = Metrics::OnGpu)
{
#ifndef KFORGE_GPU_ROUND
    metrics = Metrics::Never; // no GPU here: nothing to collect them with
#endif
    if (metrics == Metrics::Never)
        args << QStringLiteral("--no-metrics");
    const Run r = cli(args, home);
    qInfo().noquote() << "kforge-cli optimize output:\n" << r.out << r.err;
    return r;
}

} // namespace

class TstOptimizeCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

#ifndef KFORGE_GPU_ROUND
    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString task = kRoundFixtures + QLatin1String("task_diag");
        QTest::newRow("nothing") << QStringList{} << "expected one task folder or session file";
        QTest::newRow("no endpoint") << QStringList{task} << "--endpoint is required";
        QTest::newRow("unknown endpoint") << QStringList{task, QStringLiteral("--endpoint"), QStringLiteral("nowhere")}
                                          << "unknown endpoint 'nowhere'";
        QTest::newRow("bad rounds") << QStringList{task, QStringLiteral("-e"), QStringLiteral("http://127.0.0.1:9/v1"),
                                                   QStringLiteral("--rounds"), QStringLiteral("0")}
                                    << "take a positive number";
        QTest::newRow("bad sampling") << QStringList{task, QStringLiteral("-e"), QStringLiteral("http://127.0.0.1:9/v1"),
                                                     QStringLiteral("--sampling"), QStringLiteral("best")}
                                      << "--sampling is buckets, top-k or most-different";
        QTest::newRow("bad exemplar mode")
            << QStringList{task, QStringLiteral("-e"), QStringLiteral("http://127.0.0.1:9/v1"),
                           QStringLiteral("--exemplar-mode"), QStringLiteral("sometimes")}
            << "--exemplar-mode is auto, per-candidate or per-round, not 'sometimes'";
        QTest::newRow("missing key variable")
            << QStringList{task, QStringLiteral("-e"), QStringLiteral("openai"), QStringLiteral("--api-key-env"),
                           QStringLiteral("KFORGE_TEST_NO_SUCH_VAR")}
            << "KFORGE_TEST_NO_SUCH_VAR is not set";
        QTest::newRow("no model") << QStringList{task, QStringLiteral("-e"), QStringLiteral("http://127.0.0.1:9/v1")}
                                  << "No model given";
        QTest::newRow("neither task nor session")
            << QStringList{QStringLiteral("/nonexistent/x"), QStringLiteral("-e"),
                           QStringLiteral("http://127.0.0.1:9/v1"), QStringLiteral("-m"), QStringLiteral("m")}
            << "neither a task folder nor a session file";
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir home;
        const Run r = cli(args, home.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }
#endif

    void round()
    {
        ReplayServer server;
        QVERIFY(serve(server, QStringLiteral("cli"), kThreeOutcomes));
        QTemporaryDir home;
        const QString session = home.filePath(QStringLiteral("cli.kforge"));
        QStringList args{QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/diag_matmul"),
                         QStringLiteral("--rounds"),
                         QStringLiteral("1"),
                         QStringLiteral("--candidates"),
                         QStringLiteral("3"),
                         QStringLiteral("--endpoint"),
                         server.baseUrl(QStringLiteral("cli")),
                         QStringLiteral("--model"),
                         QStringLiteral("test-model"),
                         QStringLiteral("--session"),
                         session,
                         QStringLiteral("--repair"),
                         QStringLiteral("0")};
        const Run r = optimize(args, home.path());

        SessionStore store;
        QVERIFY2(store.open(session), qPrintable(store.errorString()));
        QCOMPARE(store.task().name, QStringLiteral("diag_matmul"));
        QCOMPARE(store.rounds().all().size(), 1);
        const RoundRecord round = store.rounds().all().first();
        const Variant *ref = store.population().reference();
        QVERIFY(ref && ref->hasEvaluation());

        if (!ref->isCorrect()) {
            // No GPU here (or no worker): the round fails before any request, saying why, and the session stays.
            QCOMPARE(r.exitCode, 1);
            QCOMPARE(toString(round.state), QStringLiteral("failed"));
            QVERIFY2(round.message.contains(QLatin1String("reference could not be measured")), qPrintable(round.message));
            QVERIFY(r.out.contains(QLatin1String("Round 1 failed")));
            QVERIFY(r.out.contains(QLatin1String("Session: ") + store.path()));
            QCOMPARE(server.requests().size(), 0);
#ifdef KFORGE_GPU_ROUND
            QSKIP(qPrintable(QLatin1String("no GPU round possible here: ") + ref->statusMessage));
#else
            return;
#endif
        }

        // A GPU: the three answers, each as what it is.
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(toString(round.state), QStringLiteral("finished"));
        QCOMPARE(server.requests().size(), 3);
        QCOMPARE(round.usage.requests, 3);
        auto byMarker = [&](const char *marker) -> const Variant * {
            for (const auto &v : store.population().variants())
                if (store.variants().source(v.id).contains(QLatin1String(marker)))
                    return store.population().find(v.id);
            return nullptr;
        };
        const Variant *fast = byMarker("FAST_ROWSCALE");
        const Variant *wrong = byMarker("WRONG_RESULT");
        const Variant *broken = byMarker("BROKEN_SYNTAX");
        QVERIFY(fast && wrong && broken);
        QCOMPARE(fast->eval.verdictName(), QStringLiteral("correct"));
        QCOMPARE(toString(fast->status), QStringLiteral("done"));
        QVERIFY2(*fast->eval.speedup >= 30, qPrintable(QString::number(*fast->eval.speedup)));
        QCOMPARE(wrong->eval.verdictName(), QStringLiteral("incorrect"));
        QCOMPARE(toString(wrong->status), QStringLiteral("failed"));
        QCOMPARE(broken->eval.verdictName(), QStringLiteral("compile_error"));
        QVERIFY(store.evaluations()
                    .latest(broken->id)
                    ->result.value(QLatin1String("compile"))
                    .toObject()
                    .value(QLatin1String("log"))
                    .toString()
                    .contains(QLatin1String("error")));
        for (const Variant *v : {fast, wrong, broken})
            QVERIFY2(r.out.contains(QStringLiteral("#%1").arg(v->id)), qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("Round 1 finished: 3 candidate(s), 1 correct")));
        // Each candidate's row names the exemplars its prompt showed (the first round has only the reference).
        QCOMPARE(r.out.count(QStringLiteral("shown #%1").arg(store.population().reference()->id)), 3);
#ifdef KFORGE_GPU_ROUND
        // Measured, not scripted: the worker's trace and timing are in the stored result.
        const auto e = store.evaluations().latest(fast->id);
        QVERIFY(!e->result.value(QLatin1String("flags")).toArray().contains(QStringLiteral("scripted")));
        QVERIFY(e->result.value(QLatin1String("timing"))
                    .toObject()
                    .value(QLatin1String("candidate"))
                    .toObject()
                    .value(QLatin1String("runs"))
                    .toInt()
                > 0);
#endif
    }

    // --seed-variants: the task's hand-written variants are measured before the first round (through the same
    // queue), so that round can already show them as exemplars; where nothing can be measured the round still
    // runs and fails for the reference, as without them.
    void seededVariantsAreMeasuredFirst()
    {
        ReplayServer server;
        QVERIFY(serve(server, QStringLiteral("seeded"), {QStringLiteral("fast"), QStringLiteral("wrong")}));
        QTemporaryDir home;
        const QString session = home.filePath(QStringLiteral("seeded.kforge"));
        QStringList args{QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/diag_matmul"),
                         QStringLiteral("--seed-variants"),
                         QStringLiteral("--rounds"),
                         QStringLiteral("1"),
                         QStringLiteral("--candidates"),
                         QStringLiteral("2"),
                         QStringLiteral("--exemplars"),
                         QStringLiteral("2"),
                         QStringLiteral("--endpoint"),
                         server.baseUrl(QStringLiteral("seeded")),
                         QStringLiteral("--model"),
                         QStringLiteral("test-model"),
                         QStringLiteral("--session"),
                         session,
                         QStringLiteral("--repair"),
                         QStringLiteral("0")};
        const Run r = optimize(args, home.path(), Metrics::Never);
        QVERIFY2(r.err.contains(QLatin1String("Measuring 2 imported variant(s) before the first round")), qPrintable(r.err));

        SessionStore store;
        QVERIFY2(store.open(session), qPrintable(store.errorString()));
        QList<const Variant *> imported;
        for (const Variant &v : store.population().variants())
            if (v.origin == VariantOrigin::Imported)
                imported << &v;
        QCOMPARE(imported.size(), 2);
        const Variant *ref = store.population().reference();
        QVERIFY(ref);
        if (!ref->isCorrect()) {
            // No GPU: both went through the queue and failed saying why; no round can be evaluated, so none is
            // asked of the model.
            QCOMPARE(r.exitCode, 1);
            QCOMPARE(server.requests().size(), 0);
            for (const Variant *v : imported) {
                QVERIFY2(v->hasEvaluation(), qPrintable(v->label));
                QCOMPARE(toString(v->status), QStringLiteral("failed"));
                QVERIFY2(!v->statusMessage.isEmpty(), qPrintable(v->label));
            }
            return;
        }
        QCOMPARE(store.rounds().all().size(), 1); // the round ran after the imported variants were measured
        // A GPU: both hand-written variants are correct and measured before round 1, whose prompts show them.
        QCOMPARE(r.exitCode, 0);
        for (const Variant *v : imported) {
            QVERIFY2(v->isCorrect(), qPrintable(v->label + QLatin1String(": ") + v->statusMessage));
            QVERIFY(v->roundId == 0);
        }
        const QList<qint64> roundVariants = store.variants().ofRound(store.rounds().all().first().id);
        QVERIFY(!roundVariants.isEmpty());
        bool shownImported = false;
        for (qint64 id : roundVariants)
            if (const auto prompt = store.exchanges().prompt(store.population().find(id)->promptId))
                for (const Variant *v : imported)
                    shownImported |= prompt->exemplarIds.contains(v->id);
        QVERIFY2(shownImported, "round 1's prompts showed none of the measured hand-written variants");
    }

    // Issue 18: after a round whose correct variants (41x to 65x on the H200) were all held for review, the
    // summary said "Best: reference #1, 1.00x". It must name the fastest correct variant and say that it waits
    // for review. The session is the real H200 one (docs/), its model variants set back to held; here the
    // round cannot measure the reference and fails, on a GPU it runs: either way the summary follows the store.
    void summaryShowsTheHeldBest()
    {
        ReplayServer server;
        QVERIFY(serve(server, QStringLiteral("held"), kThreeOutcomes));
        QTemporaryDir home;
        const QString session = home.filePath(QStringLiteral("held.kforge"));
        QVERIFY(QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul.kforge"), session));
        QFile::setPermissions(session, QFile::ReadOwner | QFile::WriteOwner);
        {
            SessionStore store;
            QVERIFY2(store.open(session), qPrintable(store.errorString()));
            int held = 0;
            for (const Variant &v : store.population().variants())
                if (v.suspicious && v.isCorrect()) {
                    QVERIFY(store.variants().setAccepted(v.id, false));
                    ++held;
                }
            QCOMPARE(held, 4);
            QVERIFY(store.population().bestCorrect()->origin == VariantOrigin::Reference); // what the old summary printed
        }
        QStringList args{session,
                         QStringLiteral("--rounds"),
                         QStringLiteral("1"),
                         QStringLiteral("--candidates"),
                         QStringLiteral("3"),
                         QStringLiteral("--endpoint"),
                         server.baseUrl(QStringLiteral("held")),
                         QStringLiteral("--model"),
                         QStringLiteral("test-model"),
                         QStringLiteral("--repair"),
                         QStringLiteral("0")};
        const Run r = optimize(args, home.path());

        SessionStore store;
        QVERIFY2(store.open(session), qPrintable(store.errorString()));
        const Variant *best = nullptr;
        for (const Variant &v : store.population().variants())
            if (v.isCorrect() && v.eval.speedup && (!best || *v.eval.speedup > *best->eval.speedup))
                best = &v;
        QVERIFY(best && best->origin == VariantOrigin::Model && *best->eval.speedup > 30);
        QVERIFY(best->suspicious && !best->accepted);
        const QString line = QStringLiteral("Best: %1 #%2, %3x (model, held for review: %4)\n")
                                 .arg(best->label)
                                 .arg(best->id)
                                 .arg(*best->eval.speedup, 0, 'f', 2)
                                 .arg(best->suspiciousReason);
        QVERIFY2(r.out.contains(line), qPrintable(r.out));
        QVERIFY2(!r.out.contains(QLatin1String("Best: reference")), qPrintable(r.out));
        if (const Variant *usable = store.population().bestCorrect())
            QVERIFY2(r.out.contains(QStringLiteral("Best reviewed: %1 #%2").arg(usable->label).arg(usable->id)),
                     qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("Session: ") + store.path()));
    }
};

QTEST_GUILESS_MAIN(TstOptimizeCli)
#include "tst_optimizecli.moc"
