#include "core/workerpool/workerprobe.h"

#include "core/workerpool/workerclient.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace kforge {

WorkerProbe::WorkerProbe(const WorkerConfig &config, QObject *parent)
    : QObject(parent)
    , m_config(config)
{
    qRegisterMetaType<kforge::WorkerStatus>();
}

WorkerProbe::~WorkerProbe() = default; // the client, a child, kills a process still running

void WorkerProbe::start()
{
    if (m_client)
        return;
    m_status = WorkerStatus{};
    m_status.state = WorkerStatus::State::Starting;
    m_deviceRequest = 0;
    m_client = new WorkerClient(m_config, this);
    connect(m_client, &WorkerClient::ready, this, [this](const QJsonObject &ready) {
        m_status.workerVersion = ready.value("worker_version"_L1).toString();
        m_status.protocol = ready.value("protocol"_L1).toInt();
        m_status.abiVersion = ready.value("abi_version"_L1).toInt();
        // The pool asks the same once a worker is ready: this is what decides whether it can evaluate.
        m_deviceRequest = m_client->deviceInfo();
    });
    connect(m_client, &WorkerClient::failed, this,
            [this](const QString &message) { finish(WorkerStatus::State::Failed, message); });
    connect(m_client, &WorkerClient::replied, this, [this](int id, const WorkerReply &reply) {
        if (id != m_deviceRequest)
            return;
        m_status.torch = TorchProbe::fromReply(reply.body);
        if (!reply.ok) {
            // no_device: the worker runs, the machine has no usable GPU; anything else is the worker failing.
            finish(reply.errorCode == "no_device"_L1 ? WorkerStatus::State::NoGpu : WorkerStatus::State::Failed,
                   reply.errorMessage);
            return;
        }
        m_status.device = DeviceInfo::fromJson(reply.body.value("device"_L1).toObject());
        finish(m_status.device.isValid() ? WorkerStatus::State::Connected : WorkerStatus::State::NoGpu,
               m_status.device.isValid() ? QString() : tr("The worker reported no usable device."));
    });
    // Started from the event loop: finished() must never come inside start(), even for an empty command.
    QMetaObject::invokeMethod(m_client, &WorkerClient::start, Qt::QueuedConnection);
}

void WorkerProbe::finish(WorkerStatus::State state, const QString &error)
{
    if (!m_client)
        return;
    m_status.state = state;
    m_status.error = error;
    WorkerClient *client = m_client;
    m_client = nullptr;
    client->disconnect(this);
    // Gone once its process has exited: deleting a client with a live process would wait for it here.
    if (client->state() == WorkerClient::State::Failed || client->state() == WorkerClient::State::Stopped) {
        client->deleteLater();
    } else {
        connect(client, &WorkerClient::exited, client, &QObject::deleteLater);
        client->stop();
    }
    Q_EMIT finished(m_status);
}

} // namespace kforge
