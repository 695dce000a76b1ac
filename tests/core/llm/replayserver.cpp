#include "replayserver.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QPointer>
#include <QRegularExpression>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimeZone>
#include <QTimer>
#include <algorithm>

namespace kforge::test {

struct ReplayServer::Connection {
    QPointer<QTcpSocket> socket;
    QByteArray buffer;
    bool responding = false;
    bool serving = false; // counted in m_serving
    QByteArray head;
    ReplayResponse response;
    QList<QByteArray> pieces;
    qsizetype next = 0;
    qsizetype sent = 0;
    QTimer *timer = nullptr;
};

QByteArray ReceivedRequest::header(const QByteArray &name) const
{
    for (const auto &[n, v] : headers)
        if (n.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}

ReplayServer::ReplayServer(QObject *parent)
    : QObject(parent)
{
}

ReplayServer::~ReplayServer()
{
    for (Connection *c : std::as_const(m_connections)) {
        if (c->socket)
            c->socket->abort();
        delete c;
    }
}

bool ReplayServer::loadFixtures(const QString &dir, QString *error)
{
    QFile f(QDir(dir).filePath(QStringLiteral("scenarios.json")));
    if (!f.open(QIODevice::ReadOnly)) {
        *error = f.fileName() + QStringLiteral(": ") + f.errorString();
        return false;
    }
    QJsonParseError pe{};
    const QJsonObject all = QJsonDocument::fromJson(f.readAll(), &pe).object();
    if (pe.error != QJsonParseError::NoError) {
        *error = QStringLiteral("scenarios.json: ") + pe.errorString();
        return false;
    }
    for (auto it = all.begin(); it != all.end(); ++it) {
        if (it.key().startsWith(QLatin1Char('_')))
            continue;
        const QJsonObject so = it.value().toObject();
        ReplayScenario s;
        s.protocol = so.value(QLatin1String("protocol")).toString(QStringLiteral("openai"));
        for (const QJsonValue &rv : so.value(QLatin1String("responses")).toArray()) {
            const QJsonObject ro = rv.toObject();
            ReplayResponse r;
            r.status = ro.value(QLatin1String("status")).toInt(200);
            const QString bodyFile = ro.value(QLatin1String("body")).toString();
            if (!bodyFile.isEmpty()) {
                QFile b(QDir(dir).filePath(bodyFile));
                if (!b.open(QIODevice::ReadOnly)) {
                    *error = b.fileName() + QStringLiteral(": ") + b.errorString();
                    return false;
                }
                r.body = b.readAll();
            }
            if (r.status >= 300)
                r.contentType = "application/json";
            if (ro.contains(QLatin1String("content_type")))
                r.contentType = ro.value(QLatin1String("content_type")).toString().toUtf8();
            r.chunked = ro.value(QLatin1String("chunked")).toBool(r.status < 300);
            const QJsonObject headers = ro.value(QLatin1String("headers")).toObject();
            for (auto h = headers.begin(); h != headers.end(); ++h)
                r.headers.append({h.key().toUtf8(), h.value().toString().toUtf8()});
            r.chunkBytes = ro.value(QLatin1String("chunk_bytes")).toInt(0);
            for (const QJsonValue &sv : ro.value(QLatin1String("split_inside")).toArray())
                r.splitInside.append(sv.toString().toUtf8());
            r.delayMs = ro.value(QLatin1String("delay_ms")).toInt(0);
            r.dropAfter = ro.value(QLatin1String("drop_after")).toInt(-1);
            r.stallAfter = ro.value(QLatin1String("stall_after")).toInt(-1);
            r.holdUntil = ro.value(QLatin1String("hold_until")).toInt(0);
            if (ro.contains(QLatin1String("drop_at")))
                r.dropAfter = r.body.indexOf(ro.value(QLatin1String("drop_at")).toString().toUtf8());
            if (ro.contains(QLatin1String("stall_at")))
                r.stallAfter = r.body.indexOf(ro.value(QLatin1String("stall_at")).toString().toUtf8());
            s.responses.append(r);
        }
        if (s.responses.isEmpty()) {
            *error = QStringLiteral("scenario %1 has no responses").arg(it.key());
            return false;
        }
        m_scenarios.insert(it.key(), s);
    }
    return true;
}

bool ReplayServer::listen(const QSslConfiguration *tls)
{
    if (tls) {
        auto *ssl = new QSslServer(this);
        ssl->setSslConfiguration(*tls);
        m_server = ssl;
        m_tls = true;
    } else {
        m_server = new QTcpServer(this);
    }
    connect(m_server, &QTcpServer::pendingConnectionAvailable, this, &ReplayServer::onNewConnection);
    return m_server->listen(QHostAddress::LocalHost, 0);
}

quint16 ReplayServer::port() const
{
    return m_server ? m_server->serverPort() : 0;
}

QString ReplayServer::baseUrl(const QString &scenario) const
{
    return QStringLiteral("%1://127.0.0.1:%2/s/%3/v1")
        .arg(m_tls ? QStringLiteral("https") : QStringLiteral("http"))
        .arg(port())
        .arg(scenario);
}

void ReplayServer::reset()
{
    m_hits.clear();
    m_requests.clear();
    m_peak = m_serving;
}

void ReplayServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        auto *c = new Connection;
        c->socket = socket;
        socket->setParent(this);
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        m_connections.append(c);
        connect(socket, &QTcpSocket::readyRead, this, [this, c] { onReadyRead(c); });
        connect(socket, &QTcpSocket::disconnected, this, [this, c] { close(c, false); });
        if (socket->bytesAvailable() > 0)
            onReadyRead(c);
    }
}

void ReplayServer::onReadyRead(Connection *c)
{
    if (!c->socket)
        return;
    c->buffer += c->socket->readAll();
    if (c->responding)
        return;
    const qsizetype headerEnd = c->buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0)
        return;
    ReceivedRequest req;
    const QList<QByteArray> lines = c->buffer.left(headerEnd).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    req.method = requestLine.value(0);
    req.target = requestLine.value(1);
    req.path = req.target;
    if (req.path.startsWith("http://") || req.path.startsWith("https://")) {
        const qsizetype slash = req.path.indexOf('/', req.path.indexOf("//") + 2);
        req.path = slash < 0 ? QByteArray("/") : req.path.mid(slash);
    }
    qsizetype length = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray name = lines[i].left(colon).trimmed();
        const QByteArray value = lines[i].mid(colon + 1).trimmed();
        req.headers.append({name, value});
        if (name.compare("content-length", Qt::CaseInsensitive) == 0)
            length = value.toLongLong();
    }
    if (c->buffer.size() < headerEnd + 4 + length)
        return; // the body is still coming
    req.body = c->buffer.mid(headerEnd + 4, length);
    c->responding = true;
    respond(c, req);
}

const ReplayScenario *ReplayServer::scenarioFor(const QString &name)
{
    if (const auto it = m_scenarios.constFind(name); it != m_scenarios.constEnd())
        return &*it;
    static const QRegularExpression synth(QStringLiteral("^synth-(openai|anthropic)-(\\d+)$"));
    const auto m = synth.match(name);
    if (!m.hasMatch())
        return nullptr;
    ReplayScenario s;
    s.protocol = m.captured(1);
    ReplayResponse r;
    r.body = synthesize(s.protocol, m.captured(2).toInt());
    s.responses.append(r);
    return &*m_scenarios.insert(name, s);
}

void ReplayServer::respond(Connection *c, const ReceivedRequest &req)
{
    m_requests.append(req);
    c->serving = true;
    ++m_serving;
    m_peak = std::max(m_peak, m_serving);

    const QString path = QString::fromUtf8(req.path);
    static const QRegularExpression route(QStringLiteral("^/s/([^/]+)/v1/(chat/completions|messages)$"));
    const auto m = route.match(path);
    const ReplayScenario *scenario = m.hasMatch() ? scenarioFor(m.captured(1)) : nullptr;
    const bool pathFits = scenario
                          && (scenario->protocol == QLatin1String("anthropic")
                                  ? m.captured(2) == QLatin1String("messages")
                                  : m.captured(2) == QLatin1String("chat/completions"));
    ReplayResponse r;
    if (req.method != "POST" || !scenario || !pathFits) {
        r.status = 404;
        r.chunked = false;
        r.contentType = "application/json";
        r.body = R"({"error":{"message":"replay server: no scenario for )" + req.method + ' ' + req.path
                 + R"(","type":"invalid_request_error"}})";
    } else {
        const int hit = m_hits[m.captured(1)]++;
        r = scenario->responses.at(std::min<qsizetype>(hit, scenario->responses.size() - 1));
    }

    // Pieces: fixed-size chunks plus a split in the middle of every occurrence of the chosen strings.
    QList<qsizetype> cuts;
    if (r.chunkBytes > 0)
        for (qsizetype at = r.chunkBytes; at < r.body.size(); at += r.chunkBytes)
            cuts.append(at);
    for (const QByteArray &needle : std::as_const(r.splitInside))
        for (qsizetype at = r.body.indexOf(needle); at >= 0; at = r.body.indexOf(needle, at + 1))
            cuts.append(at + std::max<qsizetype>(1, needle.size() / 2));
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    qsizetype from = 0;
    for (qsizetype cut : std::as_const(cuts)) {
        if (cut > from && cut < r.body.size()) {
            c->pieces.append(r.body.mid(from, cut - from));
            from = cut;
        }
    }
    if (from < r.body.size())
        c->pieces.append(r.body.mid(from));

    QByteArray head = "HTTP/1.1 " + QByteArray::number(r.status) + ' '
                      + (r.status == 200 ? QByteArray("OK") : QByteArray("Replay")) + "\r\n";
    head += "Content-Type: " + r.contentType + "\r\n";
    for (const auto &[name, value] : std::as_const(r.headers)) {
        QByteArray v = value;
        if (v.startsWith("@date+")) {
            const QDateTime at = QDateTime::currentDateTimeUtc().addSecs(v.mid(6).toInt());
            v = QLocale::c().toString(at, QStringLiteral("ddd, dd MMM yyyy HH:mm:ss 'GMT'")).toLatin1();
        }
        head += name + ": " + v + "\r\n";
    }
    head += "Cache-Control: no-cache\r\nConnection: close\r\n";
    head += r.chunked ? QByteArray("Transfer-Encoding: chunked\r\n")
                      : "Content-Length: " + QByteArray::number(r.body.size()) + "\r\n";
    head += "\r\n";
    c->response = r;
    c->head = head;
    if (r.holdUntil > 0) {
        m_held.append(c);
        if (m_held.size() < r.holdUntil)
            return;
        const QList<Connection *> held = std::exchange(m_held, {});
        for (Connection *h : held)
            startResponse(h);
        return;
    }
    startResponse(c);
}

void ReplayServer::startResponse(Connection *c)
{
    if (!c->socket)
        return;
    c->socket->write(c->head);
    c->socket->flush();
    c->timer = new QTimer(c->socket);
    c->timer->setSingleShot(true);
    connect(c->timer, &QTimer::timeout, this, [this, c] { sendNext(c); });
    sendNext(c);
}

void ReplayServer::sendNext(Connection *c)
{
    const ReplayResponse &r = c->response;
    while (c->socket) {
        if (c->next >= c->pieces.size()) {
            if (r.chunked)
                c->socket->write("0\r\n\r\n");
            c->socket->flush();
            doneServing(c);
            c->socket->disconnectFromHost();
            return;
        }
        QByteArray piece = c->pieces.at(c->next++);
        const qsizetype limit = r.dropAfter >= 0 ? r.dropAfter : r.stallAfter;
        const bool cutHere = limit >= 0 && c->sent + piece.size() > limit;
        if (cutHere)
            piece.truncate(limit - c->sent);
        if (!piece.isEmpty()) {
            c->socket->write(r.chunked ? QByteArray::number(piece.size(), 16) + "\r\n" + piece + "\r\n" : piece);
            c->socket->flush();
            c->sent += piece.size();
        }
        if (cutHere) {
            doneServing(c);
            if (r.dropAfter >= 0) {
                // Let the bytes out first, then end the connection without the terminating chunk.
                c->socket->disconnectFromHost();
            }
            return; // stall: say nothing more and keep the connection open until the client leaves
        }
        if (r.delayMs > 0) {
            c->timer->start(r.delayMs);
            return;
        }
    }
}

void ReplayServer::close(Connection *c, bool abort)
{
    if (!m_connections.removeOne(c))
        return;
    m_held.removeOne(c);
    doneServing(c); // the client may leave mid-response
    if (c->timer)
        c->timer->stop();
    if (c->socket) {
        if (abort)
            c->socket->abort();
        c->socket->deleteLater();
    }
    delete c;
}

void ReplayServer::doneServing(Connection *c)
{
    if (c->serving) {
        c->serving = false;
        --m_serving;
    }
}

QByteArray ReplayServer::synthesize(const QString &protocol, int tokens)
{
    static const char *const words[] = {" tile",     " warp",   " shared", " memory",
                                        " coalesce", " unroll", " 内核",   " fuse"};
    QByteArray out;
    out.reserve(qsizetype(tokens) * (protocol == QLatin1String("anthropic") ? 130 : 120) + 1024);
    if (protocol == QLatin1String("anthropic")) {
        out += "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_synth\",\"type\":"
               "\"message\",\"role\":\"assistant\",\"model\":\"synth\",\"content\":[],\"stop_reason\":null,"
               "\"usage\":{\"input_tokens\":100,\"output_tokens\":1}}}\n\n"
               "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
               "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n";
        for (int i = 0; i < tokens; ++i)
            out += QByteArray("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                              "\"delta\":{\"type\":\"text_delta\",\"text\":\"")
                   + words[i % 8] + "\"}}\n\n";
        out += "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
               "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
               "\"usage\":{\"output_tokens\":"
               + QByteArray::number(tokens)
               + "}}\n\n"
                 "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        return out;
    }
    for (int i = 0; i < tokens; ++i)
        out += QByteArray("data: {\"id\":\"chatcmpl-synth\",\"object\":\"chat.completion.chunk\",\"created\":1718023456,"
                          "\"model\":\"synth\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"")
               + words[i % 8] + "\"},\"finish_reason\":null}]}\n\n";
    out += "data: {\"id\":\"chatcmpl-synth\",\"object\":\"chat.completion.chunk\",\"model\":\"synth\",\"choices\":"
           "[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
           "data: {\"id\":\"chatcmpl-synth\",\"object\":\"chat.completion.chunk\",\"model\":\"synth\",\"choices\":[],"
           "\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":"
           + QByteArray::number(tokens) + ",\"total_tokens\":" + QByteArray::number(tokens + 100)
           + "}}\n\n"
             "data: [DONE]\n\n";
    return out;
}

int ReplayServer::pacedMs(const QString &scenario) const
{
    int total = 0;
    for (const ReplayResponse &r : m_scenarios.value(scenario).responses)
        if (r.chunkBytes > 0 && r.delayMs > 0)
            total += int((r.body.size() + r.chunkBytes - 1) / r.chunkBytes) * r.delayMs;
    return total;
}

} // namespace kforge::test
