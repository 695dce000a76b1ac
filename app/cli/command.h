#pragma once
// A kforge-cli subcommand. Each lives in its own cmd_<name>.cpp and registers itself with
// KFORGE_REGISTER_COMMAND, so main.cpp needs no edit when one is added.
#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

namespace kforge::cli {

struct Command {
    QString name;
    QString summary; // one line for `kforge-cli --help`
    // args: the command line from the subcommand's name on (args[0] == name), for QCommandLineParser::process.
    // Runs inside a QCoreApplication event loop's thread; returns the exit status.
    std::function<int(const QStringList &args)> run;
};

std::vector<Command> &commands();

struct CommandRegistrar {
    explicit CommandRegistrar(Command c) { commands().push_back(std::move(c)); }
};

} // namespace kforge::cli

#define KFORGE_REGISTER_COMMAND(ident, ...) \
    static const kforge::cli::CommandRegistrar kforge_cli_registrar_##ident{kforge::cli::Command{__VA_ARGS__}};
