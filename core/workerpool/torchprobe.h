#pragma once
// What kforge-worker found of the Python it runs a torch task's modules with: device_info's "torch" object
// ({"python", "version" | null, "error" | null}, one probe per worker). A worker that sends none predates torch
// tasks. Plain value: the pool keeps one per worker, Settings → Workers shows it.
#include <QJsonObject>
#include <QString>

namespace kforge {

struct TorchProbe {
    bool reported = false; // the reply carried a "torch" object
    QString python;        // the python the module hosts run with (--torch-python, $KFORGE_TORCH_PYTHON, python3)
    QString version;       // torch's version; empty when that python cannot import it
    QString error;         // why not, in the worker's words (its first line)

    bool hasTorch() const { return reported && !version.isEmpty(); }

    // From a device_info reply (the whole response object, answered or refused).
    static TorchProbe fromReply(const QJsonObject &reply);

    friend bool operator==(const TorchProbe &, const TorchProbe &) = default;
};

} // namespace kforge
