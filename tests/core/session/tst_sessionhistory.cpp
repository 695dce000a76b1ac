// SessionHistory and SessionHistoryWatch (issue 37): the recorded H200 session read in small rows (rounds, every
// answer with its round, position, variant and size, the stored pair analysis), from a connection of another
// thread beside the store's; the watch reads again after writes, drops a read of a session that closed meanwhile,
// and empties on close.
#include "core/session/sessionhistory.h"
#include "core/session/sessionstore.h"

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent>

using namespace kforge;

class TestSessionHistory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void readsTheRecordedSession()
    {
        SessionStore store;
        QVERIFY(store.open(copy(QStringLiteral("read"))));
        // As the watch does: on another thread, while the store holds the file open.
        const SessionHistory h = QtConcurrent::run([path = store.path()] { return SessionHistory::read(path); }).result();
        QVERIFY2(h.error.isEmpty(), qPrintable(h.error));
        QCOMPARE(h.rounds.size(), 2);
        QCOMPARE(h.rounds[1].number, 2);
        QCOMPARE(int(h.rounds[1].state), int(RoundState::Finished));
        QStringList answers;
        for (const HistoryAnswer &a : h.answers)
            answers << QStringLiteral("%1 r%2 %3 %4 -> #%5 %6 chars %7 tokens")
                           .arg(a.responseId)
                           .arg(a.roundNumber)
                           .arg(a.kind)
                           .arg(a.position)
                           .arg(a.variantId)
                           .arg(a.characters)
                           .arg(a.tokens);
        QCOMPARE(answers.join(u'\n'), QStringLiteral("1 r1 contrastive 1 -> #6 2579 chars 3141 tokens\n"
                                                     "2 r1 contrastive 2 -> #5 1137 chars 2684 tokens\n"
                                                     "3 r1 contrastive 3 -> #4 861 chars 2615 tokens\n"
                                                     "4 r2 contrastive 1 -> #8 2309 chars 2977 tokens\n"
                                                     "5 r2 contrastive 2 -> #7 1338 chars 2734 tokens\n"
                                                     "6 r2 contrastive 3 -> #9 2740 chars 3085 tokens\n"
                                                     "7 r0 compare 1 -> #0 1056 chars 2664 tokens"));
        QCOMPARE(h.answers.last().exemplarIds, (QList<qint64>{6, 8}));
        QCOMPARE(h.answersOfRound(h.rounds[0].id).size(), 3);
        QCOMPARE(h.analyses.size(), 1);
        QCOMPARE(h.analyses[0].variantA, qint64(6));
        QCOMPARE(h.analyses[0].variantB, qint64(8));

        const SessionHistory missing = SessionHistory::read(m_dir.filePath(QStringLiteral("nothing-here.kforge")));
        QVERIFY(!missing.error.isEmpty());
        QVERIFY(missing.rounds.isEmpty());
    }

    void readsAgainOnlyWhatChanged()
    {
        SessionStore store;
        QVERIFY(store.open(copy(QStringLiteral("again"))));
        const SessionHistory first = SessionHistory::read(store.path());
        QCOMPARE(first.answers.size(), 7);
        // Round 2 gets a repair answer that is still streaming, then a variant for it.
        PromptRecord p;
        p.roundId = first.rounds[1].id;
        p.kind = QStringLiteral("repair");
        p.templateName = QStringLiteral("repair");
        p.rendered = QStringLiteral("fix #7");
        p.exemplarIds = {7};
        const qint64 prompt = store.exchanges().addPrompt(p);
        ResponseRecord r;
        r.promptId = prompt;
        r.rawText = QStringLiteral("partial");
        r.finishStatus = QStringLiteral("streaming");
        const qint64 response = store.exchanges().addResponse(r);
        const SessionHistory second = SessionHistory::read(store.path(), &first);
        QCOMPARE(second.answers.size(), 8);
        QCOMPARE(second.answers.last().responseId, response);
        QCOMPARE(second.answers.last().roundNumber, 2);
        QCOMPARE(second.answers.last().position, 1); // the round's first repair
        QCOMPARE(second.answers.last().finishStatus, QStringLiteral("streaming"));
        QCOMPARE(second.answers[3].position, 1); // round 2's answers keep their places
        r.id = response;
        r.rawText = QStringLiteral("the whole answer");
        r.finishStatus = QStringLiteral("stop");
        QVERIFY(store.exchanges().updateResponse(r));
        const SessionHistory third = SessionHistory::read(store.path(), &second);
        QCOMPARE(third.answers.size(), 8);
        QCOMPARE(third.answers.last().finishStatus, QStringLiteral("stop"));
        QCOMPARE(third.answers.last().characters, qint64(16));
        // The same as reading it all again.
        const SessionHistory whole = SessionHistory::read(store.path());
        QCOMPARE(whole.answers.size(), third.answers.size());
        for (int i = 0; i < whole.answers.size(); ++i) {
            QCOMPARE(third.answers[i].responseId, whole.answers[i].responseId);
            QCOMPARE(third.answers[i].position, whole.answers[i].position);
            QCOMPARE(third.answers[i].variantId, whole.answers[i].variantId);
            QCOMPARE(third.answers[i].characters, whole.answers[i].characters);
        }
    }

    void watchFollowsTheStore()
    {
        SessionStore store;
        SessionHistoryWatch *watch = SessionHistoryWatch::of(&store);
        QCOMPARE(SessionHistoryWatch::of(&store), watch); // one per store
        QSignalSpy changed(watch, &SessionHistoryWatch::changed);
        QVERIFY(store.open(copy(QStringLiteral("watch"))));
        QVERIFY(changed.wait(5000));
        QVERIFY(watch->isCurrent());
        QCOMPARE(watch->history().rounds.size(), 2);
        // A new round is read again, once, shortly after.
        const qint64 round = store.rounds().add({});
        store.rounds().setState(round, RoundState::Stopped, QStringLiteral("stopped by the test"));
        QVERIFY(changed.wait(5000));
        QTRY_COMPARE(watch->history().rounds.size(), 3);
        QCOMPARE(watch->history().rounds.last().message, QStringLiteral("stopped by the test"));
        // Closed while a read runs: the read is dropped and the history is empty.
        changed.clear();
        watch->reload();
        store.close();
        QCOMPARE(changed.size(), 1);
        QVERIFY(!watch->isCurrent());
        QVERIFY(watch->history().rounds.isEmpty());
        QTest::qWait(300);
        QCOMPARE(changed.size(), 1);
        QVERIFY(watch->history().rounds.isEmpty());
    }

private:
    QString copy(const QString &name)
    {
        const QString file = m_dir.filePath(name + QStringLiteral(".kforge"));
        QFile::remove(file);
        if (!QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge"), file))
            return {};
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        return file;
    }

    QTemporaryDir m_dir;
};

QTEST_MAIN(TestSessionHistory)
#include "tst_sessionhistory.moc"
