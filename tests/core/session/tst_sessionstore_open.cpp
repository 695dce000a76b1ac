// The session store opening on the loader thread (openAsync): the same data as open(), superseded opens,
// close and destruction while opening, broken files, the lock.
#include "core/session/sessionschema.h"
#include "core/session/sessionstore.h"
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

namespace {

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
    const qint64 round = store.rounds().add(QJsonObject{{QStringLiteral("candidates"), 8}});
    qint64 previous = ref;
    for (int i = 0; i < count; ++i) {
        Variant v = modelVariant(ref, round);
        if (i % 5 == 1)
            v.parentIds << previous;
        v.label = QStringLiteral("v%1").arg(i);
        if (i % 7 == 0)
            v.tags = {QStringLiteral("tiled"), QStringLiteral("t%1").arg(i % 3)};
        const qint64 id = store.variants().add(v, {QStringLiteral("// variant %1\n").arg(i), {}, {}});
        bool ok = id != 0;
        if (ok && i % 11 != 0) {
            const double speedup = 1.0 + i % 17 * 0.25;
            ok = store.evaluations().add(Evaluation::fromResult(id, resultJson(QStringLiteral("correct"), speedup, 1.0)));
        }
        if (ok && i % 13 == 0)
            ok = store.evaluations().add(Evaluation::fromResult(id, resultJson(QStringLiteral("incorrect"), 0, 1.0)));
        if (ok && i == count / 2)
            ok = store.evaluations().add(Evaluation::fromResult(id, resultJson(QStringLiteral("correct"), 80.0, 0.1)));
        if (ok)
            ok = store.variants().setStatus(id, i % 11 ? VariantStatus::Done : VariantStatus::Compiling);
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
    t << "task " << store.task().name << " files " << store.task().files.keys().join(QLatin1Char(',')) << " reference "
      << store.task().referenceSource.size() << '\n';
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
          << " eval " << v.eval.id << ' ' << v.eval.verdictName() << ' ' << v.eval.speedup.value_or(-1)
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

class TstSessionStoreOpen : public QObject
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
        QCOMPARE(async.variants().source(last.id), sync.variants().source(last.id));
        QCOMPARE(toString(async.rounds().find(async.interruptedRounds().first())->state), toString(RoundState::Interrupted));

        // The adopted connection belongs to this thread: writes work and are announced as usual.
        QSignalSpy added(&async, &SessionStore::variantAdded);
        const qint64 ref = async.population().reference()->id;
        const qint64 id = async.variants().add(modelVariant(ref), {QStringLiteral("// new"), {}, {}});
        QVERIFY2(id, qPrintable(async.errorString()));
        QCOMPARE(added.count(), 1);
        QVERIFY(async.evaluations().add(Evaluation::fromResult(id, resultJson(QStringLiteral("correct"), 2.0, 1.0))));

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
        QTest::addColumn<QString>("second"); // how the store is told to open the second file
        QTest::addColumn<bool>("sameFile");  // the second open is of the same file
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
        }                 // waits for the loader, which stops early
        QTest::qWait(50); // a result posted to the dead store must not arrive anywhere
        SessionStore other;
        QVERIFY2(other.open(path), qPrintable(other.errorString()));
        QCOMPARE(other.population().size(), m_bigVariants + 3);
    }

    void openAsyncReportsWhatItCannotOpen_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message"); // a part of the error
        QTest::newRow("text file") << "text"
                                   << "file is not a database";
        QTest::newRow("other SQLite file") << "sqlite"
                                           << "not a KForge session";
        QTest::newRow("newer KForge") << "newer"
                                      << "newer KForge";
        QTest::newRow("folder") << "folder"
                                << "is not a file";
        QTest::newRow("no such folder") << "nofolder"
                                        << "does not exist";
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
        QVERIFY(holder.variants().add(modelVariant(holder.population().reference()->id), {QStringLiteral("// x"), {}, {}}));
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
};

QTEST_GUILESS_MAIN(TstSessionStoreOpen)
#include "tst_sessionstore_open.moc"
