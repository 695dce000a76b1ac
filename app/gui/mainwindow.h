#pragma once
// The KForge main window. It only assembles: it creates the panels, docks them, and connects them to the
// services (settings, log hub, tool-chain probe, the open session). Panels do not call each other.
#include "core/settings/toolchainprobe.h"
#include "core/task/task.h"

#include <QMainWindow>
#include <QPointer>
#include <optional>

class QDockWidget;
class QLabel;
class QMenu;
class QToolBar;

namespace kforge {

class KernelEditor;
class LogHub;
class LogPanel;
class MainActions;
class NoticeBar;
class SessionStore;
class Settings;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(Settings &settings, LogHub &log, QWidget *parent = nullptr);
    ~MainWindow() override;

    // A task folder or a *.kforge session file, whichever `path` is.
    void openPath(const QString &path);
    // Loads the task off the GUI thread; taskOpened() or openFailed() follows.
    void openTaskFolder(const QString &folder);
    bool openSession(const QString &file);
    // Saves the open session under a new name, or makes a session of the open task folder.
    bool saveSessionAs(const QString &file);

    MainActions *actions() const { return m_actions; }
    KernelEditor *editor() const { return m_editor; }
    SessionStore *session() const { return m_session; }
    NoticeBar *notice() const { return m_notice; }
    QMenu *recentMenu() const { return m_recentMenu; }
    // The task folder shown when no session is open; empty otherwise.
    QString taskFolder() const { return m_taskFolder; }

Q_SIGNALS:
    void taskOpened(const QString &folder);
    void sessionOpened(const QString &file);
    void openFailed(const QString &message);
    void toolchainChecked(const kforge::ToolchainInfo &info);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    void createToolBar();
    void createDocks();
    void createStatusBar();
    void connectServices();

    void chooseTaskFolder();
    void chooseSession();
    void chooseSaveSessionAs();
    void showSettings();
    void showAbout();
    void reportError(const QString &message);

    void showTask(const Task &task);
    void showSession();
    void rebuildRecentMenu();
    void updateActions();
    void updateTitle();
    void applyTheme();
    void checkToolchain();
    void onToolchainChecked(const ToolchainInfo &info);
    void updateWorkerStatus();
    void updateNotice();

    Settings &m_settings;
    LogHub &m_log;
    MainActions *m_actions = nullptr;
    SessionStore *m_session = nullptr;
    ToolchainProbe *m_probe = nullptr;
    KernelEditor *m_editor = nullptr;
    NoticeBar *m_notice = nullptr;
    LogPanel *m_logPanel = nullptr;
    QDockWidget *m_logDock = nullptr;
    QToolBar *m_toolBar = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QLabel *m_toolchainLabel = nullptr;
    QLabel *m_workersLabel = nullptr;

    Task m_task;          // the task folder shown while no session is open
    QString m_taskFolder;
    quint64 m_openJob = 0; // a task load that finishes after a newer open is dropped
    std::optional<ToolchainInfo> m_toolchain;
};

} // namespace kforge
