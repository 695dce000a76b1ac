// Settings: defaults on a fresh store, every value survives a round trip through a new object and through a
// restart (a second process), values under the keys of earlier releases are moved, signals.
#include "core/llm/endpointpresets.h"
#include "core/settings/settings.h"

#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;

namespace {
// What settings_child prints after its `write`, for the file it was given.
const QString childDump = QStringLiteral("language=zh_CN\n"
                                         "theme=dark\n"
                                         "recent=/data/h200.kforge|/data/tasks/diag_matmul\n"
                                         "geometry=01d9d0cb\n"
                                         "nvcc=/opt/cuda/bin/nvcc\n"
                                         "workers=h200:ssh h200 kforge-worker\n"
                                         "trials=7\n"
                                         "candidates=6\n");

// Runs settings_child as a separate process whose own configuration folder is `configHome`.
QString runChild(const QString &mode, const QString &target, const QString &configHome, QString *error)
{
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), configHome);
    child.setProcessEnvironment(env);
    child.start(QStringLiteral(KFORGE_SETTINGS_CHILD), {mode, target});
    if (!child.waitForFinished(30000) || child.exitStatus() != QProcess::NormalExit || child.exitCode() != 0) {
        *error = QStringLiteral("settings_child %1 %2: %3 %4")
                     .arg(mode, target, child.errorString(), QString::fromLocal8Bit(child.readAllStandardError()));
        return {};
    }
    return QString::fromUtf8(child.readAllStandardOutput());
}
} // namespace

class TestSettings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("KForgeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_settings"));
        QVERIFY(m_dir.isValid());
    }

    void defaults()
    {
        Settings s(m_dir.filePath(QStringLiteral("fresh.ini")));
        QCOMPARE(s.language(), QStringLiteral("system"));
        QCOMPARE(s.theme(), Theme::System);
        QVERIFY(s.recentFiles().isEmpty());
        QVERIFY(s.windowState().isEmpty());
        QCOMPARE(s.nvccPath(), QString());
        QCOMPARE(s.compileFlags(), Settings::Defaults::compileFlags());
        QCOMPARE(s.workers().size(), 1);
        QCOMPARE(s.workers().first().command, Settings::Defaults::workers().first().command);
        QCOMPARE(s.timing(), TimingSetting{});
        QCOMPARE(s.timing().trials, 5);
        QCOMPARE(s.timing().ciTargetPercent, 1.0); // ±1%: the adaptive timing's default
        QCOMPARE(s.metricsPolicy(), MetricsPolicy::Mode::WhenTheyPay);
        QVERIFY(s.endpoints().isEmpty());
        QCOMPARE(s.candidatesPerRound(), Settings::Defaults::candidatesPerRound);
        QCOMPARE(s.exemplars(), Settings::Defaults::exemplars);
        QCOMPARE(s.temperature(), Settings::Defaults::temperature);
    }

    void roundTrip()
    {
        const QString file = m_dir.filePath(QStringLiteral("roundtrip.ini"));
        QList<WorkerConfig> workers(2);
        workers[0].name = QStringLiteral("box");
        workers[0].command = QStringLiteral("ssh box kforge-worker");
        workers[1].name = QStringLiteral("slurm");
        workers[1].command = QStringLiteral("srun -G1 kforge-worker");
        workers[1].transfer = WorkerConfig::Transfer::Inline;
        workers[1].startTimeoutMs = 300000;
        EndpointConfig vllm = *EndpointPresets::find(QStringLiteral("vllm"));
        vllm.id = QStringLiteral("local-vllm");
        vllm.displayName = QStringLiteral("local vLLM");
        vllm.defaultModel = QStringLiteral("qwen");
        vllm.temperature = 0.3;
        const QList<EndpointConfig> endpoints{vllm};
        const TimingSetting timing{3, 50, 200, 500, 4, 2.5};
        {
            Settings s(file);
            s.setLanguage(QStringLiteral("zh_CN"));
            s.setTheme(Theme::Dark);
            s.addRecentFile(QStringLiteral("/tmp/a"));
            s.addRecentFile(QStringLiteral("/tmp/b.kforge"));
            s.setWindowGeometry(QByteArrayLiteral("geometry\x01\x02"));
            s.setWindowState(QByteArrayLiteral("state\x00\x03"));
            s.setNvccPath(QStringLiteral("/opt/cuda/bin/nvcc"));
            s.setCompileFlags({QStringLiteral("-O2"), QStringLiteral("--use_fast_math")});
            s.setDefaultArch(QStringLiteral("sm_90"));
            s.setWorkers(workers);
            s.setTiming(timing);
            s.setEndpoints(endpoints);
            s.setCandidatesPerRound(8);
            s.setExemplars(3);
            s.setTemperature(0.2);
        }
        Settings s(file);
        QCOMPARE(s.language(), QStringLiteral("zh_CN"));
        QCOMPARE(s.theme(), Theme::Dark);
        QCOMPARE(s.recentFiles(), (QStringList{QStringLiteral("/tmp/b.kforge"), QStringLiteral("/tmp/a")}));
        QCOMPARE(s.windowGeometry(), QByteArrayLiteral("geometry\x01\x02"));
        QCOMPARE(s.windowState(), QByteArrayLiteral("state\x00\x03"));
        QCOMPARE(s.nvccPath(), QStringLiteral("/opt/cuda/bin/nvcc"));
        QCOMPARE(s.compileFlags(), (QStringList{QStringLiteral("-O2"), QStringLiteral("--use_fast_math")}));
        QCOMPARE(s.defaultArch(), QStringLiteral("sm_90"));
        QCOMPARE(s.workers().size(), 2);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(s.workers()[i].name, workers[i].name);
            QCOMPARE(s.workers()[i].command, workers[i].command);
            QCOMPARE(s.workers()[i].transfer, workers[i].transfer);
            QCOMPARE(s.workers()[i].startTimeoutMs, workers[i].startTimeoutMs);
        }
        QCOMPARE(s.timing(), timing);
        QCOMPARE(s.endpoints(), endpoints);
        // The same list kforge-cli reads straight from QSettings.
        QSettings raw(file, QSettings::IniFormat);
        QCOMPARE(EndpointConfig::loadAll(raw), endpoints);
        QCOMPARE(s.candidatesPerRound(), 8);
        QCOMPARE(s.exemplars(), 3);
        QCOMPARE(s.temperature(), 0.2);
    }

    void emptyListsStayEmpty()
    {
        const QString file = m_dir.filePath(QStringLiteral("empty.ini"));
        {
            Settings s(file);
            s.setWorkers({});
            s.setCompileFlags({});
        }
        Settings s(file);
        QVERIFY(s.workers().isEmpty());
        QVERIFY(s.compileFlags().isEmpty());
    }

    void recentFilesAreMostRecentFirstAndCapped()
    {
        Settings s(m_dir.filePath(QStringLiteral("recent.ini")));
        QSignalSpy spy(&s, &Settings::recentFilesChanged);
        for (int i = 0; i < Settings::Defaults::maxRecentFiles + 3; ++i)
            s.addRecentFile(QStringLiteral("/tmp/f%1").arg(i));
        QCOMPARE(s.recentFiles().size(), Settings::Defaults::maxRecentFiles);
        QCOMPARE(s.recentFiles().first(), QStringLiteral("/tmp/f%1").arg(Settings::Defaults::maxRecentFiles + 2));
        s.addRecentFile(QStringLiteral("/tmp/./f5"));
        QCOMPARE(s.recentFiles().first(), QStringLiteral("/tmp/f5"));
        QCOMPARE(s.recentFiles().count(QStringLiteral("/tmp/f5")), 1);
        s.removeRecentFile(QStringLiteral("/tmp/f5"));
        QVERIFY(!s.recentFiles().contains(QStringLiteral("/tmp/f5")));
        s.clearRecentFiles();
        QVERIFY(s.recentFiles().isEmpty());
        QCOMPARE(spy.count(), Settings::Defaults::maxRecentFiles + 3 + 3);
    }

    void invalidValuesFallBack_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QVariant>("stored");
        QTest::newRow("unknown language") << QStringLiteral("general/language") << QVariant(QStringLiteral("klingon"));
        QTest::newRow("unknown theme") << QStringLiteral("general/theme") << QVariant(QStringLiteral("purple"));
        QTest::newRow("unknown language, today's key")
            << QStringLiteral("ui/language") << QVariant(QStringLiteral("klingon"));
        QTest::newRow("unknown theme, today's key") << QStringLiteral("ui/theme") << QVariant(QStringLiteral("purple"));
        QTest::newRow("negative candidates") << QStringLiteral("rounds/candidatesPerRound") << QVariant(-4);
        QTest::newRow("unknown metrics policy")
            << QStringLiteral("evaluation/metricsPolicy") << QVariant(QStringLiteral("sometimes"));
    }

    void invalidValuesFallBack()
    {
        QFETCH(QString, key);
        QFETCH(QVariant, stored);
        const QString file = m_dir.filePath(
            QStringLiteral("invalid-%1.ini").arg(QString::fromLatin1(QTest::currentDataTag())));
        {
            QSettings raw(file, QSettings::IniFormat);
            raw.setValue(key, stored);
        }
        Settings s(file);
        QCOMPARE(s.language(), QStringLiteral("system"));
        QCOMPARE(s.theme(), Theme::System);
        QVERIFY(s.candidatesPerRound() >= 1);
        QCOMPARE(s.metricsPolicy(), Settings::Defaults::metricsPolicy());
    }

    void signalsOnlyOnChange()
    {
        Settings s(m_dir.filePath(QStringLiteral("signals.ini")));
        QSignalSpy theme(&s, &Settings::themeChanged);
        QSignalSpy workers(&s, &Settings::workersChanged);
        QSignalSpy compiler(&s, &Settings::compilerChanged);
        s.setTheme(Theme::System);
        QCOMPARE(theme.count(), 0);
        s.setTheme(Theme::Light);
        s.setTheme(Theme::Light);
        QCOMPARE(theme.count(), 1);
        WorkerConfig w;
        w.name = QStringLiteral("a");
        s.setWorkers({w});
        s.setWorkers({w});
        QCOMPARE(workers.count(), 1);
        s.setNvccPath(QStringLiteral("/x/nvcc"));
        s.setDefaultArch(QStringLiteral("sm_80"));
        QCOMPARE(compiler.count(), 2);
    }

    void applicationStoreUsesTestMode()
    {
        // The default constructor goes to the application's QSettings, which test mode keeps out of ~/.config.
        Settings s;
        s.setTheme(Theme::Dark);
        s.sync();
        QSettings raw;
        QVERIFY2(raw.fileName().contains(QLatin1String("qttest")), qPrintable(raw.fileName()));
        QCOMPARE(raw.value(QStringLiteral("ui/theme")).toString(), QStringLiteral("dark"));
        raw.clear();
    }

    void restartReadsWhatWasWritten_data()
    {
        QTest::addColumn<QString>("target");
        QTest::newRow("ini file") << m_dir.filePath(QStringLiteral("restart.ini"));
        QTest::newRow("application store") << QStringLiteral("-");
    }

    void restartReadsWhatWasWritten()
    {
        // Language, theme and recent files were once written where a later process never looked (issue 14).
        QFETCH(QString, target);
        const QString configHome = m_dir.filePath(
            QStringLiteral("xdg-%1").arg(QString::fromLatin1(QTest::currentDataTag())));
        QString error;
        QCOMPARE(runChild(QStringLiteral("write"), target, configHome, &error), QString());
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString read = runChild(QStringLiteral("read"), target, configHome, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(read, childDump);
        if (target == u"-")
            QVERIFY(QFile::exists(configHome + QStringLiteral("/KForge/KForge.conf")));
    }

    void thisProcessWritesNextProcessReads()
    {
        const QString file = m_dir.filePath(QStringLiteral("handover.ini"));
        {
            Settings s(file);
            s.setLanguage(QStringLiteral("zh_CN"));
            s.setTheme(Theme::Light);
            s.addRecentFile(QStringLiteral("/data/one.kforge"));
        }
        QString error;
        const QString read = runChild(QStringLiteral("read"), file, m_dir.filePath(QStringLiteral("xdg-handover")), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(read.startsWith(QStringLiteral("language=zh_CN\ntheme=light\nrecent=/data/one.kforge\n")),
                 qPrintable(read));
    }

    void oldKeysAreMoved()
    {
        // What earlier releases left: "general/..." keys, which the INI file holds under [%General].
        const QString file = m_dir.filePath(QStringLiteral("old.ini"));
        {
            QSettings raw(file, QSettings::IniFormat);
            raw.setValue(QStringLiteral("general/language"), QStringLiteral("zh_CN"));
            raw.setValue(QStringLiteral("general/theme"), QStringLiteral("dark"));
            raw.setValue(QStringLiteral("general/recentFiles"),
                         QStringList{QStringLiteral("/data/h200.kforge"), QStringLiteral("/data/tasks/diag_matmul")});
            raw.setValue(QStringLiteral("rounds/candidatesPerRound"), 6);
        }
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY(f.readAll().contains("[%General]"));
        }
        // A new process finds them and moves them.
        QString error;
        const QString read = runChild(QStringLiteral("read"), file, m_dir.filePath(QStringLiteral("xdg-old")), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(read.startsWith(
                     QStringLiteral("language=zh_CN\ntheme=dark\nrecent=/data/h200.kforge|/data/tasks/diag_matmul\n")),
                 qPrintable(read));
        QVERIFY2(read.contains(QStringLiteral("candidates=6\n")), qPrintable(read));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY2(!text.contains("General]") && text.contains("[ui]"), text.constData());
        // And the next process still reads them, from their new place.
        QCOMPARE(runChild(QStringLiteral("read"), file, m_dir.filePath(QStringLiteral("xdg-old")), &error), read);
    }

    void newerValueWinsOverOldKey()
    {
        const QString file = m_dir.filePath(QStringLiteral("both.ini"));
        {
            QSettings raw(file, QSettings::IniFormat);
            raw.setValue(QStringLiteral("General/theme"), QStringLiteral("dark"));
            raw.setValue(QStringLiteral("ui/theme"), QStringLiteral("light"));
        }
        Settings s(file);
        QCOMPARE(s.theme(), Theme::Light);
        QSettings raw(file, QSettings::IniFormat);
        QVERIFY(!raw.contains(QStringLiteral("General/theme")));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
