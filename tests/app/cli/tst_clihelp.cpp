// `kforge-cli <command> --help` names the program as the user types it ("kforge-cli export"), never by the path
// the binary was started from; every command listed by `kforge-cli --help` has such a help (issue 14 item 9).
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

namespace {
struct Run {
    int code = -1;
    QString out;
};

Run runCli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(KFORGE_CLI), args);
    Run r;
    if (!p.waitForFinished(30000))
        return r;
    r.code = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    return r;
}

QStringList commands()
{
    // The command list of the top-level help: "  name   summary" lines after "Commands:".
    const Run top = runCli({QStringLiteral("--help")});
    QStringList names;
    bool inList = false;
    for (const QString &line : top.out.split(u'\n')) {
        if (line.startsWith(QLatin1String("Commands:"))) {
            inList = true;
        } else if (inList && line.startsWith(QLatin1String("  "))) {
            names << line.trimmed().section(u' ', 0, 0);
        } else if (inList && line.trimmed().isEmpty()) {
            break;
        }
    }
    return names;
}
} // namespace

class TestCliHelp : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void commandsAreListed()
    {
        const QStringList names = commands();
        for (const char *expected : {"chat", "dataset", "eval", "export", "optimize", "report", "review"})
            QVERIFY2(names.contains(QLatin1String(expected)), qPrintable(names.join(u' ')));
    }

    void helpNamesTheCommand_data()
    {
        QTest::addColumn<QString>("command");
        for (const QString &c : commands())
            QTest::newRow(qPrintable(c)) << c;
    }

    void helpNamesTheCommand()
    {
        QFETCH(QString, command);
        const Run r = runCli({command, QStringLiteral("--help")});
        QCOMPARE(r.code, 0);
        const QString usage = QStringLiteral("Usage: kforge-cli %1 ").arg(command);
        QVERIFY2(r.out.contains(usage), qPrintable(r.out));
        // Neither the build folder nor the binary's path.
        const QString dir = QFileInfo(QStringLiteral(KFORGE_CLI)).absolutePath();
        QVERIFY2(!r.out.contains(dir), qPrintable(r.out));
        QVERIFY2(!r.out.contains(QStringLiteral(KFORGE_CLI)), qPrintable(r.out));
    }
};

QTEST_GUILESS_MAIN(TestCliHelp)
#include "tst_clihelp.moc"
