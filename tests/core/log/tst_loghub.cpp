// LogHub: entries from any thread arrive in order, batched, on the hub's thread; history is capped.
#include "core/log/loghub.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QThread>

using namespace kforge;

class TestLogHub : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void burstIsOneBatch()
    {
        LogHub hub;
        QSignalSpy spy(&hub, &LogHub::entriesAdded);
        for (int i = 0; i < 500; ++i)
            hub.post(LogSource::Compiler, LogLevel::Info, QStringLiteral("line %1").arg(i));
        QCOMPARE(spy.count(), 0);
        QVERIFY(spy.wait(2000));
        QCOMPARE(spy.count(), 1);
        const auto batch = spy.at(0).at(0).value<QList<LogEntry>>();
        QCOMPARE(batch.size(), 500);
        QCOMPARE(batch.first().message, QStringLiteral("line 0"));
        QCOMPARE(batch.last().message, QStringLiteral("line 499"));
        QVERIFY(batch.first().time.isValid());
        QCOMPARE(hub.entries().size(), 500);
    }

    void fromOtherThreads()
    {
        LogHub hub;
        QSignalSpy spy(&hub, &LogHub::entriesAdded);
        QThread *emitter = QThread::create([&hub] {
            for (int i = 0; i < 1000; ++i)
                hub.post(LogSource::Worker, LogLevel::Warning, QString::number(i), QStringLiteral("gpu0"));
        });
        Qt::HANDLE receivedIn = nullptr;
        connect(&hub, &LogHub::entriesAdded, this, [&receivedIn] { receivedIn = QThread::currentThreadId(); });
        emitter->start();
        QVERIFY(emitter->wait(10000));
        delete emitter;
        QTRY_COMPARE(hub.entries().size(), 1000);
        QCOMPARE(receivedIn, QThread::currentThreadId());
        const auto all = hub.entries();
        for (int i = 0; i < all.size(); ++i)
            QCOMPARE(all[i].message, QString::number(i));
        QCOMPARE(all.first().context, QStringLiteral("gpu0"));
    }

    void capacityDropsOldest()
    {
        LogHub hub;
        hub.setCapacity(10);
        QSignalSpy spy(&hub, &LogHub::entriesAdded);
        for (int i = 0; i < 25; ++i)
            hub.post(LogSource::App, LogLevel::Debug, QString::number(i));
        QVERIFY(spy.wait(2000));
        const auto all = hub.entries();
        QCOMPARE(all.size(), 10);
        QCOMPARE(all.first().message, QStringLiteral("15"));
        QSignalSpy cleared(&hub, &LogHub::cleared);
        hub.clear();
        QCOMPARE(cleared.count(), 1);
        QVERIFY(hub.entries().isEmpty());
    }

    void names()
    {
        QCOMPARE(LogHub::sourceName(LogSource::Compiler), QStringLiteral("Compiler"));
        QCOMPARE(LogHub::levelName(LogLevel::Error), QStringLiteral("Error"));
    }
};

QTEST_GUILESS_MAIN(TestLogHub)
#include "tst_loghub.moc"
