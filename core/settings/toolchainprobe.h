#pragma once
// Looks for the CUDA compiler (nvcc) and asks it for its version without blocking the caller's thread, so
// the GUI can say honestly whether kernels can be compiled here.
#include "core/async/lateresultguard.h"

#include <QMetaType>
#include <QObject>
#include <QProcess>
#include <QString>

namespace kforge {

struct ToolchainInfo {
    bool found = false;
    QString nvccPath; // absolute path of the nvcc that answered
    QString version;  // e.g. "13.0.48"
    QString error;    // translated, when !found
};

class ToolchainProbe : public QObject
{
    Q_OBJECT
public:
    explicit ToolchainProbe(QObject *parent = nullptr);
    ~ToolchainProbe() override;

    // configuredPath: Settings::nvccPath(); empty means where CudaToolkit::locateNvcc() looks.
    // Emits finished() once; a second start() abandons the first probe.
    void start(const QString &configuredPath);
    // "Cuda compilation tools, release 13.0, V13.0.48" -> "13.0.48"
    static QString parseVersion(const QString &nvccVersionOutput);

Q_SIGNALS:
    void finished(const kforge::ToolchainInfo &info);

private:
    void report(ToolchainInfo info);

    QProcess *m_process = nullptr;
    LateResultGuard m_probes; // a late answer to an abandoned probe is dropped
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::ToolchainInfo)
