// kforge-cli eval --json --session: the JSON printed is the evaluation exactly as the session stores it (its
// result_json, read back from the SQLite file), plus "task", "candidate" and "device" (the stored device_json); the
// candidate is recorded as a variant of the reference, as the editor's Ctrl+Enter records one. Real parts: kforge-cli,
// nvcc, a SQLite file; the worker is the scripted one (tests/fixtures/workers/scripted-worker.sh collection: a correct
// answer for a candidate without a marker line, a "measured" event first where its marker asks for one).
#include "core/session/sessionstore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

const QString kTask = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/tasks/linear_rowsum");
const QString kCandidate = kTask + u"/variants/colsum_gemv.cu"_s;
const QString kWorker = QStringLiteral("\"" KFORGE_TEST_SOURCE_DIR "/tests/fixtures/workers/scripted-worker.sh\" collection");

struct Stored {
    QJsonObject result;
    QJsonObject device;
    int count = 0;
};

// The evaluations of `variantId` as the file keeps them.
Stored readStored(const QString &path, qint64 variantId)
{
    Stored s;
    const QString name = u"tst_evaljson"_s;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(path);
        if (!db.open())
            qFatal("cannot open the session file");
        QSqlQuery q(db);
        q.prepare(u"SELECT r.result_json, r.device_json FROM evaluations e JOIN evaluation_results r "
                  "ON r.evaluation_id = e.id WHERE e.variant_id = ?"_s);
        q.addBindValue(variantId);
        if (!q.exec())
            qFatal("%s", qPrintable(q.lastError().text()));
        while (q.next()) {
            ++s.count;
            s.result = QJsonDocument::fromJson(q.value(0).toByteArray()).object();
            s.device = QJsonDocument::fromJson(q.value(1).toByteArray()).object();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return s;
}

} // namespace

class TestEvalJson : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_home.isValid());
    }

    void jsonIsTheStoredEvaluation()
    {
        const QString path = m_home.filePath(u"linear_rowsum.kforge"_s);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"XDG_CONFIG_HOME"_s, m_home.filePath(u"config"_s));
        env.insert(u"XDG_CACHE_HOME"_s, m_home.filePath(u"cache"_s));
        env.insert(u"XDG_DATA_HOME"_s, m_home.filePath(u"data"_s));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(KFORGE_CLI), {u"eval"_s, kTask, kCandidate, u"--json"_s, u"--no-metrics"_s,
                                             u"--session"_s, path, u"--worker"_s, kWorker});
        QVERIFY(p.waitForFinished(240000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0, qPrintable(err + QString::fromUtf8(out)));

        const QRegularExpressionMatch m = QRegularExpression(u"Recorded as variant (\\d+) in "_s).match(err);
        QVERIFY2(m.hasMatch(), qPrintable(err));
        const qint64 id = m.captured(1).toLongLong();
        {
            SessionStore store;
            QVERIFY2(store.open(path), qPrintable(store.errorString()));
            const Variant *v = store.population().find(id);
            QVERIFY(v);
            QVERIFY(v->origin == VariantOrigin::Imported);
            QCOMPARE(v->label, u"colsum_gemv"_s);
            const Variant *reference = store.population().reference();
            QVERIFY(reference);
            QCOMPARE(v->parentIds, QList<qint64>{reference->id});
            QVERIFY(v->isCorrect());
        }

        const Stored stored = readStored(path, id);
        QCOMPARE(stored.count, 1);
        QJsonParseError error;
        const QJsonObject printed = QJsonDocument::fromJson(out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));

        // Field by field: every stored field printed as stored, and nothing else but the three.
        QVERIFY(!stored.result.isEmpty());
        for (auto it = stored.result.begin(); it != stored.result.end(); ++it)
            QVERIFY2(printed.value(it.key()) == it.value(), qPrintable(it.key()));
        QStringList extra;
        for (const QString &key : printed.keys())
            if (!stored.result.contains(key))
                extra << key;
        extra.sort();
        QCOMPARE(extra, (QStringList{u"candidate"_s, u"device"_s, u"task"_s}));
        QCOMPARE(printed.value(u"task"_s).toString(), u"linear_rowsum"_s);
        QCOMPARE(printed.value(u"candidate"_s).toString(), QFileInfo(kCandidate).absoluteFilePath());
        QCOMPARE(printed.value(u"device"_s).toObject(), stored.device);
        // The full description of the worker's GPU, as the export needs it.
        QCOMPARE(stored.device.value(u"name"_s).toString(), u"Scripted GPU"_s);
        QCOMPARE(stored.device.value(u"sm_count"_s).toInt(), 1);
        QCOMPARE(stored.result.value(u"verdict"_s).toString(), u"correct"_s);
    }

    // The worker's "measured" event (the verdict and speedup before its last passes) is one line on stderr as soon as
    // it comes, and the final table follows; with --json stderr stays without it (the JSON is the final result).
    void provisionalLineComesFirst()
    {
        QFile original(kCandidate);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QString candidate = m_home.filePath(u"fast.cu"_s);
        QFile copy(candidate);
        QVERIFY(copy.open(QIODevice::WriteOnly));
        copy.write(original.readAll() + "\n// kforge-scripted: verdict=correct speedup=36.3 measured=yes\n");
        copy.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"XDG_CONFIG_HOME"_s, m_home.filePath(u"config"_s));
        env.insert(u"XDG_CACHE_HOME"_s, m_home.filePath(u"cache"_s));
        env.insert(u"XDG_DATA_HOME"_s, m_home.filePath(u"data"_s));
        for (const bool json : {false, true}) {
            QProcess p;
            p.setProcessEnvironment(env);
            QStringList args{u"eval"_s, kTask, candidate, u"--no-metrics"_s, u"--worker"_s, kWorker};
            if (json)
                args << u"--json"_s;
            p.start(QStringLiteral(KFORGE_CLI), args);
            QVERIFY(p.waitForFinished(240000));
            const QString err = QString::fromUtf8(p.readAllStandardError());
            const QString out = QString::fromUtf8(p.readAllStandardOutput());
            QVERIFY2(p.exitCode() == 0, qPrintable(err + out));
            const QRegularExpression line(u"^"_s + QRegularExpression::escape(candidate)
                                          + u": correct, 36.30x measured in \\d+\\.\\d s; running precision, trace, metrics$"_s,
                                          QRegularExpression::MultilineOption);
            if (json) {
                QVERIFY2(!err.contains(u"measured in"_s), qPrintable(err));
                QCOMPARE(QJsonDocument::fromJson(out.toUtf8()).object().value(u"provisional"_s).isUndefined(), true);
                continue;
            }
            QVERIFY2(line.match(err).hasMatch(), qPrintable(err));
            QCOMPARE(err.count(u"measured in"_s), 1);
            QVERIFY2(out.contains(u"36.30x"_s), qPrintable(out)); // the final table
        }
    }
};

QTEST_GUILESS_MAIN(TestEvalJson)
#include "tst_evaljson.moc"
