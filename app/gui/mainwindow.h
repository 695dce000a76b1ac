#pragma once
// The KForge main window. It only assembles: it creates the panels, docks them, and connects them to the
// services (settings, log hub, the open session and its SessionController, the Workbench's compiler, GPU
// workers, LLM client and round runner, the one ReadinessWatch). Panels do not call each other; what one asks
// of another goes through here or through the shared VariantSelection. The editor's tabs follow the session
// through VariantTabBinding.
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
    // problem (*.py: the import is offered), whichever `path` is.
    void openPath(const QString &path);
    // Shows the import of a PyTorch problem file (TorchImportDialog, window-modal); its success opens the task.
    TorchImportDialog *offerTorchImport(const QString &problemFile);
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
    VariantTabBinding *tabs() const { return m_tabs; }
    ReadinessWatch *readiness() const { return m_readiness; }
    // The task folder the open working session was made from; empty for a session opened from a file.
    QString taskFolder() const;

    // Compiles, verifies and times the editor's tab `index` (Ctrl+Enter): a new or edited source becomes a
    // manual variant of the session; an evaluated variant is evaluated again. False with the reason logged.
    // While no GPU worker is usable the tab is only compiled (errors shown) and nothing enters the session.
    bool evaluateTab(int index);
    // Opens an editable copy of a variant's source in a new tab ("fork to edit"); returns the tab's index.
    int forkVariant(qint64 variantId);
    // Adds a .cu file as a manual variant of the open session (and evaluates it); returns its id, 0 on failure.
    qint64 addVariantFile(const QString &file);
    // Shows the variant in a (read-only) editor tab, opening one when needed; returns the tab's index.
    int showVariantInEditor(qint64 variantId);

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
    void connectServices();

    void showAbout();
    void showGettingStarted();
    void showSettingsPage(const QString &page);
    void reportError(const QString &message);
    void updateActions();
    void updateTitle();
    void applyTheme();
    QDockWidget *addPanelDock(QWidget *panel, const QString &title, const QString &objectName, Qt::DockWidgetArea area);

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
    QDockWidget *m_logDock = nullptr;
    DiffView *m_diff = nullptr;
    DiffDock *m_diffDock = nullptr;
    QDockWidget *m_roundDock = nullptr;
    bool m_defaultDockSizes = false; // no saved layout: size the docks at the first show
    bool m_shownOnce = false;
    QSize m_restoredFrom;     // the size of the window the restored layout was saved in, until the first show
    bool m_reopening = false; // the last session is being reopened: a failure is told, not put in a dialog
    QRect m_chosenGeometry;   // restored or default, fitted into the screen
    VariantSelection *m_selection = nullptr;
    VariantsPanel *m_variants = nullptr;
    ComparePanel *m_compare = nullptr;
    TaskPanel *m_taskPanel = nullptr;
    ChartsPanel *m_charts = nullptr;
    ReasoningPanel *m_reasoning = nullptr;
    RoundControlPanel *m_rounds = nullptr;
    CollectionPanel *m_collection = nullptr;
    CollectionActions *m_collections = nullptr;
    QDockWidget *m_collectionDock = nullptr;
    QList<QDockWidget *> m_docks;
};

} // namespace kforge
