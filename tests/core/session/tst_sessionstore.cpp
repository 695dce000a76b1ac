// The session store against real SQLite files: create and reopen, every table, signals, suspicious marking,
// migration of a hand-written version 1 file, a writer killed mid-loop, opening 10,000 variants. Opening on
// the loader thread (openAsync) is tested by tst_sessionstore_open.
#include "core/session/sessionschema.h"
#include "core/session/sessionstore.h"
#include "core/task/task.h"
#include "sessiontestdata.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <memory>

using namespace kforge;
using namespace kforge::sessiontest;
using namespace Qt::StringLiterals;

namespace {

int crashWriter(const QString &path)
{
    // Runs in a child process: commits variants and evaluations until it is killed, saying after each
    // commit how many are durable.
    SessionStore store;
    if (!store.open(path)) {
        QTextStream(stderr) << store.errorString() << '\n';
        return 1;
    }
    const qint64 round = store.rounds().add(QJsonObject{{QStringLiteral("candidates"), 4}});
    const qint64 ref = store.population().reference()->id;
    QTextStream out(stdout);
    out << "round " << round << Qt::endl;
    for (int i = 1;; ++i) {
        const qint64 id = store.variants().add(modelVariant(ref, round),
                                               {QStringLiteral("// variant %1\n").arg(i), {}, {}});
        if (!id
            || !store.evaluations().add(Evaluation::fromResult(id, resultJson(QStringLiteral("correct"), 1.0 + i * 0.01, 1.0)))
            || !store.variants().setStatus(id, VariantStatus::Done)) {
            QTextStream(stderr) << store.errorString() << '\n';
            return 1;
        }
        // A variant whose evaluation is still running when the kill comes.
        store.variants().add(modelVariant(ref, round), {QStringLiteral("// in flight %1\n").arg(i), {}, {}});
        out << "committed " << i << Qt::endl;
    }
}

} // namespace

class TstSessionStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void createImportsTheTask()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.kforge"));
        SessionStore store;
        QVERIFY2(store.create(path, taskFolder(), true), qPrintable(store.errorString()));
        QCOMPARE(store.schemaVersion(), SessionSchema::latestVersion());
        QCOMPARE(store.task().name, QStringLiteral("diag_matmul"));
        QVERIFY(store.task().referenceSource.contains(QLatin1String("KF_ENTRY")));
        QVERIFY(store.task().files.contains(QStringLiteral("task.json")));
        QVERIFY(store.task().files.contains(QStringLiteral("variants/rowscale.cu")));
        QVERIFY(!store.task().isDegenerate());
        // The reference plus the two hand-written variants of task.json.
        QCOMPARE(store.population().size(), 3);
        const Variant *ref = store.population().reference();
        QVERIFY(ref);
        QCOMPARE(store.variants().source(ref->id), store.task().referenceSource);
        QCOMPARE(store.population().variants()[2].label, QStringLiteral("good"));
        QCOMPARE(store.population().variants()[2].parentIds, QList<qint64>{ref->id});

        // A second create on the same path is refused; the stored task record equals the original folder: its
        // files hold the folder's bytes, and the task loaded from them (as the evaluation queue does) is the folder's.
        SessionStore other;
        QVERIFY(!other.create(path, taskFolder()));
        QFile b(taskFolder() + QLatin1String("/variants/rowscale.cu"));
        QVERIFY(b.open(QIODevice::ReadOnly));
        QCOMPARE(store.task().files.value(QStringLiteral("variants/rowscale.cu")), b.readAll());
        const TaskLoadResult stored = Task::fromFiles(store.task().name, store.task().files);
        QVERIFY2(stored.ok(), qPrintable(stored.error.message()));
        const TaskLoadResult original = Task::load(taskFolder());
        QVERIFY2(original.ok(), qPrintable(original.error.message()));
        QCOMPARE(stored.task->toJson(), original.task->toJson());
        QCOMPARE(stored.task->referenceSource(), original.task->referenceSource());
        QCOMPARE(stored.task->variants().size(), original.task->variants().size());
        for (qsizetype i = 0; i < original.task->variants().size(); ++i)
            QCOMPARE(stored.task->variants()[i].source, original.task->variants()[i].source);
    }

    void createFailsCleanlyOnABrokenTask()
    {
        QTemporaryDir dir;
        QDir(dir.path()).mkdir(QStringLiteral("task"));
        QFile f(dir.filePath(QStringLiteral("task/task.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"name\": \"x\",");
        f.close();
        SessionStore store;
        const QString path = dir.filePath(QStringLiteral("s.kforge"));
        QVERIFY(!store.create(path, dir.filePath(QStringLiteral("task"))));
        QVERIFY2(store.errorString().contains(QLatin1String("task.json")), qPrintable(store.errorString()));
        QVERIFY(!QFile::exists(path));
    }

    void everyRecordRoundTrips()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.kforge"));
        qint64 round = 0, prompt = 0, response = 0, variant = 0, eval = 0, note = 0, pair = 0;
        {
            SessionStore store;
            QVERIFY(store.create(path, taskFolder()));
            const qint64 ref = store.population().reference()->id;
            QSignalSpy added(&store, &SessionStore::variantAdded);
            QSignalSpy changed(&store, &SessionStore::variantChanged);
            QSignalSpy evals(&store, &SessionStore::evaluationAdded);
            QSignalSpy rounds(&store, &SessionStore::roundChanged);

            round = store.rounds().add(QJsonObject{{QStringLiteral("candidates"), 8}});
            QVERIFY(round);
            PromptRecord p;
            p.roundId = round;
            p.kind = QStringLiteral("contrastive");
            p.templateName = QStringLiteral("contrastive");
            p.rendered = QStringLiteral("Make it faster. 更快。");
            p.exemplarIds = {ref};
            p.hint = QStringLiteral("use shared memory");
            prompt = store.exchanges().addPrompt(p);
            QVERIFY(prompt);
            ResponseRecord r;
            r.promptId = prompt;
            r.finishStatus = QStringLiteral("streaming");
            response = store.exchanges().addResponse(r);
            QVERIFY(response);
            r.id = response;
            r.rawText = QStringLiteral("## Analysis\n...");
            r.reasoningText = QStringLiteral("thinking");
            r.parseStatus = QStringLiteral("ok");
            r.promptTokens = 1200;
            r.completionTokens = 800;
            r.reasoningTokens = 300;
            r.cost = 0.0125;
            r.endpoint = QStringLiteral("http://127.0.0.1:1/v1");
            r.model = QStringLiteral("m");
            r.finishStatus = QStringLiteral("stop");
            QVERIFY(store.exchanges().updateResponse(r));

            Variant v = modelVariant(ref, round);
            v.promptId = prompt;
            v.responseId = response;
            v.tags = {QStringLiteral("shared"), QStringLiteral("fast")};
            v.nvccFlags = {QStringLiteral("-use_fast_math")};
            variant = store.variants().add(v, {QStringLiteral("__global__ void k() {}"),
                                               QStringLiteral("A is faster because"), QStringLiteral("tile it")});
            QVERIFY(variant);
            QCOMPARE(added.count(), 1);
            QCOMPARE(added.first().first().toLongLong(), variant);
            QVERIFY(store.variants().setStatus(variant, VariantStatus::Timing));
            QVERIFY(store.variants().setLabel(variant, QStringLiteral("tiled")));
            QVERIFY(store.variants().setNotes(variant, QStringLiteral("looks good")));
            QVERIFY(store.variants().setPinned(variant, true));
            QVERIFY(store.variants().setExcluded(variant, true)); // excluding unpins
            QVERIFY(!store.population().find(variant)->pinned);
            QCOMPARE(changed.count(), 5);

            eval = store.evaluations().add(Evaluation::fromResult(variant, resultJson(u"correct"_s, 2.5, 0.4),
                                                                  QJsonObject{{u"name"_s, u"H200"_s}}, {u"-O3"_s},
                                                                  u"13.0"_s));
            QVERIFY(eval);
            QCOMPARE(evals.count(), 1);
            QCOMPARE(evals.first().at(1).toLongLong(), eval);
            QVERIFY(store.rounds().addUsage(round, RoundUsage{1, 1200, 800, 0.0125}));
            QVERIFY(store.rounds().setState(round, RoundState::Finished));
            QCOMPARE(rounds.count(), 3);
            pair = store.analyses().addPairAnalysis(PairAnalysis{0, variant, ref, QStringLiteral("why?"), {}, 0, {}});
            QVERIFY(pair);
            QVERIFY(store.analyses().setPairAnswer(pair, QStringLiteral("because rows"), response));
            note = store.analyses().addNote(SessionNote{0, variant, 0, QStringLiteral("remember"), {}});
            QVERIFY(note);
        }
        SessionStore store;
        QVERIFY2(store.open(path), qPrintable(store.errorString()));
        QVERIFY(store.interruptedRounds().isEmpty());
        const Variant v = store.population().value(variant);
        QCOMPARE(v.label, QStringLiteral("tiled"));
        QCOMPARE(toString(v.status), toString(VariantStatus::Timing));
        QCOMPARE(v.tags, (QStringList{QStringLiteral("shared"), QStringLiteral("fast")}));
        QCOMPARE(v.nvccFlags, QStringList{QStringLiteral("-use_fast_math")});
        QVERIFY(v.excluded && !v.pinned);
        QCOMPARE(v.roundId, round);
        QCOMPARE(v.promptId, prompt);
        QCOMPARE(v.responseId, response);
        QCOMPARE(v.eval.id, eval);
        QCOMPARE(*v.eval.speedup, 2.5);
        QCOMPARE(*v.eval.candidateMedianMs, 0.4);
        QCOMPARE(*v.eval.candidateCv, 0.02);
        QVERIFY(v.isCorrect());
        QVERIFY(!v.usableAsExemplar()); // excluded
        const VariantTexts t = store.variants().texts(variant);
        QCOMPARE(t.analysis, QStringLiteral("A is faster because"));
        QCOMPARE(t.design, QStringLiteral("tile it"));
        const auto full = store.evaluations().latest(variant);
        QVERIFY(full);
        QCOMPARE(full->device.value(QLatin1String("name")).toString(), QStringLiteral("H200"));
        QCOMPARE(full->nvccVersion, QStringLiteral("13.0"));
        QCOMPARE(full->compileFlags, QStringList{QStringLiteral("-O3")});
        QCOMPARE(full->result.value(QLatin1String("trace")).toObject().value(QLatin1String("kernels")).toArray().size(), 1);
        const auto p = store.exchanges().prompt(prompt);
        QVERIFY(p);
        QCOMPARE(p->rendered, QStringLiteral("Make it faster. 更快。"));
        QCOMPARE(p->hint, QStringLiteral("use shared memory"));
        QCOMPARE(p->exemplarIds.size(), 1);
        QCOMPARE(store.exchanges().prompts(round).size(), 1);
        const auto r = store.exchanges().response(response);
        QVERIFY(r);
        QCOMPARE(r->reasoningTokens, 300);
        QCOMPARE(r->cost, 0.0125);
        QCOMPARE(r->finishStatus, QStringLiteral("stop"));
        QCOMPARE(store.exchanges().responses(prompt).size(), 1);
        const auto rr = store.rounds().find(round);
        QVERIFY(rr);
        QCOMPARE(rr->number, 1);
        QCOMPARE(toString(rr->state), toString(RoundState::Finished));
        QVERIFY(rr->finished.isValid());
        QCOMPARE(rr->usage.totalTokens(), 2000);
        QCOMPARE(store.rounds().sessionUsage().requests, 1);
        QCOMPARE(store.analyses().pairAnalyses(variant).size(), 1);
        QCOMPARE(store.analyses().pairAnalyses(variant).first().answer, QStringLiteral("because rows"));
        QCOMPARE(store.analyses().notes().size(), 1);
        QVERIFY(store.analyses().removeNote(note));
        QVERIFY(store.analyses().notes().isEmpty());
        QCOMPARE(store.variants().ofRound(round), QList<qint64>{variant});
    }

    void suspiciousResultsWaitForReview_data()
    {
        QTest::addColumn<QString>("task");
        QTest::addColumn<double>("speedup");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<bool>("suspicious");
        QTest::newRow("3x") << "diag_matmul" << 3.0 << QStringList{} << false;
        QTest::newRow("35x") << "diag_matmul" << 35.0 << QStringList{} << true;
        QTest::newRow("35x degenerate task")
            << "conv3d_groupnorm_min_clamp" << 35.0 << QStringList{QStringLiteral("degenerate_output")} << false;
        QTest::newRow("below floor") << "conv3d_groupnorm_min_clamp" << 2.0
                                     << QStringList{QStringLiteral("below_speed_of_light")} << true;
    }

    void suspiciousResultsWaitForReview()
    {
        QFETCH(QString, task);
        QFETCH(double, speedup);
        QFETCH(QStringList, flags);
        QFETCH(bool, suspicious);
        QTemporaryDir dir;
        SessionStore store;
        QVERIFY2(store.create(dir.filePath(QStringLiteral("s.kforge")), taskFolder(task)), qPrintable(store.errorString()));
        const qint64 id = store.variants().add(modelVariant(store.population().reference()->id),
                                               {QStringLiteral("x"), {}, {}});
        store.evaluations().add(Evaluation::fromResult(id, resultJson(QStringLiteral("correct"), speedup, 1.0, flags)));
        const Variant *v = store.population().find(id);
        QCOMPARE(v->suspicious, suspicious);
        QCOMPARE(v->usableAsExemplar(), !suspicious);
        QCOMPARE(v->suspiciousReason.isEmpty(), !suspicious);
        if (suspicious) {
            QVERIFY(store.variants().setAccepted(id, true));
            QVERIFY(store.population().find(id)->usableAsExemplar());
        }
        // A later, ordinary evaluation clears the mark.
        store.evaluations().add(Evaluation::fromResult(id, resultJson(QStringLiteral("correct"), 1.5, 1.0)));
        QVERIFY(!store.population().find(id)->suspicious);
        QCOMPARE(store.evaluations().ofVariant(id).size(), 2);
    }

    void migratesAVersion1File()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.kforge"));
        {
            // The first release's schema, written by hand as that release wrote it.
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            const QStringList sql{
                QStringLiteral(
                    "CREATE TABLE schema_version (version INTEGER NOT NULL, summary TEXT NOT NULL, applied TEXT NOT NULL)"),
                QStringLiteral("INSERT INTO schema_version VALUES (1, 'initial tables', '2025-01-01T00:00:00.000Z')"),
                QStringLiteral("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
                QStringLiteral("CREATE TABLE task (id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL, task_json TEXT NOT NULL, "
                               "reference_source TEXT NOT NULL, origin_path TEXT, imported TEXT NOT NULL)"),
                QStringLiteral("CREATE TABLE task_files (path TEXT PRIMARY KEY, content BLOB NOT NULL)"),
                QStringLiteral("CREATE TABLE rounds (id INTEGER PRIMARY KEY, number INTEGER NOT NULL, settings_json TEXT NOT NULL, "
                               "state TEXT NOT NULL, started TEXT, finished TEXT, requests INTEGER NOT NULL DEFAULT 0, "
                               "prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, "
                               "cost REAL NOT NULL DEFAULT 0, message TEXT)"),
                QStringLiteral("CREATE TABLE prompts (id INTEGER PRIMARY KEY, round_id INTEGER REFERENCES rounds(id) ON DELETE CASCADE, "
                               "kind TEXT NOT NULL, template TEXT NOT NULL, rendered TEXT NOT NULL, "
                               "exemplar_ids TEXT NOT NULL DEFAULT '[]', created TEXT NOT NULL)"),
                QStringLiteral(
                    "CREATE TABLE responses (id INTEGER PRIMARY KEY, prompt_id INTEGER NOT NULL REFERENCES prompts(id) "
                    "ON DELETE CASCADE, raw_text TEXT NOT NULL DEFAULT '', reasoning_text TEXT NOT NULL DEFAULT '', "
                    "parse_status TEXT NOT NULL DEFAULT 'pending', parse_message TEXT, prompt_tokens INTEGER NOT NULL "
                    "DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, endpoint TEXT, model TEXT, "
                    "finish_status TEXT, created TEXT NOT NULL)"),
                QStringLiteral(
                    "CREATE TABLE variants (id INTEGER PRIMARY KEY, origin TEXT NOT NULL CHECK (origin IN "
                    "('reference','manual','model','imported')), round_id INTEGER REFERENCES rounds(id) ON DELETE "
                    "SET NULL, prompt_id INTEGER REFERENCES prompts(id) ON DELETE SET NULL, label TEXT NOT NULL "
                    "DEFAULT '', tags TEXT NOT NULL DEFAULT '[]', notes TEXT NOT NULL DEFAULT '', pinned INTEGER NOT "
                    "NULL DEFAULT 0, excluded INTEGER NOT NULL DEFAULT 0, accepted INTEGER NOT NULL DEFAULT 0, "
                    "status TEXT NOT NULL, status_message TEXT, created TEXT NOT NULL)"),
                QStringLiteral(
                    "CREATE TABLE variant_texts (variant_id INTEGER PRIMARY KEY REFERENCES variants(id) ON DELETE "
                    "CASCADE, source TEXT NOT NULL, analysis TEXT NOT NULL DEFAULT '', design TEXT NOT NULL DEFAULT '')"),
                QStringLiteral(
                    "CREATE TABLE variant_parents (variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE, "
                    "parent_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE, PRIMARY KEY (variant_id, parent_id))"),
                QStringLiteral("CREATE TABLE evaluations (id INTEGER PRIMARY KEY, variant_id INTEGER NOT NULL REFERENCES "
                               "variants(id) ON DELETE CASCADE, verdict TEXT NOT NULL, speedup REAL, ref_median_ms REAL, "
                               "cand_median_ms REAL, compile_flags TEXT, nvcc_version TEXT, created TEXT NOT NULL)"),
                QStringLiteral("CREATE TABLE evaluation_results (evaluation_id INTEGER PRIMARY KEY REFERENCES evaluations(id) "
                               "ON DELETE CASCADE, result_json TEXT NOT NULL, device_json TEXT)"),
                QStringLiteral("CREATE TABLE notes (id INTEGER PRIMARY KEY, variant_id INTEGER REFERENCES variants(id) ON "
                               "DELETE CASCADE, text TEXT NOT NULL, created TEXT NOT NULL)"),
                QStringLiteral("INSERT INTO task VALUES (1, 'toy', '{\"name\":\"toy\",\"description\":\"copy\"}', "
                               "'// reference', '/old/toy', '2025-01-01T00:00:00.000Z')"),
                QStringLiteral("INSERT INTO task_files VALUES ('task.json', X'7B7D')"),
                QStringLiteral("INSERT INTO rounds VALUES (1, 1, '{}', 'finished', '2025-01-01T00:00:00.000Z', "
                               "'2025-01-01T00:10:00.000Z', 4, 100, 200, 0.5, NULL)"),
                QStringLiteral("INSERT INTO variants VALUES (1, 'reference', NULL, NULL, 'reference', '[]', '', 0, 0, 0, "
                               "'done', NULL, '2025-01-01T00:00:00.000Z')"),
                QStringLiteral("INSERT INTO variants VALUES (2, 'model', 1, NULL, 'fast', '[\"x\"]', 'n', 0, 0, 0, 'done', "
                               "NULL, '2025-01-01T00:01:00.000Z')"),
                QStringLiteral("INSERT INTO variants VALUES (3, 'model', 1, NULL, 'too fast', '[]', '', 0, 0, 0, 'done', "
                               "NULL, '2025-01-01T00:02:00.000Z')"),
                QStringLiteral("INSERT INTO variant_texts VALUES (1, '// reference', '', ''), (2, '// fast', 'a', 'd'), "
                               "(3, '// too fast', '', '')"),
                QStringLiteral("INSERT INTO variant_parents VALUES (2, 1), (3, 2)"),
                QStringLiteral("INSERT INTO evaluations VALUES (1, 2, 'correct', 3.0, 3.0, 1.0, '[]', '12.4', "
                               "'2025-01-01T00:01:30.000Z'), (2, 3, 'correct', 50.0, 50.0, 1.0, '[]', '12.4', "
                               "'2025-01-01T00:02:30.000Z')"),
                QStringLiteral("INSERT INTO evaluation_results VALUES (1, '{\"verdict\":\"correct\",\"message\":\"ok\","
                               "\"flags\":[\"late_work\"],\"timing\":{\"candidate\":{\"median_ms\":1.0,\"cv\":0.015}}}', '{}'), "
                               "(2, '{\"verdict\":\"correct\",\"flags\":[\"below_speed_of_light\"],"
                               "\"timing\":{\"candidate\":{\"median_ms\":1.0,\"cv\":0.2}}}', '{}')"),
            };
            for (const auto &s : sql)
                QVERIFY2(q.exec(s), qPrintable(s + QLatin1String(": ") + q.lastError().text()));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("v1"));

        SessionStore store;
        QVERIFY2(store.open(path), qPrintable(store.errorString()));
        QCOMPARE(store.schemaVersion(), SessionSchema::latestVersion());
        QCOMPARE(store.task().name, QStringLiteral("toy"));
        QCOMPARE(store.population().size(), 3);
        const Variant fast = store.population().value(2);
        QCOMPARE(fast.tags, QStringList{QStringLiteral("x")});
        QCOMPARE(fast.parentIds, QList<qint64>{1});
        QCOMPARE(*fast.eval.speedup, 3.0);
        // Columns version 2 added are filled from the stored results.
        QCOMPARE(*fast.eval.candidateCv, 0.015);
        QCOMPARE(fast.eval.flags, QStringList{QStringLiteral("late_work")});
        QCOMPARE(fast.eval.message, QStringLiteral("ok"));
        QVERIFY(!fast.suspicious);
        const Variant tooFast = store.population().value(3);
        QVERIFY(tooFast.suspicious);
        QCOMPARE(tooFast.suspiciousReason, QStringLiteral("below_speed_of_light"));
        QVERIFY(!tooFast.usableAsExemplar());
        QCOMPARE(store.variants().texts(2).analysis, QStringLiteral("a"));
        QCOMPARE(store.rounds().all().size(), 1);
        QCOMPARE(store.rounds().sessionUsage().cost, 0.5);
        // And version 2's tables work.
        QVERIFY(store.analyses().addPairAnalysis(PairAnalysis{0, 2, 1, QStringLiteral("why"), {}, 0, {}}));
        QVERIFY(store.variants().add(modelVariant(2, 1), {QStringLiteral("// new"), {}, {}}));
        QSqlQuery q(QSqlDatabase::database(QSqlDatabase::connectionNames().constFirst()));
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM schema_version")) && q.next());
        QCOMPARE(q.value(0).toInt(), SessionSchema::latestVersion());
    }

    void refusesWhatItCannotRead()
    {
        QTemporaryDir dir;
        const QString newer = dir.filePath(QStringLiteral("newer.kforge"));
        {
            SessionStore store;
            QVERIFY(store.open(newer));
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
            db.setDatabaseName(newer);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("INSERT INTO schema_version VALUES (99, 'future', '2030-01-01')")));
            db.setDatabaseName(dir.filePath(QStringLiteral("other.sqlite")));
            db.close();
            db.setDatabaseName(dir.filePath(QStringLiteral("other.sqlite")));
            QVERIFY(db.open());
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE people (name TEXT)"))
                    || QSqlQuery(db).exec(QStringLiteral("CREATE TABLE people (name TEXT)")));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("raw"));
        SessionStore store;
        QVERIFY(!store.open(newer));
        QVERIFY2(store.errorString().contains(QLatin1String("newer KForge")), qPrintable(store.errorString()));
        QVERIFY(!store.isOpen());
        QVERIFY(!store.open(dir.filePath(QStringLiteral("other.sqlite"))));
        QVERIFY2(store.errorString().contains(QLatin1String("not a KForge session")), qPrintable(store.errorString()));
        QFile text(dir.filePath(QStringLiteral("text.kforge")));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("this is not a database, just some text that is long enough to have a header\n");
        text.close();
        QVERIFY(!store.open(text.fileName()));
    }

    void survivesAKilledWriter()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("crash.kforge"));
        {
            SessionStore store;
            QVERIFY(store.create(path, taskFolder()));
        }
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--crash-writer"), path});
        QVERIFY(child.waitForStarted());
        int committed = 0;
        qint64 round = 0;
        QByteArray pending;
        while (committed < 40) {
            QVERIFY2(child.state() == QProcess::Running || child.bytesAvailable(), "the writer stopped by itself");
            if (!child.canReadLine() && !child.waitForReadyRead(10000))
                QFAIL("the writer fell silent");
            while (child.canReadLine()) {
                const QByteArray line = child.readLine().trimmed();
                if (line.startsWith("round "))
                    round = line.mid(6).toLongLong();
                else if (line.startsWith("committed "))
                    committed = line.mid(10).toInt();
            }
        }
        // While it runs, the session is its alone.
        SessionStore store;
        QVERIFY(!store.open(path));
        QVERIFY2(store.errorString().contains(QLatin1String("another process")), qPrintable(store.errorString()));
        child.kill(); // SIGKILL: no destructor, no close, no checkpoint
        QVERIFY(child.waitForFinished(10000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        while (child.canReadLine()) {
            const QByteArray line = child.readLine().trimmed();
            if (line.startsWith("committed "))
                committed = line.mid(10).toInt();
        }

        QVERIFY2(store.open(path), qPrintable(store.errorString()));
        QSqlQuery q(QSqlDatabase::database(QSqlDatabase::connectionNames().constFirst()));
        QVERIFY(q.exec(QStringLiteral("PRAGMA integrity_check")) && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("ok"));
        // Every reported commit is there (a few more may have landed after the last line was read).
        QVERIFY2(store.evaluations().count() >= committed, qPrintable(QString::number(store.evaluations().count())));
        int done = 0, inFlight = 0;
        for (const auto &v : store.population().variants()) {
            if (v.origin != VariantOrigin::Model)
                continue;
            QCOMPARE(v.roundId, round);
            if (v.status == VariantStatus::Done) {
                ++done;
                QVERIFY(v.isCorrect());
                QCOMPARE(store.variants().source(v.id), QStringLiteral("// variant %1\n").arg(done));
            } else {
                ++inFlight;
                QVERIFY(isInFlight(v.status));
            }
        }
        // The kill may land between a variant's evaluation and its status (two commits): then one evaluated
        // variant is still in flight.
        QVERIFY2(store.evaluations().count() == done || store.evaluations().count() == done + 1,
                 qPrintable(QStringLiteral("%1 evaluations, %2 done").arg(store.evaluations().count()).arg(done)));
        QVERIFY(inFlight >= done - 1 && inFlight <= done + 1);
        // The round the dead process was running is shown as interrupted, and resumable from its records.
        QCOMPARE(store.interruptedRounds(), QList<qint64>{round});
        const auto r = store.rounds().find(round);
        QVERIFY(r);
        QCOMPARE(toString(r->state), toString(RoundState::Interrupted));
        QVERIFY(!r->message.isEmpty());
        QCOMPARE(r->settings.value(QLatin1String("candidates")).toInt(), 4);
        store.close();
        QVERIFY(store.open(path));
        QVERIFY(store.interruptedRounds().isEmpty()); // reported once
    }

    void opensTenThousandVariantsQuickly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.kforge"));
        {
            SessionStore store;
            QVERIFY(store.create(path, taskFolder()));
            const qint64 ref = store.population().reference()->id;
            const QString source = store.task().referenceSource;
            const QJsonObject result = resultJson(QStringLiteral("correct"), 2.0, 1.0);
            QElapsedTimer t;
            t.start();
            for (int i = 0; i < 10000; ++i) {
                const qint64 id = store.variants().add(modelVariant(ref),
                                                       {source, QStringLiteral("analysis"), QStringLiteral("design")});
                QVERIFY(id);
                QVERIFY(store.evaluations().add(Evaluation::fromResult(id, result)));
            }
            qInfo("created 10,000 variants with evaluations in %lld ms", t.elapsed());
        }
        SessionStore store;
        QElapsedTimer t;
        t.start();
        QVERIFY(store.open(path));
        const qint64 ms = t.elapsed();
        qInfo("opened a session of %d variants in %lld ms", store.population().size(), ms);
        QCOMPARE(store.population().size(), 10001);
        QVERIFY(store.population().variants().back().isCorrect());
        QVERIFY2(ms <= 2000, qPrintable(QString::number(ms)));
    }
};

int main(int argc, char **argv)
{
    if (argc == 3 && qstrcmp(argv[1], "--crash-writer") == 0) {
        QCoreApplication app(argc, argv);
        return crashWriter(QString::fromLocal8Bit(argv[2]));
    }
    QCoreApplication app(argc, argv);
    TstSessionStore tc;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&tc, argc, argv);
}

#include "tst_sessionstore.moc"
