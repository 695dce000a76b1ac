// A second process for tst_settings: writes a fixed set of values through Settings, or prints what it reads,
// so the test sees what a later start of KForge sees (QSettings caches within a process).
//   settings_child write|read <file.ini | ->     ("-": the application's own store, as kforge uses it)
#include "core/settings/settings.h"

#include <QCoreApplication>
#include <QTextStream>

#include <memory>

using namespace kforge;

namespace {
QString dump(const Settings &s)
{
    QStringList lines;
    lines << QStringLiteral("language=") + s.language();
    lines << QStringLiteral("theme=") + Settings::themeName(s.theme());
    lines << QStringLiteral("recent=") + s.recentFiles().join(u'|');
    lines << QStringLiteral("geometry=") + QString::fromLatin1(s.windowGeometry().toHex());
    lines << QStringLiteral("nvcc=") + s.nvccPath();
    QStringList workers;
    for (const WorkerConfig &w : s.workers())
        workers << w.name + u':' + w.command;
    lines << QStringLiteral("workers=") + workers.join(u'|');
    lines << QStringLiteral("trials=") + QString::number(s.timing().trials);
    lines << QStringLiteral("candidates=") + QString::number(s.candidatesPerRound());
    return lines.join(u'\n') + u'\n';
}

void write(Settings &s)
{
    s.setLanguage(QStringLiteral("zh_CN"));
    s.setTheme(Theme::Dark);
    s.addRecentFile(QStringLiteral("/data/tasks/diag_matmul"));
    s.addRecentFile(QStringLiteral("/data/h200.kforge"));
    s.setWindowGeometry(QByteArrayLiteral("\x01\xd9\xd0\xcb"));
    s.setNvccPath(QStringLiteral("/opt/cuda/bin/nvcc"));
    WorkerConfig w;
    w.name = QStringLiteral("h200");
    w.command = QStringLiteral("ssh h200 kforge-worker");
    s.setWorkers({w});
    TimingSetting t;
    t.trials = 7;
    s.setTiming(t);
    s.setCandidatesPerRound(6);
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("KForge"));
    QCoreApplication::setApplicationName(QStringLiteral("KForge"));
    const QStringList args = QCoreApplication::arguments();
    QTextStream err(stderr);
    if (args.size() != 3 || (args[1] != u"write" && args[1] != u"read")) {
        err << "usage: settings_child write|read <file.ini | ->\n";
        return 2;
    }
    auto settings = args[2] == u"-" ? std::make_unique<Settings>() : std::make_unique<Settings>(args[2]);
    if (args[1] == u"write") {
        write(*settings);
        settings->sync();
        return 0;
    }
    QTextStream(stdout) << dump(*settings);
    return 0;
}
