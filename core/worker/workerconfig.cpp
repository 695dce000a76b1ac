#include "core/worker/workerconfig.h"

#include "core/compile/executablefile.h"
#include "core/version.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
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

QString WorkerConfig::locateTorchWorkerBinary()
{
    static const QString kName = u"kforge-torch-worker"_s;
    const QString fromEnv = qEnvironmentVariable("KFORGE_TORCH_WORKER");
    if (!fromEnv.isEmpty() && isExecutableFile(fromEnv))
        return QFileInfo(fromEnv).absoluteFilePath();
    QStringList candidates;
    if (const QString worker = locateWorkerBinary(); !worker.isEmpty())
        candidates << QFileInfo(worker).absolutePath() + u'/' + kName;
    if (const QString appDir = QCoreApplication::applicationDirPath(); !appDir.isEmpty())
        candidates << appDir + u'/' + kName << appDir + u"/../bin/"_s + kName;
    // A build tree: the script is not copied, it runs from the sources (it finds its package beside it).
    candidates << QStringLiteral(KFORGE_SOURCE_DIR) + u"/torchworker/"_s + kName;
    for (const QString &c : std::as_const(candidates))
        if (isExecutableFile(c))
            return QDir::cleanPath(QFileInfo(c).absoluteFilePath());
    return QStandardPaths::findExecutable(kName);
}

WorkerConfig WorkerConfig::forTorch() const
{
    // The program name as a word of its own, bare or at the end of a path: "ssh box /opt/kf/bin/kforge-worker".
    static const QRegularExpression worker(u"(^|[\\s/'\"])kforge-worker(?=$|[\\s'\"])"_s);
    WorkerConfig c = *this;
    c.command.replace(worker, u"\\1kforge-torch-worker"_s);
    return c;
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
    if (QFileInfo(parts.first()).fileName() == u"kforge-torch-worker") {
        if (parts.first() == u"kforge-torch-worker") {
            const QString script = locateTorchWorkerBinary();
            if (script.isEmpty())
                return {};
            parts.first() = script;
        }
        if (const QString python = qEnvironmentVariable("KFORGE_TORCH_PYTHON"); !python.isEmpty())
            parts.prepend(python);
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
