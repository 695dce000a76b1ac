#include "core/settings/toolchainprobe.h"

#include "core/compile/cudatoolkit.h"

#include <QRegularExpression>

namespace kforge {

ToolchainProbe::ToolchainProbe(QObject *parent)
    : QObject(parent)
{
}

ToolchainProbe::~ToolchainProbe()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

QString ToolchainProbe::parseVersion(const QString &output)
{
    static const QRegularExpression full(QStringLiteral(R"(\bV(\d+\.\d+(?:\.\d+)?))"));
    static const QRegularExpression release(QStringLiteral(R"(release (\d+\.\d+))"));
    if (const auto m = full.match(output); m.hasMatch())
        return m.captured(1);
    if (const auto m = release.match(output); m.hasMatch())
        return m.captured(1);
    return {};
}

void ToolchainProbe::start(const QString &configuredPath)
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->deleteLater();
        m_process = nullptr;
    }
    // A second start() abandons this probe: its answer is dropped.
    auto deliver = m_probes.bind([this](const ToolchainInfo &info) { report(info); });
    const QString nvcc = CudaToolkit::locateNvcc(configuredPath);
    if (nvcc.isEmpty()) {
        ToolchainInfo info;
        info.error = configuredPath.isEmpty()
                         ? CudaToolkit::missingNvccMessage()
                         : tr("The configured CUDA compiler %1 does not exist or is not executable.").arg(configuredPath);
        // Deliver asynchronously in every case so callers see one behaviour.
        QMetaObject::invokeMethod(this, [deliver, info]() mutable { deliver(info); }, Qt::QueuedConnection);
        return;
    }
    m_process = new QProcess(this);
    m_process->setProgram(nvcc);
    m_process->setArguments({QStringLiteral("--version")});
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    QProcess *process = m_process;
    connect(process, &QProcess::finished, this, [deliver, process, nvcc](int exitCode, QProcess::ExitStatus status) mutable {
        ToolchainInfo info;
        info.nvccPath = nvcc;
        const QString output = QString::fromLocal8Bit(process->readAll());
        if (status == QProcess::NormalExit && exitCode == 0) {
            info.found = true;
            info.version = parseVersion(output);
        } else {
            info.error = tr("%1 --version failed: %2").arg(nvcc, output.trimmed().left(300));
        }
        deliver(info);
    });
    connect(process, &QProcess::errorOccurred, this, [deliver, process, nvcc](QProcess::ProcessError error) mutable {
        if (error != QProcess::FailedToStart)
            return; // finished() follows for the other errors
        ToolchainInfo info;
        info.nvccPath = nvcc;
        info.error = tr("Could not run %1: %2").arg(nvcc, process->errorString());
        deliver(info);
    });
    process->start();
}

void ToolchainProbe::report(ToolchainInfo info)
{
    if (m_process) {
        m_process->deleteLater();
        m_process = nullptr;
    }
    Q_EMIT finished(info);
}

} // namespace kforge
