// `kforge-cli review` on a real SQLite session file: it lists the held variants (id, round, speedup, verdict,
// reason), accepts and rejects them, checks every id it is given before it changes anything, and what it decided
// is what the session holds when it is opened again.
#include "core/session/sessionstore.h"
#include "tests/app/cli/clirun.h"
#include "tests/core/session/sessiontestdata.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

const QString kTask = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/diag_matmul");

using Run = kforge::test::CliRun;

Run review(const QStringList &args)
{
    return kforge::test::runCli(QStringLiteral("review"), args);
}

// A session with a 2x variant (never held), a 40x one the store holds by its speedup rule, one the deep check
// failed (held, latest evaluation incorrect) and a 35x one accepted already.
struct Fixture {
    QTemporaryDir dir;
    QString path;
    qint64 plain = 0, fast = 0, failedDeep = 0, accepted = 0;

    bool make()
    {
        path = dir.filePath(u"review.kforge"_s);
        SessionStore store;
        if (!store.create(path, kTask, false))
            return false;
        const auto add = [&](double speedup) {
            Variant v;
            v.origin = VariantOrigin::Model;
            const qint64 id = store.variants().add(v, {u"// kernel"_s, {}, {}});
            store.evaluations().add(Evaluation::fromResult(id, sessiontest::resultJson(u"correct"_s, speedup, 0.1)));
            return id;
        };
        plain = add(2.0);
        fast = add(40.0);
        failedDeep = add(50.0);
        store.evaluations().add(Evaluation::fromResult(failedDeep, sessiontest::resultJson(u"incorrect"_s, 0, 0.1)));
        store.variants().setSuspicious(failedDeep, true, u"the deep check failed (incorrect): timed run 3 differs"_s);
        accepted = add(35.0);
        store.variants().setAccepted(accepted, true);
        const Variant *f = store.population().find(fast);
        return f && f->suspicious && !f->accepted && !store.population().find(plain)->suspicious;
    }
};

} // namespace

class TestReviewCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void listsHeldVariants()
    {
        Fixture f;
        QVERIFY(f.make());
        const Run r = review({f.path});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3); // header, and the two held ones
        QVERIFY2(lines.at(0).startsWith(u"id") && lines.at(0).contains(u"reason"), qPrintable(r.out));
        QVERIFY2(lines.at(1).startsWith(u"#%1 "_s.arg(f.fast)) && lines.at(1).contains(u"40.00x")
                     && lines.at(1).contains(u"correct") && lines.at(1).contains(u"40.0x faster than the reference"),
                 qPrintable(lines.at(1)));
        QVERIFY2(lines.at(2).startsWith(u"#%1 "_s.arg(f.failedDeep)) && lines.at(2).contains(u"incorrect")
                     && lines.at(2).contains(u"timed run 3 differs"),
                 qPrintable(lines.at(2)));
        QVERIFY(!r.out.contains(u"#%1 "_s.arg(f.plain)) && !r.out.contains(u"#%1 "_s.arg(f.accepted)));
    }

    void acceptAndReject()
    {
        Fixture f;
        QVERIFY(f.make());
        const Run r = review({f.path, u"--accept"_s, QString::number(f.fast), u"--reject"_s, u"#%1"_s.arg(f.failedDeep)});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(u"Accepted #%1: the rounds can show it to the model."_s.arg(f.fast)), qPrintable(r.out));
        QVERIFY2(r.out.contains(u"Rejected #%1: excluded from the exemplars."_s.arg(f.failedDeep)), qPrintable(r.out));
        SessionStore store;
        QVERIFY(store.open(f.path));
        const Variant *fast = store.population().find(f.fast);
        QVERIFY(fast->accepted && fast->usableAsExemplar());
        const Variant *rejected = store.population().find(f.failedDeep);
        QVERIFY(rejected->excluded && !rejected->accepted);
        QVERIFY2(rejected->notes.contains(u"Rejected in review: the deep check failed"), qPrintable(rejected->notes));
        store.close();
        QVERIFY(review({f.path}).out.contains(u"No variant is held for review."));
    }

    void acceptAllSaysWhatIsNotAnExemplar()
    {
        Fixture f;
        QVERIFY(f.make());
        const Run r = review({f.path, u"--accept-all"_s});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(u"Accepted #%1: the rounds"_s.arg(f.fast)), qPrintable(r.out));
        QVERIFY2(r.out.contains(u"Accepted #%1, but its latest evaluation is not correct (incorrect)"_s.arg(f.failedDeep)),
                 qPrintable(r.out));
        SessionStore store;
        QVERIFY(store.open(f.path));
        QVERIFY(store.population().find(f.fast)->accepted);
        QVERIFY(store.population().find(f.failedDeep)->accepted);
        QVERIFY(!store.population().find(f.failedDeep)->usableAsExemplar());
    }

    void badIdsChangeNothing_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("id"); // "plain": the 2x variant, which is not held
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown") << u"--accept"_s << u"999"_s << 1 << u"the session has no variant #999"_s;
        QTest::newRow("not held") << u"--reject"_s << u"plain"_s << 1 << u"is not held for review"_s;
        QTest::newRow("not a number") << u"--accept"_s << u"fast"_s << 2 << u"'fast' is not a variant id"_s;
    }

    void badIdsChangeNothing()
    {
        QFETCH(QString, option);
        QFETCH(QString, id);
        QFETCH(int, code);
        QFETCH(QString, message);
        Fixture f;
        QVERIFY(f.make());
        const QString given = id == u"plain" ? QString::number(f.plain) : id;
        // The valid id comes first: it must not be accepted when the other one is refused.
        const Run r = review({f.path, u"--accept"_s, QString::number(f.fast), option, given});
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        SessionStore store;
        QVERIFY(store.open(f.path));
        QVERIFY(!store.population().find(f.fast)->accepted);
        QVERIFY(!store.population().find(f.plain)->excluded);
    }

    void usage()
    {
        const Run r = review({});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(u"Usage: kforge-cli review <session.kforge>"), qPrintable(r.err));
        QCOMPARE(review({u"/nonexistent/x.kforge"_s}).code, 1);
    }
};

QTEST_GUILESS_MAIN(TestReviewCli)
#include "tst_reviewcli.moc"
