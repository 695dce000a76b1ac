#pragma once
// Many PyTorch problems imported in one go without blocking, the part `kforge-cli import` and `kforge-cli verify`
// share: one python process (torch imported once) runs kforge_torch_discover.py --each, which discovers every file
// in a forked child of its own with a timeout, `jobs` at a time. problemDone() comes once per file as each finishes
// (its task, or the step that failed: a file the process ended without reporting gets step "discover" with the
// process's last words), then finished() once. A watchdog over the whole run kills a script that hangs itself.
#include "core/task/torchimport.h"

#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTimer>

namespace kforge {

class TorchImportBatch : public QObject
{
    Q_OBJECT
public:
    explicit TorchImportBatch(QObject *parent = nullptr);
    ~TorchImportBatch() override;

    // `python` has torch (torchimport::findPython), `script` is torchimport::discoverScript(), `files` absolute.
    // finished() follows at once for an empty list.
    void start(const QString &python, const QString &script, const QStringList &files, int jobs, double timeoutS);
    void cancel();
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
    double elapsedS() const { return m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0; }

Q_SIGNALS:
    void problemDone(const kforge::TorchDiscovery &result);
    void finished();

private:
    void readLines();
    void conclude();

    QProcess m_process;
    QTimer m_watchdog;
    QElapsedTimer m_clock;
    QStringList m_files;
    QStringList m_reported;
    QByteArray m_pending;
    bool m_concluded = true;
};

} // namespace kforge
