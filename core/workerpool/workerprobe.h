#pragma once
// Tests one worker command the way the pool starts it: a WorkerClient runs the command, checks the ready line
// and the hello answer, then asks device_info; the answer (or the exact error) comes back as a WorkerStatus
// and the process is stopped. Asynchronous: finished() follows once, never inside start().
#include "core/workerpool/workerconfig.h"
#include "core/workerpool/workerstatus.h"

#include <QObject>

namespace kforge {

class WorkerClient;

class WorkerProbe : public QObject
{
    Q_OBJECT
public:
    explicit WorkerProbe(const WorkerConfig &config, QObject *parent = nullptr);
    ~WorkerProbe() override;

    const WorkerConfig &config() const { return m_config; }
    bool isRunning() const { return m_client != nullptr; }
    void start();

Q_SIGNALS:
    void finished(const kforge::WorkerStatus &status);

private:
    void finish(WorkerStatus::State state, const QString &error = {});

    WorkerConfig m_config;
    WorkerClient *m_client = nullptr;
    WorkerStatus m_status;
    int m_deviceRequest = 0;
};

} // namespace kforge
