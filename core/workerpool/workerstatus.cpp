#include "core/workerpool/workerstatus.h"

#include <QLocale>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace kforge {

QString WorkerStatus::keyLine(const QString &error)
{
    const QStringList lines = error.split(u'\n', Qt::SkipEmptyParts);
    // The client frames a launcher's failure ("The worker exited before it was ready (exit code 255).") and
    // appends what the process wrote on stderr; the launcher's last words name the cause.
    for (qsizetype i = lines.size() - 1; i > 0; --i)
        if (!lines.at(i).trimmed().isEmpty())
            return lines.at(i).trimmed();
    return lines.value(0).trimmed();
}

bool WorkerStatus::meansNoGpu(const QString &error)
{
    for (const char *text : {"CUDA driver", "no CUDA device", "no_device", "cudaErrorNoDevice",
                             "cudaErrorInsufficientDriver", "NVIDIA driver"})
        if (error.contains(QLatin1String(text), Qt::CaseInsensitive))
            return true;
    return false;
}

QString WorkerStatus::advice(const QString &error)
{
    const auto has = [&error](const char *text) { return error.contains(QLatin1String(text), Qt::CaseInsensitive); };
    if (has("Could not resolve hostname") || has("Name or service not known"))
        return tr("The host name in the command is unknown here: check its spelling or add it to ~/.ssh/config. In a "
                  "terminal, 'ssh <host> true' must work without asking anything.");
    if (has("Permission denied") || has("Host key verification failed"))
        return tr("ssh could not log in without asking: install your key on that host (ssh-copy-id) and accept its "
                  "host key once in a terminal, so that 'ssh <host> true' works without a prompt.");
    if (has("Connection refused") || has("Connection timed out") || has("No route to host")
        || has("Network is unreachable") || has("Connection closed"))
        return tr("The host does not accept the connection: check that it is up, reachable from here and runs an "
                  "ssh server (try 'ssh <host> true' in a terminal).");
    if (has("command not found") || has("No such file or directory") || has("exit code 127"))
        return tr("The program was not found where the command runs: install kforge-worker there, or give its full "
                  "path in the command (a non-interactive shell may not read the PATH set in your login files).");
    if (has("protocol version"))
        return tr("Install the same KForge version on both sides.");
    if (meansNoGpu(error))
        return tr("The worker runs but finds no usable NVIDIA GPU on its machine. Run it on a machine with an NVIDIA "
                  "GPU and driver (for example over ssh), or update the driver there.");
    if (has("did not report ready"))
        return tr("The command started but never answered: run it in a terminal; it must print one line starting "
                  "with {\"event\":\"ready\" within the start timeout.");
    return tr("Run the command in a terminal to see what it prints: a worker answers with one line starting with "
              "{\"event\":\"ready\".");
}

QString WorkerStatus::summary() const
{
    switch (state) {
    case State::Unknown: return tr("Not tested: press Test");
    case State::Starting: return tr("Starting…");
    case State::Connected:
        return tr("Connected: %1, %2").arg(device.name, device.smArch());
    case State::NoGpu: return tr("No usable GPU: %1").arg(keyLine(error));
    case State::Failed: return tr("Failed: %1").arg(keyLine(error));
    }
    return {};
}

QString WorkerStatus::details() const
{
    QStringList lines;
    if (state == State::Unknown || state == State::Starting)
        return summary();
    if (state == State::Connected) {
        lines << tr("Connected: %1 (compute capability %2.%3, %4)")
                     .arg(device.name)
                     .arg(device.ccMajor)
                     .arg(device.ccMinor)
                     .arg(device.smArch());
        if (device.memoryBytes > 0)
            lines << tr("Memory: %1").arg(QLocale().formattedDataSize(device.memoryBytes));
        if (!device.driverVersion.isEmpty() || !device.runtimeVersion.isEmpty())
            lines << tr("CUDA driver %1, runtime %2")
                         .arg(device.driverVersion.isEmpty() ? tr("unknown") : device.driverVersion,
                              device.runtimeVersion.isEmpty() ? tr("unknown") : device.runtimeVersion);
        // PyTorch tasks need it; a CUDA task does not, so its absence is a fact here, not an error.
        if (torch.hasTorch())
            lines << tr("PyTorch tasks: torch %1 (%2)").arg(torch.version, torch.python);
        else if (torch.reported)
            lines << tr("PyTorch tasks: not judged here, %1 has no torch (%2)")
                         .arg(torch.python.isEmpty() ? u"python3"_s : torch.python, torch.error);
    } else {
        lines << (state == State::NoGpu ? tr("The worker started but has no usable GPU:") : tr("The worker failed:"));
        lines << error.trimmed();
        if (const QString what = advice(error); !what.isEmpty())
            lines << tr("What to do: %1").arg(what);
    }
    if (!workerVersion.isEmpty())
        lines << tr("Worker %1, protocol %2, kernel ABI %3").arg(workerVersion).arg(protocol).arg(abiVersion);
    return lines.join(u'\n');
}

} // namespace kforge
