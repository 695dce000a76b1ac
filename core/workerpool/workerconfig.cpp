#include "core/workerpool/workerconfig.h"

#include "core/compile/executablefile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace kforge {

QString WorkerConfig::locateWorkerBinary()
{
    const QString fromEnv = qEnvironmentVariable("KFORGE_WORKER");
    if (!fromEnv.isEmpty() && isExecutableFile(fromEnv))
        return QFileInfo(fromEnv).absoluteFilePath();
    const QString appDir = QCoreApplication::applicationDirPath();
    if (!appDir.isEmpty()) {
        // Installed side by side; or in a build tree, where programs live in their source folders' mirrors
        // (build/app/cli/kforge-cli, build/core/runtime/worker/kforge-worker, build/tests/...).
        for (const char *rel : {".", "../../core/runtime/worker", "../core/runtime/worker",
                                "../../../core/runtime/worker", "../../../../core/runtime/worker"}) {
            const QString candidate = QDir::cleanPath(appDir + u'/' + QLatin1String(rel) + u"/kforge-worker"_s);
            if (isExecutableFile(candidate))
                return candidate;
        }
    }
    return QStandardPaths::findExecutable(u"kforge-worker"_s);
}

QStringList WorkerConfig::resolvedCommand() const
{
    QStringList parts = QProcess::splitCommand(command);
    if (parts.isEmpty())
        return {};
    if (parts.first() == u"kforge-worker") {
        const QString binary = locateWorkerBinary();
        if (binary.isEmpty())
            return {};
        parts.first() = binary;
    }
    return parts;
}

bool WorkerConfig::sendsInline() const
{
    switch (transfer) {
    case Transfer::Path: return false;
    case Transfer::Inline: return true;
    case Transfer::Auto: break;
    }
    const QStringList parts = QProcess::splitCommand(command);
    if (parts.isEmpty())
        return false;
    static const QStringList remoteLaunchers{u"ssh"_s,    u"srun"_s,   u"salloc"_s,    u"mosh"_s,       u"kubectl"_s,
                                             u"docker"_s, u"podman"_s, u"apptainer"_s, u"singularity"_s};
    return remoteLaunchers.contains(QFileInfo(parts.first()).fileName());
}

} // namespace kforge
