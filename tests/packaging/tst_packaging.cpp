// Desktop integration files: the .desktop entry and the AppStream metainfo pass their validators (skipped
// where desktop-file-utils or appstream are not installed), and the icons come in every promised size; the
// installed example session and module host.
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QImageReader>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {
const QString packaging = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/packaging");
const QString icons = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/icons");

// Runs a validator; returns its exit code and puts its output in `output`.
int run(const QString &program, const QStringList &args, QString &output)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(60000))
        return -1;
    output = QString::fromUtf8(p.readAll());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

// `cmake --install` of one component of this build into a fresh prefix (nothing when cmake is not on PATH).
struct Installed {
    QTemporaryDir prefix;
    QString cmake = QStandardPaths::findExecutable(QStringLiteral("cmake"));
    QString output;
    int rc = -1;

    explicit Installed(const QString &component)
    {
        if (!cmake.isEmpty() && prefix.isValid())
            rc = run(cmake,
                     {QStringLiteral("--install"), QStringLiteral(KFORGE_TEST_BINARY_DIR), QStringLiteral("--prefix"),
                      prefix.path(), QStringLiteral("--component"), component},
                     output);
    }
};
} // namespace

class TestPackaging : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void desktopFile()
    {
        const QString validator = QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate"));
        if (validator.isEmpty())
            QSKIP("desktop-file-validate (desktop-file-utils) is not installed");
        QString output;
        QCOMPARE(run(validator, {packaging + QStringLiteral("/kforge.desktop")}, output), 0);
        QVERIFY2(output.trimmed().isEmpty(), qPrintable(output)); // not even hints
    }

    void metainfo()
    {
        const QString validator = QStandardPaths::findExecutable(QStringLiteral("appstreamcli"));
        if (validator.isEmpty())
            QSKIP("appstreamcli (appstream) is not installed");
        QString output;
        const int rc = run(validator,
                           {QStringLiteral("validate"), QStringLiteral("--no-net"),
                            packaging + QStringLiteral("/io.github.kforge.KForge.metainfo.xml")},
                           output);
        QVERIFY2(rc == 0, qPrintable(output));
        QVERIFY2(!output.contains(QLatin1String("W: ")) && !output.contains(QLatin1String("E: ")), qPrintable(output));
    }

    void qtTranslationsAreInstalled()
    {
        // Qt's dialogs and standard buttons read in Chinese only with qtbase_zh_CN.qm (qt6-translations-l10n):
        // the Debian package pulls it in and scripts/setup.sh installs it.
        QFile cmake(packaging + QStringLiteral("/CMakeLists.txt"));
        QVERIFY(cmake.open(QIODevice::ReadOnly));
        bool pulledIn = false;
        for (const QByteArray &line : cmake.readAll().split('\n'))
            if ((line.contains("CPACK_DEBIAN_PACKAGE_DEPENDS") || line.contains("CPACK_DEBIAN_PACKAGE_RECOMMENDS"))
                && line.contains("qt6-translations-l10n"))
                pulledIn = true;
        QVERIFY(pulledIn);
        QFile setup(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/scripts/setup.sh"));
        QVERIFY(setup.open(QIODevice::ReadOnly));
        const QByteArray script = setup.readAll();
        const qsizetype list = script.indexOf("packages=(");
        QVERIFY(list >= 0);
        QVERIFY(script.mid(list, script.indexOf(')', list) - list).contains("qt6-translations-l10n"));
    }

    void mimeType()
    {
        QFile f(packaging + QStringLiteral("/kforge-mime.xml"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray xml = f.readAll();
        QVERIFY(xml.contains("application/x-kforge-session"));
        QVERIFY(xml.contains("*.kforge"));
    }

    void icons_data()
    {
        QTest::addColumn<int>("size");
        for (int size : {16, 22, 24, 32, 48, 64, 128, 256})
            QTest::addRow("%d", size) << size;
    }

    void icons()
    {
        QFETCH(int, size);
        QImageReader reader(::icons + QStringLiteral("/kforge-%1.png").arg(size));
        QCOMPARE(reader.format(), QByteArray("png"));
        QCOMPARE(reader.size(), QSize(size, size));
    }

    // The example session Help → Getting Started opens is installed where the program looks for it.
    void exampleSessionIsInstalled()
    {
        const Installed installed(QStringLiteral("examples"));
        if (installed.cmake.isEmpty())
            QSKIP("cmake is not on PATH");
        QVERIFY2(installed.rc == 0, qPrintable(installed.output));
        const QTemporaryDir &prefix = installed.prefix;
        QFile session(prefix.filePath(QStringLiteral("share/kforge/examples/h200-diag_matmul-gui.kforge")));
        QVERIFY2(session.open(QIODevice::ReadOnly), qPrintable(installed.output));
        QFile source(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QByteArray bytes = session.readAll();
        QVERIFY(bytes.startsWith("SQLite format 3"));
        QVERIFY(bytes == source.readAll());
        // Nothing else of the package comes with this component.
        QDir root(prefix.path());
        QCOMPARE(root.entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList{QStringLiteral("share")});
    }

    // What kforge-worker's module host needs (docs/module-host.md) is installed beside it, and nothing of the retired
    // Python judge: the package has no kforge-torch-worker and no judge modules.
    void moduleHostIsInstalled()
    {
        const Installed installed(QStringLiteral("torchworker"));
        if (installed.cmake.isEmpty())
            QSKIP("cmake is not on PATH");
        QVERIFY2(installed.rc == 0, qPrintable(installed.output));
        const QTemporaryDir &prefix = installed.prefix;
        QStringList files;
        QDirIterator it(prefix.path(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << QDir(prefix.path()).relativeFilePath(it.next());
        files.sort();
        const QString dir = QStringLiteral("share/kforge/torchworker/");
        QCOMPARE(files, (QStringList{dir + QStringLiteral("kforge-module-host"),
                                     dir + QStringLiteral("kforge_torchworker/__init__.py"),
                                     dir + QStringLiteral("kforge_torchworker/buildcache.py"),
                                     dir + QStringLiteral("kforge_torchworker/gpuipc.py"),
                                     dir + QStringLiteral("kforge_torchworker/modulehost.py"),
                                     dir + QStringLiteral("kforge_torchworker/precision.py")}));
        QVERIFY(QFileInfo(prefix.filePath(dir + QStringLiteral("kforge-module-host"))).isExecutable());
        // The guard library the module host loads is installed with kforge-worker, under lib/kforge/.
        QFile hostCmake(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/core/runtime/host/CMakeLists.txt"));
        QVERIFY(hostCmake.open(QIODevice::ReadOnly));
        QVERIFY(hostCmake.readAll().contains("install(TARGETS kforge_hostguard LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/kforge)"));
        // So is the profiler library of its trace and metrics passes, where kforge-worker looks for it.
        QFile workerCmake(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/core/runtime/worker/CMakeLists.txt"));
        QVERIFY(workerCmake.open(QIODevice::ReadOnly));
        QVERIFY(workerCmake.readAll().contains(
            "install(TARGETS kforge_moduleprofile LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/kforge)"));
    }

    void debianDependsNameMd4c()
    {
        QFile f(packaging + QStringLiteral("/CMakeLists.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray cmake = f.readAll();
        QVERIFY(cmake.contains("libmd4c0"));
        QVERIFY(cmake.contains("libmd4c-html0"));
    }

    void scalableIcon()
    {
        QFile f(::icons + QStringLiteral("/kforge.svg"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("<svg"));
    }
};

QTEST_GUILESS_MAIN(TestPackaging)
#include "tst_packaging.moc"
