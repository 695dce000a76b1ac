// The session store against real SQLite files: create and reopen, every table, signals, suspicious marking,
// migration of a hand-written version 1 file, a writer killed mid-loop, opening 10,000 variants, and opening
// on the loader thread (openAsync): same data as open(), superseded opens, broken files, the lock.
#include "core/session/sessionschema.h"
#include "core/session/sessionstore.h"

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


namespace {

QString taskFolder(const QString &name = QStringLiteral("diag_matmul"))
{
    return QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/") + name;
}

// An EvalResult as the worker sends it (protocol v1), small but with every summary field.
QJsonObject resultJson(const QString &verdict, double speedup, double candMs, const QStringList &flags = {})
{
    QJsonObject ref{{QStringLiteral("median_ms"), candMs * speedup}, {QStringLiteral("cv"), 0.01},
                    {QStringLiteral("runs"), 200}};
    QJsonObject cand{{QStringLiteral("median_ms"), candMs}, {QStringLiteral("cv"), 0.02}, {QStringLiteral("runs"), 200}};
    QJsonObject timing{{QStringLiteral("reference"), ref}, {QStringLiteral("candidate"), cand},
                       {QStringLiteral("speedup"), speedup}};
    QJsonObject r{{QStringLiteral("verdict"), verdict}, {QStringLiteral("message"), QString()},
                  {QStringLiteral("flags"), QJsonArray::fromStringList(flags)}};
    if (verdict == QLatin1String("correct"))
        r.insert(QStringLiteral("timing"), timing);
    r.insert(QStringLiteral("trace"),
             QJsonObject{{QStringLiteral("kernels"),
                          QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("scale_rows")},
                                                 {QStringLiteral("registers"), 32}}}}});
    return r;
}

Variant modelVariant(qint64 parent, qint64 round = 0)
{
    Variant v;
    v.origin = VariantOrigin::Model;
    v.parentIds = {parent};
    v.roundId = round;
    return v;
}

int crashWriter(const QString &path)
{
    // Runs in a child process: commits variants and evaluations until it is killed, saying after each
    // commit how many are durable.
    SessionStore store;
    if (!store.open(path)) {
        QTextStream(stderr) << store.errorString() << '\n';
        return 1;
    }
    const qint64 round = store.addRound(QJsonObject{{QStringLiteral("candidates"), 4}});
    const qint64 ref = store.population().reference()->id;
    QTextStream out(stdout);
    out << "round " << round << Qt::endl;
    for (int i = 1;; ++i) {
        const qint64 id = store.addVariant(modelVariant(ref, round), {QStringLiteral("// variant %1\n").arg(i), {}, {}});
        if (!id || !store.addEvaluation(Evaluation::fromResult(id, resultJson(QStringLiteral("correct"), 1.0 + i * 0.01, 1.0)))
            || !store.setStatus(id, VariantStatus::Done)) {
            QTextStream(stderr) << store.errorString() << '\n';
            return 1;
        }
        // A variant whose evaluation is still running when the kill comes.
        store.addVariant(modelVariant(ref, round), {QStringLiteral("// in flight %1\n").arg(i), {}, {}});
        out << "committed " << i << Qt::endl;
    }
}

// A session of `count` model variants as rounds leave them: lineage (some with two parents), tags, some never
// evaluated, some evaluated twice (the latest counts), one suspicious; and a round left running, as by a
// process that died. Closed again, so the file is complete without its WAL and can be copied.
bool makeSession(const QString &path, int count, QString *error)
{
    SessionStore store;
    if (!store.create(path, taskFolder(), true)) {
        *error = store.errorString();
        return false;
    }
    const qint64 ref = store.population().reference()->id;
    const qint64 round = store.addRound(QJsonObject{{QStringLiteral("candidates"), 8}});
    qint64 previous = ref;
    for (int i = 0; i < count; ++i) {
        Variant v = modelVariant(ref, round);
        if (i % 5 == 1)
            v.parentIds << previous;
        v.label = QStringLiteral("v%1").arg(i);
        if (i % 7 == 0)
            v.tags = {QStringLiteral("tiled"), QStringLiteral("t%1").arg(i % 3)};
        const qint64 id = store.addVariant(v, {QStringLiteral("// variant %1\n").arg(i), {}, {}});
        bool ok = id != 0;
        if (ok && i % 11 != 0) {
            const double speedup = 1.0 + i % 17 * 0.25;
            ok = store.addEvaluation(Evaluation::fromResult(id, resultJson(QStringLiteral("correct"), speedup, 1.0)));
        }
        if (ok && i % 13 == 0)
            ok = store.addEvaluation(Evaluation::fromResult(id, resultJson(QStringLiteral("incorrect"), 0, 1.0)));
        if (ok && i == count / 2)
            ok = store.addEvaluation(Evaluation::fromResult(id, resultJson(QStringLiteral("correct"), 80.0, 0.1)));
        if (ok)
            ok = store.setStatus(id, i % 11 ? VariantStatus::Done : VariantStatus::Compiling);
        if (!ok) {
            *error = store.errorString();
            return false;
        }
        previous = id;
    }
    return true;
}

// Everything open() puts in memory, as text, so two opens can be compared line by line.
QString dump(const SessionStore &store)
{
    QString out;
    QTextStream t(&out);
    t << "task " << store.task().name << " files " << store.task().files.keys().join(QLatin1Char(','))
      << " reference " << store.task().referenceSource.size() << '\n';
    QStringList interrupted;
    for (qint64 id : store.interruptedRounds())
        interrupted << QString::number(id);
    t << "interrupted " << interrupted.join(QLatin1Char(',')) << '\n';
    for (const Variant &v : store.population().variants()) {
        QStringList parents;
        for (qint64 p : v.parentIds)
            parents << QString::number(p);
        t << v.id << ' ' << toString(v.origin) << " round " << v.roundId << " '" << v.label << "' tags "
          << v.tags.join(QLatin1Char(',')) << " parents " << parents.join(QLatin1Char(',')) << ' ' << toString(v.status)
          << " eval " << v.eval.id << ' ' << v.eval.verdict << ' ' << v.eval.speedup.value_or(-1)
          << (v.suspicious ? " suspicious" : "") << ' ' << v.created.toString(Qt::ISODateWithMs) << '\n';
    }
    return out;
}

// The signals of one store that an open announces itself with.
struct OpenSpies {
    explicit OpenSpies(SessionStore *store)
        : opened(store, &SessionStore::opened)
        , finished(store, &SessionStore::openFinished)
        , errors(store, &SessionStore::errorOccurred)
        , closed(store, &SessionStore::closed)
    {
    }
    QSignalSpy opened, finished, errors, closed;
};

} // namespace

class TstSessionStore : public QObject
{
    Q_OBJECT

    QTemporaryDir m_fixtures;
    QString m_big, m_small; // made once, copied by the tests that open them
    int m_bigVariants = 0;

    // A fresh copy of a fixture session, so every test finds its round still running.
    QString copyOf(const QString &fixture, const QTemporaryDir &dir, const QString &name)
    {
        const QString path = dir.filePath(name);
        return QFile::copy(fixture, path) ? path : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_fixtures.isValid());
        m_big = m_fixtures.filePath(QStringLiteral("big.kforge"));
        m_small = m_fixtures.filePath(QStringLiteral("small.kforge"));
        m_bigVariants = 3000;
        QString error;
        QVERIFY2(makeSession(m_big, m_bigVariants, &error), qPrintable(error));
        QVERIFY2(makeSession(m_small, 4, &error), qPrintable(error));
        QVERIFY(!QFile::exists(m_big + QLatin1String("-wal")) || QFileInfo(m_big + QLatin1String("-wal")).size() == 0);
    }

    // ---- openAsync()

    void openAsyncLoadsWhatOpenLoads()
    {
        QTemporaryDir dir;
        const QString syncPath = copyOf(m_big, dir, QStringLiteral("sync.kforge"));
        const QString asyncPath = copyOf(m_big, dir, QStringLiteral("async.kforge"));
        QVERIFY(!syncPath.isEmpty() && !asyncPath.isEmpty());

        SessionStore sync;
        OpenSpies syncSpies(&sync);
        QVERIFY2(sync.open(syncPath), qPrintable(sync.errorString()));
        QCOMPARE(syncSpies.opened.count(), 1);
        QCOMPARE(syncSpies.finished.count(), 0); // openFinished belongs to openAsync()

        SessionStore async;
        OpenSpies spies(&async);
        async.openAsync(asyncPath);
        // Nothing happens on this thread until the event loop runs.
        QVERIFY(async.isOpening());
        QVERIFY(!async.isOpen());
        QCOMPARE(spies.opened.count(), 0);
        QCOMPARE(spies.finished.count(), 0);
        QVERIFY(spies.finished.wait(20000));
        QCOMPARE(spies.finished.first().at(0).toBool(), true);
        QCOMPARE(spies.finished.first().at(1).toString(), QString());
        QCOMPARE(spies.opened.count(), 1);
        QCOMPARE(spies.errors.count(), 0);
        QCOMPARE(spies.closed.count(), 0);
        QVERIFY(!async.isOpening());
        QVERIFY(async.isOpen());
        QCOMPARE(async.path(), QFileInfo(asyncPath).absoluteFilePath());
        QCOMPARE(async.schemaVersion(), SessionSchema::latestVersion());

        QCOMPARE(async.population().size(), m_bigVariants + 3); // the reference and task.json's two variants
        QCOMPARE(async.interruptedRounds().size(), 1);
        QCOMPARE(dump(async), dump(sync));
        QVERIFY(async.population().reference());
        const Variant &last = async.population().variants().back();
        QCOMPARE(async.source(last.id), sync.source(last.id));
        QCOMPARE(toString(async.round(async.interruptedRounds().first())->state), toString(RoundState::Interrupted));

        // The adopted connection belongs to this thread: writes work and are announced as usual.
        QSignalSpy added(&async, &SessionStore::variantAdded);
        const qint64 ref = async.population().reference()->id;
        const qint64 id = async.addVariant(modelVariant(ref), {QStringLiteral("// new"), {}, {}});
        QVERIFY2(id, qPrintable(async.errorString()));
        QCOMPARE(added.count(), 1);
        QVERIFY(async.addEvaluation(Evaluation::fromResult(id, resultJson(QStringLiteral("correct"), 2.0, 1.0))));

        // opened() came once, and nothing more arrives later.
        QTest::qWait(100);
        QCOMPARE(spies.opened.count(), 1);
        QCOMPARE(spies.finished.count(), 1);
        async.close();
        QCOMPARE(spies.closed.count(), 1);

        // And what it wrote is in the file.
        SessionStore again;
        QVERIFY(again.open(asyncPath));
        QVERIFY(again.population().contains(id));
        QVERIFY(again.population().find(id)->isCorrect());
        QVERIFY(again.interruptedRounds().isEmpty()); // marked once, by the first open
    }

    void openAsyncIsSuperseded_data()
    {
        QTest::addColumn<QString>("second");  // how the store is told to open the second file
        QTest::addColumn<bool>("sameFile");   // the second open is of the same file
        QTest::newRow("by openAsync, other file") << "async" << false;
        QTest::newRow("by openAsync, same file") << "async" << true;
        QTest::newRow("by open, other file") << "sync" << false;
        QTest::newRow("by open, same file") << "sync" << true;
    }

    void openAsyncIsSuperseded()
    {
        QFETCH(QString, second);
        QFETCH(bool, sameFile);
        QTemporaryDir dir;
        const QString first = copyOf(m_big, dir, QStringLiteral("first.kforge"));
        const QString other = sameFile ? first : copyOf(m_small, dir, QStringLiteral("second.kforge"));
        QVERIFY(!first.isEmpty() && !other.isEmpty());
        const int expected = sameFile ? m_bigVariants + 3 : 4 + 3;

        SessionStore store;
        OpenSpies spies(&store);
        store.openAsync(first);
        if (second == QLatin1String("async")) {
            store.openAsync(other);
            QVERIFY(store.isOpening());
            QVERIFY(spies.finished.wait(20000));
        } else {
            QVERIFY2(store.open(other), qPrintable(store.errorString()));
            QVERIFY(!store.isOpening());
        }
        // The loader runs one load at a time, so the superseded one has delivered (or dropped) its result before
        // a later openAsync() finishes; after open() the event loop still has to run for it.
        QTest::qWait(200);
        QVERIFY(!store.isOpening());
        QVERIFY(store.isOpen());
        QCOMPARE(store.path(), QFileInfo(other).absoluteFilePath());
        QCOMPARE(store.population().size(), expected);
        QCOMPARE(spies.opened.count(), 1);
        QCOMPARE(spies.errors.count(), 0);
        QCOMPARE(spies.finished.count(), second == QLatin1String("async") ? 1 : 0);
        if (spies.finished.count())
            QCOMPARE(spies.finished.first().at(0).toBool(), true);
        // The superseded load changed nothing in the file: the winner still finds the running round.
        QCOMPARE(store.interruptedRounds().size(), 1);
        // The winner holds the lock, and nothing else does.
        SessionStore intruder;
        QVERIFY(!intruder.open(other));
        QVERIFY2(intruder.errorString().contains(QLatin1String("another process")), qPrintable(intruder.errorString()));
        if (!sameFile) {
            QVERIFY2(intruder.open(first), qPrintable(intruder.errorString()));
            QCOMPARE(intruder.population().size(), m_bigVariants + 3);
        }
    }

    void closeCancelsOpenAsync()
    {
        QTemporaryDir dir;
        const QString path = copyOf(m_big, dir, QStringLiteral("big.kforge"));
        SessionStore store;
        OpenSpies spies(&store);
        store.openAsync(path);
        store.close();
        QVERIFY(!store.isOpening());
        QVERIFY(!store.isOpen());
        // The cancelled load frees the file when it stops; then another store can have it.
        SessionStore other;
        QElapsedTimer waited;
        waited.start();
        while (!other.open(path) && waited.elapsed() < 20000)
            QTest::qWait(5);
        QVERIFY2(other.isOpen(), qPrintable(other.errorString()));
        QTest::qWait(200); // room for a result that should have been dropped
        QVERIFY(!store.isOpen());
        QVERIFY(store.path().isEmpty());
        QVERIFY(store.population().isEmpty());
        QCOMPARE(spies.opened.count(), 0);
        QCOMPARE(spies.finished.count(), 0);
        QCOMPARE(spies.errors.count(), 0);
        QCOMPARE(spies.closed.count(), 0); // it was never open
        QCOMPARE(other.population().size(), m_bigVariants + 3);
        QCOMPARE(other.interruptedRounds().size(), 1);

        // An open session is closed at once by openAsync(), as by open().
        QVERIFY(other.isOpen());
        QSignalSpy otherClosed(&other, &SessionStore::closed);
        other.openAsync(copyOf(m_small, dir, QStringLiteral("small.kforge")));
        QCOMPARE(otherClosed.count(), 1);
        QVERIFY(!other.isOpen());
        QVERIFY(store.open(path)); // other let go of it at once
        QSignalSpy otherFinished(&other, &SessionStore::openFinished);
        QVERIFY(otherFinished.wait(20000));
        QCOMPARE(other.population().size(), 4 + 3);
    }

    void destroyingAStoreWhileItOpens()
    {
        QTemporaryDir dir;
        const QString path = copyOf(m_big, dir, QStringLiteral("big.kforge"));
        {
            auto store = std::make_unique<SessionStore>();
            store->openAsync(path);
            QTest::qWait(1);
        } // waits for the loader, which stops early
        QTest::qWait(50); // a result posted to the dead store must not arrive anywhere
        SessionStore other;
        QVERIFY2(other.open(path), qPrintable(other.errorString()));
        QCOMPARE(other.population().size(), m_bigVariants + 3);
    }

    void openAsyncReportsWhatItCannotOpen_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message"); // a part of the error
        QTest::newRow("text file") << "text" << "file is not a database";
        QTest::newRow("other SQLite file") << "sqlite" << "not a KForge session";
        QTest::newRow("newer KForge") << "newer" << "newer KForge";
        QTest::newRow("folder") << "folder" << "is not a file";
        QTest::newRow("no such folder") << "nofolder" << "does not exist";
    }

    void openAsyncReportsWhatItCannotOpen()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QString path = dir.filePath(kind + QLatin1String(".kforge"));
        if (kind == QLatin1String("text")) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("this is not a database, just some text that is long enough to have a header\n");
        } else if (kind == QLatin1String("sqlite") || kind == QLatin1String("newer")) {
            if (kind == QLatin1String("newer")) {
                SessionStore store;
                QVERIFY(store.open(path));
            }
            {
                QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
                db.setDatabaseName(path);
                QVERIFY(db.open());
                QSqlQuery q(db);
                QVERIFY(q.exec(kind == QLatin1String("newer")
                                   ? QStringLiteral("INSERT INTO schema_version VALUES (99, 'future', '2030-01-01')")
                                   : QStringLiteral("CREATE TABLE people (name TEXT)")));
            }
            QSqlDatabase::removeDatabase(QStringLiteral("raw"));
        } else if (kind == QLatin1String("folder")) {
            QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.kforge")));
        } else {
            path = dir.filePath(QStringLiteral("missing/s.kforge"));
        }
        const QByteArray before = QFileInfo(path).isFile() ? [&] {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }() : QByteArray();

        SessionStore store;
        OpenSpies spies(&store);
        store.openAsync(path);
        QVERIFY(spies.finished.wait(20000));
        QCOMPARE(spies.finished.first().at(0).toBool(), false);
        const QString error = spies.finished.first().at(1).toString();
        QVERIFY2(error.contains(message), qPrintable(error));
        QVERIFY2(error.contains(path), qPrintable(error)); // says which file
        QCOMPARE(store.errorString(), error);
        QCOMPARE(spies.errors.count(), 1);
        QCOMPARE(spies.errors.first().first().toString(), error);
        QCOMPARE(spies.opened.count(), 0);
        QCOMPARE(spies.closed.count(), 0);
        QVERIFY(!store.isOpen());
        QVERIFY(!store.isOpening());
        QVERIFY(store.population().isEmpty());
        QVERIFY(!store.hasTask());
        // The same words as open(), and the file is as it was.
        SessionStore sync;
        QVERIFY(!sync.open(path));
        QCOMPARE(sync.errorString(), error);
        if (!before.isEmpty()) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), before);
        }
        QVERIFY(!QFile::exists(path + QLatin1String(".lock")));
    }

    void openAsyncRespectsTheLock()
    {
        QTemporaryDir dir;
        const QString path = copyOf(m_small, dir, QStringLiteral("small.kforge"));
        SessionStore holder;
        QVERIFY(holder.open(path));
        const QString expected = QStringLiteral("%1 is open in another process (%2, pid %3)")
                                     .arg(path, QCoreApplication::applicationName())
                                     .arg(QCoreApplication::applicationPid());

        SessionStore store;
        OpenSpies spies(&store);
        store.openAsync(path);
        QVERIFY(spies.finished.wait(20000));
        QCOMPARE(spies.finished.first().at(0).toBool(), false);
        QCOMPARE(spies.finished.first().at(1).toString(), expected);
        QCOMPARE(store.errorString(), expected);
        QCOMPARE(spies.errors.count(), 1);
        QCOMPARE(spies.opened.count(), 0);
        QVERIFY(!store.isOpen());
        // The holder is untouched: still open, still writing, still the only one.
        QVERIFY(holder.isOpen());
        QVERIFY(holder.addVariant(modelVariant(holder.population().reference()->id), {QStringLiteral("// x"), {}, {}}));
        QVERIFY(QFile::exists(path + QLatin1String(".lock")));

        // Once the holder lets go, the async open takes the file, and holds it in turn.
        holder.close();
        store.openAsync(path);
        QVERIFY(spies.finished.wait(20000));
        QCOMPARE(spies.finished.last().at(0).toBool(), true);
        QVERIFY(store.isOpen());
        QCOMPARE(store.population().size(), 4 + 3 + 1);
        QVERIFY(!holder.open(path));
        QCOMPARE(holder.errorString(), expected);
        store.close();
        QVERIFY(!QFile::exists(path + QLatin1String(".lock")));
    }

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
        QCOMPARE(store.source(ref->id), store.task().referenceSource);
        QCOMPARE(store.population().variants()[2].label, QStringLiteral("good"));
        QCOMPARE(store.population().variants()[2].parentIds, QList<qint64>{ref->id});

        // A second create on the same path is refused; the task folder written back equals the original.
        SessionStore other;
        QVERIFY(!other.create(path, taskFolder()));
        QTemporaryDir out;
        QVERIFY(store.writeTaskFolder(out.path()));
        QFile a(out.filePath(QStringLiteral("variants/rowscale.cu"))), b(taskFolder() + QLatin1String("/variants/rowscale.cu"));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(a.readAll(), b.readAll());
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

            round = store.addRound(QJsonObject{{QStringLiteral("candidates"), 8}});
            QVERIFY(round);
            PromptRecord p;
            p.roundId = round;
            p.kind = QStringLiteral("contrastive");
            p.templateName = QStringLiteral("contrastive");
            p.rendered = QStringLiteral("Make it faster. 更快。");
            p.exemplarIds = {ref};
            p.hint = QStringLiteral("use shared memory");
            prompt = store.addPrompt(p);
            QVERIFY(prompt);
            ResponseRecord r;
            r.promptId = prompt;
            r.finishStatus = QStringLiteral("streaming");
            response = store.addResponse(r);
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
            QVERIFY(store.updateResponse(r));

            Variant v = modelVariant(ref, round);
            v.promptId = prompt;
            v.responseId = response;
            v.tags = {QStringLiteral("shared"), QStringLiteral("fast")};
            v.nvccFlags = {QStringLiteral("-use_fast_math")};
            variant = store.addVariant(v, {QStringLiteral("__global__ void k() {}"), QStringLiteral("A is faster because"),
                                           QStringLiteral("tile it")});
            QVERIFY(variant);
            QCOMPARE(added.count(), 1);
            QCOMPARE(added.first().first().toLongLong(), variant);
            QVERIFY(store.setStatus(variant, VariantStatus::Timing));
            QVERIFY(store.setLabel(variant, QStringLiteral("tiled")));
            QVERIFY(store.setNotes(variant, QStringLiteral("looks good")));
            QVERIFY(store.setPinned(variant, true));
            QVERIFY(store.setExcluded(variant, true)); // excluding unpins
            QVERIFY(!store.population().find(variant)->pinned);
            QCOMPARE(changed.count(), 5);

            eval = store.addEvaluation(Evaluation::fromResult(variant, resultJson(QStringLiteral("correct"), 2.5, 0.4),
                                                              QJsonObject{{QStringLiteral("name"), QStringLiteral("H200")}},
                                                              {QStringLiteral("-O3")}, QStringLiteral("13.0")));
            QVERIFY(eval);
            QCOMPARE(evals.count(), 1);
            QCOMPARE(evals.first().at(1).toLongLong(), eval);
            QVERIFY(store.addRoundUsage(round, RoundUsage{1, 1200, 800, 0.0125}));
            QVERIFY(store.setRoundState(round, RoundState::Finished));
            QCOMPARE(rounds.count(), 3);
            pair = store.addPairAnalysis(PairAnalysis{0, variant, ref, QStringLiteral("why?"), {}, 0, {}});
            QVERIFY(pair);
            QVERIFY(store.setPairAnswer(pair, QStringLiteral("because rows"), response));
            note = store.addNote(SessionNote{0, variant, 0, QStringLiteral("remember"), {}});
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
        const VariantTexts t = store.texts(variant);
        QCOMPARE(t.analysis, QStringLiteral("A is faster because"));
        QCOMPARE(t.design, QStringLiteral("tile it"));
        const auto full = store.latestEvaluation(variant);
        QVERIFY(full);
        QCOMPARE(full->device.value(QLatin1String("name")).toString(), QStringLiteral("H200"));
        QCOMPARE(full->nvccVersion, QStringLiteral("13.0"));
        QCOMPARE(full->compileFlags, QStringList{QStringLiteral("-O3")});
        QCOMPARE(full->result.value(QLatin1String("trace")).toObject().value(QLatin1String("kernels")).toArray().size(), 1);
        const auto p = store.prompt(prompt);
        QVERIFY(p);
        QCOMPARE(p->rendered, QStringLiteral("Make it faster. 更快。"));
        QCOMPARE(p->hint, QStringLiteral("use shared memory"));
        QCOMPARE(p->exemplarIds.size(), 1);
        QCOMPARE(store.prompts(round).size(), 1);
        const auto r = store.response(response);
        QVERIFY(r);
        QCOMPARE(r->reasoningTokens, 300);
        QCOMPARE(r->cost, 0.0125);
        QCOMPARE(r->finishStatus, QStringLiteral("stop"));
        QCOMPARE(store.responses(prompt).size(), 1);
        const auto rr = store.round(round);
        QVERIFY(rr);
        QCOMPARE(rr->number, 1);
        QCOMPARE(toString(rr->state), toString(RoundState::Finished));
        QVERIFY(rr->finished.isValid());
        QCOMPARE(rr->usage.totalTokens(), 2000);
        QCOMPARE(store.sessionUsage().requests, 1);
        QCOMPARE(store.pairAnalyses(variant).size(), 1);
        QCOMPARE(store.pairAnalyses(variant).first().answer, QStringLiteral("because rows"));
        QCOMPARE(store.notes().size(), 1);
        QVERIFY(store.removeNote(note));
        QVERIFY(store.notes().isEmpty());
        QCOMPARE(store.variantsOfRound(round), QList<qint64>{variant});
    }

    void suspiciousResultsWaitForReview_data()
    {
        QTest::addColumn<QString>("task");
        QTest::addColumn<double>("speedup");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<bool>("suspicious");
        QTest::newRow("3x") << "diag_matmul" << 3.0 << QStringList{} << false;
        QTest::newRow("35x") << "diag_matmul" << 35.0 << QStringList{} << true;
        QTest::newRow("35x degenerate task") << "conv3d_groupnorm_min_clamp" << 35.0
                                             << QStringList{QStringLiteral("degenerate_output")} << false;
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
        const qint64 id = store.addVariant(modelVariant(store.population().reference()->id), {QStringLiteral("x"), {}, {}});
        store.addEvaluation(Evaluation::fromResult(id, resultJson(QStringLiteral("correct"), speedup, 1.0, flags)));
        const Variant *v = store.population().find(id);
        QCOMPARE(v->suspicious, suspicious);
        QCOMPARE(v->usableAsExemplar(), !suspicious);
        QCOMPARE(v->suspiciousReason.isEmpty(), !suspicious);
        if (suspicious) {
            QVERIFY(store.setAccepted(id, true));
            QVERIFY(store.population().find(id)->usableAsExemplar());
        }
        // A later, ordinary evaluation clears the mark.
        store.addEvaluation(Evaluation::fromResult(id, resultJson(QStringLiteral("correct"), 1.5, 1.0)));
        QVERIFY(!store.population().find(id)->suspicious);
        QCOMPARE(store.evaluations(id).size(), 2);
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
                QStringLiteral("CREATE TABLE schema_version (version INTEGER NOT NULL, summary TEXT NOT NULL, applied TEXT NOT NULL)"),
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
                QStringLiteral("CREATE TABLE responses (id INTEGER PRIMARY KEY, prompt_id INTEGER NOT NULL REFERENCES prompts(id) "
                               "ON DELETE CASCADE, raw_text TEXT NOT NULL DEFAULT '', reasoning_text TEXT NOT NULL DEFAULT '', "
                               "parse_status TEXT NOT NULL DEFAULT 'pending', parse_message TEXT, prompt_tokens INTEGER NOT NULL "
                               "DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, endpoint TEXT, model TEXT, "
                               "finish_status TEXT, created TEXT NOT NULL)"),
                QStringLiteral("CREATE TABLE variants (id INTEGER PRIMARY KEY, origin TEXT NOT NULL CHECK (origin IN "
                               "('reference','manual','model','imported')), round_id INTEGER REFERENCES rounds(id) ON DELETE "
                               "SET NULL, prompt_id INTEGER REFERENCES prompts(id) ON DELETE SET NULL, label TEXT NOT NULL "
                               "DEFAULT '', tags TEXT NOT NULL DEFAULT '[]', notes TEXT NOT NULL DEFAULT '', pinned INTEGER NOT "
                               "NULL DEFAULT 0, excluded INTEGER NOT NULL DEFAULT 0, accepted INTEGER NOT NULL DEFAULT 0, "
                               "status TEXT NOT NULL, status_message TEXT, created TEXT NOT NULL)"),
                QStringLiteral("CREATE TABLE variant_texts (variant_id INTEGER PRIMARY KEY REFERENCES variants(id) ON DELETE "
                               "CASCADE, source TEXT NOT NULL, analysis TEXT NOT NULL DEFAULT '', design TEXT NOT NULL DEFAULT '')"),
                QStringLiteral("CREATE TABLE variant_parents (variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE, "
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
        QCOMPARE(store.texts(2).analysis, QStringLiteral("a"));
        QCOMPARE(store.rounds().size(), 1);
        QCOMPARE(store.sessionUsage().cost, 0.5);
        // And version 2's tables work.
        QVERIFY(store.addPairAnalysis(PairAnalysis{0, 2, 1, QStringLiteral("why"), {}, 0, {}}));
        QVERIFY(store.addVariant(modelVariant(2, 1), {QStringLiteral("// new"), {}, {}}));
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
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE people (name TEXT)")) || QSqlQuery(db).exec(QStringLiteral("CREATE TABLE people (name TEXT)")));
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
        QVERIFY2(store.evaluationCount() >= committed, qPrintable(QString::number(store.evaluationCount())));
        int done = 0, inFlight = 0;
        for (const auto &v : store.population().variants()) {
            if (v.origin != VariantOrigin::Model)
                continue;
            QCOMPARE(v.roundId, round);
            if (v.status == VariantStatus::Done) {
                ++done;
                QVERIFY(v.isCorrect());
                QCOMPARE(store.source(v.id), QStringLiteral("// variant %1\n").arg(done));
            } else {
                ++inFlight;
                QVERIFY(isInFlight(v.status));
            }
        }
        // The kill may land between a variant's evaluation and its status (two commits): then one evaluated
        // variant is still in flight.
        QVERIFY2(store.evaluationCount() == done || store.evaluationCount() == done + 1,
                 qPrintable(QStringLiteral("%1 evaluations, %2 done").arg(store.evaluationCount()).arg(done)));
        QVERIFY(inFlight >= done - 1 && inFlight <= done + 1);
        // The round the dead process was running is shown as interrupted, and resumable from its records.
        QCOMPARE(store.interruptedRounds(), QList<qint64>{round});
        const auto r = store.round(round);
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
                const qint64 id = store.addVariant(modelVariant(ref), {source, QStringLiteral("analysis"), QStringLiteral("design")});
                QVERIFY(id);
                QVERIFY(store.addEvaluation(Evaluation::fromResult(id, result)));
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
