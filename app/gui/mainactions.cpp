#include "app/gui/mainactions.h"

#include <QAction>
#include <QDockWidget>
#include <QIcon>
#include <QMainWindow>
#include <QMenuBar>
#include <QStyle>
#include <QToolBar>
#include <QWidget>

namespace kforge {

namespace {
QAction *make(QWidget *owner, const QString &text, const QString &themeIcon, QStyle::StandardPixmap fallback,
              QKeySequence::StandardKey key = QKeySequence::UnknownKey)
{
    auto *action = new QAction(text, owner);
    if (!themeIcon.isEmpty() || fallback != QStyle::SP_CustomBase) {
        const QIcon fallbackIcon = fallback != QStyle::SP_CustomBase ? owner->style()->standardIcon(fallback) : QIcon();
        action->setIcon(QIcon::fromTheme(themeIcon, fallbackIcon));
    }
    if (key != QKeySequence::UnknownKey)
        action->setShortcuts(key);
    return action;
}
} // namespace

MainActions::MainActions(QWidget *owner)
    : QObject(owner)
{
    openTaskFolder = make(owner, tr("Open &Task Folder…"), QStringLiteral("folder-open"), QStyle::SP_DirOpenIcon,
                          QKeySequence::Open);
    openTaskFolder->setToolTip(tr("Open a task: a folder with task.json and reference.cu"));
    openFile = make(owner, tr("&Open File…"), QStringLiteral("document-open"), QStyle::SP_DialogOpenButton);
    openFile->setToolTip(tr("Open a task.json, a PyTorch problem (*.py, imported as a task) or a session file"));
    openSession = make(owner, tr("Open &Session…"), QStringLiteral("document-open"), QStyle::SP_DialogOpenButton);
    openSession->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openSession->setToolTip(tr("Open a KForge session file (*.kforge)"));
    saveSessionAs = make(owner, tr("Save Session &As…"), QStringLiteral("document-save-as"),
                         QStyle::SP_DialogSaveButton, QKeySequence::SaveAs);
    saveSessionAs->setToolTip(tr("Save the open task or session as a session file"));
    exportVariant = make(owner, tr("&Export Variant…"), QStringLiteral("document-export"), QStyle::SP_CustomBase);
    exportVariant->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportVariant->setToolTip(tr("Export the selected variant (or the fastest correct one) as a CMake or PyTorch project"));
    saveReport = make(owner, tr("Save &Report…"), QStringLiteral("text-html"), QStyle::SP_CustomBase);
    saveReport->setToolTip(tr("Save a report of the session as one self-contained HTML file"));
    exportTrainingData = make(owner, tr("Export &Training Data…"), QStringLiteral("document-save"), QStyle::SP_CustomBase);
    exportTrainingData->setToolTip(tr("Save the model's answers of the session as JSON lines for training"));
    verifyCollection = make(owner, tr("&Verify Collection…"), QStringLiteral("view-list-details"), QStyle::SP_CustomBase);
    verifyCollection->setToolTip(tr("Re-measure a collection of kernels (a paper's release, a KernelBench run) and "
                                    "see which claims hold"));
    clearRecent = make(owner, tr("&Clear List"), QStringLiteral("edit-clear-history"), QStyle::SP_CustomBase);
    quit = make(owner, tr("&Quit"), QStringLiteral("application-exit"), QStyle::SP_CustomBase, QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    undo = make(owner, tr("&Undo"), QStringLiteral("edit-undo"), QStyle::SP_ArrowBack, QKeySequence::Undo);
    redo = make(owner, tr("&Redo"), QStringLiteral("edit-redo"), QStyle::SP_ArrowForward, QKeySequence::Redo);
    find = make(owner, tr("&Find…"), QStringLiteral("edit-find"), QStyle::SP_FileDialogContentsView, QKeySequence::Find);
    findNext = make(owner, tr("Find &Next"), QStringLiteral("go-down-search"), QStyle::SP_CustomBase,
                    QKeySequence::FindNext);
    findPrevious = make(owner, tr("Find Pre&vious"), QStringLiteral("go-up-search"), QStyle::SP_CustomBase,
                        QKeySequence::FindPrevious);
    replace = make(owner, tr("R&eplace…"), QStringLiteral("edit-find-replace"), QStyle::SP_CustomBase,
                   QKeySequence::Replace);
    if (replace->shortcuts().isEmpty())
        replace->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));

    compareWithReference = make(owner, tr("&Compare with Reference"), QStringLiteral("document-compare"),
                                QStyle::SP_CustomBase);
    compareWithReference->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_D));
    compareWithReference->setToolTip(tr("Show the differences between the reference and the current tab"));

    settings = make(owner, tr("&Settings…"), QStringLiteral("configure"), QStyle::SP_FileDialogDetailedView,
                    QKeySequence::Preferences);
    if (settings->shortcuts().isEmpty())
        settings->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    settings->setMenuRole(QAction::PreferencesRole);
    // The page's one name, as every message and the docs say it (not a second name for the same page).
    configureWorkers = make(owner, tr("Settings → &Workers…"), QStringLiteral("network-server"), QStyle::SP_CustomBase);
    configureWorkers->setToolTip(tr("Add, change or test the GPU workers that evaluate kernels"));
    gettingStarted = make(owner, tr("&Getting Started"), QStringLiteral("help-contents"), QStyle::SP_DialogHelpButton,
                          QKeySequence::HelpContents);
    gettingStarted->setToolTip(tr("A short guide, and an example session measured on an H200 to look around in"));
    about = make(owner, tr("&About KForge"), QStringLiteral("help-about"), QStyle::SP_CustomBase);
    about->setMenuRole(QAction::AboutRole);
    aboutQt = make(owner, tr("About &Qt"), QString(), QStyle::SP_CustomBase);
    aboutQt->setMenuRole(QAction::AboutQtRole);

    for (QAction *a : {openTaskFolder,
                       openFile,
                       openSession,
                       saveSessionAs,
                       exportVariant,
                       saveReport,
                       exportTrainingData,
                       verifyCollection,
                       clearRecent,
                       quit,
                       undo,
                       redo,
                       find,
                       findNext,
                       findPrevious,
                       replace,
                       compareWithReference,
                       settings,
                       configureWorkers,
                       gettingStarted,
                       about,
                       aboutQt})
        owner->addAction(a);
}

void MainActions::buildMenus(QMainWindow *window, const QList<QAction *> &diagnosticActions, QAction *evaluate,
                             QAction *profile, const QList<QDockWidget *> &docks)
{
    QMenuBar *bar = window->menuBar();
    QMenu *file = bar->addMenu(tr("&File"));
    file->addAction(openTaskFolder);
    file->addAction(openFile);
    file->addAction(openSession);
    recentMenu = file->addMenu(tr("Open &Recent"));
    recentMenu->setIcon(QIcon::fromTheme(QStringLiteral("document-open-recent")));
    file->addSeparator();
    file->addAction(saveSessionAs);
    file->addSeparator();
    file->addAction(exportVariant);
    file->addAction(saveReport);
    file->addAction(exportTrainingData);
    file->addSeparator();
    file->addAction(verifyCollection);
    file->addSeparator();
    file->addAction(quit);

    QMenu *edit = bar->addMenu(tr("&Edit"));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(find);
    edit->addAction(findNext);
    edit->addAction(findPrevious);
    edit->addAction(replace);
    edit->addSeparator();
    edit->addActions(diagnosticActions);
    edit->addSeparator();
    edit->addAction(evaluate);
    if (profile)
        edit->addAction(profile);

    QMenu *view = bar->addMenu(tr("&View"));
    for (QDockWidget *d : docks)
        view->addAction(d->toggleViewAction());
    view->addSeparator();
    view->addAction(compareWithReference);

    QMenu *tools = bar->addMenu(tr("&Tools"));
    tools->addAction(settings);
    tools->addAction(configureWorkers);

    QMenu *help = bar->addMenu(tr("&Help"));
    help->addAction(gettingStarted);
    help->addSeparator();
    help->addAction(about);
    help->addAction(aboutQt);

    QToolBar *toolBar = window->addToolBar(tr("Main Tool Bar"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->addAction(openTaskFolder);
    toolBar->addAction(openSession);
    toolBar->addAction(saveSessionAs);
    toolBar->addSeparator();
    toolBar->addAction(undo);
    toolBar->addAction(redo);
    toolBar->addAction(find);
    toolBar->addAction(evaluate);
    toolBar->addSeparator();
    toolBar->addAction(settings);
    view->addAction(toolBar->toggleViewAction());
}

} // namespace kforge
