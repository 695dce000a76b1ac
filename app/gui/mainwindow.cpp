#include "app/gui/mainwindow.h"

#include "app/gui/appicon.h"
#include "app/gui/apptheme.h"
#include "app/gui/mainactions.h"
#include "app/gui/noticebar.h"
#include "core/log/loghub.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/version.h"
#include "core/worker/workerconfig.h"
#include "views/editor/editorsetup.h"
#include "views/editor/kerneleditor.h"
#include "views/log/logpanel.h"
#include "views/settings/settingsdialog.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace kforge {

namespace {
const QString sessionSuffix = QStringLiteral("kforge");

QString displayPath(const QString &path)
{
    const QString home = QDir::homePath();
    if (path.startsWith(home + u'/'))
        return u'~' + path.mid(home.size());
    return path;
}
} // namespace

MainWindow::MainWindow(Settings &settings, LogHub &log, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_log(log)
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(AppIcon::icon());
    m_actions = new MainActions(this);
    m_session = new SessionStore(this);
    m_probe = new ToolchainProbe(this);

    m_editor = new KernelEditor(this);
    m_editor->setEmptyStateActions({m_actions->openTaskFolder, m_actions->openSession});
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
        resize(1280, 820);
    restoreState(m_settings.windowState());

    applyTheme();
    rebuildRecentMenu();
    updateActions();
    updateTitle();
    updateWorkerStatus();
    checkToolchain();
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks()
{
    m_logPanel = new LogPanel(this);
    m_logPanel->setHub(&m_log);
    m_logDock = new QDockWidget(tr("Log"), this);
    m_logDock->setObjectName(QStringLiteral("logDock"));
    m_logDock->setWidget(m_logPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
    resizeDocks({m_logDock}, {180}, Qt::Vertical);
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
    file->addAction(m_actions->quit);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_actions->undo);
    edit->addAction(m_actions->redo);
    edit->addSeparator();
    edit->addAction(m_actions->find);
    edit->addAction(m_actions->findNext);
    edit->addAction(m_actions->findPrevious);
    edit->addAction(m_actions->replace);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addAction(m_logDock->toggleViewAction());

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(m_actions->settings);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
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
    connect(m_actions->settings, &QAction::triggered, this, &MainWindow::showSettings);
    connect(m_actions->about, &QAction::triggered, this, &MainWindow::showAbout);
    connect(m_actions->aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);

    connect(m_editor, &KernelEditor::undoAvailable, m_actions->undo, &QAction::setEnabled);
    connect(m_editor, &KernelEditor::redoAvailable, m_actions->redo, &QAction::setEnabled);
    connect(m_editor, &KernelEditor::currentChanged, this, &MainWindow::updateActions);

    connect(&m_settings, &Settings::recentFilesChanged, this, &MainWindow::rebuildRecentMenu);
    connect(&m_settings, &Settings::themeChanged, this, &MainWindow::applyTheme);
    connect(&m_settings, &Settings::compilerChanged, this, &MainWindow::checkToolchain);
    connect(&m_settings, &Settings::workersChanged, this, &MainWindow::updateWorkerStatus);
    connect(&m_settings, &Settings::languageChanged, this, [this] {
        statusBar()->showMessage(tr("The new language is used from the next start of KForge."), 8000);
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
    else if (info.isFile())
        openSession(path);
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
            m_session->close();
            m_task = *result.task;
            m_taskFolder = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
            m_settings.addRecentFile(m_taskFolder);
            showTask(m_task);
            for (const QString &w : m_task.warnings())
                m_log.post(LogSource::App, LogLevel::Warning, w, m_task.name());
            m_log.post(LogSource::App, LogLevel::Info, tr("Opened task %1 (%2)").arg(m_task.name(), m_taskFolder));
            Q_EMIT taskOpened(m_taskFolder);
        });
}

void MainWindow::chooseSession()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open Session"), QString(),
                                                      tr("KForge sessions (*.kforge);;All files (*)"));
    if (!file.isEmpty())
        openSession(file);
}

bool MainWindow::openSession(const QString &file)
{
    ++m_openJob; // a task folder still loading must not replace the session
    if (!m_session->open(file)) {
        reportError(tr("Could not open the session %1:\n%2").arg(displayPath(file), m_session->errorString()));
        m_settings.removeRecentFile(file);
        updateActions();
        updateTitle();
        return false;
    }
    m_task = Task();
    m_taskFolder.clear();
    m_settings.addRecentFile(file);
    showSession();
    m_log.post(LogSource::App, LogLevel::Info, tr("Opened session %1").arg(m_session->path()));
    if (!m_session->interruptedRounds().isEmpty())
        m_log.post(LogSource::App, LogLevel::Warning,
                   tr("%n round(s) of this session were interrupted and can be resumed.", nullptr,
                      int(m_session->interruptedRounds().size())));
    Q_EMIT sessionOpened(m_session->path());
    return true;
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
    const Population &population = m_session->population();
    if (const Variant *reference = population.reference())
        m_editor->addSource(tr("reference"), m_session->source(reference->id), m_session->path(), true);
    // Hand-made and imported variants open in tabs; the model's many candidates are reached through the
    // variants panel.
    for (const Variant &v : population.variants()) {
        if (v.origin != VariantOrigin::Imported && v.origin != VariantOrigin::Manual)
            continue;
        const QString title = v.label.isEmpty() ? tr("variant %1").arg(v.id) : v.label;
        m_editor->addSource(title, m_session->source(v.id), m_session->path(), v.hasEvaluation());
    }
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
    const bool hasEditor = m_editor->currentEditor() != nullptr;
    m_actions->saveSessionAs->setEnabled(m_session->isOpen() || m_task.isValid());
    for (QAction *a : {m_actions->find, m_actions->findNext, m_actions->findPrevious, m_actions->replace})
        a->setEnabled(hasEditor);
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
    m_editor->setDarkTheme(EditorSetup::isDark(m_settings.theme()));
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
    const QList<WorkerConfig> workers = m_settings.workers();
    QStringList problems;
    for (const WorkerConfig &w : workers) {
        if (w.resolvedCommand().isEmpty())
            problems << tr("%1: the command cannot be started here (is kforge-worker built or installed?)").arg(w.displayName());
    }
    const int usable = int(workers.size() - problems.size());
    if (workers.isEmpty())
        m_workersLabel->setText(tr("No GPU worker configured"));
    else if (problems.isEmpty())
        m_workersLabel->setText(tr("%n GPU worker(s)", nullptr, usable));
    else
        m_workersLabel->setText(tr("GPU workers: %1 of %2 usable").arg(usable).arg(workers.size()));
    m_workersLabel->setToolTip(problems.isEmpty() ? tr("Settings → Workers") : problems.join(u'\n'));
    updateNotice();
}

void MainWindow::updateNotice()
{
    if (!m_toolchain)
        return; // wait for the probe: no flash of a wrong message
    const QList<WorkerConfig> workers = m_settings.workers();
    const bool anyUsable = std::any_of(workers.begin(), workers.end(),
                                       [](const WorkerConfig &w) { return !w.resolvedCommand().isEmpty(); });
    if (!m_toolchain->found) {
        m_notice->showNotice(tr("Compiling and evaluating need a CUDA toolkit (nvcc) or a configured GPU worker — "
                                "Settings → Workers."),
                             m_actions->settings);
    } else if (workers.isEmpty()) {
        m_notice->showNotice(tr("No GPU worker is configured: kernels can be compiled here but not evaluated — "
                                "Settings → Workers."),
                             m_actions->settings);
    } else if (!anyUsable) {
        m_notice->showNotice(tr("No configured GPU worker can be started here (is kforge-worker built or installed?): "
                                "kernels can be compiled but not evaluated — Settings → Workers."),
                             m_actions->settings);
    } else {
        m_notice->hide();
    }
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
