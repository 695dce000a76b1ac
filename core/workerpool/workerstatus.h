#pragma once
// What one configured worker is doing, as the Workers settings page shows it: connected with its GPU, driver
// and versions, or the exact error and what to do about it. Made from the pool's live worker
// (WorkerPool::status) or from a one-off handshake (WorkerProbe); plain value, crosses threads by value.
#include "core/eval/deviceinfo.h"
#include "core/workerpool/torchprobe.h"

#include <QCoreApplication>
#include <QMetaType>
#include <QString>

namespace kforge {

struct WorkerStatus {
    Q_DECLARE_TR_FUNCTIONS(kforge::WorkerStatus)

public:
    enum class State {
        Unknown,   // not started here and not tested
        Starting,  // started, no answer yet
        Connected, // handshake done and the device reported
        NoGpu,     // handshake done, but the worker found no usable GPU
        Failed,    // could not start, or the handshake failed
    };

    State state = State::Unknown;
    QString workerVersion; // from the ready line
    int protocol = 0;
    int abiVersion = 0;
    DeviceInfo device;
    TorchProbe torch; // the Python a torch task's modules run with, when the worker said
    QString error; // the worker's or its launcher's own words (stderr tail included), empty unless NoGpu/Failed

    // One line for the table cell ("Connected: NVIDIA H200, sm_90", "Failed: ssh: Could not resolve hostname ...").
    QString summary() const;
    // Everything known, several lines: GPU, driver, PyTorch, versions; or the error and what to do.
    QString details() const;
    // The most telling line of an error: a launcher's own message (ssh's "Could not resolve hostname ...") over
    // KForge's framing of it.
    static QString keyLine(const QString &error);
    // What to do about an error, by what it says; empty when there is nothing better than the error itself.
    // True when the error says the worker runs but its machine has no usable NVIDIA GPU or driver ("CUDA driver
    // version is insufficient...", "no CUDA device"): a fact about the machine, not a failure to fix here.
    static bool meansNoGpu(const QString &error);
    static QString advice(const QString &error);

    friend bool operator==(const WorkerStatus &, const WorkerStatus &) = default;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::WorkerStatus)
