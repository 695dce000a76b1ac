// kforge-cli: headless KForge. `kforge-cli <command> [options]`; `kforge-cli <command> --help` for each.
#include "command.h"
#include "core/version.h"

#include <QCoreApplication>
#include <QTextStream>
#include <algorithm>
#include <vector>

namespace kforge::cli {
std::vector<Command> &commands()
{
    static std::vector<Command> all;
    return all;
}
} // namespace kforge::cli

int main(int argc, char **argv)
{
    // QCommandLineParser's --help names the program by argv[0], which is the path the binary was started from
    // (a build folder, /usr/bin/...). Show what the user types instead: "kforge-cli export".
    QByteArray shownName = "kforge-cli";
    if (argc >= 2 && argv[1][0] != '-')
        shownName += ' ' + QByteArray(argv[1]);
    std::vector<char *> qtArgv(argv, argv + argc);
    qtArgv[0] = shownName.data();
    qtArgv.push_back(nullptr);
    int qtArgc = argc;
    QCoreApplication app(qtArgc, qtArgv.data());
    QCoreApplication::setApplicationName(QStringLiteral("KForge"));
    QCoreApplication::setOrganizationName(QStringLiteral("KForge"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KFORGE_VERSION_STRING));

    auto &all = kforge::cli::commands();
    std::sort(all.begin(), all.end(), [](const auto &a, const auto &b) { return a.name < b.name; });
    const QStringList args = QCoreApplication::arguments();
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (args.size() < 2 || args[1] == QLatin1String("--help") || args[1] == QLatin1String("-h")) {
        out << QCoreApplication::translate("kforge-cli", "Usage: kforge-cli <command> [options]") << "\n\n"
            << QCoreApplication::translate("kforge-cli", "Commands:") << "\n";
        for (const auto &c : all)
            out << "  " << c.name.leftJustified(10) << ' ' << c.summary << '\n';
        out << '\n'
            << QCoreApplication::translate("kforge-cli", "Run 'kforge-cli <command> --help' for a command's options.")
            << '\n';
        return args.size() < 2 ? 2 : 0;
    }
    if (args[1] == QLatin1String("--version") || args[1] == QLatin1String("-v")) {
        out << "kforge-cli " << QCoreApplication::applicationVersion() << '\n';
        return 0;
    }
    const auto it = std::find_if(all.begin(), all.end(), [&](const auto &c) { return c.name == args[1]; });
    if (it == all.end()) {
        err << QCoreApplication::translate("kforge-cli", "kforge-cli: unknown command '%1'; see kforge-cli --help").arg(args[1])
            << '\n';
        return 2;
    }
    return it->run(args.mid(1));
}
