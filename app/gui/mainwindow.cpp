#include "app/gui/mainwindow.h"

#include "app/gui/appicon.h"
#include "app/gui/apptheme.h"
#include "app/gui/compileonly.h"
#include "app/gui/sourcelevelview.h"
#include "views/assembly/assemblypanel.h"
#include "app/gui/exportactions.h"
#include "app/gui/gettingstarted.h"
#include "app/gui/mainactions.h"
#include "app/gui/noticebar.h"
#include "app/gui/workbench.h"
#include "core/compile/compiler.h"
#include "core/log/loghub.h"
#include "core/optimizer/roundrunner.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/version.h"
#include "core/worker/poolevaluator.h"
#include "core/worker/workerpool.h"
#include "views/charts/chartspanel.h"
#include "views/compare/comparepanel.h"
#include "views/diff/diffview.h"
#include "views/editor/editorsetup.h"
#include "views/editor/kerneleditor.h"
#include "views/log/logpanel.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/settings/settingsdialog.h"
#include "views/task/taskpanel.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <Qsci/qsciscintilla.h>

#include <QAbstractItemView>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QLocale>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace kforge {

namespace {
const QString sessionSuffix = QStringLiteral("kforge");
// The least a dock shrinks to; below what its panel needs, the panel scrolls.
constexpr int minimumDockSize = 120;

QString displayPath(const QString &path)
{
    const QString home = QDir::homePath();
    if (path.startsWith(home + u'/'))
        return u'~' + path.mid(home.size());
    return path;
}

bool isKernelFile(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == u"cu" || suffix == u"cuh";
}

// Where a task folder's working session is made: the application's data folder, one file per opening.
QString workingSessionPath(const QString &taskName)
{
    const QDir dir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sessions"));
    const QString stem = taskName + u'-' + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QString path = dir.filePath(stem + u'.' + sessionSuffix);
    for (int i = 2; QFileInfo::exists(path); ++i)
        path = dir.filePath(stem + u'-' + QString::number(i) + u'.' + sessionSuffix);
    return path;
}
} // namespace

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
    m_probe = new ToolchainProbe(this);
    m_workbench = new Workbench(m_session, m_settings, m_log, evaluator, this);
    m_selection = new VariantSelection(this);

    m_editor = new KernelEditor(this);
    m_editor->setEmptyStateActions({m_actions->openTaskFolder, m_actions->openSession, m_actions->gettingStarted});
    m_notice = new NoticeBar(this);
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_notice);
    centralLayout->addWidget(m_editor, 1);
    setCentralWidget(central);

    createDocks();
    createMenus();
    createToolBar();
    createStatusBar();
    connectServices();

    if (!restoreGeometry(m_settings.windowGeometry()))
        resize(defaultSize());
    // A saved layout replaces the default one; without one, the docks get their share of the window when it
    // first shows at its real size.
    m_defaultDockSizes = !restoreState(m_settings.windowState());
    fitIntoScreen();
    m_chosenGeometry = geometry();

    applyTheme();
    rebuildRecentMenu();
    updateActions();
    updateTitle();
    updateWorkerStatus();
    checkToolchain();
}

MainWindow::~MainWindow()
{
    // The round runner cancels what it has in flight while the session and the panels still exist.
    delete m_workbench;
    m_workbench = nullptr;
}

QSize MainWindow::defaultSize() const
{
    // Room for code and the docks beside it, but never more than the screen offers.
    const QScreen *screen = this->screen();
    const QSize wanted(1600, 1000);
    return screen ? wanted.boundedTo(screen->availableGeometry().size()) : wanted;
}

void MainWindow::fitIntoScreen()
{
    // A geometry saved on a larger screen (or, before issue 14, one that content had widened past the screen)
    // must not make the window larger than this screen or put it outside.
    if (isMaximized() || isFullScreen())
        return;
    const QScreen *screen = QGuiApplication::screenAt(geometry().center());
    if (!screen)
        screen = this->screen();
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    // The frame (title bar, borders) must fit too: its margins are known once the window is shown and framed,
    // so this runs again then (before, frame and geometry are the same).
    const QRect client = geometry();
    const QRect frame = frameGeometry();
    const QMargins margins(client.left() - frame.left(), client.top() - frame.top(), frame.right() - client.right(),
                           frame.bottom() - client.bottom());
    QRect g = frame;
    g.setSize(g.size().boundedTo(available.size()));
    g.moveLeft(std::clamp(g.left(), available.left(), available.right() - g.width() + 1));
    g.moveTop(std::clamp(g.top(), available.top(), available.bottom() - g.height() + 1));
    g = g.marginsRemoved(margins);
    if (g != client)
        setGeometry(g);
}

void MainWindow::applyDefaultDockSizes()
{
    // Shares of the window the default layout gives: the right column two fifths of the width (the Variants
    // table's columns up to Time, Compare's four), the strip under the editor a fifth of the height (lines
    // of the log), the rest to the code.
    const int right = std::clamp(width() * 2 / 5, 420, 760);
    const int bottom = std::clamp(height() / 5, 150, 300);
    resizeDocks({m_roundDock}, {right}, Qt::Horizontal);
    resizeDocks({m_logDock}, {bottom}, Qt::Vertical);
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    // The size the window chose (saved or default) fits again, now with the frame's margins; one its owner set
    // before showing it is theirs.
    if (!std::exchange(m_shownOnce, true) && geometry() == m_chosenGeometry)
        fitIntoScreen();
    if (std::exchange(m_defaultDockSizes, false))
        applyDefaultDockSizes();
}

QDockWidget *MainWindow::addPanelDock(QWidget *panel, const QString &title, const QString &objectName,
                                      Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName); // saveState() keys the layout by it
    // No panel may raise the window's minimum size (issue 14): a dock narrower than its panel needs scrolls
    // sideways instead of pushing the window past the screen. Only sideways: panels have word-wrapped labels,
    // whose height depends on the width, and a vertical scroll bar that comes and goes with that height
    // would change the width again without end.
    auto *scroll = new QScrollArea(dock);
    scroll->setObjectName(objectName + QStringLiteral("Scroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(panel);
    scroll->setMinimumSize(minimumDockSize, minimumDockSize);
    dock->setWidget(scroll);
    addDockWidget(area, dock);
    m_docks << dock;
    return dock;
}

QDockWidget *MainWindow::dockOf(QWidget *panel) const
{
    for (QDockWidget *d : m_docks)
        if (const auto *scroll = qobject_cast<QScrollArea *>(d->widget()); scroll && scroll->widget() == panel)
            return d;
    return nullptr;
}

void MainWindow::createDocks()
{
    RoundRunner *runner = m_workbench->runner();
    m_rounds = new RoundControlPanel(m_session, runner, &m_settings, this);
    m_rounds->setCredentials(m_workbench->credentials());
    m_variants = new VariantsPanel(m_session, m_selection, this);
    m_reasoning = new ReasoningPanel(m_session, m_selection, runner, this);
    m_charts = new ChartsPanel(m_session, m_selection, this);
    m_compare = new ComparePanel(m_session, m_selection, runner, this);
    m_logPanel = new LogPanel(this);
    m_logPanel->setHub(&m_log);
    m_diff = new DiffView(this);
    m_taskPanel = new TaskPanel(m_session, this);

    // The default layout puts the code first (issue 14): the editor keeps most of the window. One column on the
    // right, at full height so that each has room for its rows, axis titles and legends, holds the panels that
    // steer a round, list the population, explain a pair, chart the session and show the model's words (tabs);
    // a strip under the editor holds the diff and the log. The saved layout replaces it;
    // applyDefaultDockSizes() gives each part its share.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    m_roundDock = addPanelDock(m_rounds, tr("Round Control"), QStringLiteral("roundDock"), Qt::RightDockWidgetArea);
    QDockWidget *variantsDock = addPanelDock(m_variants, tr("Variants"), QStringLiteral("variantsDock"), Qt::RightDockWidgetArea);
    QDockWidget *compareDock = addPanelDock(m_compare, tr("Compare"), QStringLiteral("compareDock"), Qt::RightDockWidgetArea);
    QDockWidget *chartsDock = addPanelDock(m_charts, tr("Charts"), QStringLiteral("chartsDock"), Qt::RightDockWidgetArea);
    QDockWidget *reasoningDock = addPanelDock(m_reasoning, tr("Reasoning"), QStringLiteral("reasoningDock"), Qt::RightDockWidgetArea);
    for (QDockWidget *d : {variantsDock, compareDock, chartsDock, reasoningDock})
        tabifyDockWidget(m_roundDock, d);
    m_roundDock->raise();
    m_diffDock = addPanelDock(m_diff, tr("Diff"), QStringLiteral("diffDock"), Qt::BottomDockWidgetArea);
    m_logDock = addPanelDock(m_logPanel, tr("Log"), QStringLiteral("logDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_diffDock, m_logDock);
    // PTX and SASS of the current tab, beside the diff and the log.
    m_assembly = new AssemblyPanel(this);
    QDockWidget *assemblyDock = addPanelDock(m_assembly, tr("Assembly"), QStringLiteral("assemblyDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_diffDock, assemblyDock);
    m_sourceLevel = new SourceLevelView(m_editor, m_assembly, m_session, m_workbench->compiler(), m_workbench->pool(),
                                        m_workbench->runner(), this);
    connect(assemblyDock, &QDockWidget::visibilityChanged, m_sourceLevel, &SourceLevelView::setPanelVisible);
    connect(m_sourceLevel, &SourceLevelView::errorOccurred, this, &MainWindow::reportError);
    connect(m_variants, &VariantsPanel::profileRequested, m_sourceLevel, &SourceLevelView::profileVariant);
    m_logDock->raise();
    // What the task asks for, a tab beside Round Control: read once, then looked up.
    QDockWidget *taskDock = addPanelDock(m_taskPanel, tr("Task"), QStringLiteral("taskDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(m_roundDock, taskDock);
    m_roundDock->raise();
    // Re-diff shortly after typing stops, not on every key.
    m_diffTimer = new QTimer(this);
    m_diffTimer->setSingleShot(true);
    m_diffTimer->setInterval(300);
    connect(m_diffTimer, &QTimer::timeout, this, &MainWindow::updateDiff);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_actions->openTaskFolder);
    file->addAction(m_actions->openSession);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setIcon(QIcon::fromTheme(QStringLiteral("document-open-recent")));
    file->addSeparator();
    file->addAction(m_actions->saveSessionAs);
    file->addSeparator();
    file->addAction(m_actions->exportVariant);
    file->addAction(m_actions->saveReport);
    file->addAction(m_actions->exportTrainingData);
    file->addSeparator();
    file->addAction(m_actions->quit);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_actions->undo);
    edit->addAction(m_actions->redo);
    edit->addSeparator();
    edit->addAction(m_actions->find);
    edit->addAction(m_actions->findNext);
    edit->addAction(m_actions->findPrevious);
    edit->addAction(m_actions->replace);
    edit->addSeparator();
    edit->addAction(m_editor->nextDiagnosticAction());
    edit->addAction(m_editor->previousDiagnosticAction());
    edit->addSeparator();
    edit->addAction(m_editor->evaluateAction());
    edit->addAction(m_sourceLevel->profileAction());

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *d : std::as_const(m_docks))
        m_viewMenu->addAction(d->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_actions->compareWithReference);

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(m_actions->settings);
    tools->addAction(m_actions->configureWorkers);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_actions->gettingStarted);
    help->addSeparator();
    help->addAction(m_actions->about);
    help->addAction(m_actions->aboutQt);
}

void MainWindow::createToolBar()
{
    m_toolBar = addToolBar(tr("Main Tool Bar"));
    m_toolBar->setObjectName(QStringLiteral("mainToolBar"));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->addAction(m_actions->openTaskFolder);
    m_toolBar->addAction(m_actions->openSession);
    m_toolBar->addAction(m_actions->saveSessionAs);
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_actions->undo);
    m_toolBar->addAction(m_actions->redo);
    m_toolBar->addAction(m_actions->find);
    m_toolBar->addAction(m_editor->evaluateAction());
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_actions->settings);
    m_viewMenu->addAction(m_toolBar->toggleViewAction());
}

void MainWindow::createStatusBar()
{
    m_toolchainLabel = new QLabel(this);
    m_workersLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_toolchainLabel);
    statusBar()->addPermanentWidget(m_workersLabel);
}

void MainWindow::connectServices()
{
    connect(m_actions->openTaskFolder, &QAction::triggered, this, &MainWindow::chooseTaskFolder);
    connect(m_actions->openSession, &QAction::triggered, this, &MainWindow::chooseSession);
    connect(m_actions->saveSessionAs, &QAction::triggered, this, &MainWindow::chooseSaveSessionAs);
    connect(m_actions->clearRecent, &QAction::triggered, &m_settings, &Settings::clearRecentFiles);
    connect(m_actions->quit, &QAction::triggered, this, &QWidget::close);
    connect(m_actions->undo, &QAction::triggered, m_editor, &KernelEditor::undo);
    connect(m_actions->redo, &QAction::triggered, m_editor, &KernelEditor::redo);
    connect(m_actions->find, &QAction::triggered, m_editor, &KernelEditor::showFind);
    connect(m_actions->findNext, &QAction::triggered, m_editor, &KernelEditor::findNext);
    connect(m_actions->findPrevious, &QAction::triggered, m_editor, &KernelEditor::findPrevious);
    connect(m_actions->replace, &QAction::triggered, m_editor, &KernelEditor::showReplace);
    connect(m_actions->compareWithReference, &QAction::triggered, this, &MainWindow::showDiff);
    connect(m_actions->settings, &QAction::triggered, this, &MainWindow::showSettings);
    connect(m_actions->configureWorkers, &QAction::triggered, this, [this] { showSettingsPage(QStringLiteral("workers")); });
    connect(m_actions->gettingStarted, &QAction::triggered, this, &MainWindow::showGettingStarted);
    m_exports = new ExportActions(m_actions, m_session, m_selection, this);
    m_compileOnly = new CompileOnly(m_workbench->compiler(), m_editor, this);
    connect(m_variants, &VariantsPanel::exportRequested, m_exports, &ExportActions::exportVariant);
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
    connect(m_editor, &KernelEditor::currentChanged, this, [this] {
        if (m_diffDock->isVisible())
            updateDiff();
    });
    connect(m_editor, &KernelEditor::textEdited, m_diffTimer, qOverload<>(&QTimer::start));
    connect(m_editor, &KernelEditor::evaluateRequested, this, &MainWindow::evaluateTab);
    connect(m_editor, &KernelEditor::tabClosing, this,
            [this](int, qint64, QsciScintilla *editor) { m_tabParents.remove(editor); });
    connect(m_editor, &KernelEditor::forkRequested, this, [this](int index) {
        if (const qint64 id = m_editor->variantId(index))
            forkVariant(id);
    });
    connect(m_diffDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            updateDiff();
    });

    connect(&m_settings, &Settings::recentFilesChanged, this, &MainWindow::rebuildRecentMenu);
    connect(&m_settings, &Settings::themeChanged, this, &MainWindow::applyTheme);
    connect(&m_settings, &Settings::compilerChanged, this, &MainWindow::checkToolchain);
    connect(&m_settings, &Settings::workersChanged, this, &MainWindow::updateWorkerStatus);
    connect(&m_settings, &Settings::languageChanged, this, [this] {
        statusBar()->showMessage(tr("The new language is used from the next start of KForge."), 8000);
    });

    connect(m_workbench, &Workbench::statusChanged, this, &MainWindow::updateWorkerStatus);
    connect(m_workbench, &Workbench::readinessChanged, this, [this](const WorkerReadiness &readiness) {
        if (readiness.isUnusable())
            m_log.post(LogSource::Worker, LogLevel::Warning, readiness.explanation());
    });
    connect(m_workbench->pool(), &WorkerPool::deviceReported, this,
            [this](int, const DeviceInfo &device) {
                m_charts->setDevice(device);
                m_taskPanel->setDevice(device);
            });

    // Panels ask; the window carries it out.
    connect(m_variants, &VariantsPanel::compareRequested, this, &MainWindow::comparePair);
    connect(m_selection, &VariantSelection::comparePairChanged, this, [this](qint64 a, qint64 b) {
        if (a && b)
            showPairDiff(a, b);
    });
    connect(m_variants, &VariantsPanel::forkRequested, this, &MainWindow::forkVariant);
    connect(m_variants->view(), &QAbstractItemView::doubleClicked, this, [this] {
        if (const qint64 id = m_selection->current())
            showVariantInEditor(id);
    });
    connect(m_charts, &ChartsPanel::variantClicked, m_selection, &VariantSelection::setCurrent);
    connect(m_rounds, &RoundControlPanel::settingsRequested, this, &MainWindow::showSettingsPage);
    // Every panel reports its failures the same way: into the log, which the user can filter.
    connect(m_rounds, &RoundControlPanel::errorOccurred, this,
            [this](const QString &m) { m_log.post(LogSource::Model, LogLevel::Error, m); });
    connect(m_variants, &VariantsPanel::errorOccurred, this,
            [this](const QString &m) { m_log.post(LogSource::App, LogLevel::Error, m); });
    connect(m_charts, &ChartsPanel::errorOccurred, this,
            [this](const QString &m) { m_log.post(LogSource::App, LogLevel::Error, m); });
    connect(m_compare, &ComparePanel::errorOccurred, this,
            [this](const QString &m) { m_log.post(LogSource::Model, LogLevel::Error, m); });
    connect(m_session, &SessionStore::openFinished, this, [this](bool ok, const QString &error) {
        const QString file = std::exchange(m_pendingSession, QString());
        if (file.isEmpty())
            return; // not one of ours (or superseded)
        statusBar()->clearMessage();
        if (ok) {
            adoptOpenedSession(file);
            return;
        }
        reportError(tr("Could not open the session %1:\n%2").arg(displayPath(file), error));
        m_settings.removeRecentFile(file);
        updateActions();
        updateTitle();
    });
    connect(m_session, &SessionStore::variantChanged, this, &MainWindow::onVariantChanged);
    connect(m_session, &SessionStore::evaluationAdded, this, &MainWindow::onEvaluationAdded);
    // A round the user starts is one they want to watch: the Reasoning dock follows its answers again.
    connect(m_workbench->runner(), &RoundRunner::roundStarted, m_reasoning, [this] { m_reasoning->setFollowLive(true); });
    connect(m_workbench->runner(), &RoundRunner::roundFinished, this,
            [this](qint64 roundId, RoundState, const QString &message) {
                const QString text = message.isEmpty() ? tr("Round %1 finished.").arg(roundId)
                                                       : tr("Round %1: %2").arg(roundId).arg(message);
                m_log.post(LogSource::Model, LogLevel::Info, text);
                statusBar()->showMessage(text, 10000);
            });

    connect(m_probe, &ToolchainProbe::finished, this, &MainWindow::onToolchainChecked);
    connect(m_session, &SessionStore::errorOccurred, this, [this](const QString &message) {
        m_log.post(LogSource::App, LogLevel::Error, message);
    });
}

// ---- opening and saving

void MainWindow::openPath(const QString &path)
{
    const QFileInfo info(path);
    if (info.isDir())
        openTaskFolder(path);
    else if (info.isFile() && isKernelFile(path))
        addVariantFile(path);
    else if (info.isFile())
        openSessionAsync(path);
    else
        reportError(tr("%1 does not exist.").arg(path));
}

void MainWindow::chooseTaskFolder()
{
    QString start = m_taskFolder;
    if (start.isEmpty())
        start = Task::builtinTasksDir();
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open Task Folder"), start);
    if (!folder.isEmpty())
        openTaskFolder(folder);
}

void MainWindow::openTaskFolder(const QString &folder)
{
    const quint64 job = ++m_openJob;
    statusBar()->showMessage(tr("Opening %1…").arg(displayPath(folder)));
    QtConcurrent::run([folder] { return Task::load(folder); })
        .then(this, [this, job, folder](const TaskLoadResult &result) {
            if (job != m_openJob)
                return; // the user opened something else meanwhile
            statusBar()->clearMessage();
            if (!result.ok()) {
                reportError(tr("Could not open the task folder %1:\n%2").arg(displayPath(folder), result.error.message()));
                return;
            }
            const QString cleanFolder = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
            m_settings.addRecentFile(cleanFolder);
            for (const QString &w : result.task->warnings())
                m_log.post(LogSource::App, LogLevel::Warning, w, result.task->name());
            // Rounds, evaluations and steering live in a session: the task gets a working session at once,
            // which File → Save Session As keeps under a name of the user's choosing.
            if (!createWorkingSession(cleanFolder)) {
                m_session->close();
                m_task = *result.task; // shown read-only; rounds need a session
                m_taskFolder = cleanFolder;
                showTask(m_task);
            }
            m_log.post(LogSource::App, LogLevel::Info, tr("Opened task %1 (%2)").arg(result.task->name(), m_taskFolder));
            Q_EMIT taskOpened(m_taskFolder);
        });
}

bool MainWindow::createWorkingSession(const QString &taskFolder)
{
    QString name = QFileInfo(taskFolder).fileName();
    if (name.isEmpty())
        name = QStringLiteral("task");
    const QString path = workingSessionPath(name);
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        m_log.post(LogSource::App, LogLevel::Error, tr("Could not make the folder for working sessions: %1").arg(QFileInfo(path).absolutePath()));
        return false;
    }
    m_session->close();
    m_tabParents.clear();
    if (!m_session->create(path, taskFolder, /*importTaskVariants*/ true)) {
        m_log.post(LogSource::App, LogLevel::Error,
                   tr("Could not create a working session for %1: %2").arg(displayPath(taskFolder), m_session->errorString()));
        return false;
    }
    m_task = Task();
    m_taskFolder = taskFolder;
    showSession();
    m_log.post(LogSource::App, LogLevel::Info,
               tr("Working session %1 (File → Save Session As keeps it under another name)").arg(displayPath(path)));
    return true;
}

void MainWindow::chooseSession()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open Session"), QString(),
                                                      tr("KForge sessions (*.kforge);;All files (*)"));
    if (!file.isEmpty())
        openSessionAsync(file);
}

bool MainWindow::openSession(const QString &file)
{
    ++m_openJob; // a task folder still loading must not replace the session
    m_pendingSession.clear();
    m_tabParents.clear();
    if (!m_session->open(file)) {
        reportError(tr("Could not open the session %1:\n%2").arg(displayPath(file), m_session->errorString()));
        m_settings.removeRecentFile(file);
        updateActions();
        updateTitle();
        return false;
    }
    adoptOpenedSession(file);
    return true;
}

void MainWindow::openSessionAsync(const QString &file)
{
    ++m_openJob;
    m_pendingSession = file;
    m_tabParents.clear();
    statusBar()->showMessage(tr("Opening %1…").arg(displayPath(file)));
    m_session->openAsync(file);
}

void MainWindow::adoptOpenedSession(const QString &file)
{
    m_task = Task();
    m_taskFolder.clear();
    m_settings.addRecentFile(file);
    showSession();
    m_log.post(LogSource::App, LogLevel::Info, tr("Opened session %1").arg(m_session->path()));
    if (!m_session->interruptedRounds().isEmpty())
        m_log.post(LogSource::App, LogLevel::Warning,
                   tr("Rounds of this session that were interrupted and can be resumed: %1")
                       .arg(m_session->interruptedRounds().size()));
    Q_EMIT sessionOpened(m_session->path());
}

void MainWindow::chooseSaveSessionAs()
{
    QString suggestion = m_session->isOpen() ? m_session->path() : QString();
    if (suggestion.isEmpty() && m_task.isValid())
        suggestion = QDir::home().filePath(m_task.name() + u'.' + sessionSuffix);
    QString file = QFileDialog::getSaveFileName(this, tr("Save Session As"), suggestion,
                                                tr("KForge sessions (*.kforge)"));
    if (file.isEmpty())
        return;
    if (QFileInfo(file).suffix().isEmpty())
        file += u'.' + sessionSuffix;
    saveSessionAs(file);
}

bool MainWindow::saveSessionAs(const QString &file)
{
    const QString target = QFileInfo(file).absoluteFilePath();
    if (m_session->isOpen() && QFileInfo(m_session->path()).absoluteFilePath() == target)
        return true; // every change is already committed to this file
    if (!m_session->isOpen() && !m_task.isValid()) {
        reportError(tr("There is nothing to save: open a task folder or a session first."));
        return false;
    }
    if (m_workbench->runner()->isRunning()) {
        reportError(tr("A round is running: stop it (Round Control) before saving the session under another name."));
        return false;
    }
    // The file dialog asked before overwriting.
    if (QFileInfo::exists(target) && !QFile::remove(target)) {
        reportError(tr("Could not replace %1.").arg(displayPath(target)));
        return false;
    }
    if (m_session->isOpen()) {
        // Closing checkpoints the write-ahead log, so the copy is the whole session.
        const QString source = m_session->path();
        m_session->close();
        const bool copied = QFile::copy(source, target);
        if (!copied)
            reportError(tr("Could not copy the session to %1.").arg(displayPath(target)));
        return openSession(copied ? target : source) && copied;
    }
    if (!m_session->create(target, m_taskFolder, /*importTaskVariants*/ true)) {
        reportError(tr("Could not create the session %1:\n%2").arg(displayPath(target), m_session->errorString()));
        return false;
    }
    m_task = Task();
    m_taskFolder.clear();
    m_settings.addRecentFile(target);
    showSession();
    m_log.post(LogSource::App, LogLevel::Info, tr("Saved session %1").arg(target));
    Q_EMIT sessionOpened(target);
    return true;
}

void MainWindow::reportError(const QString &message)
{
    m_log.post(LogSource::App, LogLevel::Error, message);
    QMessageBox *box = new QMessageBox(QMessageBox::Warning, tr("KForge"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    Q_EMIT openFailed(message);
}

// ---- showing

void MainWindow::showTask(const Task &task)
{
    m_editor->clear();
    const QDir folder(task.folder());
    // The reference defines what is correct: shown, never edited here.
    m_editor->addSource(tr("reference"), task.referenceSource(), folder.filePath(QStringLiteral("reference.cu")), true);
    for (const TaskVariant &v : task.variants())
        m_editor->addSource(v.label, v.source, folder.filePath(v.file));
    m_editor->setCurrentIndex(0);
    updateActions();
    updateTitle();
}

void MainWindow::showSession()
{
    m_editor->clear();
    m_selection->clear();
    const Population &population = m_session->population();
    // The reference and the hand-made and imported variants open in tabs; the model's many candidates are
    // reached through the Variants panel (double-click opens one here).
    if (const Variant *reference = population.reference())
        showVariantInEditor(reference->id);
    for (const Variant &v : population.variants())
        if (v.origin == VariantOrigin::Imported || v.origin == VariantOrigin::Manual)
            showVariantInEditor(v.id);
    if (m_editor->count() > 0)
        m_editor->setCurrentIndex(0);
    updateActions();
    updateTitle();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_settings.recentFiles();
    for (const QString &path : files) {
        QAction *a = m_recentMenu->addAction(displayPath(path));
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] { openPath(path); });
    }
    if (!files.isEmpty())
        m_recentMenu->addSeparator();
    m_recentMenu->addAction(m_actions->clearRecent);
    m_actions->clearRecent->setEnabled(!files.isEmpty());
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::updateActions()
{
    QsciScintilla *editor = m_editor->currentEditor();
    const bool hasEditor = editor != nullptr;
    m_actions->undo->setEnabled(hasEditor && editor->isUndoAvailable());
    m_actions->redo->setEnabled(hasEditor && editor->isRedoAvailable());
    m_actions->saveSessionAs->setEnabled(m_session->isOpen() || m_task.isValid());
    for (QAction *a : {m_actions->find, m_actions->findNext, m_actions->findPrevious, m_actions->replace})
        a->setEnabled(hasEditor);
    m_actions->compareWithReference->setEnabled(m_editor->count() > 1);
}

void MainWindow::updateTitle()
{
    QString subject;
    if (m_session->isOpen()) {
        subject = QFileInfo(m_session->path()).fileName();
        if (m_session->hasTask())
            subject += QStringLiteral(" (") + m_session->task().name + u')';
    } else if (m_task.isValid()) {
        subject = m_task.title().isEmpty() ? m_task.name() : m_task.title() + QStringLiteral(" (") + m_task.name() + u')';
    }
    setWindowTitle(subject.isEmpty() ? tr("KForge") : tr("%1 — KForge").arg(subject));
}

// ---- settings, theme, tool chain

void MainWindow::showSettings()
{
    auto *dialog = new SettingsDialog(m_settings, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::applyTheme()
{
    AppTheme::apply(m_settings.theme());
    const bool dark = EditorSetup::isDark(m_settings.theme());
    m_editor->setDarkTheme(dark);
    m_diff->setDarkTheme(dark);
}

void MainWindow::showDiff()
{
    m_diffShowsPair = false;
    const bool wasVisible = !m_diffDock->visibleRegion().isEmpty(); // behind another tab counts as visible
    m_diffDock->show();
    m_diffDock->raise();
    // Two panes of code need room; the log's height is too little.
    if (!wasVisible && !m_diffDock->isFloating())
        resizeDocks({m_diffDock}, {height() * 2 / 5}, Qt::Vertical);
    updateDiff();
}

void MainWindow::updateDiff()
{
    if (m_diffShowsPair || !m_diffDock->isVisible() || m_editor->count() == 0)
        return;
    // The first tab is the reference; compare the current tab with it (or with the next tab while the
    // reference itself is current).
    int other = m_editor->currentIndex();
    if (other <= 0)
        other = m_editor->count() > 1 ? 1 : 0;
    m_diff->setSources(m_editor->title(0), m_editor->editor(0)->text(), m_editor->title(other),
                       m_editor->editor(other)->text());
}

void MainWindow::comparePair(qint64 a, qint64 b)
{
    m_compare->setPair(a, b);
    if (QDockWidget *d = dockOf(m_compare)) {
        d->show();
        d->raise();
    }
    // Compare (right column) and the pair's diff (under the editor) are seen together; two panes of code need
    // more than the log's height.
    // A dock behind another tab counts as visible; what the user sees of it tells.
    const bool diffWasShown = !m_diffDock->visibleRegion().isEmpty();
    m_diffDock->show();
    m_diffDock->raise();
    if (!diffWasShown && !m_diffDock->isFloating())
        resizeDocks({m_diffDock}, {height() * 2 / 5}, Qt::Vertical);
    showPairDiff(a, b);
}

void MainWindow::showPairDiff(qint64 a, qint64 b)
{
    const Population &population = m_session->population();
    const Variant *va = population.find(a);
    const Variant *vb = population.find(b);
    if (!va || !vb)
        return;
    // A on the left and B on the right, as Compare shows the pair (A is the faster one unless the user swapped
    // them there), so both panels read the same way round.
    const auto title = [](const QString &side, const Variant *v) {
        QString t = tr("#%1 %2").arg(v->id).arg(v->label);
        if (v->eval.speedup)
            t += tr(" (%1x)").arg(*v->eval.speedup, 0, 'f', 2);
        return tr("%1: %2").arg(side, t.simplified());
    };
    m_diffShowsPair = true;
    m_diff->setSources(title(tr("A"), va), m_session->source(va->id), title(tr("B"), vb), m_session->source(vb->id));
}

void MainWindow::showSettingsPage(const QString &page)
{
    auto *dialog = new SettingsDialog(m_settings, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (page == u"workers")
        dialog->showPage(SettingsDialog::Workers);
    else if (page == u"endpoints")
        dialog->showPage(SettingsDialog::Models);
    dialog->open();
}

// ---- the editor and the session's variants

bool MainWindow::isMeasured(const Variant &v)
{
    // compile_error never reached a worker; error is the pipeline failing (no worker, the reference does not
    // build): neither measured this source.
    return v.hasEvaluation() && v.eval.verdict != QLatin1String("compile_error") && v.eval.verdict != QLatin1String("error");
}

int MainWindow::showVariantInEditor(qint64 variantId)
{
    const Variant *v = m_session->population().find(variantId);
    if (!v)
        return -1;
    int index = m_editor->indexOfVariant(variantId);
    if (index < 0) {
        const QString title = v->origin == VariantOrigin::Reference ? tr("reference")
                              : v->label.isEmpty()                  ? tr("variant %1").arg(v->id)
                                                                    : tr("#%1 %2").arg(v->id).arg(v->label);
        // Read-only once measured (a compile error is no measurement): what was measured stays as it was.
        index = m_editor->addSource(title, m_session->source(variantId), m_session->path(),
                                    v->origin == VariantOrigin::Reference || isMeasured(*v));
        m_editor->setVariantId(index, variantId);
        // The name the evaluator compiles the source under (EvalRequest::candidateName), which nvcc's
        // diagnostics carry.
        m_editor->setCompileFileName(index, v->origin == VariantOrigin::Reference ? QStringLiteral("reference.cu")
                                                                                   : QStringLiteral("candidate.cu"));
        if (v->origin == VariantOrigin::Reference)
            m_editor->setReference(index);
        onVariantChanged(variantId);
        onEvaluationAdded(variantId);
    }
    m_editor->setCurrentIndex(index);
    return index;
}

int MainWindow::forkVariant(qint64 variantId)
{
    const Variant *v = m_session->population().find(variantId);
    if (!v)
        return -1;
    const QString name = v->origin == VariantOrigin::Reference ? tr("reference") : v->label.isEmpty() ? QString::number(v->id) : v->label;
    const int index = m_editor->addSource(tr("fork of %1").arg(name), m_session->source(variantId), QString(), false);
    m_editor->setCompileFileName(index, QStringLiteral("candidate.cu"));
    m_tabParents.insert(m_editor->editor(index), {variantId});
    m_editor->setStatus(index, tr("Edit, then Ctrl+Enter compiles and evaluates it as a new variant."));
    m_editor->setCurrentIndex(index);
    m_editor->editor(index)->setFocus();
    return index;
}

bool MainWindow::evaluateTab(int index)
{
    QsciScintilla *editor = m_editor->editor(index);
    if (!editor)
        return false;
    if (!m_session->isOpen() || !m_session->hasTask()) {
        reportError(tr("Open a task folder or a session first: evaluations are kept in a session."));
        return false;
    }
    if (const WorkerReadiness readiness = m_workbench->readiness(); readiness.isUnusable()) {
        m_compileOnly->compile(index, m_session->task(), readiness.summary());
        m_log.post(LogSource::App, LogLevel::Warning, readiness.explanation());
        return false;
    }
    RoundRunner *runner = m_workbench->runner();
    const QString source = editor->text();
    const qint64 shown = m_editor->variantId(index);
    if (shown && m_session->population().contains(shown) && m_session->source(shown) == source) {
        // The same source again: a new measurement of the same variant.
        if (!runner->reevaluate(shown)) {
            m_log.post(LogSource::App, LogLevel::Warning, runner->errorString());
            m_editor->setStatus(index, runner->errorString());
            return false;
        }
        m_editor->clearDiagnostics(index);
        m_editor->setStatus(index, tr("Queued for evaluation…"));
        return true;
    }
    QList<qint64> parents = m_tabParents.value(editor);
    if (shown && parents.isEmpty()) {
        // A fixed compile error is the same attempt again, not a child of the text that did not compile.
        const Variant *failed = m_session->population().find(shown);
        const bool compileFailed = failed && failed->origin == VariantOrigin::Manual && failed->hasEvaluation()
                                   && failed->eval.verdict == QLatin1String("compile_error");
        parents = compileFailed ? failed->parentIds : QList<qint64>{shown};
    }
    const qint64 id = runner->addManualVariant(source, parents, m_editor->title(index));
    if (!id) {
        m_log.post(LogSource::App, LogLevel::Error, runner->errorString());
        m_editor->setStatus(index, runner->errorString());
        return false;
    }
    // The tab stays editable until the evaluation finishes (onEvaluationAdded): a compile error is fixed in place.
    m_tabParents.insert(editor, parents);
    m_editor->setVariantId(index, id);
    m_editor->clearDiagnostics(index);
    m_editor->setStatus(index, tr("Variant #%1 queued for evaluation…").arg(id));
    m_log.post(LogSource::App, LogLevel::Info, tr("Evaluating %1 as variant #%2").arg(m_editor->title(index)).arg(id));
    return true;
}

qint64 MainWindow::addVariantFile(const QString &file)
{
    if (!m_session->isOpen() || !m_session->hasTask()) {
        reportError(tr("Open a task folder or a session first, then drop %1 to add it as a variant.").arg(displayPath(file)));
        return 0;
    }
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        reportError(tr("Could not read %1: %2").arg(displayPath(file), f.errorString()));
        return 0;
    }
    const QString source = QString::fromUtf8(f.readAll());
    if (const WorkerReadiness readiness = m_workbench->readiness(); readiness.isUnusable()) {
        // Nothing could measure it: an editable tab (Ctrl+Enter compiles it), not a variant that can only fail.
        const int index = m_editor->addSource(QFileInfo(file).completeBaseName(), source, file, false);
        m_editor->setCompileFileName(index, QStringLiteral("candidate.cu"));
        m_editor->setStatus(index, readiness.explanation());
        m_editor->setCurrentIndex(index);
        m_log.post(LogSource::App, LogLevel::Warning,
                   tr("Opened %1 in the editor, not as a variant: %2").arg(displayPath(file), readiness.summary()));
        return 0;
    }
    RoundRunner *runner = m_workbench->runner();
    const qint64 id = runner->addManualVariant(source, {}, QFileInfo(file).completeBaseName());
    if (!id) {
        reportError(tr("Could not add %1 as a variant: %2").arg(displayPath(file), runner->errorString()));
        return 0;
    }
    m_log.post(LogSource::App, LogLevel::Info, tr("Added %1 as variant #%2").arg(displayPath(file)).arg(id));
    showVariantInEditor(id);
    return id;
}

void MainWindow::onVariantChanged(qint64 variantId)
{
    const int index = m_editor->indexOfVariant(variantId);
    if (index < 0)
        return;
    const Variant *v = m_session->population().find(variantId);
    if (!v)
        return;
    QString text = VariantsModel::statusText(*v);
    if (v->status == VariantStatus::Done && v->eval.speedup && v->eval.candidateMedianMs) {
        const QLocale locale;
        text = tr("correct: %1× the reference, %2 ms median").arg(locale.toString(*v->eval.speedup, 'f', 2),
                                                                   locale.toString(*v->eval.candidateMedianMs, 'g', 4));
        const QStringList flags = VariantsModel::flagTexts(*v);
        if (!flags.isEmpty())
            text += tr(" — %1").arg(flags.join(QStringLiteral(", ")));
    }
    m_editor->setStatus(index, text);
}

void MainWindow::onEvaluationAdded(qint64 variantId)
{
    const int index = m_editor->indexOfVariant(variantId);
    if (index < 0)
        return;
    const std::optional<Evaluation> e = m_session->latestEvaluation(variantId);
    if (!e)
        return;
    // A finished evaluation makes the source read-only, as it was measured; a compile error leaves it editable.
    // Text edited while the evaluation ran is not what was measured and stays editable too.
    if (const Variant *v = m_session->population().find(variantId);
        v && isMeasured(*v) && !m_editor->isReadOnly(index) && m_editor->source(index) == m_session->source(variantId)) {
        m_tabParents.remove(m_editor->editor(index));
        m_editor->setReadOnly(index, true);
    }
    // What the compiler said about this source, as it was measured (stored with the evaluation).
    const QJsonObject compile = e->result.value(QStringLiteral("compile")).toObject();
    m_editor->setDiagnostics(index, Diagnostic::listFromJson(compile.value(QStringLiteral("diagnostics")).toArray()));
    m_editor->setResources(index, KernelResources::listFromJson(compile.value(QStringLiteral("resources")).toArray()));
    onVariantChanged(variantId);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    const bool usable = !urls.isEmpty() && std::all_of(urls.begin(), urls.end(), [](const QUrl &u) {
        const QFileInfo info(u.toLocalFile());
        return u.isLocalFile() && (isKernelFile(info.filePath()) || info.suffix() == sessionSuffix
                                   || (info.isDir() && QFileInfo::exists(info.filePath() + QStringLiteral("/task.json"))));
    });
    if (usable)
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    // Kernel files become variants; a task folder or a session is opened (the last one wins).
    for (const QUrl &url : event->mimeData()->urls())
        openPath(url.toLocalFile());
    event->acceptProposedAction();
}

void MainWindow::checkToolchain()
{
    m_toolchainLabel->setText(tr("Looking for nvcc…"));
    m_probe->start(m_settings.nvccPath());
}

void MainWindow::onToolchainChecked(const ToolchainInfo &info)
{
    m_toolchain = info;
    if (info.found) {
        m_toolchainLabel->setText(tr("nvcc %1").arg(info.version));
        m_toolchainLabel->setToolTip(info.nvccPath);
        m_log.post(LogSource::Compiler, LogLevel::Info, tr("CUDA compiler: %1 (%2)").arg(info.nvccPath, info.version));
    } else {
        m_toolchainLabel->setText(tr("No CUDA compiler"));
        m_toolchainLabel->setToolTip(info.error);
        m_log.post(LogSource::Compiler, LogLevel::Warning, info.error);
    }
    updateNotice();
    Q_EMIT toolchainChecked(info);
}

void MainWindow::updateWorkerStatus()
{
    m_workersLabel->setText(m_workbench->statusText());
    m_workersLabel->setToolTip(m_workbench->statusToolTip());
    updateNotice();
}

void MainWindow::updateNotice()
{
    if (!m_toolchain)
        return; // wait for the probe: no flash of a wrong message
    const WorkerReadiness readiness = m_workbench->readiness();
    if (!m_toolchain->found) {
        m_notice->showNotice(tr("Compiling and evaluating need a CUDA toolkit (nvcc) or a configured GPU worker — "
                                "Settings → Workers."),
                             m_actions->configureWorkers);
    } else if (readiness.isUnusable()) {
        m_notice->showNotice(readiness.explanation(), m_actions->configureWorkers);
        m_notice->setToolTip(readiness.details().join(u'\n'));
    } else {
        m_notice->hide();
    }
}

void MainWindow::showGettingStarted()
{
    auto *dialog = new GettingStarted(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &GettingStarted::openExampleRequested, this, &MainWindow::openSessionAsync);
    connect(dialog, &GettingStarted::openTaskRequested, this, &MainWindow::chooseTaskFolder);
    connect(dialog, &GettingStarted::workersRequested, this, [this] { showSettingsPage(QStringLiteral("workers")); });
    dialog->open();
}

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About KForge"),
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
    m_settings.setWindowGeometry(saveGeometry());
    m_settings.setWindowState(saveState());
    m_settings.sync();
    QMainWindow::closeEvent(event);
}

} // namespace kforge
