// WorkerProbe, the Test button of Settings → Workers: the pool's own handshake (ready line, hello, device_info)
// run once on a command, against real processes: the scripted worker in its modes, a command that is not there,
// and an ssh-like launcher that cannot resolve its host. Each answer as the page shows it (WorkerStatus).
#include "core/workerpool/workerprobe.h"
#include "workertesthelpers.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;
using namespace kforge::test;

class TestWorkerProbe : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void answer_data();
    void answer();
    void details();
};

void TestWorkerProbe::answer_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<int>("state");
    QTest::addColumn<QString>("summary"); // the table cell, exactly
    QTest::addColumn<QString>("advice");  // a part of what to do, empty: none expected

    QTest::addRow("working worker") << scriptedWorker(u"normal"_s) << int(WorkerStatus::State::Connected)
                                    << u"Connected: Scripted GPU, sm_80"_s << QString();
    QTest::addRow("host unknown to ssh") << unreachableHost() << int(WorkerStatus::State::Failed)
                                         << u"Failed: ssh: Could not resolve hostname gpu-box: Name or service not known"_s
                                         << u"~/.ssh/config"_s;
    QTest::addRow("no GPU there") << scriptedWorker(u"nodevice"_s) << int(WorkerStatus::State::NoGpu)
                                  << u"No usable GPU: CUDA driver version is insufficient for CUDA runtime version"_s
                                  << u"no usable NVIDIA GPU"_s;
    QTest::addRow("dies before ready") << scriptedWorker(u"die"_s) << int(WorkerStatus::State::Failed)
                                       << u"Failed: scripted-worker: cannot open /dev/nvidia0"_s
                                       << u"Run the command in a terminal"_s;
    QTest::addRow("other protocol") << scriptedWorker(u"mismatch"_s) << int(WorkerStatus::State::Failed)
                                    << u"Failed: The worker speaks protocol version 99; this KForge speaks version 1. "
                                       "Install matching versions of KForge and kforge-worker."_s
                                    << u"same KForge version"_s;
    QTest::addRow("program missing") << u"/nonexistent/bin/kforge-worker --device 0"_s << int(WorkerStatus::State::Failed)
                                     << u"Failed: Could not start the worker '/nonexistent/bin/kforge-worker --device 0': "
                                        "execve: No such file or directory"_s
                                     << u"full path"_s;
}

void TestWorkerProbe::answer()
{
    QFETCH(QString, command);
    QFETCH(int, state);
    QFETCH(QString, summary);
    QFETCH(QString, advice);

    WorkerConfig config;
    config.command = command;
    WorkerProbe probe(config);
    QSignalSpy finished(&probe, &WorkerProbe::finished);
    probe.start();
    QVERIFY(probe.isRunning());
    QCOMPARE(finished.size(), 0); // never inside start()
    QVERIFY(finished.wait(20000));
    QVERIFY(!probe.isRunning());
    const auto status = finished.constFirst().at(0).value<WorkerStatus>();
    QCOMPARE(int(status.state), state);
    if (!status.summary().startsWith(u"Failed: Could not start"_s))
        QCOMPARE(status.summary(), summary);
    else // the system's words for a missing program vary between Qt versions
        QVERIFY2(status.summary().startsWith(summary.left(summary.indexOf(u"': "_s) + 3)), qPrintable(status.summary()));
    QCOMPARE(WorkerStatus::advice(status.error).contains(advice), true);
    // Only a machine without a GPU reads as "no GPU", which the Log says calmly instead of as an error.
    QCOMPARE(WorkerStatus::meansNoGpu(status.error), state == int(WorkerStatus::State::NoGpu));
    if (state == int(WorkerStatus::State::Connected)) {
        QCOMPARE(status.workerVersion, u"0.0.0-scripted"_s);
        QCOMPARE(status.protocol, 1);
        QVERIFY(status.error.isEmpty());
    } else {
        QVERIFY(!status.error.isEmpty());
        QVERIFY2(status.details().contains(u"What to do: "_s), qPrintable(status.details()));
    }
    QTest::qWait(50);
    QCOMPARE(finished.size(), 1); // once
}

void TestWorkerProbe::details()
{
    // What the page shows under the table for a connected worker: GPU, driver and runtime, versions.
    WorkerStatus s;
    s.state = WorkerStatus::State::Connected;
    s.workerVersion = u"0.1.0"_s;
    s.protocol = 1;
    s.abiVersion = 1;
    s.device = DeviceInfo::fromJson({{u"index"_s, 0},
                                     {u"name"_s, u"NVIDIA H200"_s},
                                     {u"cc_major"_s, 9},
                                     {u"cc_minor"_s, 0},
                                     {u"arch"_s, u"sm_90"_s},
                                     {u"driver_version"_s, u"13.0"_s},
                                     {u"runtime_version"_s, u"12.8"_s}});
    QCOMPARE(s.details(), u"Connected: NVIDIA H200 (compute capability 9.0, sm_90)\n"
                          "CUDA driver 13.0, runtime 12.8\n"
                          "Worker 0.1.0, protocol 1, kernel ABI 1"_s);
    QCOMPARE(WorkerStatus().summary(), u"Not tested: press Test"_s);
}

QTEST_GUILESS_MAIN(TestWorkerProbe)
#include "tst_workerprobe.moc"
