// LateResultGuard and whenFinished: the answer to the latest request only, never after its owner is gone, always
// from the event loop.
#include "core/async/lateresultguard.h"

#include <QPromise>
#include <QSemaphore>
#include <QTest>
#include <QtConcurrent>

#include <memory>

using namespace kforge;

namespace {

// A request answered when the test says so.
struct Pending {
    QPromise<int> promise;
    QFuture<int> future = promise.future();
    Pending() { promise.start(); }
    void answer(int value)
    {
        promise.addResult(value);
        promise.finish();
    }
};

} // namespace

class TestLateResultGuard : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Two requests, the older answered last: only the newer one's answer arrives.
    void lateAnswerAfterNewerRequestIsDropped()
    {
        QObject owner;
        LateResultGuard guard;
        QList<int> delivered;
        Pending first;
        Pending second;
        guard.deliver(&owner, first.future, [&](int v) { delivered << v; });
        guard.deliver(&owner, second.future, [&](int v) { delivered << v; });
        second.answer(2);
        QTRY_COMPARE(delivered, QList<int>{2});
        first.answer(1);
        QTest::qWait(50);
        QCOMPARE(delivered, QList<int>{2});
    }

    // The work runs on a pool thread and finishes after its owner was destroyed: nothing is delivered, nothing
    // asserts (QFuture::then(owner, ...) asserts here on Qt 6.4 with asserts on).
    void answerAfterOwnerDestroyedIsDropped()
    {
        auto owner = std::make_unique<QObject>();
        auto guard = std::make_unique<LateResultGuard>();
        QSemaphore release;
        bool delivered = false;
        QFuture<int> work = QtConcurrent::run([&release] {
            release.acquire();
            return 7;
        });
        guard->deliver(owner.get(), work, [&](int) { delivered = true; });
        owner.reset();
        guard.reset();
        release.release();
        work.waitForFinished();
        QTest::qWait(50);
        QVERIFY(!delivered);
    }

    // The owner alive, the guard's request dropped (the session closed): nothing is delivered.
    void droppedRequestIsNotDelivered()
    {
        QObject owner;
        LateResultGuard guard;
        bool delivered = false;
        Pending p;
        guard.deliver(&owner, p.future, [&](int) { delivered = true; });
        guard.drop();
        p.answer(1);
        QTest::qWait(50);
        QVERIFY(!delivered);
    }

    // A callback API (a key lookup): the bound callable delivers for the latest request only, and nothing once the
    // guard is gone.
    void boundCallbackFollowsTheLatestRequest()
    {
        auto guard = std::make_unique<LateResultGuard>();
        QStringList delivered;
        auto older = guard->bind([&](const QString &s) { delivered << s; });
        auto newer = guard->bind([&](const QString &s) { delivered << s; });
        older(QStringLiteral("older"));
        newer(QStringLiteral("newer"));
        QCOMPARE(delivered, QStringList{QStringLiteral("newer")});
        auto last = guard->bind([&](const QString &s) { delivered << s; });
        guard.reset();
        last(QStringLiteral("after the guard"));
        QCOMPARE(delivered, QStringList{QStringLiteral("newer")});
    }

    // An answer that is ready when it is attached still comes from the event loop, never inside the call.
    void readyAnswerComesFromTheEventLoop()
    {
        QObject owner;
        LateResultGuard guard;
        int delivered = 0;
        guard.deliver(&owner, QtFuture::makeReadyFuture(5), [&](int v) { delivered = v; });
        QCOMPARE(delivered, 0);
        QTRY_COMPARE(delivered, 5);
        bool voidDone = false;
        whenFinished(&owner, QtFuture::makeReadyFuture(), [&] { voidDone = true; });
        QVERIFY(!voidDone);
        QTRY_VERIFY(voidDone);
    }
};

QTEST_GUILESS_MAIN(TestLateResultGuard)
#include "tst_lateresultguard.moc"
