// `kforge-cli chat` (the built binary) against the replay server, for both protocols: what goes to stdout
// and stderr, the exit statuses, --json, and that the key never shows.
#include "replayserver.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using kforge::test::ReplayServer;

namespace {
const QByteArray kKey = "sk-cli-test-9Hq2LmZ0vB4nR2sK9pXeabcd";

struct CliRun {
    int exitCode = -1;
    QString out;
    QString err;
};
} // namespace

class TestLlmCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void streamsBothProtocols_data();
    void streamsBothProtocols();
    void reasoningGoesToStderr();
    void json();
    void failures_data();
    void failures();
    void usageErrors_data();
    void usageErrors();
    void keyFromEnvironmentOnTheWireOnly();
    void promptFromStdin();

private:
    CliRun cli(const QStringList &args, const QByteArray &stdinData = {});
    QString promptFile(const QString &text);

    ReplayServer m_server;
    QTemporaryDir m_dir;
    int m_files = 0;
};

void TestLlmCli::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QString error;
    QVERIFY2(m_server.loadFixtures(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/llm"), &error), qPrintable(error));
    QVERIFY(m_server.listen());
    QVERIFY(m_dir.isValid());
}

QString TestLlmCli::promptFile(const QString &text)
{
    const QString path = m_dir.filePath(QStringLiteral("prompt%1.txt").arg(++m_files));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(text.toUtf8());
    return path;
}

CliRun TestLlmCli::cli(const QStringList &args, const QByteArray &stdinData)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *v : {"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"})
        env.remove(QString::fromLatin1(v));
    env.insert(QStringLiteral("KFORGE_CLI_TEST_KEY"), QString::fromUtf8(kKey));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config"))); // never the user's settings
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("disabled:")); // no desktop keychain prompts
    p.setProcessEnvironment(env);
    QSignalSpy done(&p, &QProcess::finished);
    p.start(QStringLiteral(KFORGE_CLI), QStringList{QStringLiteral("chat")} + args);
    if (!stdinData.isNull()) {
        p.write(stdinData);
        p.closeWriteChannel();
    }
    // The server lives in this thread, so wait with the event loop running rather than blocking.
    if (!done.wait(30'000))
        p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

void TestLlmCli::streamsBothProtocols_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("protocol");
    QTest::addColumn<QString>("answer");
    QTest::addColumn<QString>("usage");
    QTest::newRow("openai") << "openai_basic"
                            << "openai"
                            << "The faster kernel fuses the two loads into one pass."
                            << "42 prompt + 9 completion tokens";
    QTest::newRow("openai chinese") << "openai_chinese_split"
                                    << "openai" << QStringLiteral("内核融合减少了全局内存访问，速度提高了三倍。🚀")
                                    << "30 prompt + 21 completion tokens";
    QTest::newRow("anthropic") << "anthropic_basic"
                               << "anthropic" << QStringLiteral("Fusing the two kernels removes a round trip to HBM. 显存")
                               << "310 prompt + 87 completion tokens";
}

void TestLlmCli::streamsBothProtocols()
{
    QFETCH(QString, scenario);
    QFETCH(QString, protocol);
    QFETCH(QString, answer);
    QFETCH(QString, usage);
    const CliRun r = cli({QStringLiteral("--endpoint"), m_server.baseUrl(scenario), QStringLiteral("--protocol"),
                          protocol, QStringLiteral("--model"), QStringLiteral("test-model"),
                          QStringLiteral("--prompt-file"), promptFile(QStringLiteral("Why is B faster?"))});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, answer + QLatin1Char('\n'));
    QVERIFY2(r.err.contains(QStringLiteral("usage: ") + usage), qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1); // the usage line and nothing else
}

void TestLlmCli::reasoningGoesToStderr()
{
    const CliRun r = cli({QStringLiteral("-e"), m_server.baseUrl(QStringLiteral("openai_reasoning")), QStringLiteral("-m"),
                          QStringLiteral("deepseek-reasoner"), QStringLiteral("-p"), promptFile(QStringLiteral("?"))});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, QStringLiteral("Use shared memory tiles.\n"));
    QVERIFY(r.err.startsWith(QStringLiteral("The naive kernel reads B twice; tiling halves the traffic.\n")));
    QVERIFY(r.err.contains(QStringLiteral("(40 reasoning)")));
}

void TestLlmCli::json()
{
    const CliRun r = cli({QStringLiteral("-e"), m_server.baseUrl(QStringLiteral("anthropic_thinking")),
                          QStringLiteral("--protocol"), QStringLiteral("anthropic"), QStringLiteral("-m"),
                          QStringLiteral("claude-test"), QStringLiteral("-p"), promptFile(QStringLiteral("?")),
                          QStringLiteral("--json"), QStringLiteral("--max-tokens"), QStringLiteral("900")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out.count(QLatin1Char('\n')), 1);
    QJsonParseError pe{};
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8(), &pe).object();
    QCOMPARE(pe.error, QJsonParseError::NoError);
    QCOMPARE(o.value(QLatin1String("status")).toString(), QStringLiteral("complete"));
    QCOMPARE(o.value(QLatin1String("text")).toString(), QStringLiteral("Fuse them."));
    QCOMPARE(o.value(QLatin1String("reasoning")).toString(), QStringLiteral("The reference launches two kernels."));
    QCOMPARE(o.value(QLatin1String("stop_reason")).toString(), QStringLiteral("end_turn"));
    QCOMPARE(o.value(QLatin1String("protocol")).toString(), QStringLiteral("anthropic"));
    QCOMPARE(o.value(QLatin1String("usage")).toObject().value(QLatin1String("prompt_tokens")).toInt(), 420);
    QCOMPARE(o.value(QLatin1String("attempts")).toInt(), 1);
    QVERIFY(!o.contains(QLatin1String("error")));
    QVERIFY(r.err.isEmpty());
    const QJsonObject sent = QJsonDocument::fromJson(m_server.requests().constLast().body).object();
    QCOMPARE(sent.value(QLatin1String("max_tokens")).toInt(), 900);
}

void TestLlmCli::failures_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("protocol");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("out");
    QTest::addColumn<QString>("message");
    QTest::newRow("401") << "auth_401_openai"
                         << "openai" << 1 << ""
                         << "rejected the API key (HTTP 401)";
    QTest::newRow("404") << "notfound_404"
                         << "openai" << 1 << ""
                         << "Not found (HTTP 404)";
    QTest::newRow("400 anthropic") << "bad_400_anthropic"
                                   << "anthropic" << 1 << ""
                                   << "maximum allowed number of output tokens";
    QTest::newRow("truncated") << "openai_length"
                               << "openai" << 3 << "The kernel is memory bound because\n"
                               << "cut off at the token limit (stop reason 'length')";
    QTest::newRow("anthropic truncated") << "anthropic_max_tokens"
                                         << "anthropic" << 3 << "The first reason is\n"
                                         << "stop reason 'max_tokens'";
    QTest::newRow("dropped mid-stream") << "drop_mid_stream"
                                        << "openai" << 4 << "The faster kernel fuses\n"
                                        << "broke in the middle of the answer";
    QTest::newRow("no message_stop") << "anthropic_no_stop"
                                     << "anthropic" << 4 << "Cut short\n"
                                     << "the answer is incomplete";
}

void TestLlmCli::failures()
{
    QFETCH(QString, scenario);
    QFETCH(QString, protocol);
    QFETCH(int, exitCode);
    QFETCH(QString, out);
    QFETCH(QString, message);
    const CliRun r = cli({QStringLiteral("-e"), m_server.baseUrl(scenario), QStringLiteral("--protocol"), protocol,
                          QStringLiteral("-m"), QStringLiteral("test-model"), QStringLiteral("-p"),
                          promptFile(QStringLiteral("?")), QStringLiteral("--api-key-env"),
                          QStringLiteral("KFORGE_CLI_TEST_KEY")});
    QCOMPARE(r.exitCode, exitCode);
    QCOMPARE(r.out, out);
    const QStringList lines = r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(!lines.isEmpty());
    // One specific message, last; before it at most the usage line of what did arrive.
    QVERIFY2(lines.constLast().startsWith(QStringLiteral("kforge-cli chat: ")) && lines.constLast().contains(message),
             qPrintable(r.err));
    QCOMPARE(lines.size(), out.isEmpty() ? 1 : 2);
    QVERIFY(!r.err.contains(QString::fromUtf8(kKey)) && !r.err.contains(QStringLiteral("abcd")));
}

void TestLlmCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString prompt = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/llm/scenarios.json");
    QTest::newRow("no prompt") << QStringList{QStringLiteral("-e"), QStringLiteral("http://127.0.0.1:9/v1"),
                                              QStringLiteral("-m"), QStringLiteral("x")}
                               << "--prompt-file is required";
    QTest::newRow("no endpoint") << QStringList{QStringLiteral("-p"), prompt} << "--endpoint is required";
    QTest::newRow("unknown endpoint") << QStringList{QStringLiteral("-e"), QStringLiteral("nowhere"),
                                                     QStringLiteral("-p"), prompt}
                                      << "unknown endpoint 'nowhere'";
    QTest::newRow("unknown protocol") << QStringList{QStringLiteral("-e"),         QStringLiteral("openai"),
                                                     QStringLiteral("--protocol"), QStringLiteral("grpc"),
                                                     QStringLiteral("-p"),         prompt}
                                      << "unknown protocol 'grpc'";
    QTest::newRow("missing prompt file") << QStringList{QStringLiteral("-e"), QStringLiteral("ollama"),
                                                        QStringLiteral("-m"), QStringLiteral("x"),
                                                        QStringLiteral("-p"), QStringLiteral("/nonexistent/prompt.txt")}
                                         << "cannot read /nonexistent/prompt.txt";
    QTest::newRow("unset key variable") << QStringList{QStringLiteral("-e"),
                                                       QStringLiteral("openai"),
                                                       QStringLiteral("-p"),
                                                       prompt,
                                                       QStringLiteral("--api-key-env"),
                                                       QStringLiteral("KFORGE_NO_SUCH_VAR")}
                                        << "KFORGE_NO_SUCH_VAR is not set";
    QTest::newRow("preset without key") << QStringList{QStringLiteral("-e"), QStringLiteral("deepseek"),
                                                       QStringLiteral("-p"), prompt}
                                        << "DEEPSEEK_API_KEY";
    QTest::newRow("no model") << QStringList{QStringLiteral("-e"), QStringLiteral("vllm"), QStringLiteral("-p"), prompt}
                              << "No model given";
    QTest::newRow("bad number") << QStringList{QStringLiteral("-e"),
                                               QStringLiteral("ollama"),
                                               QStringLiteral("-m"),
                                               QStringLiteral("x"),
                                               QStringLiteral("-p"),
                                               prompt,
                                               QStringLiteral("--temperature"),
                                               QStringLiteral("hot")}
                                << "--temperature needs a number";
    QTest::newRow("unknown option") << QStringList{QStringLiteral("--frobnicate")} << "frobnicate";
}

void TestLlmCli::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    qunsetenv("DEEPSEEK_API_KEY");
    const CliRun r = cli(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
}

void TestLlmCli::keyFromEnvironmentOnTheWireOnly()
{
    m_server.reset();
    const QString system = promptFile(QStringLiteral("You are a CUDA expert."));
    const CliRun r = cli({QStringLiteral("-e"), m_server.baseUrl(QStringLiteral("openai_basic_fast")),
                          QStringLiteral("-m"), QStringLiteral("m"), QStringLiteral("-p"),
                          promptFile(QStringLiteral("Speed it up.")), QStringLiteral("--system-file"), system,
                          QStringLiteral("--api-key-env"), QStringLiteral("KFORGE_CLI_TEST_KEY"),
                          QStringLiteral("--dump-request"), QStringLiteral("--temperature"), QStringLiteral("0.5"),
                          QStringLiteral("--header"), QStringLiteral("X-Title: KForge test")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(m_server.requests().size(), 1);
    const auto &req = m_server.requests().constFirst();
    QCOMPARE(req.header("Authorization"), "Bearer " + kKey);
    QCOMPARE(req.header("X-Title"), QByteArray("KForge test"));
    const QJsonObject body = QJsonDocument::fromJson(req.body).object();
    QCOMPARE(body.value(QLatin1String("temperature")).toDouble(), 0.5);
    QVERIFY(req.body.contains("You are a CUDA expert."));
    QVERIFY(r.err.contains(QStringLiteral("Authorization: [redacted]")));
    QVERIFY(!r.err.contains(QString::fromUtf8(kKey)) && !r.out.contains(QString::fromUtf8(kKey)));
}

void TestLlmCli::promptFromStdin()
{
    m_server.reset();
    const CliRun r = cli({QStringLiteral("-e"), m_server.baseUrl(QStringLiteral("anthropic_basic")),
                          QStringLiteral("--protocol"), QStringLiteral("anthropic"), QStringLiteral("-m"),
                          QStringLiteral("c"), QStringLiteral("-p"), QStringLiteral("-")},
                         QByteArray("Prompt from a pipe: 内核"));
    QCOMPARE(r.exitCode, 0);
    QVERIFY(m_server.requests().constFirst().body.contains("Prompt from a pipe: 内核"));
}

QTEST_GUILESS_MAIN(TestLlmCli)
#include "tst_llmcli.moc"
