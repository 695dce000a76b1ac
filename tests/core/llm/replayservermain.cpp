// kforge_llm_replay_server <fixtures dir>: serves the replay scenarios on 127.0.0.1, prints "port <n>" on
// stdout once listening, and exits when its stdin closes (so it never outlives the program that started it).
#include "replayserver.h"

#include <QCoreApplication>
#include <QSocketNotifier>
#include <cstdio>
#include <unistd.h>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: kforge_llm_replay_server <fixtures dir>\n");
        return 2;
    }
    kforge::test::ReplayServer server;
    QString error;
    if (!server.loadFixtures(QString::fromLocal8Bit(argv[1]), &error) || !server.listen()) {
        std::fprintf(stderr, "kforge_llm_replay_server: %s\n",
                     qPrintable(error.isEmpty() ? QStringLiteral("cannot listen") : error));
        return 1;
    }
    std::printf("port %u\n", unsigned(server.port()));
    std::fflush(stdout);
    QSocketNotifier stdinWatch(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&stdinWatch, &QSocketNotifier::activated, &app, [&app] {
        char buf[256];
        if (::read(STDIN_FILENO, buf, sizeof buf) <= 0)
            app.quit();
    });
    return app.exec();
}
