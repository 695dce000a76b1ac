// ToolchainProbe: finds nvcc without blocking, reports its version, and says why when it cannot.
#include "core/compile/cudatoolkit.h"
#include "core/settings/toolchainprobe.h"

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;

class TestToolchainProbe : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void parseVersion_data()
    {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("version");
        QTest::newRow("cuda 13") << QStringLiteral("nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, "
                                                   "release 13.0, V13.0.48\nBuild cuda_13.0.r13.0/compiler.36260728_0")
                                 << QStringLiteral("13.0.48");
        QTest::newRow("release only") << QStringLiteral("Cuda compilation tools, release 12.4") << QStringLiteral("12.4");
        QTest::newRow("garbage") << QStringLiteral("command not found") << QString();
    }

    void parseVersion()
    {
        QFETCH(QString, output);
        QFETCH(QString, version);
        QCOMPARE(ToolchainProbe::parseVersion(output), version);
    }

    void missingConfiguredPath()
    {
        ToolchainProbe probe;
        QSignalSpy spy(&probe, &ToolchainProbe::finished);
        probe.start(QStringLiteral("/nonexistent/bin/nvcc"));
        QCOMPARE(spy.count(), 0); // never synchronous
        QVERIFY(spy.wait(5000));
        const auto info = spy.at(0).at(0).value<ToolchainInfo>();
        QVERIFY(!info.found);
        QVERIFY(info.error.contains(QLatin1String("/nonexistent/bin/nvcc")));
    }

    void failingCompiler()
    {
        // A "compiler" that exists but fails: reported as not found, with its output in the message.
        QTemporaryDir dir;
        const QString fake = dir.filePath(QStringLiteral("nvcc"));
        QFile f(fake);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\necho 'libcudart missing' >&2\nexit 3\n");
        f.close();
        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        ToolchainProbe probe;
        QSignalSpy spy(&probe, &ToolchainProbe::finished);
        probe.start(fake);
        QVERIFY(spy.wait(5000));
        const auto info = spy.at(0).at(0).value<ToolchainInfo>();
        QVERIFY(!info.found);
        QVERIFY2(info.error.contains(QLatin1String("libcudart missing")), qPrintable(info.error));
    }

    void realNvcc()
    {
        const QString nvcc = CudaToolkit::locateNvcc({});
        if (nvcc.isEmpty())
            QSKIP("no CUDA toolkit (nvcc) on this machine");
        ToolchainProbe probe;
        QSignalSpy spy(&probe, &ToolchainProbe::finished);
        probe.start({});
        QVERIFY(spy.wait(30000));
        const auto info = spy.at(0).at(0).value<ToolchainInfo>();
        QVERIFY2(info.found, qPrintable(info.error));
        QCOMPARE(info.nvccPath, nvcc);
        QVERIFY2(!info.version.isEmpty() && info.version.at(0).isDigit(), qPrintable(info.version));
    }

    void restartDropsTheFirstAnswer()
    {
        ToolchainProbe probe;
        QSignalSpy spy(&probe, &ToolchainProbe::finished);
        probe.start(QStringLiteral("/nonexistent/first/nvcc"));
        probe.start(QStringLiteral("/nonexistent/second/nvcc"));
        QVERIFY(spy.wait(5000));
        QTest::qWait(50);
        QCOMPARE(spy.count(), 1);
        QVERIFY(spy.at(0).at(0).value<ToolchainInfo>().error.contains(QLatin1String("second")));
    }
};

QTEST_GUILESS_MAIN(TestToolchainProbe)
#include "tst_toolchainprobe.moc"
