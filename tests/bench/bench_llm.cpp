// LLM client benchmark: CPU time the client spends per streamed token (one long stream through loopback,
// as fast as the replay server can send it), and memory for 16 concurrent streams of 32k tokens. The server
// runs as a separate process so its work is not counted. Prints figures; it is not a pass/fail test.
//   bench_llm [--tokens 200000] [--streams 16] [--stream-tokens 32000]
#include "core/llm/endpointpresets.h"
#include "core/llm/llmclient.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <cstdio>
#include <cstring>
#include <sys/resource.h>

using namespace kforge;

namespace {

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// VmRSS / VmHWM of this process in MiB; writing 5 to clear_refs starts a new high-water mark.
double procStatusMiB(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith(field))
            return line.mid(qsizetype(std::strlen(field))).trimmed().split(' ').value(0).toDouble() / 1024.0;
    return -1;
}

void resetPeakRss()
{
    QFile f(QStringLiteral("/proc/self/clear_refs"));
    if (f.open(QIODevice::WriteOnly))
        f.write("5");
}

struct Phase {
    int finished = 0;
    int complete = 0;
    qint64 chars = 0;
    qint64 tokens = 0;
    double wallS = 0;
    double cpuS = 0;
};

Phase stream(LlmClient &client, const QString &baseUrl, LlmProtocol protocol, int streams)
{
    Phase p;
    QEventLoop loop;
    QMetaObject::Connection deltas = QObject::connect(&client, &LlmClient::textDelta, &loop,
                                                      [&p](quint64, const QString &t) { p.chars += t.size(); });
    QMetaObject::Connection done = QObject::connect(&client, &LlmClient::finished, &loop, [&](quint64, const LlmResult &r) {
        ++p.finished;
        p.complete += r.status == LlmStatus::Complete;
        p.tokens += r.usage.completionTokens;
        if (r.status != LlmStatus::Complete)
            std::fprintf(stderr, "bench_llm: %s\n", qPrintable(r.errorMessage));
        if (p.finished == streams)
            loop.quit();
    });
    LlmRequest request;
    request.endpoint = EndpointPresets::forUrl(baseUrl, protocol);
    request.model = QStringLiteral("synth");
    request.messages = {{QStringLiteral("user"), QStringLiteral("go")}};
    const double cpu0 = cpuSeconds();
    QElapsedTimer wall;
    wall.start();
    for (int i = 0; i < streams; ++i)
        client.send(request);
    loop.exec();
    p.wallS = double(wall.nsecsElapsed()) / 1e9;
    p.cpuS = cpuSeconds() - cpu0;
    QObject::disconnect(deltas);
    QObject::disconnect(done);
    return p;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    const QCommandLineOption tokensOpt(QStringLiteral("tokens"), QStringLiteral("tokens in the long stream"),
                                       QStringLiteral("n"), QStringLiteral("200000"));
    const QCommandLineOption streamsOpt(QStringLiteral("streams"), QStringLiteral("concurrent streams"),
                                        QStringLiteral("n"), QStringLiteral("16"));
    const QCommandLineOption perStreamOpt(QStringLiteral("stream-tokens"), QStringLiteral("tokens per concurrent stream"),
                                          QStringLiteral("n"), QStringLiteral("32000"));
    parser.addOptions({tokensOpt, streamsOpt, perStreamOpt});
    parser.addHelpOption();
    parser.process(app);
    const int tokens = parser.value(tokensOpt).toInt();
    const int streams = parser.value(streamsOpt).toInt();
    const int perStream = parser.value(perStreamOpt).toInt();

    for (const char *v : {"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"})
        qunsetenv(v);
    QProcess server;
    server.start(QStringLiteral(KFORGE_REPLAY_SERVER), {QStringLiteral(KFORGE_LLM_FIXTURES)});
    if (!server.waitForStarted() || !server.waitForReadyRead(10'000)) {
        std::fprintf(stderr, "bench_llm: the replay server did not start\n");
        return 1;
    }
    const int port = server.readLine().trimmed().split(' ').value(1).toInt();
    const auto url = [port](const QString &scenario) {
        return QStringLiteral("http://127.0.0.1:%1/s/%2/v1").arg(port).arg(scenario);
    };

    std::printf("LLM client benchmark (replay server in a separate process on 127.0.0.1)\n");
    LlmClient client;
    // Warm-up: connection set-up, first allocations, lazy Qt initialisation.
    stream(client, url(QStringLiteral("synth-openai-1000")), LlmProtocol::OpenAi, 1);

    for (LlmProtocol protocol : {LlmProtocol::OpenAi, LlmProtocol::Anthropic}) {
        const QString name = protocol == LlmProtocol::OpenAi ? QStringLiteral("openai") : QStringLiteral("anthropic");
        const Phase p = stream(client, url(QStringLiteral("synth-%1-%2").arg(name).arg(tokens)), protocol, 1);
        std::printf("  one stream, %-9s %7lld tokens: %6.3f s wall, %6.3f s CPU -> %5.2f us CPU per token, "
                    "%8.0f tokens/s%s\n",
                    qPrintable(name), p.tokens, p.wallS, p.cpuS, p.cpuS / double(std::max<qint64>(1, p.tokens)) * 1e6,
                    double(p.tokens) / p.wallS, p.complete == 1 ? "" : "  (FAILED)");
    }

    const double rssBefore = procStatusMiB("VmRSS:");
    resetPeakRss();
    const Phase c = stream(client, url(QStringLiteral("synth-openai-%1").arg(perStream)), LlmProtocol::OpenAi, streams);
    const double peak = procStatusMiB("VmHWM:");
    std::printf("  %d concurrent streams x %d tokens: %6.3f s wall, %6.3f s CPU -> %5.2f us CPU per token, "
                "%d/%d complete\n",
                streams, perStream, c.wallS, c.cpuS, c.cpuS / double(std::max<qint64>(1, c.tokens)) * 1e6, c.complete,
                streams);
    std::printf("  memory: RSS %.1f MiB before, peak %.1f MiB during (+%.1f MiB; the answers alone are %.1f MiB "
                "as UTF-16)\n",
                rssBefore, peak, peak - rssBefore, double(c.chars) * 2 / (1024 * 1024));
    server.closeWriteChannel(); // the server exits when its stdin closes
    server.waitForFinished(5'000);
    return 0;
}
