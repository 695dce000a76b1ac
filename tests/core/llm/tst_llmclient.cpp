// LlmClient against a real HTTP/1.1 server on 127.0.0.1 that replays recorded streams: chunking, retries,
// timeouts, broken streams, HTTP errors, TLS, concurrency and cancellation.
#include "core/llm/endpointpresets.h"
#include "core/llm/llmclient.h"
#include "replayserver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>

using namespace kforge;
using kforge::test::ReplayServer;

namespace {

const QString kKey = QStringLiteral("sk-test-Zq81LmT0vB4nR2sK9pXewxyz");
const QString kFixtures = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/llm");

struct Run {
    LlmResult result;
    QString streamedText;
    QString streamedReasoning;
    int started = 0;
    QList<int> retryDelays;
    QStringList retryReasons;
    int usageSignals = 0;
    qint64 elapsedMs = 0;
};

// Collects everything one client says about one request id.
class Recorder : public QObject
{
public:
    Recorder(LlmClient &client, QObject *parent = nullptr)
        : QObject(parent)
    {
        connect(&client, &LlmClient::started, this, [this](quint64 id) { runs[id].started++; });
        connect(&client, &LlmClient::retrying, this, [this](quint64 id, int, int delay, const QString &why) {
            runs[id].retryDelays << delay;
            runs[id].retryReasons << why;
        });
        connect(&client, &LlmClient::textDelta, this,
                [this](quint64 id, const QString &t) { runs[id].streamedText += t; });
        connect(&client, &LlmClient::reasoningDelta, this,
                [this](quint64 id, const QString &t) { runs[id].streamedReasoning += t; });
        connect(&client, &LlmClient::usageUpdated, this,
                [this](quint64 id, const LlmUsage &) { runs[id].usageSignals++; });
        connect(&client, &LlmClient::finished, this, [this](quint64 id, const LlmResult &r) {
            runs[id].result = r;
            done << id;
        });
    }
    QHash<quint64, Run> runs;
    QList<quint64> done;
};

} // namespace

class TestLlmClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void scenarios_data();
    void scenarios();
    void requestOnTheWire();
    void eightConcurrentStreams();
    void cancelOne();
    void cancelAll();
    void totalTimeout();
    void unreachablePort();
    void dnsFailure();
    void tls();
    void proxyFromEnvironment();
    void invalidRequestStillFinishes();
    void keyNeverInMessages();
    void destroyWhileStreaming();

private:
    LlmRequest make(const QString &scenario, LlmProtocol protocol = LlmProtocol::OpenAi) const;
    Run runOne(const LlmRequest &request, int timeoutMs = 30'000);

    ReplayServer m_server;
};

void TestLlmClient::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    // A proxy from the environment would receive the loopback requests.
    for (const char *v :
         {"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "no_proxy", "NO_PROXY"})
        qunsetenv(v);
    QString error;
    QVERIFY2(m_server.loadFixtures(kFixtures, &error), qPrintable(error));
    QVERIFY(m_server.listen());
}

LlmRequest TestLlmClient::make(const QString &scenario, LlmProtocol protocol) const
{
    LlmRequest r;
    r.endpoint = EndpointPresets::forUrl(m_server.baseUrl(scenario), protocol);
    r.endpoint.limits.connectTimeoutMs = 3'000;
    r.endpoint.limits.idleTimeoutMs = 700;
    r.endpoint.limits.totalTimeoutMs = 20'000;
    r.endpoint.limits.maxAttempts = 3;
    r.endpoint.limits.backoffBaseMs = 20;
    r.endpoint.limits.backoffMaxMs = 100;
    r.endpoint.limits.maxRetryAfterMs = 5'000;
    r.model = QStringLiteral("test-model");
    r.system = QStringLiteral("You write CUDA kernels.");
    r.messages = {{QStringLiteral("user"), QStringLiteral("Why is variant B faster than A?")}};
    r.apiKey = kKey;
    return r;
}

Run TestLlmClient::runOne(const LlmRequest &request, int timeoutMs)
{
    LlmClient client;
    Recorder rec(client);
    QSignalSpy finished(&client, &LlmClient::finished);
    QElapsedTimer clock;
    clock.start();
    const quint64 id = client.send(request);
    if (!finished.wait(timeoutMs))
        qWarning("request %llu did not finish within %d ms", id, timeoutMs);
    Run r = rec.runs.value(id);
    r.elapsedMs = clock.elapsed();
    // Exactly one finished() per request, and nothing after it.
    QTest::qWait(30);
    if (finished.size() != 1)
        qWarning("finished() emitted %d times", int(finished.size()));
    r.result.id = finished.size() == 1 ? r.result.id : 0;
    return r;
}

void TestLlmClient::scenarios_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<int>("protocol");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("error");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reasoning");
    QTest::addColumn<int>("attempts");
    QTest::addColumn<int>("minMs");       // lower bound on the time taken (Retry-After honoured)
    QTest::addColumn<QString>("message"); // a part the error message must contain

    const int oa = int(LlmProtocol::OpenAi), an = int(LlmProtocol::Anthropic);
    const int complete = int(LlmStatus::Complete), truncated = int(LlmStatus::Truncated),
              failed = int(LlmStatus::Failed), partial = int(LlmStatus::Partial);
    const int none = int(LlmErrorKind::None);
    const QString basic = QStringLiteral("The faster kernel fuses the two loads into one pass.");
    const QString chinese = QStringLiteral("内核融合减少了全局内存访问，速度提高了三倍。🚀");
    const QString claude = QStringLiteral("Fusing the two kernels removes a round trip to HBM. 显存");

    QTest::newRow("openai, 37-byte chunks") << "openai_basic" << oa << complete << none << basic << "" << 1 << 0 << "";
    QTest::newRow("openai, one write") << "openai_basic_fast" << oa << complete << none << basic << "" << 1 << 0 << "";
    QTest::newRow("chinese split inside characters and data:")
        << "openai_chinese_split" << oa << complete << none << chinese << "" << 1 << 0 << "";
    QTest::newRow("chinese byte by byte, CRLF")
        << "openai_chinese_bytewise" << oa << complete << none << chinese << "" << 1 << 0 << "";
    QTest::newRow("reasoning_content") << "openai_reasoning" << oa << complete << none << "Use shared memory tiles."
                                       << "The naive kernel reads B twice; tiling halves the traffic." << 1 << 0 << "";
    QTest::newRow("reasoning field") << "openai_reasoning_field" << oa << complete << none << "Unroll by 4."
                                     << "Loop overhead dominates." << 1 << 0 << "";
    QTest::newRow("reasoning only, cut by length") << "openai_reasoning_only" << oa << truncated << none << ""
                                                   << "Consider the memory access pattern of each warp" << 1 << 0 << "";
    QTest::newRow("finish_reason length")
        << "openai_length" << oa << truncated << none << "The kernel is memory bound because"
        << "" << 1 << 0 << "";
    QTest::newRow("empty choices") << "openai_empty_choices" << oa << complete << none << "Coalesce the stores."
                                   << "" << 1 << 0 << "";
    QTest::newRow("invalid JSON chunk") << "openai_invalid_json" << oa << partial << int(LlmErrorKind::MalformedStream)
                                        << "Partial answer"
                                        << "" << 1 << 0 << "invalid JSON";
    QTest::newRow("error object mid-stream")
        << "openai_midstream_error" << oa << partial << int(LlmErrorKind::ServerError) << "Half an answer"
        << "" << 1 << 0 << "The server had an error while processing";
    QTest::newRow("no [DONE]") << "openai_no_done" << oa << partial << int(LlmErrorKind::StreamIncomplete)
                               << "This answer stops"
                               << "" << 1 << 0 << "without its end marker";
    QTest::newRow("whole JSON instead of a stream")
        << "openai_nonstream" << oa << complete << none << "Whole answer at once."
        << "" << 1 << 0 << "";
    QTest::newRow("a web page instead of the API")
        << "html_page" << oa << failed << int(LlmErrorKind::MalformedStream) << ""
        << "" << 1 << 0 << "answered with text/html instead of an event stream";
    QTest::newRow("429 Retry-After seconds, then success")
        << "retry_429" << oa << complete << none << basic << "" << 2 << 950 << "";
    QTest::newRow("429 Retry-After date, then success")
        << "retry_429_date" << oa << complete << none << basic << "" << 2 << 900 << "";
    QTest::newRow("429 asking for an hour") << "retry_429_too_long" << oa << failed << int(LlmErrorKind::RateLimited) << ""
                                            << "" << 1 << 0 << "asked to wait 3600 s";
    QTest::newRow("502 then success") << "retry_500" << oa << complete << none << basic << "" << 2 << 0 << "";
    QTest::newRow("500 every time") << "always_500" << oa << failed << int(LlmErrorKind::ServerError) << ""
                                    << "" << 3 << 0 << "502 Bad Gateway";
    QTest::newRow("dropped before content, retried")
        << "drop_before_content" << oa << complete << none << basic << "" << 2 << 0 << "";
    QTest::newRow("dropped mid-stream") << "drop_mid_stream" << oa << partial << int(LlmErrorKind::ConnectionLost)
                                        << "The faster kernel fuses"
                                        << "" << 1 << 0 << "broke in the middle of the answer";
    QTest::newRow("silent mid-stream") << "idle_mid_stream" << oa << partial << int(LlmErrorKind::IdleTimeout)
                                       << "The faster kernel fuses"
                                       << "" << 1 << 650 << "idle timeout";
    QTest::newRow("silent from the start") << "idle_before_content" << oa << failed << int(LlmErrorKind::IdleTimeout) << ""
                                           << "" << 1 << 650 << "sent nothing for 0.7 s";
    QTest::newRow("401 openai") << "auth_401_openai" << oa << failed << int(LlmErrorKind::AuthFailed) << ""
                                << "" << 1 << 0 << "rejected the API key (HTTP 401)";
    QTest::newRow("401 anthropic") << "auth_401_anthropic" << an << failed << int(LlmErrorKind::AuthFailed) << ""
                                   << "" << 1 << 0 << "invalid x-api-key";
    QTest::newRow("404 unknown model") << "notfound_404" << oa << failed << int(LlmErrorKind::NotFound) << ""
                                       << "" << 1 << 0 << "the model 'test-model'";
    QTest::newRow("404 ollama") << "notfound_404_ollama" << oa << failed << int(LlmErrorKind::NotFound) << ""
                                << "" << 1 << 0 << "try pulling it first";
    QTest::newRow("400 openai") << "bad_400_openai" << oa << failed << int(LlmErrorKind::BadRequest) << ""
                                << "" << 1 << 0 << "max_tokens is too large: 999999";
    QTest::newRow("400 anthropic") << "bad_400_anthropic" << an << failed << int(LlmErrorKind::BadRequest) << ""
                                   << "" << 1 << 0 << "maximum allowed number of output tokens";
    QTest::newRow("wrong protocol for the path") << "anthropic_basic" << oa << failed << int(LlmErrorKind::NotFound) << ""
                                                 << "" << 1 << 0 << "no scenario";
    QTest::newRow("anthropic") << "anthropic_basic" << an << complete << none << claude << "" << 1 << 0 << "";
    QTest::newRow("anthropic split inside event:, data: and characters")
        << "anthropic_split" << an << complete << none << claude << "" << 1 << 0 << "";
    QTest::newRow("anthropic thinking") << "anthropic_thinking" << an << complete << none << "Fuse them."
                                        << "The reference launches two kernels." << 1 << 0 << "";
    QTest::newRow("anthropic max_tokens") << "anthropic_max_tokens" << an << truncated << none << "The first reason is"
                                          << "" << 1 << 0 << "";
    QTest::newRow("anthropic overloaded before content, retried")
        << "anthropic_overloaded_then_ok" << an << complete << none << claude << "" << 2 << 0 << "";
    QTest::newRow("anthropic error after text")
        << "anthropic_error_after_text" << an << partial << int(LlmErrorKind::ServerError) << "Started well"
        << "" << 1 << 0 << "Overloaded";
    QTest::newRow("anthropic no message_stop")
        << "anthropic_no_stop" << an << partial << int(LlmErrorKind::StreamIncomplete) << "Cut short"
        << "" << 1 << 0 << "incomplete";
}

void TestLlmClient::scenarios()
{
    QFETCH(QString, scenario);
    QFETCH(int, protocol);
    QFETCH(int, status);
    QFETCH(int, error);
    QFETCH(QString, text);
    QFETCH(QString, reasoning);
    QFETCH(int, attempts);
    QFETCH(int, minMs);
    QFETCH(QString, message);

    m_server.reset();
    const Run run = runOne(make(scenario, LlmProtocol(protocol)));
    const LlmResult &r = run.result;
    QVERIFY2(r.id != 0, "finished() must come exactly once");
    QCOMPARE(llmStatusName(r.status), llmStatusName(LlmStatus(status)));
    QCOMPARE(llmErrorKindName(r.error), llmErrorKindName(LlmErrorKind(error)));
    QCOMPARE(r.text, text);
    QCOMPARE(r.reasoning, reasoning);
    QCOMPARE(run.streamedText, text); // the deltas add up to the result
    QCOMPARE(run.streamedReasoning, reasoning);
    QCOMPARE(r.attempts, attempts);
    QCOMPARE(run.retryDelays.size(), attempts - 1);
    QVERIFY2(run.elapsedMs >= minMs, qPrintable(QStringLiteral("took %1 ms").arg(run.elapsedMs)));
    // No hidden wait (a poll that is not woken, a backoff): within 5 s beyond the scenario's own pacing, that pacing
    // counted four times over, as a loaded machine stretches 2,000 one-millisecond timers (byte by byte: 5.6 s once
    // under ctest -j4 on 2 cores, against 5 s flat before).
    const qint64 allowedMs = 5'000 + 4 * qint64(m_server.pacedMs(scenario));
    if (minMs == 0)
        QVERIFY2(run.elapsedMs < allowedMs,
                 qPrintable(QStringLiteral("took %1 ms (allowed %2)").arg(run.elapsedMs).arg(allowedMs)));
    if (error == int(LlmErrorKind::None)) {
        QVERIFY(r.errorMessage.isEmpty());
        QCOMPARE(run.started, 1);
        QVERIFY(r.timeToFirstTokenMs >= 0 && r.timeToFirstTokenMs <= r.totalMs);
        QVERIFY(!r.stopReason.isEmpty());
    } else {
        QVERIFY2(r.errorMessage.contains(message), qPrintable(r.errorMessage));
        QVERIFY(!r.errorMessage.contains(kKey));
    }
    if (r.hasContent())
        QVERIFY(r.timeToFirstTokenMs >= 0);
    QVERIFY(r.totalMs >= 0);
}

void TestLlmClient::requestOnTheWire()
{
    m_server.reset();
    LlmRequest oa = make(QStringLiteral("openai_basic_fast"));
    oa.maxTokens = 512;
    oa.temperature = 0.4;
    oa.endpoint.extraHeaders = {{QStringLiteral("X-Title"), QStringLiteral("KForge")}};
    QCOMPARE(runOne(oa).result.status, LlmStatus::Complete);
    LlmRequest an = make(QStringLiteral("anthropic_basic"), LlmProtocol::Anthropic);
    QCOMPARE(runOne(an).result.status, LlmStatus::Complete);

    QCOMPARE(m_server.requests().size(), 2);
    const auto &first = m_server.requests()[0];
    QCOMPARE(first.method, QByteArray("POST"));
    QCOMPARE(first.path, QByteArray("/s/openai_basic_fast/v1/chat/completions"));
    QCOMPARE(first.header("Authorization"), "Bearer " + kKey.toUtf8());
    QCOMPARE(first.header("X-Title"), QByteArray("KForge"));
    QCOMPARE(first.header("Accept"), QByteArray("text/event-stream"));
    QVERIFY(first.header("Expect").isEmpty());
    const QJsonObject body = QJsonDocument::fromJson(first.body).object();
    QCOMPARE(body.value(QLatin1String("model")).toString(), QStringLiteral("test-model"));
    QCOMPARE(body.value(QLatin1String("stream")).toBool(), true);
    QCOMPARE(body.value(QLatin1String("stream_options")).toObject().value(QLatin1String("include_usage")).toBool(), true);
    QCOMPARE(body.value(QLatin1String("max_tokens")).toInt(), 512);
    QCOMPARE(body.value(QLatin1String("temperature")).toDouble(), 0.4);

    const auto &second = m_server.requests()[1];
    QCOMPARE(second.path, QByteArray("/s/anthropic_basic/v1/messages"));
    QCOMPARE(second.header("x-api-key"), kKey.toUtf8());
    QCOMPARE(second.header("anthropic-version"), QByteArray("2023-06-01"));
    QVERIFY(second.header("Authorization").isEmpty());
    QCOMPARE(QJsonDocument::fromJson(second.body).object().value(QLatin1String("system")).toString(),
             QStringLiteral("You write CUDA kernels."));
}

void TestLlmClient::eightConcurrentStreams()
{
    m_server.reset();
    LlmClient client;
    Recorder rec(client);
    QSignalSpy finished(&client, &LlmClient::finished);
    QSignalSpy usage(&client, &LlmClient::usageUpdated);
    QHash<quint64, QString> expected;
    for (int i = 0; i < 8; ++i) {
        const bool anthropic = i % 2;
        // The server answers none of them until all eight are waiting: run one after another, they would hang.
        LlmRequest r = make(anthropic ? QStringLiteral("anthropic_concurrent") : QStringLiteral("openai_concurrent"),
                            anthropic ? LlmProtocol::Anthropic : LlmProtocol::OpenAi);
        r.endpoint.limits.idleTimeoutMs = 10'000; // the first ones wait for the last to arrive
        const quint64 id = client.send(r);
        expected.insert(id, anthropic ? QStringLiteral("Fusing the two kernels removes a round trip to HBM. 显存")
                                      : QStringLiteral("The faster kernel fuses the two loads into one pass."));
    }
    QCOMPARE(client.activeCount(), 8);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 8, 20'000);
    QCOMPARE(client.activeCount(), 0);
    QCOMPARE(m_server.peakConcurrent(), 8);
    LlmUsage sum;
    for (auto it = expected.begin(); it != expected.end(); ++it) {
        const Run &run = rec.runs[it.key()];
        QCOMPARE(run.result.status, LlmStatus::Complete);
        QCOMPARE(run.result.text, it.value());
        QCOMPARE(run.streamedText, it.value());
        QCOMPARE(run.result.id, it.key());
        sum += run.result.usage;
    }
    QCOMPARE(sum.promptTokens, 4 * 42 + 4 * 310);
    QCOMPARE(client.totalUsage(), sum);
    QVERIFY(usage.size() >= 8);
}

void TestLlmClient::cancelOne()
{
    LlmClient client;
    Recorder rec(client);
    const quint64 slow = client.send(make(QStringLiteral("slow_stream")));
    const quint64 other = client.send(make(QStringLiteral("openai_basic")));
    QTRY_VERIFY_WITH_TIMEOUT(!rec.runs[slow].streamedText.isEmpty(), 10'000);
    QElapsedTimer clock;
    clock.start();
    client.cancel(slow);
    QTRY_VERIFY_WITH_TIMEOUT(rec.done.contains(slow), 2'000);
    QVERIFY(clock.elapsed() < 1'000);
    const LlmResult r = rec.runs[slow].result;
    QCOMPARE(r.status, LlmStatus::Cancelled);
    QCOMPARE(r.error, LlmErrorKind::Cancelled);
    QVERIFY(!r.text.isEmpty()); // what arrived is kept
    QVERIFY(QStringLiteral("The faster kernel fuses the two loads into one pass.").startsWith(r.text));
    QTRY_VERIFY_WITH_TIMEOUT(rec.done.contains(other), 10'000);
    QCOMPARE(rec.runs[other].result.status, LlmStatus::Complete);
    client.cancel(slow); // cancelling a finished request is harmless
    QTest::qWait(50);
    QCOMPARE(rec.done.size(), 2);
}

void TestLlmClient::cancelAll()
{
    LlmClient client;
    Recorder rec(client);
    QList<quint64> ids;
    for (int i = 0; i < 3; ++i)
        ids << client.send(make(QStringLiteral("slow_stream")));
    LlmRequest backingOff = make(QStringLiteral("always_500"));
    backingOff.endpoint.limits.backoffBaseMs = 10'000; // sits waiting for its second attempt
    backingOff.endpoint.limits.backoffMaxMs = 10'000;
    ids << client.send(backingOff);
    QTRY_VERIFY_WITH_TIMEOUT(!rec.runs[ids[3]].retryDelays.isEmpty(), 5'000);
    client.cancelAll();
    QTRY_COMPARE_WITH_TIMEOUT(rec.done.size(), 4, 2'000);
    for (quint64 id : ids)
        QCOMPARE(rec.runs[id].result.status, LlmStatus::Cancelled);
    QCOMPARE(client.activeCount(), 0);
}

void TestLlmClient::totalTimeout()
{
    LlmRequest r = make(QStringLiteral("slow_stream"));
    r.endpoint.limits.totalTimeoutMs = 1'500; // the first words arrive after about 1 s, the last after 4 s
    const Run run = runOne(r);
    QCOMPARE(run.result.status, LlmStatus::Partial);
    QCOMPARE(run.result.error, LlmErrorKind::TotalTimeout);
    // Ended by the timeout, not by the stream's own end at 4 s (a loaded machine may be late to notice it).
    QVERIFY2(run.elapsedMs >= 1'480 && run.elapsedMs < 3'800, qPrintable(QString::number(run.elapsedMs)));
    QVERIFY(!run.result.text.isEmpty());
    QVERIFY(run.result.errorMessage.contains(QStringLiteral("1.5 s")));
}

void TestLlmClient::unreachablePort()
{
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close(); // now nothing listens there
    LlmRequest r = make(QStringLiteral("openai_basic"));
    r.endpoint.baseUrl = QStringLiteral("http://127.0.0.1:%1/v1").arg(port);
    const Run run = runOne(r);
    QCOMPARE(run.result.status, LlmStatus::Failed);
    QCOMPARE(run.result.error, LlmErrorKind::ConnectFailed);
    QCOMPARE(run.result.attempts, 3);
    QCOMPARE(run.result.httpStatus, 0);
    QVERIFY2(run.result.errorMessage.contains(QStringLiteral("127.0.0.1:%1").arg(port)),
             qPrintable(run.result.errorMessage));
    QVERIFY(run.result.errorMessage.contains(QStringLiteral("3 attempts")));
}

void TestLlmClient::dnsFailure()
{
    LlmRequest r = make(QStringLiteral("openai_basic"));
    r.endpoint.baseUrl = QStringLiteral("http://kforge-no-such-host.invalid/v1");
    const Run run = runOne(r);
    QCOMPARE(run.result.status, LlmStatus::Failed);
    QCOMPARE(run.result.error, LlmErrorKind::DnsFailure);
    QCOMPARE(run.result.attempts, 1); // a name that does not resolve will not resolve in a second either
    QVERIFY2(run.result.errorMessage.contains(QStringLiteral("kforge-no-such-host.invalid")),
             qPrintable(run.result.errorMessage));
}

void TestLlmClient::tls()
{
    if (!QSslSocket::supportsSsl())
        QSKIP("Qt has no TLS backend here");
    QFile certFile(kFixtures + QStringLiteral("/tls_cert.pem"));
    QFile keyFile(kFixtures + QStringLiteral("/tls_key.pem"));
    QVERIFY(certFile.open(QIODevice::ReadOnly) && keyFile.open(QIODevice::ReadOnly));
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setLocalCertificate(QSslCertificate(certFile.readAll()));
    config.setPrivateKey(QSslKey(keyFile.readAll(), QSsl::Rsa));
    ReplayServer https;
    QString error;
    QVERIFY(https.loadFixtures(kFixtures, &error));
    QVERIFY(https.listen(&config));

    LlmRequest r = make(QStringLiteral("openai_basic_fast"));
    r.endpoint.baseUrl = https.baseUrl(QStringLiteral("openai_basic_fast"));
    QVERIFY(r.endpoint.baseUrl.startsWith(QLatin1String("https://")));
    const Run untrusted = runOne(r);
    QCOMPARE(untrusted.result.status, LlmStatus::Failed);
    QCOMPARE(untrusted.result.error, LlmErrorKind::TlsFailure);
    QVERIFY2(untrusted.result.errorMessage.contains(QStringLiteral("TLS")), qPrintable(untrusted.result.errorMessage));
    QCOMPARE(untrusted.result.attempts, 1);

    r.endpoint.caBundle = kFixtures + QStringLiteral("/tls_cert.pem");
    const Run trusted = runOne(r);
    QCOMPARE(trusted.result.status, LlmStatus::Complete);
    QCOMPARE(trusted.result.text, QStringLiteral("The faster kernel fuses the two loads into one pass."));
}

void TestLlmClient::proxyFromEnvironment()
{
    // The replay server doubles as an HTTP proxy: a request for a host that does not exist reaches it only
    // if libcurl took the proxy from the environment.
    m_server.reset();
    qputenv("http_proxy", QStringLiteral("http://127.0.0.1:%1").arg(m_server.port()).toLatin1());
    LlmRequest r = make(QStringLiteral("openai_basic_fast"));
    r.endpoint.baseUrl = QStringLiteral("http://kforge-via-proxy.invalid/s/openai_basic_fast/v1");
    const Run run = runOne(r);
    qunsetenv("http_proxy");
    QCOMPARE(run.result.status, LlmStatus::Complete);
    QCOMPARE(m_server.requests().size(), 1);
    QCOMPARE(m_server.requests().constFirst().target,
             QByteArray("http://kforge-via-proxy.invalid/s/openai_basic_fast/v1/chat/completions"));
}

void TestLlmClient::invalidRequestStillFinishes()
{
    LlmRequest r = make(QStringLiteral("openai_basic"));
    r.model.clear();
    const Run run = runOne(r);
    QCOMPARE(run.result.status, LlmStatus::Failed);
    QCOMPARE(run.result.error, LlmErrorKind::InvalidRequest);
    QVERIFY(run.result.errorMessage.contains(QStringLiteral("model")));
    QCOMPARE(run.result.attempts, 0);
}

void TestLlmClient::keyNeverInMessages()
{
    LlmRequest r = make(QStringLiteral("auth_401_openai"));
    r.apiKey = QStringLiteral("sk-test-Zq81LmT0vB4nR2sK9pXewxyz");
    r.endpoint.apiKeyEnv = QStringLiteral("KFORGE_TEST_KEY_VAR");
    qputenv("KFORGE_TEST_KEY_VAR", r.apiKey.toUtf8());
    const Run run = runOne(r);
    qunsetenv("KFORGE_TEST_KEY_VAR");
    const QString m = run.result.errorMessage;
    QCOMPARE(run.result.error, LlmErrorKind::AuthFailed);
    QVERIFY2(!m.contains(r.apiKey) && !m.contains(QStringLiteral("wxyz")) && !m.contains(QStringLiteral("sk-test")),
             qPrintable(m));
    QVERIFY2(m.contains(QStringLiteral("KFORGE_TEST_KEY_VAR")), qPrintable(m)); // says where the key came from
    QVERIFY(m.contains(QStringLiteral("Incorrect API key provided")));
}

void TestLlmClient::destroyWhileStreaming()
{
    QPointer<LlmClient> client = new LlmClient;
    Recorder rec(*client);
    QSignalSpy finished(client.data(), &LlmClient::finished);
    client->send(make(QStringLiteral("slow_stream")));
    client->send(make(QStringLiteral("slow_stream")));
    QTRY_VERIFY_WITH_TIMEOUT(!rec.runs.isEmpty(), 5'000);
    delete client;
    QTest::qWait(100);
    QCOMPARE(rec.done.size(), 0);
}

QTEST_GUILESS_MAIN(TestLlmClient)
#include "tst_llmclient.moc"
