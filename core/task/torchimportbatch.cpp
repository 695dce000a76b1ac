#include "core/task/torchimportbatch.h"

#include <QProcessEnvironment>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

TorchImportBatch::TorchImportBatch(QObject *parent)
    : QObject(parent)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"PYTHONDONTWRITEBYTECODE"_s, u"1"_s);
    m_process.setProcessEnvironment(env);
    m_watchdog.setSingleShot(true);
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &TorchImportBatch::readLines);
    connect(&m_process, &QProcess::finished, this, &TorchImportBatch::conclude);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            conclude();
    });
    connect(&m_watchdog, &QTimer::timeout, this, [this] { m_process.kill(); });
}

TorchImportBatch::~TorchImportBatch()
{
    m_concluded = true; // no signal from a batch being destroyed
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished(2000);
    }
}

void TorchImportBatch::start(const QString &python, const QString &script, const QStringList &files, int jobs, double timeoutS)
{
    m_files = files;
    m_reported.clear();
    m_pending.clear();
    m_concluded = false;
    m_clock.start();
    if (files.isEmpty()) {
        QMetaObject::invokeMethod(this, &TorchImportBatch::conclude, Qt::QueuedConnection);
        return;
    }
    jobs = std::max(1, int(std::min<qsizetype>(jobs, files.size())));
    // Every problem's timeout, `jobs` at a time, and a minute for the process itself.
    m_watchdog.start(int(std::min(2.0e9, (timeoutS * double(files.size()) / jobs + timeoutS + 60) * 1000)));
    m_process.start(python, torchimport::scriptArguments(script, files, jobs, timeoutS));
}

void TorchImportBatch::cancel()
{
    if (m_process.state() != QProcess::NotRunning)
        m_process.kill(); // conclude() reports what had no result
}

void TorchImportBatch::readLines()
{
    m_pending += m_process.readAllStandardOutput();
    qsizetype newline;
    while ((newline = m_pending.indexOf('\n')) >= 0) {
        const QByteArray line = m_pending.left(newline);
        m_pending.remove(0, newline + 1);
        const TorchDiscovery result = torchimport::parseResultLine(line);
        if (result.file.isEmpty())
            continue;
        m_reported << result.file;
        Q_EMIT problemDone(result);
        if (m_concluded)
            return; // the receiver cancelled or destroyed the batch
    }
}

void TorchImportBatch::conclude()
{
    if (m_concluded)
        return;
    m_watchdog.stop();
    QString stderrTail;
    if (!m_files.isEmpty()) {
        if (m_process.state() != QProcess::NotRunning)
            m_process.waitForFinished(5000);
        readLines();
        stderrTail = QString::fromUtf8(m_process.readAllStandardError()).trimmed().section(u'\n', -1);
    }
    for (const QString &file : std::as_const(m_files)) {
        if (m_concluded || m_reported.contains(file))
            continue;
        TorchDiscovery missing;
        missing.file = file;
        missing.error = {
            file, u"discover"_s,
            tr("the discovery process ended without a result (exit status %1): %2").arg(m_process.exitCode()).arg(stderrTail)};
        Q_EMIT problemDone(missing);
    }
    if (m_concluded)
        return;
    m_concluded = true;
    Q_EMIT finished();
}

} // namespace kforge
