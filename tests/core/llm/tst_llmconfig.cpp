// Endpoints, presets, settings, request building and dumps, retry timing, error texts and redaction,
// prices, and API keys from the environment and the keychain.
#include "core/llm/credentials.h"
#include "core/llm/endpointconfig.h"
#include "core/llm/endpointpresets.h"
#include "core/llm/llmerrors.h"
#include "core/llm/pricetable.h"
#include "core/llm/requestbuilder.h"
#include "core/llm/retrypolicy.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {
const QString kKey = QStringLiteral("sk-test-4f9aQ2x7LmN0pR8sT1uVwxyz");

LlmRequest request(const QString &preset)
{
    LlmRequest r;
    r.endpoint = *EndpointPresets::find(preset);
    r.system = QStringLiteral("You write CUDA.");
    r.messages = {{QStringLiteral("user"), QStringLiteral("Make it faster: 内核")}};
    r.apiKey = kKey;
    return r;
}

QJsonObject bodyOf(const LlmRequest &r)
{
    return QJsonDocument::fromJson(RequestBuilder::body(r)).object();
}
} // namespace

class TestLlmConfig : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void presets();
    void settingsRoundTripWithoutKey();
    void urls_data();
    void urls();
    void openAiBody();
    void anthropicBody();
    void headersAndRedactedDump();
    void validate();
    void backoff();
    void retryAfter_data();
    void retryAfter();
    void providerMessages_data();
    void providerMessages();
    void redaction();
    void httpStatusKinds();
    void everyErrorHasASpecificMessage();
    void prices();
    void keyFromEnvironment();
    void localEndpoints_data();
    void localEndpoints();
    void keyFile();
    void keychainRoundTrip();
};

void TestLlmConfig::presets()
{
    const QStringList ids = {QStringLiteral("openai"),    QStringLiteral("deepseek"), QStringLiteral("openrouter"),
                             QStringLiteral("anthropic"), QStringLiteral("vllm"),     QStringLiteral("ollama"),
                             QStringLiteral("llamacpp"),  QStringLiteral("custom")};
    const QList<EndpointConfig> all = EndpointPresets::all();
    QCOMPARE(all.size(), ids.size());
    for (int i = 0; i < ids.size(); ++i) {
        QCOMPARE(all[i].presetId, ids[i]);
        if (ids[i] != QLatin1String("custom")) {
            QVERIFY2(all[i].baseUrl.startsWith(QLatin1String("http")), qPrintable(ids[i]));
            LlmRequest r;
            r.endpoint = all[i];
            QVERIFY(RequestBuilder::url(r).endsWith(all[i].protocol == LlmProtocol::Anthropic ? "/v1/messages"
                                                                                              : "/chat/completions"));
        }
    }
    QCOMPARE(EndpointPresets::find(QStringLiteral("Anthropic"))->protocol, LlmProtocol::Anthropic);
    QVERIFY(EndpointPresets::find(QStringLiteral("openai"))->requiresKey);
    QVERIFY(!EndpointPresets::find(QStringLiteral("ollama"))->requiresKey);
    QVERIFY(!EndpointPresets::find(QStringLiteral("nonsense")));
    const EndpointConfig url = EndpointPresets::forUrl(QStringLiteral("http://gpu-box:8000/v1"), LlmProtocol::OpenAi);
    QCOMPARE(url.baseUrl, QStringLiteral("http://gpu-box:8000/v1"));
    QVERIFY(!url.requiresKey);
}

void TestLlmConfig::settingsRoundTripWithoutKey()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("kforge.ini"));
    EndpointConfig a = *EndpointPresets::find(QStringLiteral("openrouter"));
    a.id = QStringLiteral("my-router");
    a.temperature = 0.7;
    a.maxTokens = 4096;
    a.reasoningEffort = QStringLiteral("high");
    a.extraFields = QJsonObject{{QStringLiteral("top_p"), 0.9},
                                {QStringLiteral("provider"),
                                 QJsonObject{{QStringLiteral("sort"), QStringLiteral("throughput")}}}};
    a.caBundle = QStringLiteral("/etc/ssl/private-ca.pem");
    a.limits.idleTimeoutMs = 45'000;
    EndpointConfig b = *EndpointPresets::find(QStringLiteral("vllm"));
    b.id = QStringLiteral("gpu-box");
    b.defaultModel = QStringLiteral("Qwen/Qwen2.5-Coder-32B");
    qputenv("OPENROUTER_API_KEY", kKey.toUtf8());
    {
        QSettings s(path, QSettings::IniFormat);
        EndpointConfig::saveAll(s, {a, b});
    }
    {
        QSettings s(path, QSettings::IniFormat);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray ini = f.readAll();
        QVERIFY(ini.contains("OPENROUTER_API_KEY")); // the variable's name is kept, its value never
        QVERIFY(!ini.contains(kKey.toUtf8()));
        const QList<EndpointConfig> loaded = EndpointConfig::loadAll(s);
        QCOMPARE(loaded.size(), 2);
        const EndpointConfig &la = loaded[0].id == a.id ? loaded[0] : loaded[1];
        const EndpointConfig &lb = loaded[0].id == a.id ? loaded[1] : loaded[0];
        QCOMPARE(la, a);
        QCOMPARE(lb, b);
        EndpointConfig::saveAll(s, {b}); // a deleted endpoint disappears
    }
    QSettings s(path, QSettings::IniFormat);
    QCOMPARE(EndpointConfig::loadAll(s).size(), 1);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray ini = f.readAll();
    QVERIFY(ini.contains("gpu-box"));
    QVERIFY(!ini.contains(kKey.toUtf8()));
    qunsetenv("OPENROUTER_API_KEY");
}

void TestLlmConfig::urls_data()
{
    QTest::addColumn<QString>("base");
    QTest::addColumn<int>("protocol");
    QTest::addColumn<QByteArray>("url");
    QTest::newRow("openai") << "https://api.openai.com/v1" << 0 << QByteArray("https://api.openai.com/v1/chat/completions");
    QTest::newRow("trailing slash") << "http://localhost:8000/v1/" << 0
                                    << QByteArray("http://localhost:8000/v1/chat/completions");
    QTest::newRow("full endpoint given") << "http://h/v1/chat/completions" << 0
                                         << QByteArray("http://h/v1/chat/completions");
    QTest::newRow("anthropic") << "https://api.anthropic.com/v1" << 1
                               << QByteArray("https://api.anthropic.com/v1/messages");
    QTest::newRow("anthropic full") << "https://proxy/v1/messages//" << 1 << QByteArray("https://proxy/v1/messages");
}

void TestLlmConfig::urls()
{
    QFETCH(QString, base);
    QFETCH(int, protocol);
    QFETCH(QByteArray, url);
    LlmRequest r;
    r.endpoint = EndpointPresets::forUrl(base, LlmProtocol(protocol));
    QCOMPARE(RequestBuilder::url(r), url);
}

void TestLlmConfig::openAiBody()
{
    LlmRequest r = request(QStringLiteral("openai"));
    r.maxTokens = 2048;
    r.temperature = 0.2;
    r.reasoningEffort = QStringLiteral("low");
    r.endpoint.extraFields = QJsonObject{{QStringLiteral("seed"), 7}, {QStringLiteral("temperature"), 0.3}};
    const QJsonObject o = bodyOf(r);
    QCOMPARE(o.value(QLatin1String("model")).toString(), QStringLiteral("gpt-4.1"));
    QCOMPARE(o.value(QLatin1String("stream")).toBool(), true);
    QCOMPARE(o.value(QLatin1String("stream_options")).toObject().value(QLatin1String("include_usage")).toBool(), true);
    QCOMPARE(o.value(QLatin1String("max_completion_tokens")).toInt(), 2048);
    QVERIFY(!o.contains(QLatin1String("max_tokens")));
    QCOMPARE(o.value(QLatin1String("reasoning_effort")).toString(), QStringLiteral("low"));
    QCOMPARE(o.value(QLatin1String("seed")).toInt(), 7);
    QCOMPARE(o.value(QLatin1String("temperature")).toDouble(), 0.3); // extra fields win
    const QJsonArray m = o.value(QLatin1String("messages")).toArray();
    QCOMPARE(m.size(), 2);
    QCOMPARE(m[0].toObject().value(QLatin1String("role")).toString(), QStringLiteral("system"));
    QCOMPARE(m[1].toObject().value(QLatin1String("content")).toString(), QStringLiteral("Make it faster: 内核"));

    LlmRequest router = request(QStringLiteral("openrouter"));
    router.reasoningEffort = QStringLiteral("high");
    router.maxTokens = 100;
    const QJsonObject ro = bodyOf(router);
    QCOMPARE(ro.value(QLatin1String("reasoning")).toObject().value(QLatin1String("effort")).toString(),
             QStringLiteral("high"));
    QCOMPARE(ro.value(QLatin1String("max_tokens")).toInt(), 100);
    QVERIFY(!ro.contains(QLatin1String("temperature")));
}

void TestLlmConfig::anthropicBody()
{
    LlmRequest r = request(QStringLiteral("anthropic"));
    r.reasoningEffort = QStringLiteral("medium");
    const QJsonObject o = bodyOf(r);
    QCOMPARE(o.value(QLatin1String("system")).toString(), QStringLiteral("You write CUDA."));
    QCOMPARE(o.value(QLatin1String("messages")).toArray().size(), 1); // the system prompt is not a message
    QCOMPARE(o.value(QLatin1String("max_tokens")).toInt(), 16000);
    QVERIFY(!o.contains(QLatin1String("stream_options")));
    const QJsonObject thinking = o.value(QLatin1String("thinking")).toObject();
    QCOMPARE(thinking.value(QLatin1String("type")).toString(), QStringLiteral("enabled"));
    QCOMPARE(thinking.value(QLatin1String("budget_tokens")).toInt(), 8192);
    // The budget must stay below max_tokens; with no room for the minimum budget, thinking is left out.
    r.maxTokens = 4000;
    QCOMPARE(bodyOf(r).value(QLatin1String("thinking")).toObject().value(QLatin1String("budget_tokens")).toInt(), 2976);
    r.maxTokens = 1500;
    QVERIFY(!bodyOf(r).contains(QLatin1String("thinking")));
}

void TestLlmConfig::headersAndRedactedDump()
{
    const LlmRequest oa = request(QStringLiteral("openrouter"));
    const QList<QByteArray> h = RequestBuilder::headers(oa);
    QVERIFY(h.contains("Authorization: Bearer " + kKey.toUtf8()));
    QVERIFY(h.contains("X-Title: KForge"));
    QVERIFY(h.contains("Accept: text/event-stream"));
    const LlmRequest an = request(QStringLiteral("anthropic"));
    const QList<QByteArray> ha = RequestBuilder::headers(an);
    QVERIFY(ha.contains("x-api-key: " + kKey.toUtf8()));
    QVERIFY(ha.contains("anthropic-version: 2023-06-01"));
    LlmRequest local = request(QStringLiteral("ollama"));
    local.apiKey.clear();
    for (const QByteArray &line : RequestBuilder::headers(local))
        QVERIFY(!line.startsWith("Authorization"));

    for (LlmRequest r : {oa, an}) {
        r.endpoint.extraHeaders.append({QStringLiteral("X-Session-Token"), QStringLiteral("tok-secret-1234")});
        r.messages.append({QStringLiteral("user"), QStringLiteral("my key is ") + kKey}); // even in the body
        const QString dump = RequestBuilder::dump(r);
        QVERIFY2(!dump.contains(kKey), qPrintable(dump));
        QVERIFY(!dump.contains(QStringLiteral("tok-secret-1234")));
        QVERIFY(dump.contains(QStringLiteral("[redacted]")));
        QVERIFY(dump.startsWith(QStringLiteral("POST https://")));
        QVERIFY(dump.contains(QStringLiteral("Make it faster")));
    }
}

void TestLlmConfig::validate()
{
    LlmRequest r = request(QStringLiteral("openai"));
    QVERIFY(RequestBuilder::validate(r).isEmpty());
    r.apiKey.clear();
    QVERIFY(RequestBuilder::validate(r).contains(QStringLiteral("API key")));
    r = request(QStringLiteral("vllm"));
    QVERIFY(RequestBuilder::validate(r).contains(QStringLiteral("model")));
    r.model = QStringLiteral("m");
    QVERIFY(RequestBuilder::validate(r).isEmpty());
    r.endpoint.baseUrl = QStringLiteral("ftp://example.com/v1");
    QVERIFY(RequestBuilder::validate(r).contains(QStringLiteral("ftp://example.com/v1")));
    r.endpoint.baseUrl.clear();
    QVERIFY(!RequestBuilder::validate(r).isEmpty());
}

void TestLlmConfig::backoff()
{
    LlmLimits l;
    l.backoffBaseMs = 1000;
    l.backoffMaxMs = 30'000;
    l.maxRetryAfterMs = 60'000;
    const RetryPolicy p(l);
    QCOMPARE(p.backoffMs(2, 0.0), 500);
    QCOMPARE(p.backoffMs(2, 1.0), 1000);
    QCOMPARE(p.backoffMs(3, 0.0), 1000);
    QCOMPARE(p.backoffMs(4, 0.5), 3000);
    QCOMPARE(p.backoffMs(30, 1.0), 30'000);                      // capped
    QCOMPARE(p.delayMs(2, 5000, 0.3), std::optional<int>(5000)); // the server's wish wins over backoff
    QCOMPARE(p.delayMs(2, 61'000, 0.3), std::nullopt);           // too long: fail instead of waiting
    QCOMPARE(p.delayMs(3, std::nullopt, 1.0), std::optional<int>(2000));
}

void TestLlmConfig::retryAfter_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<qint64>("ms"); // -1 = unparseable
    QTest::newRow("seconds") << QByteArray("2") << qint64(2000);
    QTest::newRow("fraction") << QByteArray(" 0.5 ") << qint64(500);
    QTest::newRow("zero") << QByteArray("0") << qint64(0);
    QTest::newRow("http date") << QByteArray("Wed, 12 Jun 2024 10:00:30 GMT") << qint64(30'000);
    QTest::newRow("date in the past") << QByteArray("Wed, 12 Jun 2024 09:59:00 GMT") << qint64(0);
    QTest::newRow("rfc 850 date") << QByteArray("Wednesday, 12-Jun-24 10:01:00 GMT") << qint64(60'000);
    QTest::newRow("negative") << QByteArray("-3") << qint64(-1);
    QTest::newRow("junk") << QByteArray("soon") << qint64(-1);
    QTest::newRow("empty") << QByteArray("") << qint64(-1);
}

void TestLlmConfig::retryAfter()
{
    QFETCH(QByteArray, value);
    QFETCH(qint64, ms);
    const QDateTime now(QDate(2024, 6, 12), QTime(10, 0, 0), QTimeZone::utc());
    const auto parsed = RetryPolicy::parseRetryAfter(value, now);
    QCOMPARE(parsed.value_or(-1), ms);
    QCOMPARE(RetryPolicy::parseRetryAfterMs("1500"), std::optional<qint64>(1500));
    QCOMPARE(RetryPolicy::parseRetryAfterMs("x"), std::nullopt);
}

void TestLlmConfig::providerMessages_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("message");
    QTest::newRow("openai") << QByteArray(R"({"error":{"message":"max_tokens is too large","type":"invalid_request_error"}})")
                            << "max_tokens is too large";
    QTest::newRow("anthropic") << QByteArray(
        R"({"type":"error","error":{"type":"not_found_error","message":"model: claude-9"}})")
                               << "model: claude-9";
    QTest::newRow("ollama") << QByteArray(R"({"error":"model \"qwen9\" not found"})") << "model \"qwen9\" not found";
    QTest::newRow("fastapi detail") << QByteArray(R"({"detail":"Not Found"})") << "Not Found";
    QTest::newRow("fastapi validation") << QByteArray(
        R"({"detail":[{"loc":["body","model"],"msg":"field required"},{"msg":"bad temperature"}]})")
                                        << "field required; bad temperature";
    QTest::newRow("vllm") << QByteArray(
        R"({"object":"error","message":"The model `x` does not exist.","type":"NotFoundError","code":404})")
                          << "The model `x` does not exist.";
    QTest::newRow("html") << QByteArray("<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>")
                          << "502 Bad Gateway";
    QTest::newRow("plain") << QByteArray("  upstream   connect error\n or disconnect  ")
                           << "upstream connect error or disconnect";
    QTest::newRow("empty") << QByteArray("") << "";
}

void TestLlmConfig::providerMessages()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, message);
    QCOMPARE(LlmErrors::providerMessage(body), message);
    QVERIFY(LlmErrors::providerMessage(QByteArray(5000, 'a')).size() < 500);
}

void TestLlmConfig::redaction()
{
    const QString echoed = QStringLiteral(
        "Incorrect API key provided: sk-test-***************************wxyz. You can find it.");
    const QString r = LlmErrors::redact(echoed, kKey);
    QVERIFY(!r.contains(QStringLiteral("wxyz")));
    QVERIFY(r.contains(QStringLiteral("Incorrect API key provided: [redacted].")));
    QCOMPARE(LlmErrors::redact(QStringLiteral("key ") + kKey + QStringLiteral(" bad"), kKey),
             QStringLiteral("key [redacted] bad"));
    QVERIFY(!LlmErrors::redact(QStringLiteral("prefix ") + kKey.left(14), kKey).contains(kKey.left(12)));
    QCOMPARE(LlmErrors::redact(QStringLiteral("a normal message, xxxx marks"), kKey),
             QStringLiteral("a normal message, xxxx marks"));
    QCOMPARE(LlmErrors::redact(QStringLiteral("no key at all"), QString()), QStringLiteral("no key at all"));
}

void TestLlmConfig::httpStatusKinds()
{
    QCOMPARE(LlmErrors::kindForHttpStatus(200), LlmErrorKind::None);
    QCOMPARE(LlmErrors::kindForHttpStatus(401), LlmErrorKind::AuthFailed);
    QCOMPARE(LlmErrors::kindForHttpStatus(403), LlmErrorKind::AuthFailed);
    QCOMPARE(LlmErrors::kindForHttpStatus(404), LlmErrorKind::NotFound);
    QCOMPARE(LlmErrors::kindForHttpStatus(400), LlmErrorKind::BadRequest);
    QCOMPARE(LlmErrors::kindForHttpStatus(422), LlmErrorKind::BadRequest);
    QCOMPARE(LlmErrors::kindForHttpStatus(429), LlmErrorKind::RateLimited);
    QCOMPARE(LlmErrors::kindForHttpStatus(503), LlmErrorKind::ServerError);
    QCOMPARE(LlmErrors::kindForHttpStatus(529), LlmErrorKind::ServerError);
    QCOMPARE(LlmErrors::kindForHttpStatus(418), LlmErrorKind::HttpError);
    QVERIFY(LlmErrors::isRetryable(LlmErrorKind::RateLimited));
    QVERIFY(!LlmErrors::isRetryable(LlmErrorKind::AuthFailed));
    QVERIFY(!LlmErrors::isRetryable(LlmErrorKind::DnsFailure));
}

void TestLlmConfig::everyErrorHasASpecificMessage()
{
    LlmErrorContext c;
    c.url = QStringLiteral("https://api.example.com/v1/chat/completions");
    c.model = QStringLiteral("gpt-x");
    c.httpStatus = 418;
    c.detail = QStringLiteral("provider says no");
    c.attempts = 3;
    c.timeoutMs = 1500;
    QSet<QString> seen;
    for (int k = int(LlmErrorKind::InvalidRequest); k <= int(LlmErrorKind::Cancelled); ++k) {
        const QString m = LlmErrors::message(LlmErrorKind(k), c);
        QVERIFY2(!m.isEmpty(), qPrintable(llmErrorKindName(LlmErrorKind(k))));
        QVERIFY2(!seen.contains(m), qPrintable(m));
        seen.insert(m);
        QVERIFY(!llmErrorKindName(LlmErrorKind(k)).isEmpty());
    }
    QVERIFY(LlmErrors::message(LlmErrorKind::NotFound, c).contains(QStringLiteral("gpt-x")));
    QVERIFY(LlmErrors::message(LlmErrorKind::IdleTimeout, c).contains(QStringLiteral("1.5 s")));
    QVERIFY(LlmErrors::message(LlmErrorKind::BadRequest, c).contains(QStringLiteral("provider says no")));
    QVERIFY(LlmErrors::message(LlmErrorKind::DnsFailure, c).contains(QStringLiteral("api.example.com")));
    QVERIFY(LlmErrors::message(LlmErrorKind::ServerError, c).contains(QStringLiteral("3 attempts")));
}

void TestLlmConfig::prices()
{
    QString error;
    PriceTable t = PriceTable::fromJson(R"({"gpt-4.1": {"input": 2.0, "output": 8.0},
                                           "deepseek-*": {"input": 0.5, "output": 2.0},
                                           "deepseek-reasoner*": {"input": 0.55, "output": 2.19}})",
                                        &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    LlmUsage u;
    u.promptTokens = 1'000'000;
    u.completionTokens = 500'000;
    u.reasoningTokens = 400'000;
    u.reported = true;
    QCOMPARE(*t.cost(QStringLiteral("gpt-4.1"), u), 6.0);
    QCOMPARE(t.find(QStringLiteral("deepseek-reasoner"))->inputPerMTok, 0.55); // the longest prefix
    QCOMPARE(t.find(QStringLiteral("deepseek-chat"))->inputPerMTok, 0.5);
    QVERIFY(!t.cost(QStringLiteral("claude"), u));
    u.reported = false;
    QVERIFY(!t.cost(QStringLiteral("gpt-4.1"), u)); // no usage, no made-up cost

    QTemporaryDir dir;
    {
        QSettings s(dir.filePath(QStringLiteral("p.ini")), QSettings::IniFormat);
        t.save(s);
    }
    QSettings s(dir.filePath(QStringLiteral("p.ini")), QSettings::IniFormat);
    QCOMPARE(PriceTable::load(s).prices().size(), 3);

    QVERIFY(PriceTable::fromJson(R"({"m": {"input": "cheap"}})", &error).prices().isEmpty());
    QVERIFY(error.contains(QStringLiteral("'m'")));
    PriceTable::fromJson("[", &error);
    QVERIFY(!error.isEmpty());
}

void TestLlmConfig::keyFromEnvironment()
{
    Credentials creds;
    EndpointConfig e = *EndpointPresets::find(QStringLiteral("deepseek"));
    e.apiKeyEnv = QStringLiteral("KFORGE_TEST_LLM_KEY");
    e.keychainEntry.clear();
    qputenv("KFORGE_TEST_LLM_KEY", (QStringLiteral("  ") + kKey + QStringLiteral("\n")).toUtf8());
    ApiKeyLookup got;
    bool called = false;
    creds.lookup(e, this, [&](const ApiKeyLookup &r) {
        got = r;
        called = true;
    });
    QVERIFY(!called); // always asynchronous, so callers handle one code path
    QTRY_VERIFY(called);
    QCOMPARE(got.key, kKey);
    QCOMPARE(got.source, ApiKeyLookup::Environment);

    qunsetenv("KFORGE_TEST_LLM_KEY");
    called = false;
    creds.lookup(e, this, [&](const ApiKeyLookup &r) {
        got = r;
        called = true;
    });
    QTRY_VERIFY(called);
    QVERIFY(!got.found());
    QVERIFY(got.error.contains(QStringLiteral("KFORGE_TEST_LLM_KEY")));

    e.requiresKey = false; // a local server: no key is fine
    called = false;
    creds.lookup(e, this, [&](const ApiKeyLookup &r) {
        got = r;
        called = true;
    });
    QTRY_VERIFY(called);
    QVERIFY(got.error.isEmpty());
}

void TestLlmConfig::localEndpoints_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("url"); // empty: the preset's
    QTest::addColumn<bool>("local");
    QTest::addRow("OpenAI") << u"openai"_s << QString() << false;
    QTest::addRow("vLLM preset") << u"vllm"_s << QString() << true;
    QTest::addRow("vLLM preset on another host") << u"vllm"_s << u"http://gpu-box:8000/v1"_s << true;
    QTest::addRow("Ollama preset") << u"ollama"_s << QString() << true;
    QTest::addRow("llama.cpp preset") << u"llamacpp"_s << QString() << true;
    QTest::addRow("custom on localhost") << u"custom"_s << u"http://localhost:9000/v1"_s << true;
    QTest::addRow("custom on 127.0.0.1") << u"custom"_s << u"http://127.0.0.1:8000/v1"_s << true;
    QTest::addRow("custom on ::1") << u"custom"_s << u"http://[::1]:8000/v1"_s << true;
    QTest::addRow("custom remote") << u"custom"_s << u"https://llm.example.com/v1"_s << false;
}

void TestLlmConfig::localEndpoints()
{
    QFETCH(QString, preset);
    QFETCH(QString, url);
    QFETCH(bool, local);
    EndpointConfig e = *EndpointPresets::find(preset);
    if (!url.isEmpty())
        e.baseUrl = url;
    e.requiresKey = true; // as after a key was typed for it: still optional where the server is local
    QCOMPARE(e.isLocal(), local);
    QCOMPARE(e.needsKey(), !local);
    LlmRequest r;
    r.endpoint = e;
    r.model = u"m"_s;
    r.messages = {{u"user"_s, u"hi"_s}};
    QCOMPARE(RequestBuilder::validate(r).contains(u"No API key"_s), !local);
}

void TestLlmConfig::keyFile()
{
    // The fallback where no keychain service runs: a file only the user can read, found by the lookup.
    QStandardPaths::setTestModeEnabled(true);
    const QString entry = u"kforge-test-../odd name"_s;
    const QString path = Credentials::keyFilePath(entry);
    QCOMPARE(QFileInfo(path).fileName(), u"kforge-test-.._odd_name"_s); // no way out of the folder
    QVERIFY(QFileInfo(path).absolutePath().endsWith(u"/keys"_s));
    Credentials::removeKeyFile(entry);
    QVERIFY(!Credentials::hasKeyFile(entry));
    QCOMPARE(Credentials::writeKeyFile(entry, u"  sk-file-key \n"_s), QString());
    QVERIFY(Credentials::hasKeyFile(entry));
    QCOMPARE(QFile::permissions(path) & ~(QFileDevice::ReadUser | QFileDevice::WriteUser),
             QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QCOMPARE(QFile::permissions(QFileInfo(path).absolutePath())
                 & ~(QFileDevice::ReadUser | QFileDevice::WriteUser | QFileDevice::ExeUser),
             QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QCOMPARE(Credentials::readKeyFile(entry).key, u"sk-file-key"_s);
    QCOMPARE(Credentials::writeKeyFile(entry, u"sk-second"_s), QString()); // replaced, still 0600
    QCOMPARE(Credentials::readKeyFile(entry).key, u"sk-second"_s);

    Credentials creds;
    EndpointConfig e = *EndpointPresets::find(u"openai"_s);
    e.apiKeyEnv = u"KFORGE_TEST_LLM_KEY_FILE"_s;
    e.keychainEntry = entry;
    ApiKeyLookup got;
    bool called = false;
    creds.lookup(e, this, [&](const ApiKeyLookup &r) {
        got = r;
        called = true;
    });
    QVERIFY(!called);
    QTRY_VERIFY(called);
    QCOMPARE(got.source, ApiKeyLookup::File);
    QCOMPARE(got.key, u"sk-second"_s);
    // The environment variable still comes first.
    qputenv("KFORGE_TEST_LLM_KEY_FILE", "sk-env");
    called = false;
    creds.lookup(e, this, [&](const ApiKeyLookup &r) {
        got = r;
        called = true;
    });
    QTRY_VERIFY(called);
    QCOMPARE(got.source, ApiKeyLookup::Environment);
    qunsetenv("KFORGE_TEST_LLM_KEY_FILE");
    Credentials::removeKeyFile(entry);
    QVERIFY(!Credentials::hasKeyFile(entry));

    // A local server whose keychain entry holds nothing (or whose keychain cannot be read): no key, no error.
    EndpointConfig local = *EndpointPresets::find(u"vllm"_s);
    local.apiKeyEnv = u"KFORGE_TEST_UNSET_VARIABLE"_s;
    local.keychainEntry = u"kforge-test-absent-entry"_s;
    local.requiresKey = true;
    called = false;
    creds.lookup(local, this, [&](const ApiKeyLookup &r) {
        got = r;
        called = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(called, 30000);
    QVERIFY(!got.found());
    QVERIFY2(got.error.isEmpty(), qPrintable(got.error));
}

void TestLlmConfig::keychainRoundTrip()
{
    if (!Credentials::keychainAvailable())
        QSKIP("built without QtKeychain");
    Credentials creds;
    // A real keychain entry of the user running the test, deleted at the end; unique so runs cannot collide.
    const QString entry = QStringLiteral("kforge-test-entry-%1").arg(QCoreApplication::applicationPid());
    QString writeError = QStringLiteral("pending");
    creds.writeKey(entry, kKey, this, [&](const QString &e) { writeError = e; });
    // A locked desktop keyring may ask its user and never answer here: that is no failure of ours.
    const bool answered = QTest::qWaitFor([&] { return writeError != QLatin1String("pending"); }, 20'000);
    // Run by tst_llmconfig_keychain against a throw-away Secret Service, where skipping would hide a failure.
    if (qEnvironmentVariableIsSet("KFORGE_REQUIRE_KEYCHAIN")) {
        QVERIFY2(answered, "the keychain did not answer");
        QVERIFY2(writeError.isEmpty(), qPrintable(writeError));
    }
    if (!answered)
        QSKIP("the keychain did not answer (locked, waiting for its user?)");
    if (!writeError.isEmpty())
        QSKIP(qPrintable(QStringLiteral("no usable keychain service here: ") + writeError));
    ApiKeyLookup got;
    bool called = false;
    creds.readKey(entry, this, [&](const ApiKeyLookup &r) {
        got = r;
        called = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(called, 20'000);
    QCOMPARE(got.key, kKey);
    QCOMPARE(got.source, ApiKeyLookup::Keychain);
    QString delError = QStringLiteral("pending");
    creds.deleteKey(entry, this, [&](const QString &e) { delError = e; });
    QTRY_VERIFY_WITH_TIMEOUT(delError != QLatin1String("pending"), 20'000);
    QVERIFY(delError.isEmpty());
}

QTEST_GUILESS_MAIN(TestLlmConfig)
#include "tst_llmconfig.moc"
