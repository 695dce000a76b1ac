#pragma once
// A real HTTP/1.1 server on 127.0.0.1 for the LLM client's tests: it replays recorded streams from
// fixtures/scenarios.json with controlled chunking, delays, dropped connections and silences.
// Routes: /s/<scenario>/v1/chat/completions (openai) or /s/<scenario>/v1/messages (anthropic), and
// synthetic streams /s/synth-openai-<tokens>/... and /s/synth-anthropic-<tokens>/... for benchmarks.
#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QSslConfiguration>
#include <QString>
#include <utility>

class QTcpServer;
class QTcpSocket;

namespace kforge::test {

struct ReplayResponse {
    int status = 200;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    QByteArray contentType = "text/event-stream";
    bool chunked = true;
    int chunkBytes = 0;
    QList<QByteArray> splitInside;
    int delayMs = 0;
    qsizetype dropAfter = -1;
    qsizetype stallAfter = -1;
    int holdUntil = 0; // send nothing until this many such requests are waiting: proves they run concurrently
};

struct ReplayScenario {
    QString protocol = QStringLiteral("openai");
    QList<ReplayResponse> responses;
};

struct ReceivedRequest {
    QByteArray method;
    QByteArray target; // as sent: absolute ("http://host/...") when it came through a proxy
    QByteArray path;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    QByteArray header(const QByteArray &name) const;
};

class ReplayServer : public QObject
{
    Q_OBJECT
public:
    explicit ReplayServer(QObject *parent = nullptr);
    ~ReplayServer() override;

    // Reads <dir>/scenarios.json and the bodies it names.
    bool loadFixtures(const QString &dir, QString *error);
    void addScenario(const QString &name, const ReplayScenario &scenario) { m_scenarios.insert(name, scenario); }
    // Listens on 127.0.0.1, any free port; with tls set, speaks HTTPS with that certificate.
    bool listen(const QSslConfiguration *tls = nullptr);
    quint16 port() const;
    QString baseUrl(const QString &scenario) const; // http(s)://127.0.0.1:<port>/s/<scenario>/v1

    int hits(const QString &scenario) const { return m_hits.value(scenario); }
    // How long the scenario's pacing alone takes (chunks × delay, every response): what a test's upper bound on
    // the time taken must leave room for, stretched by however loaded the machine is.
    int pacedMs(const QString &scenario) const;
    const QList<ReceivedRequest> &requests() const { return m_requests; }
    int peakConcurrent() const { return m_peak; }
    void reset();

    // The stream a synthetic scenario sends: `tokens` content deltas, then the proper ending.
    static QByteArray synthesize(const QString &protocol, int tokens);

private:
    struct Connection;
    void onNewConnection();
    void onReadyRead(Connection *c);
    void respond(Connection *c, const ReceivedRequest &request);
    void sendNext(Connection *c);
    void close(Connection *c, bool abort);
    void doneServing(Connection *c);
    void startResponse(Connection *c);
    const ReplayScenario *scenarioFor(const QString &name);

    QTcpServer *m_server = nullptr;
    bool m_tls = false;
    QHash<QString, ReplayScenario> m_scenarios;
    QHash<QString, int> m_hits;
    QList<ReceivedRequest> m_requests;
    QList<Connection *> m_connections;
    QList<Connection *> m_held;
    int m_serving = 0;
    int m_peak = 0;
};

} // namespace kforge::test
