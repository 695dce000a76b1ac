#pragma once
// What the user must know before relying on KForge, kept current: the status bar's tool-chain and worker labels
// and the notice bar above the editor (no CUDA compiler, no usable GPU worker). Worker readiness comes from the
// window's one ReadinessWatch, in its wording.
#include "core/settings/toolchainprobe.h"

#include <QObject>
#include <optional>

class QAction;
class QLabel;
class QStatusBar;

namespace kforge {

class LogHub;
class NoticeBar;
class ReadinessWatch;
class Settings;
class Workbench;

class ReadinessIndicators : public QObject
{
    Q_OBJECT
public:
    // `configureWorkers` is the notice bar's fix (Settings → Workers).
    ReadinessIndicators(QStatusBar *statusBar, NoticeBar *notice, QAction *configureWorkers, Workbench *workbench,
                        ReadinessWatch *readiness, Settings &settings, LogHub &log, QObject *parent = nullptr);

    // Looks for nvcc (again) off the GUI thread; toolchainChecked() follows.
    void checkToolchain();
    void updateWorkerStatus();

Q_SIGNALS:
    void toolchainChecked(const kforge::ToolchainInfo &info);

private:
    void onToolchainChecked(const ToolchainInfo &info);
    void updateNotice();

    NoticeBar *m_notice = nullptr;
    QAction *m_configureWorkers = nullptr;
    Workbench *m_workbench = nullptr;
    ReadinessWatch *m_readiness = nullptr;
    Settings &m_settings;
    LogHub &m_log;
    ToolchainProbe *m_probe = nullptr;
    QLabel *m_toolchainLabel = nullptr;
    QLabel *m_workersLabel = nullptr;
    std::optional<ToolchainInfo> m_toolchain;
};

} // namespace kforge
