// kforge-cli run as a user runs it, for the CLI tests: one subcommand, its exit code and both outputs.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace kforge::test {

struct CliRun {
    int code = -1; // -1: it did not finish in time (killed) or did not start
    QString out;
    QString err;
};

// `env` empty: this process's environment.
inline CliRun runCli(const QString &subcommand, const QStringList &args, int timeoutMs = 30000,
                     const QProcessEnvironment &env = {})
{
    QProcess p;
    if (!env.isEmpty())
        p.setProcessEnvironment(env);
    p.start(QStringLiteral(KFORGE_CLI), QStringList{subcommand} + args);
    CliRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace kforge::test
