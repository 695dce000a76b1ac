#include "app/gui/mainwindow.h"

#include "app/gui/appicon.h"
#include "app/gui/apptheme.h"
#include "app/gui/collectionactions.h"
#include "app/gui/diffdock.h"
#include "app/gui/exportactions.h"
#include "app/gui/gettingstarted.h"
#include "app/gui/mainactions.h"
#include "app/gui/noticebar.h"
#include "app/gui/paneldocks.h"
#include "app/gui/pathopener.h"
#include "app/gui/readinessindicators.h"
#include "app/gui/sessionactions.h"
#include "app/gui/sourcelevelview.h"
#include "app/gui/torchimportdialog.h"
#include "core/compile/compiler.h"
#include "core/log/loghub.h"
#include "core/optimizer/roundrunner.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/version.h"
#include "core/workbench/readinesswatch.h"
#include "core/workbench/sessioncontroller.h"
#include "core/workbench/workbench.h"
#include "core/workerpool/workerpool.h"
#include "views/assembly/assemblypanel.h"
#include "views/charts/chartspanel.h"
#include "views/collection/collectionpanel.h"
#include "views/compare/comparepanel.h"
#include "views/diff/diffview.h"
#include "views/editor/editorsetup.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/varianttabbinding.h"
#include "views/log/logpanel.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/settings/settingsdialog.h"
#include "views/settings/workerspage.h"
#include "views/task/taskpanel.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <Qsci/qsciscintilla.h>

#include <QAbstractItemView>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QVBoxLayout>

namespace kforge {

MainWindow::MainWindow(Settings &settings, LogHub &log, QWidget *parent, Evaluator *evaluator)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_log(log)
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(AppIcon::icon());
    setAcceptDrops(true);
    m_actions = new MainActions(this);
    m_session = new SessionStore(this);
    m_workbench = new Workbench(m_session, m_settings, m_log, evaluator, this);
    m_readiness = new ReadinessWatch(m_workbench->runner()->evaluator(), &m_settings, this);
    m_sessions = new SessionController(m_session, m_settings, m_log, m_workbench->runner(), this);
    m_selection = new VariantSelection(this);

    m_editor = new KernelEditor(this);
    m_editor->setEmptyStateActions({m_actions->openTaskFolder, m_actions->openSession, m_actions->gettingStarted});
    m_tabs = new VariantTabBinding(m_editor, m_session, m_workbench->queue(), m_readiness, m_workbench->compiler(),
                                   m_log, this);
    m_notice = new NoticeBar(this);
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_notice);
    centralLayout->addWidget(m_editor, 1);
    setCentralWidget(central);

    createDocks();
    m_actions->buildMenus(this, {m_editor->nextDiagnosticAction(), m_editor->previousDiagnosticAction()},
                          m_editor->evaluateAction(), m_sourceLevel->profileAction(), m_panelDocks->docks());
    m_indicators = new ReadinessIndicators(statusBar(), m_notice, m_actions->configureWorkers, m_workbench, m_readiness,
                                           m_settings, m_log, this);
    m_opener = new PathOpener(m_sessions, m_tabs, m_log, this);
    connectActions();
    connectPanels();
    connectSession();
    m_panelDocks->restore(m_settings);

    applyTheme();
    updateActions();
    updateTitle();
    m_indicators->updateWorkerStatus();
    m_indicators->checkToolchain();
}

MainWindow::~MainWindow()
{
    // A verification and the round runner cancel what they have in flight while the queue, the session and the
    // panels still exist.
    delete m_collections;
    m_collections = nullptr;
    delete m_workbench;
    m_workbench = nullptr;
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    m_panelDocks->shown();
}

QDockWidget *MainWindow::dockOf(QWidget *panel) const
{
    return m_panelDocks->dockOf(panel);
}

void MainWindow::createDocks()
{
    RoundRunner *runner = m_workbench->runner();
    m_rounds = new RoundControlPanel(m_session, runner, &m_settings, this);
    m_rounds->setCredentials(m_workbench->credentials());
    m_rounds->setReadinessWatch(m_readiness);
    m_variants = new VariantsPanel(m_session, m_selection, this);
    m_variants->model()->setQueue(m_workbench->queue()); // a running evaluation's provisional result in its row
    m_reasoning = new ReasoningPanel(m_session, m_selection, runner, this);
    m_charts = new ChartsPanel(m_session, m_selection, this);
    m_compare = new ComparePanel(m_session, m_selection, runner, this);
    m_logPanel = new LogPanel(this);
    m_logPanel->setHub(&m_log);
    m_diff = new DiffView(this);
    m_taskPanel = new TaskPanel(m_session, this);
    m_assembly = new AssemblyPanel(this);
    m_collection = new CollectionPanel(this);
    m_panelDocks = new PanelDocks(this, {.rounds = m_rounds,
                                         .task = m_taskPanel,
                                         .variants = m_variants,
                                         .compare = m_compare,
                                         .charts = m_charts,
                                         .reasoning = m_reasoning,
                                         .diff = m_diff,
                                         .log = m_logPanel,
                                         .assembly = m_assembly,
                                         .collection = m_collection});
    // The assembly panel and the editor's heat gutter, compiled only while the panel is on top.
    m_sourceLevel = new SourceLevelView(m_editor, m_assembly, m_session, m_workbench->compiler(), m_workbench->pool(),
                                        m_workbench->queue(), this);
    connect(dockOf(m_assembly), &QDockWidget::visibilityChanged, m_sourceLevel, &SourceLevelView::setPanelVisible);
    connect(m_sourceLevel, &SourceLevelView::errorOccurred, this, &MainWindow::reportError);
    connect(m_variants, &VariantsPanel::profileRequested, m_sourceLevel, &SourceLevelView::profileVariant);
    connect(m_compare, &ComparePanel::profileRequested, m_sourceLevel, &SourceLevelView::profileVariant);
    m_diffDock = new DiffDock(this, dockOf(m_diff), m_diff, m_editor, m_session);
}

// The menus' and tool bars' actions: carried out by the editor, the session's actions, exports, collections and
// the dialogs.
void MainWindow::connectActions()
{
    m_sessionActions = new SessionActions(m_actions, m_sessions, m_settings, this);
    connect(m_sessionActions, &SessionActions::openRequested, this, &MainWindow::openPath);
    connect(m_actions->quit, &QAction::triggered, this, &QWidget::close);
    connect(m_actions->undo, &QAction::triggered, m_editor, &KernelEditor::undo);
    connect(m_actions->redo, &QAction::triggered, m_editor, &KernelEditor::redo);
    connect(m_actions->find, &QAction::triggered, m_editor, &KernelEditor::showFind);
    connect(m_actions->findNext, &QAction::triggered, m_editor, &KernelEditor::findNext);
    connect(m_actions->findPrevious, &QAction::triggered, m_editor, &KernelEditor::findPrevious);
    connect(m_actions->replace, &QAction::triggered, m_editor, &KernelEditor::showReplace);
    connect(m_actions->compareWithReference, &QAction::triggered, m_diffDock, &DiffDock::showTab);
    connect(m_actions->settings, &QAction::triggered, this, [this] { showSettingsPage(QString()); });
    connect(m_actions->configureWorkers, &QAction::triggered, this,
            [this] { showSettingsPage(QStringLiteral("workers")); });
    connect(m_actions->gettingStarted, &QAction::triggered, this, &MainWindow::showGettingStarted);
    m_exports = new ExportActions(m_actions, m_session, m_selection, this);
    m_collections = new CollectionActions(m_actions, m_workbench, m_sessions, m_collection, dockOf(m_collection), m_log,
                                          this);
    connect(m_collections, &CollectionActions::workersRequested, this,
            [this] { showSettingsPage(QStringLiteral("workers")); });
    connect(m_exports, &ExportActions::finished, this, [this](const QString &file, const QString &, const QString &error) {
        if (error.isEmpty())
            m_log.post(LogSource::App, LogLevel::Info, tr("Saved %1").arg(file));
        else
            m_log.post(LogSource::App, LogLevel::Error, error);
    });
    connect(m_actions->about, &QAction::triggered, this, &MainWindow::showAbout);
    connect(m_actions->aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);

    connect(m_editor, &KernelEditor::undoAvailable, m_actions->undo, &QAction::setEnabled);
    connect(m_editor, &KernelEditor::redoAvailable, m_actions->redo, &QAction::setEnabled);
    connect(m_editor, &KernelEditor::currentChanged, this, &MainWindow::updateActions);
    connect(m_tabs, &VariantTabBinding::errorOccurred, this, &MainWindow::reportError);
    connect(m_opener, &PathOpener::failed, this, &MainWindow::reportError);
    connect(m_opener, &PathOpener::torchImportOffered, this, &MainWindow::torchImportOffered);

    connect(&m_settings, &Settings::themeChanged, this, &MainWindow::applyTheme);
    connect(&m_settings, &Settings::languageChanged, this,
            [this] { statusBar()->showMessage(tr("The new language is used from the next start of KForge."), 8000); });
    connect(m_indicators, &ReadinessIndicators::toolchainChecked, this, &MainWindow::toolchainChecked);
}

// Panels ask; the window carries it out. Every panel reports its failures the same way: into the log, which the
// user can filter.
void MainWindow::connectPanels()
{
    connect(m_workbench->pool(), &WorkerPool::deviceReported, this, [this](int, const DeviceInfo &device) {
        m_charts->setDevice(device);
        m_taskPanel->setDevice(device);
    });
    connect(m_variants, &VariantsPanel::exportRequested, m_exports, &ExportActions::exportVariant);
    connect(m_variants, &VariantsPanel::compareRequested, this, [this](qint64 a, qint64 b) {
        m_compare->setPair(a, b);
        if (QDockWidget *d = dockOf(m_compare)) {
            d->show();
            d->raise();
        }
        // Compare (right column) and the pair's diff (under the editor) are seen together.
        m_diffDock->showPair(a, b);
    });
    connect(m_selection, &VariantSelection::comparePairChanged, this, [this](qint64 a, qint64 b) {
        if (a && b)
            m_diffDock->setPair(a, b);
    });
    connect(m_variants, &VariantsPanel::forkRequested, m_tabs, &VariantTabBinding::fork);
    connect(m_variants->view(), &QAbstractItemView::doubleClicked, this, [this] {
        if (const qint64 id = m_selection->current())
            m_tabs->showVariant(id);
    });
    connect(m_charts, &ChartsPanel::variantClicked, m_selection, &VariantSelection::setCurrent);
    connect(m_rounds, &RoundControlPanel::settingsRequested, this, &MainWindow::showSettingsPage);
    connect(m_rounds, &RoundControlPanel::errorOccurred, this,
            [this](const QString &m) { m_log.post(LogSource::Model, LogLevel::Error, m); });
    connect(m_variants, &VariantsPanel::errorOccurred, this,
            [this](const QString &m) { m_log.post(LogSource::App, LogLevel::Error, m); });
    connect(m_charts, &ChartsPanel::errorOccurred, this,
            [this](const QString &m) { m_log.post(LogSource::App, LogLevel::Error, m); });
    connect(m_compare, &ComparePanel::errorOccurred, this,
            [this](const QString &m) { m_log.post(LogSource::Model, LogLevel::Error, m); });
    connect(m_session, &SessionStore::errorOccurred, this,
            [this](const QString &message) { m_log.post(LogSource::App, LogLevel::Error, message); });
}

// The session's lifecycle and its rounds: the controller and the runner decide, the window shows.
void MainWindow::connectSession()
{
    connect(m_sessions, &SessionController::progress, this, [this](const QString &message) {
        if (message.isEmpty())
            statusBar()->clearMessage();
        else
            statusBar()->showMessage(message);
    });
    connect(m_sessions, &SessionController::failed, this, &MainWindow::reportError);
    connect(m_sessions, &SessionController::replacing, m_tabs, &VariantTabBinding::forgetParents);
    connect(m_sessions, &SessionController::replacing, this, [this] { m_reopening = false; });
    connect(m_sessions, &SessionController::taskShown, m_tabs, &VariantTabBinding::showTask);
    connect(m_sessions, &SessionController::sessionShown, this, [this] {
        m_selection->clear();
        m_tabs->showSession();
    });
    connect(m_sessions, &SessionController::changed, this, [this] {
        updateActions();
        updateTitle();
    });
    connect(m_sessions, &SessionController::taskOpened, this, &MainWindow::taskOpened);
    connect(m_sessions, &SessionController::sessionOpened, this, [this](const QString &file) {
        m_reopening = false;
        Q_EMIT sessionOpened(file);
    });

    // A round the user starts is one they want to watch: the Reasoning dock follows its answers again.
    connect(m_workbench->runner(), &RoundRunner::roundStarted, m_reasoning, [this] { m_reasoning->setFollowLive(true); });
    connect(m_workbench->runner(), &RoundRunner::roundFinished, this,
            [this](qint64 roundId, RoundState, const QString &message) {
                const QString text = message.isEmpty() ? tr("Round %1 finished.").arg(roundId)
                                                       : tr("Round %1: %2").arg(roundId).arg(message);
                m_log.post(LogSource::Model, LogLevel::Info, text);
                statusBar()->showMessage(text, 10000);
            });
}

// ---- opening and saving: the SessionController does it; the window asks for paths and shows what failed

void MainWindow::openPath(const QString &path)
{
    m_opener->open(path);
}

void MainWindow::openTaskFolder(const QString &folder)
{
    m_sessions->openTaskFolder(folder);
}

void MainWindow::openSessionAsync(const QString &file)
{
    m_sessions->openSessionAsync(file);
}

bool MainWindow::openSession(const QString &file)
{
    return m_sessions->openSession(file);
}

bool MainWindow::saveSessionAs(const QString &file)
{
    return m_sessions->saveSessionAs(file);
}

bool MainWindow::reopenLastSession()
{
    const QString last = m_settings.lastSession();
    if (last.isEmpty())
        return false;
    if (!QFileInfo::exists(last)) {
        m_settings.setLastSession({});
        m_settings.removeRecentFile(last);
        const QString message =
            tr("The last session, %1, no longer exists: open a task folder or a session to go on.")
                .arg(SessionController::displayPath(last));
        m_log.post(LogSource::App, LogLevel::Warning, message);
        statusBar()->showMessage(message, 20000);
        return false;
    }
    openSessionAsync(last);
    m_reopening = true; // after its own replacing(): any later opening is the user's
    return true;
}

QString MainWindow::taskFolder() const
{
    return m_sessions->taskFolder();
}

void MainWindow::reportError(const QString &message)
{
    if (std::exchange(m_reopening, false)) {
        // Reopening the last session at start was KForge's idea, not the user's: say why it did not, no dialog.
        m_log.post(LogSource::App, LogLevel::Warning, message);
        statusBar()->showMessage(tr("The last session could not be reopened: %1").arg(message.simplified()), 20000);
        Q_EMIT openFailed(message);
        return;
    }
    m_log.post(LogSource::App, LogLevel::Error, message);
    QMessageBox *box = new QMessageBox(QMessageBox::Warning, tr("KForge"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    Q_EMIT openFailed(message);
}

void MainWindow::updateActions()
{
    QsciScintilla *editor = m_editor->currentEditor();
    const bool hasEditor = editor != nullptr;
    m_actions->undo->setEnabled(hasEditor && editor->isUndoAvailable());
    m_actions->redo->setEnabled(hasEditor && editor->isRedoAvailable());
    m_actions->saveSessionAs->setEnabled(m_sessions->hasSubject());
    for (QAction *a : {m_actions->find, m_actions->findNext, m_actions->findPrevious, m_actions->replace})
        a->setEnabled(hasEditor);
    m_actions->compareWithReference->setEnabled(m_editor->count() > 1);
}

void MainWindow::updateTitle()
{
    const QString subject = m_sessions->subject();
    setWindowTitle(subject.isEmpty() ? tr("KForge") : tr("%1 — KForge").arg(subject));
}

// ---- settings, theme, dialogs

void MainWindow::applyTheme()
{
    AppTheme::apply(m_settings.theme());
    const bool dark = EditorSetup::isDark(m_settings.theme());
    m_editor->setDarkTheme(dark);
    m_diff->setDarkTheme(dark);
}

void MainWindow::showSettingsPage(const QString &page)
{
    auto *dialog = new SettingsDialog(m_settings, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // Settings → Workers shows what the running workers say, and follows them while it is open.
    if (WorkerPool *pool = m_workbench->pool()) {
        auto showLive = [this, pool, page = dialog->workers()] {
            QHash<QString, WorkerStatus> live;
            const QList<WorkerConfig> configs = m_workbench->workers();
            for (int i = 0; i < pool->workerCount(); ++i)
                live.insert(configs.value(i).command.trimmed(), pool->status(i));
            page->setLiveStatus(live);
        };
        showLive();
        connect(pool, &WorkerPool::deviceReported, dialog, showLive);
        connect(pool, &WorkerPool::deviceFailed, dialog, showLive);
    }
    if (page == u"workers")
        dialog->showPage(SettingsDialog::Workers);
    else if (page == u"endpoints")
        dialog->showPage(SettingsDialog::Models);
    dialog->open();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (PathOpener::canOpen(event->mimeData()->urls()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    // Kernel files become variants; a PyTorch problem is offered the import; a task folder or a session is opened
    // (the last one wins).
    for (const QUrl &url : event->mimeData()->urls())
        m_opener->open(url.toLocalFile());
    event->acceptProposedAction();
}

void MainWindow::showGettingStarted()
{
    auto *dialog = new GettingStarted(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &GettingStarted::openExampleRequested, this, &MainWindow::openSessionAsync);
    connect(dialog, &GettingStarted::openTaskRequested, m_sessionActions, &SessionActions::chooseTaskFolder);
    connect(dialog, &GettingStarted::workersRequested, this, [this] { showSettingsPage(QStringLiteral("workers")); });
    dialog->open();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About KForge"),
                       tr("<h3>KForge %1</h3>"
                          "<p>A workbench for making CUDA kernels faster with a language model in the loop: the model is shown "
                          "earlier variants with their measured speedups and profiles, explains why the faster ones are faster, "
                          "and writes a better kernel. You steer every round and see why variant A beats B.</p>"
                          "<p>Kernels are compiled with nvcc and run only in a separate worker process, locally or on a GPU "
                          "host.</p>")
                           .arg(QStringLiteral(KFORGE_VERSION_STRING)));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_panelDocks->save(m_settings);
    m_settings.sync();
    QMainWindow::closeEvent(event);
}

} // namespace kforge
