#include "core/llm/llmtransferloop.h"

#include "core/llm/llmclient.h"
#include "core/llm/llmerrors.h"
#include "core/llm/requestbuilder.h"
#include "core/llm/retrypolicy.h"
#include "core/llm/streamdecoder.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QUrl>
#include <algorithm>
#include <cstring>

namespace kforge {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr qsizetype kMaxErrorBody = 64 * 1024;
// After [DONE] / message_stop the body should end at once; a server that keeps the response open gets this long.
constexpr int kEndGraceMs = 2'000;

qint64 msSince(Clock::time_point t, Clock::time_point now = Clock::now())
{
    return std::chrono::duration_cast<milliseconds>(now - t).count();
}

LlmErrorKind kindForCurl(CURLcode code)
{
    switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST: return LlmErrorKind::DnsFailure;
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT: return LlmErrorKind::ConnectFailed;
    case CURLE_OPERATION_TIMEDOUT: return LlmErrorKind::ConnectTimeout; // the only curl-side timeout we set
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_USE_SSL_FAILED: return LlmErrorKind::TlsFailure;
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL: return LlmErrorKind::InvalidRequest;
    default: return LlmErrorKind::ConnectionLost;
    }
}

QString keyHint(const LlmRequest &r)
{
    const EndpointConfig &e = r.endpoint;
    if (r.apiKey.trimmed().isEmpty())
        return QCoreApplication::translate("kforge::LlmClient", "no API key was sent");
    if (!e.apiKeyEnv.isEmpty() && qEnvironmentVariable(e.apiKeyEnv.toLocal8Bit().constData()) == r.apiKey)
        return QCoreApplication::translate("kforge::LlmClient", "from the environment variable %1").arg(e.apiKeyEnv);
    if (!e.keychainEntry.isEmpty())
        return QCoreApplication::translate("kforge::LlmClient", "from the keychain entry '%1'").arg(e.keychainEntry);
    return {};
}

} // namespace

struct LlmTransferLoop::Transfer {
    LlmTransferLoop *loop = nullptr;
    quint64 id = 0;
    LlmRequest request;
    QByteArray url;
    QByteArray body;
    curl_slist *headers = nullptr;
    CURL *easy = nullptr;
    bool waiting = true;    // between attempts (or before the first)
    bool connected = false; // this attempt's connection (and TLS handshake) is up: the idle clock runs
    Clock::time_point created;
    Clock::time_point deadline;
    Clock::time_point wakeAt;
    Clock::time_point lastByte;
    std::optional<Clock::time_point> endSeen;
    int attempt = 0;
    bool startedSent = false;
    qint64 firstTokenMs = -1;

    // Per attempt.
    std::unique_ptr<StreamDecoder> decoder;
    long httpStatus = 0;
    bool jsonBody = false;
    QByteArray contentType;
    std::optional<qint64> retryAfterMs;
    QByteArray errorBody;
    LlmErrorKind stopKind = LlmErrorKind::None; // set when the loop itself ends the attempt
    char curlError[CURL_ERROR_SIZE] = {};

    bool streaming() const { return httpStatus >= 200 && httpStatus < 300; }

    ~Transfer()
    {
        if (easy)
            curl_easy_cleanup(easy);
        curl_slist_free_all(headers);
    }
};

LlmTransferLoop::LlmTransferLoop(LlmClient *client)
    : m_client(client)
    , m_random(std::random_device{}())
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    m_multi = curl_multi_init();
    setObjectName(QStringLiteral("kforge-llm"));
}

LlmTransferLoop::~LlmTransferLoop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    curl_multi_wakeup(m_multi);
    wait();
    curl_multi_cleanup(m_multi);
}

void LlmTransferLoop::submit(quint64 id, const LlmRequest &request)
{
    {
        std::lock_guard lock(m_mutex);
        m_commands.push_back({Command::Submit, id, request});
    }
    curl_multi_wakeup(m_multi);
}

void LlmTransferLoop::cancel(quint64 id)
{
    {
        std::lock_guard lock(m_mutex);
        m_commands.push_back({Command::Cancel, id, {}});
    }
    curl_multi_wakeup(m_multi);
}

void LlmTransferLoop::cancelAll()
{
    {
        std::lock_guard lock(m_mutex);
        m_commands.push_back({Command::CancelAll, 0, {}});
    }
    curl_multi_wakeup(m_multi);
}

void LlmTransferLoop::run()
{
    for (;;) {
        {
            std::lock_guard lock(m_mutex);
            if (m_stop)
                break;
        }
        runCommands();
        int running = 0;
        curl_multi_perform(m_multi, &running);
        readDone();
        checkTimers();
        flush();
        curl_multi_poll(m_multi, nullptr, 0, pollTimeoutMs(), nullptr);
    }
    // Shutting down: the client is going away, so nothing more is reported.
    for (auto &[id, t] : m_transfers)
        detach(*t);
    m_transfers.clear();
    m_batch.clear();
}

void LlmTransferLoop::runCommands()
{
    std::vector<Command> commands;
    {
        std::lock_guard lock(m_mutex);
        commands.swap(m_commands);
    }
    for (Command &c : commands) {
        switch (c.kind) {
        case Command::Submit: {
            auto t = std::make_unique<Transfer>();
            t->loop = this;
            t->id = c.id;
            t->request = std::move(c.request);
            t->created = Clock::now();
            t->deadline = t->created + milliseconds(std::max(1, t->request.endpoint.limits.totalTimeoutMs));
            Transfer &ref = *t;
            m_transfers.emplace(c.id, std::move(t));
            if (const QString problem = RequestBuilder::validate(ref.request); !problem.isEmpty()) {
                finishTransfer(ref, LlmStatus::Failed, LlmErrorKind::InvalidRequest, problem);
                break;
            }
            ref.url = RequestBuilder::url(ref.request);
            ref.body = RequestBuilder::body(ref.request);
            for (const QByteArray &h : RequestBuilder::headers(ref.request))
                ref.headers = curl_slist_append(ref.headers, h.constData());
            startAttempt(ref);
            break;
        }
        case Command::Cancel:
            if (auto it = m_transfers.find(c.id); it != m_transfers.end())
                abortAttempt(*it->second, LlmErrorKind::Cancelled);
            break;
        case Command::CancelAll: {
            std::vector<Transfer *> all;
            for (auto &[id, t] : m_transfers)
                all.push_back(t.get());
            for (Transfer *t : all)
                abortAttempt(*t, LlmErrorKind::Cancelled);
            break;
        }
        }
    }
}

void LlmTransferLoop::startAttempt(Transfer &t)
{
    ++t.attempt;
    t.waiting = false;
    t.connected = false;
    t.lastByte = Clock::now();
    t.endSeen.reset();
    t.decoder = StreamDecoder::create(t.request.endpoint.protocol);
    t.httpStatus = 0;
    t.jsonBody = false;
    t.contentType.clear();
    t.retryAfterMs.reset();
    t.errorBody.clear();
    t.stopKind = LlmErrorKind::None;
    t.curlError[0] = 0;

    CURL *e = curl_easy_init();
    t.easy = e;
    const LlmLimits &limits = t.request.endpoint.limits;
    curl_easy_setopt(e, CURLOPT_PRIVATE, &t);
    curl_easy_setopt(e, CURLOPT_URL, t.url.constData());
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(e, CURLOPT_PROTOCOLS, long(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, t.headers);
    curl_easy_setopt(e, CURLOPT_POST, 1L);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, t.body.constData());
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(t.body.size()));
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &LlmTransferLoop::onWrite);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &LlmTransferLoop::onHeader);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.curlError);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, long(std::max(1, limits.connectTimeoutMs)));
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    // Verification is not configurable: a private CA goes in caBundle instead.
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!t.request.endpoint.caBundle.isEmpty())
        curl_easy_setopt(e, CURLOPT_CAINFO, t.request.endpoint.caBundle.toLocal8Bit().constData());
    // Proxies: libcurl reads http_proxy/https_proxy/no_proxy from the environment by default.
    if (curl_multi_add_handle(m_multi, e) != CURLM_OK) {
        curl_easy_cleanup(e);
        t.easy = nullptr;
        finishTransfer(t, LlmStatus::Failed, LlmErrorKind::InvalidRequest,
                       QCoreApplication::translate("kforge::LlmClient", "libcurl refused the transfer"));
    }
}

size_t LlmTransferLoop::onHeader(char *data, size_t size, size_t count, void *user)
{
    auto &t = *static_cast<Transfer *>(user);
    const size_t n = size * count;
    t.lastByte = Clock::now();
    t.connected = true;
    const QByteArray line = QByteArray(data, qsizetype(n)).trimmed();
    if (line.startsWith("HTTP/")) {
        // A new response (after 100 Continue, say): forget the previous one's headers.
        const QList<QByteArray> parts = line.split(' ');
        t.httpStatus = parts.size() > 1 ? parts[1].toLong() : 0;
        t.jsonBody = false;
        t.contentType.clear();
        t.retryAfterMs.reset();
        return n;
    }
    const qsizetype colon = line.indexOf(':');
    if (line.isEmpty()) {
        if (t.streaming()) {
            t.decoder->setJsonBody(t.jsonBody);
            t.loop->streamStarted(t);
        }
        return n;
    }
    if (colon <= 0)
        return n;
    const QByteArray name = line.left(colon).trimmed().toLower();
    const QByteArray value = line.mid(colon + 1).trimmed();
    if (name == "content-type") {
        t.contentType = value.toLower();
        t.jsonBody = t.contentType.startsWith("application/json");
    } else if (name == "retry-after-ms") {
        if (auto ms = RetryPolicy::parseRetryAfterMs(value))
            t.retryAfterMs = ms;
    } else if (name == "retry-after" && !t.retryAfterMs) {
        t.retryAfterMs = RetryPolicy::parseRetryAfter(value, QDateTime::currentDateTimeUtc());
    }
    return n;
}

size_t LlmTransferLoop::onWrite(char *data, size_t size, size_t count, void *user)
{
    auto &t = *static_cast<Transfer *>(user);
    const size_t n = size * count;
    LlmTransferLoop &loop = *t.loop;
    t.lastByte = Clock::now();
    if (!t.streaming()) {
        if (t.errorBody.size() < kMaxErrorBody)
            t.errorBody.append(data, std::min<qsizetype>(qsizetype(n), kMaxErrorBody - t.errorBody.size()));
        return n;
    }
    if (!t.startedSent)
        loop.streamStarted(t);
    StreamDecoder &d = *t.decoder;
    d.feed(data, qsizetype(n));
    loop.drain(t);
    if (d.error() != LlmErrorKind::None)
        return 0; // stop the transfer; attemptOver() reads the decoder's error
    if (d.ended() && !t.endSeen)
        t.endSeen = t.lastByte;
    return n;
}

void LlmTransferLoop::drain(Transfer &t)
{
    StreamDecoder &d = *t.decoder;
    for (StreamDelta &delta : d.takeDeltas()) {
        if (t.firstTokenMs < 0)
            t.firstTokenMs = msSince(t.created);
        queueDelta(delta.kind == StreamDelta::Reasoning ? LlmEvent::Reasoning : LlmEvent::Text, t.id, delta.text);
    }
    if (d.takeUsageChanged()) {
        LlmEvent e;
        e.type = LlmEvent::Usage;
        e.id = t.id;
        e.usage = d.usage();
        m_batch.push_back(std::move(e));
    }
}

void LlmTransferLoop::streamStarted(Transfer &t)
{
    if (t.startedSent)
        return;
    t.startedSent = true;
    LlmEvent e;
    e.type = LlmEvent::Started;
    e.id = t.id;
    m_batch.push_back(std::move(e));
}

void LlmTransferLoop::queueDelta(LlmEvent::Type type, quint64 id, const QString &text)
{
    if (!m_batch.empty() && m_batch.back().type == type && m_batch.back().id == id) {
        m_batch.back().text += text;
        return;
    }
    LlmEvent e;
    e.type = type;
    e.id = id;
    e.text = text;
    m_batch.push_back(std::move(e));
}

void LlmTransferLoop::readDone()
{
    int left = 0;
    while (CURLMsg *msg = curl_multi_info_read(m_multi, &left)) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        Transfer *t = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char **>(&t));
        if (t)
            attemptOver(*t, msg->data.result);
    }
}

void LlmTransferLoop::checkTimers()
{
    const auto now = Clock::now();
    std::vector<Transfer *> due;
    for (auto &[id, t] : m_transfers)
        due.push_back(t.get());
    for (Transfer *t : due) {
        const LlmLimits &limits = t->request.endpoint.limits;
        if (t->waiting) {
            if (now >= t->deadline)
                finishTransfer(*t, LlmStatus::Failed, LlmErrorKind::TotalTimeout, {});
            else if (now >= t->wakeAt)
                startAttempt(*t);
        } else if (t->endSeen && msSince(*t->endSeen, now) >= kEndGraceMs) {
            attemptOver(*t, CURLE_OK);
        } else if (now >= t->deadline) {
            abortAttempt(*t, LlmErrorKind::TotalTimeout);
        } else if (!t->connected) {
            // Connecting and the TLS handshake fall under the connect timeout; the idle clock starts after them.
            curl_off_t pretransfer = 0;
            if (curl_easy_getinfo(t->easy, CURLINFO_PRETRANSFER_TIME_T, &pretransfer) == CURLE_OK && pretransfer > 0) {
                t->connected = true;
                t->lastByte = std::max(t->lastByte, now);
            }
        } else if (msSince(t->lastByte, now) >= limits.idleTimeoutMs) {
            abortAttempt(*t, LlmErrorKind::IdleTimeout);
        }
    }
}

int LlmTransferLoop::pollTimeoutMs() const
{
    auto next = Clock::now() + milliseconds(1000);
    for (const auto &[id, t] : m_transfers) {
        if (t->waiting) {
            next = std::min(next, std::min(t->wakeAt, t->deadline));
        } else {
            next = std::min(next, t->deadline);
            if (t->connected)
                next = std::min(next, t->lastByte + milliseconds(t->request.endpoint.limits.idleTimeoutMs));
            else
                next = std::min(next, Clock::now() + milliseconds(20)); // look again soon whether it is connected
            if (t->endSeen)
                next = std::min(next, *t->endSeen + milliseconds(kEndGraceMs));
        }
    }
    const qint64 ms = std::chrono::duration_cast<milliseconds>(next - Clock::now()).count();
    return int(std::clamp<qint64>(ms + 1, 0, 1000));
}

void LlmTransferLoop::abortAttempt(Transfer &t, LlmErrorKind kind)
{
    if (t.waiting) {
        finishTransfer(t, kind == LlmErrorKind::Cancelled ? LlmStatus::Cancelled : LlmStatus::Failed, kind, {});
        return;
    }
    t.stopKind = kind;
    attemptOver(t, CURLE_OK);
}

void LlmTransferLoop::detach(Transfer &t)
{
    if (t.easy) {
        curl_multi_remove_handle(m_multi, t.easy);
        curl_easy_cleanup(t.easy);
        t.easy = nullptr;
    }
}

void LlmTransferLoop::attemptOver(Transfer &t, CURLcode code)
{
    const QString curlDetail = QString::fromUtf8(t.curlError[0] ? t.curlError : curl_easy_strerror(code));
    const bool connectedOnce = t.httpStatus != 0;
    detach(t);
    StreamDecoder &d = *t.decoder;
    const LlmErrorKind stopKind = t.stopKind;

    if (stopKind == LlmErrorKind::Cancelled) {
        finishTransfer(t, LlmStatus::Cancelled, LlmErrorKind::Cancelled, {});
        return;
    }

    LlmErrorKind kind = LlmErrorKind::None;
    QString detail;
    if (t.streaming()) {
        // The end marker may have arrived before the connection broke or went quiet: then the answer is whole.
        d.finish(code == CURLE_OK && stopKind == LlmErrorKind::None);
        drain(t); // the last event may complete only at the end of the body (or the body was one JSON document)
        if (d.ended() && d.error() == LlmErrorKind::None) {
            finishTransfer(t, d.truncated() ? LlmStatus::Truncated : LlmStatus::Complete, LlmErrorKind::None, {});
            return;
        }
        if (stopKind != LlmErrorKind::None) {
            kind = stopKind;
        } else if (d.error() != LlmErrorKind::None && d.error() != LlmErrorKind::StreamIncomplete) {
            kind = d.error();
            detail = d.errorDetail();
        } else if (code != CURLE_OK) {
            kind = kindForCurl(code);
            detail = curlDetail;
        } else if (!d.hasContent() && !t.contentType.isEmpty() && !t.contentType.startsWith("text/event-stream")) {
            // A web page or some other document where the API should be: most likely a wrong base URL.
            kind = LlmErrorKind::MalformedStream;
            detail = QCoreApplication::translate("kforge::LlmClient",
                                                 "it answered with %1 instead of an event stream; check the base URL")
                         .arg(QString::fromUtf8(t.contentType.split(';').constFirst()));
        } else {
            kind = LlmErrorKind::StreamIncomplete;
        }
    } else if (stopKind != LlmErrorKind::None) {
        kind = stopKind;
    } else if (connectedOnce) {
        kind = LlmErrors::kindForHttpStatus(int(t.httpStatus));
        detail = LlmErrors::providerMessage(t.errorBody);
        if (kind == LlmErrorKind::None) // a 1xx/3xx we do not follow
            kind = LlmErrorKind::HttpError;
    } else {
        kind = code == CURLE_OK ? LlmErrorKind::ConnectionLost : kindForCurl(code);
        detail = curlDetail;
    }

    const bool content = d.hasContent();
    if (!content && LlmErrors::isRetryable(kind) && t.attempt < t.request.endpoint.limits.maxAttempts) {
        const RetryPolicy policy(t.request.endpoint.limits);
        const bool serverAsked = kind == LlmErrorKind::RateLimited || kind == LlmErrorKind::ServerError;
        const std::optional<int> delay = policy.delayMs(t.attempt + 1, serverAsked ? t.retryAfterMs : std::nullopt,
                                                        std::uniform_real_distribution<double>(0, 1)(m_random));
        const auto wake = Clock::now() + milliseconds(delay.value_or(0));
        if (delay && wake < t.deadline) {
            LlmErrorContext ctx;
            ctx.url = QString::fromUtf8(t.url);
            ctx.model = t.request.effectiveModel();
            ctx.httpStatus = int(t.httpStatus);
            ctx.detail = LlmErrors::redact(detail, t.request.apiKey);
            ctx.attempts = t.attempt;
            ctx.timeoutMs = t.request.endpoint.limits.connectTimeoutMs;
            LlmEvent e;
            e.type = LlmEvent::Retrying;
            e.id = t.id;
            e.attempt = t.attempt + 1;
            e.delayMs = *delay;
            e.text = LlmErrors::redact(LlmErrors::message(kind, ctx), t.request.apiKey);
            m_batch.push_back(std::move(e));
            t.waiting = true;
            t.wakeAt = wake;
            return;
        }
        if (!delay && t.retryAfterMs)
            detail +=
                (detail.isEmpty() ? QString() : QStringLiteral("; "))
                + QCoreApplication::translate("kforge::LlmClient", "the server asked to wait %1 s").arg(*t.retryAfterMs / 1000);
    }
    finishTransfer(t, content ? LlmStatus::Partial : LlmStatus::Failed, kind, detail);
}

void LlmTransferLoop::finishTransfer(Transfer &t, LlmStatus status, LlmErrorKind kind, const QString &detail)
{
    detach(t);
    LlmResult r;
    r.id = t.id;
    r.status = status;
    r.error = kind;
    r.httpStatus = int(t.httpStatus);
    r.attempts = t.attempt;
    r.timeToFirstTokenMs = t.firstTokenMs;
    r.totalMs = msSince(t.created);
    if (t.decoder) {
        r.text = t.decoder->text();
        r.reasoning = t.decoder->reasoning();
        r.usage = t.decoder->usage();
        r.stopReason = t.decoder->stopReason();
        r.model = t.decoder->model();
    }
    if (kind != LlmErrorKind::None) {
        LlmErrorContext ctx;
        ctx.url = t.url.isEmpty() ? t.request.endpoint.baseUrl : QString::fromUtf8(t.url);
        ctx.model = t.request.effectiveModel();
        ctx.httpStatus = int(t.httpStatus);
        ctx.detail = LlmErrors::redact(detail, t.request.apiKey);
        ctx.attempts = std::max(1, t.attempt);
        ctx.receivedChars = r.text.size() + r.reasoning.size();
        ctx.keyHint = keyHint(t.request);
        const LlmLimits &limits = t.request.endpoint.limits;
        ctx.timeoutMs = kind == LlmErrorKind::IdleTimeout    ? limits.idleTimeoutMs
                        : kind == LlmErrorKind::TotalTimeout ? limits.totalTimeoutMs
                                                             : limits.connectTimeoutMs;
        r.errorMessage = LlmErrors::redact(LlmErrors::message(kind, ctx), t.request.apiKey);
    }
    LlmEvent e;
    e.type = LlmEvent::Finished;
    e.id = t.id;
    e.result = std::move(r);
    m_batch.push_back(std::move(e));
    m_transfers.erase(t.id); // t is gone from here on
}

void LlmTransferLoop::flush()
{
    if (m_batch.empty())
        return;
    auto events = std::make_shared<std::vector<LlmEvent>>(std::move(m_batch));
    m_batch.clear();
    LlmClient *client = m_client;
    QMetaObject::invokeMethod(
        client, [client, events] { client->deliver(*events); }, Qt::QueuedConnection);
}

} // namespace kforge
