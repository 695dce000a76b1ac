#pragma once
// The KForge main window. It only assembles: it creates the panels, docks them, and connects them to the
// services (settings, log hub, the open session and its SessionController, the Workbench's compiler, GPU
// workers, LLM client and round runner, the one ReadinessWatch). Panels do not call each other; what one asks
// of another goes through here or through the shared VariantSelection. The docks and their layout are PanelDocks',
// what a path is PathOpener's; the editor's tabs follow the session and evaluate through VariantTabBinding (tabs()).
#include "app/gui/mainactions.h"
#include "core/settings/toolchainprobe.h"

#include <QMainWindow>

Q_MOC_INCLUDE("app/gui/torchimportdialog.h")

class QDockWidget;
class QDragEnterEvent;
class QDropEvent;
class QMenu;

namespace kforge {

class ChartsPanel;
class CollectionActions;
class CollectionPanel;
class ComparePanel;
class DiffDock;
class DiffView;
class Evaluator;
class ExportActions;
class KernelEditor;
class LogHub;
class LogPanel;
class NoticeBar;
class PanelDocks;
class PathOpener;
class ReadinessIndicators;
class ReadinessWatch;
class ReasoningPanel;
class RoundControlPanel;
class SessionActions;
class SessionController;
class SessionStore;
class Settings;
class VariantSelection;
class VariantTabBinding;
class VariantsPanel;
class TaskPanel;
class TorchImportDialog;
class Workbench;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // `evaluator`: see Workbench (tests only); null for the real compiler and GPU workers.
    MainWindow(Settings &settings, LogHub &log, QWidget *parent = nullptr, Evaluator *evaluator = nullptr);
    ~MainWindow() override;

    // A task folder (or its task.json), a *.kforge session file, a kernel file (added as a variant) or a PyTorch
    // problem (*.py: the import is offered), whichever `path` is (PathOpener).
    void openPath(const QString &path);
    // Loads the task off the GUI thread; taskOpened() or openFailed() follows.
    void openTaskFolder(const QString &folder);
    // Opens a session file. The GUI's own paths load it off the GUI thread (sessionOpened() or openFailed()
    // follows); openSession() loads it at once and returns whether it opened (tests, scripts).
    void openSessionAsync(const QString &file);
    bool openSession(const QString &file);
    // Saves the open session under a new name, or makes a session of the open task folder.
    bool saveSessionAs(const QString &file);
    // At a start without a path: opens the session open when KForge last had one (off the GUI thread). When it is
    // gone, or cannot be opened, the status bar and the log say so (no dialog: nothing was asked for). False when
    // there is nothing to reopen.
    bool reopenLastSession();

    MainActions *actions() const { return m_actions; }
    ExportActions *exports() const { return m_exports; }
    KernelEditor *editor() const { return m_editor; }
    DiffView *diffView() const { return m_diff; }
    SessionStore *session() const { return m_session; }
    Workbench *workbench() const { return m_workbench; }
    VariantSelection *selection() const { return m_selection; }
    VariantsPanel *variantsPanel() const { return m_variants; }
    ComparePanel *comparePanel() const { return m_compare; }
    TaskPanel *taskPanel() const { return m_taskPanel; }
    ChartsPanel *chartsPanel() const { return m_charts; }
    ReasoningPanel *reasoningPanel() const { return m_reasoning; }
    RoundControlPanel *roundControlPanel() const { return m_rounds; }
    // The Collection page and File → Verify Collection… (a verified collection, its pairs opened as sessions).
    CollectionPanel *collectionPanel() const { return m_collection; }
    CollectionActions *collections() const { return m_collections; }
    // The dock that holds `panel`, or null.
    QDockWidget *dockOf(QWidget *panel) const;
    NoticeBar *notice() const { return m_notice; }
    QMenu *recentMenu() const { return m_actions->recentMenu; }
    SessionController *sessions() const { return m_sessions; }
    // The editor's tabs: evaluate (Ctrl+Enter), fork, add a kernel file, show a variant.
    VariantTabBinding *tabs() const { return m_tabs; }
    ReadinessWatch *readiness() const { return m_readiness; }
    // The task folder the open working session was made from; empty for a session opened from a file.
    QString taskFolder() const;

Q_SIGNALS:
    void taskOpened(const QString &folder);
    void sessionOpened(const QString &file);
    void openFailed(const QString &message);
    // A PyTorch problem's import dialog is about to be shown (tests, screenshots).
    void torchImportOffered(kforge::TorchImportDialog *dialog);
    void toolchainChecked(const kforge::ToolchainInfo &info);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createDocks();
    void connectActions();
    void connectPanels();
    void connectSession();

    void showAbout();
    void showGettingStarted();
    void showSettingsPage(const QString &page);
    void reportError(const QString &message);
    void updateActions();
    void updateTitle();
    void applyTheme();

    Settings &m_settings;
    LogHub &m_log;
    MainActions *m_actions = nullptr;
    ExportActions *m_exports = nullptr;
    class SourceLevelView *m_sourceLevel = nullptr; // the assembly panel and heat gutter, bound to the editor
    class AssemblyPanel *m_assembly = nullptr;
    SessionStore *m_session = nullptr;
    SessionController *m_sessions = nullptr;
    SessionActions *m_sessionActions = nullptr;
    Workbench *m_workbench = nullptr;
    ReadinessWatch *m_readiness = nullptr;
    ReadinessIndicators *m_indicators = nullptr;
    KernelEditor *m_editor = nullptr;
    VariantTabBinding *m_tabs = nullptr;
    NoticeBar *m_notice = nullptr;
    LogPanel *m_logPanel = nullptr;
    DiffView *m_diff = nullptr;
    DiffDock *m_diffDock = nullptr;
    PanelDocks *m_panelDocks = nullptr;
    PathOpener *m_opener = nullptr;
    bool m_reopening = false; // the last session is being reopened: a failure is told, not put in a dialog
    VariantSelection *m_selection = nullptr;
    VariantsPanel *m_variants = nullptr;
    ComparePanel *m_compare = nullptr;
    TaskPanel *m_taskPanel = nullptr;
    ChartsPanel *m_charts = nullptr;
    ReasoningPanel *m_reasoning = nullptr;
    RoundControlPanel *m_rounds = nullptr;
    CollectionPanel *m_collection = nullptr;
    CollectionActions *m_collections = nullptr;
};

} // namespace kforge
