#include "app/gui/sessionactions.h"

#include "app/gui/mainactions.h"
#include "core/settings/settings.h"
#include "core/workbench/sessioncontroller.h"

#include <QAction>
#include <QFileDialog>
#include <QMenu>

namespace kforge {

SessionActions::SessionActions(MainActions *actions, SessionController *sessions, Settings &settings, QWidget *window)
    : QObject(window)
    , m_actions(actions)
    , m_sessions(sessions)
    , m_settings(settings)
    , m_window(window)
{
    connect(m_actions->openTaskFolder, &QAction::triggered, this, &SessionActions::chooseTaskFolder);
    connect(m_actions->openFile, &QAction::triggered, this, &SessionActions::chooseFile);
    connect(m_actions->openSession, &QAction::triggered, this, &SessionActions::chooseSession);
    connect(m_actions->saveSessionAs, &QAction::triggered, this, &SessionActions::chooseSaveSessionAs);
    connect(m_actions->clearRecent, &QAction::triggered, &m_settings, &Settings::clearRecentFiles);
    connect(&m_settings, &Settings::recentFilesChanged, this, &SessionActions::rebuildRecentMenu);
    rebuildRecentMenu();
}

void SessionActions::chooseTaskFolder()
{
    QString start = m_sessions->taskFolder();
    if (start.isEmpty())
        start = Task::builtinTasksDir();
    const QString folder = QFileDialog::getExistingDirectory(m_window, tr("Open Task Folder"), start);
    if (!folder.isEmpty())
        m_sessions->openTaskFolder(folder);
}

void SessionActions::chooseSession()
{
    const QString file = QFileDialog::getOpenFileName(m_window, tr("Open Session"), QString(),
                                                      tr("KForge sessions (*.kforge);;All files (*)"));
    if (!file.isEmpty())
        m_sessions->openSessionAsync(file);
}

void SessionActions::chooseFile()
{
    const QString file = QFileDialog::getOpenFileName(
        m_window, tr("Open File"), m_sessions->taskFolder(),
        tr("Tasks and PyTorch problems (task.json *.py);;KForge sessions (*.kforge);;All files (*)"));
    if (!file.isEmpty())
        Q_EMIT openRequested(file);
}

void SessionActions::chooseSaveSessionAs()
{
    const QString file = QFileDialog::getSaveFileName(m_window, tr("Save Session As"), m_sessions->saveSuggestion(),
                                                      tr("KForge sessions (*.kforge)"));
    if (!file.isEmpty())
        m_sessions->saveSessionAs(SessionController::withSessionSuffix(file));
}

void SessionActions::rebuildRecentMenu()
{
    QMenu *menu = m_actions->recentMenu;
    if (!menu)
        return;
    menu->clear();
    const QStringList files = m_settings.recentFiles();
    for (const QString &path : files) {
        QAction *a = menu->addAction(SessionController::displayPath(path));
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] { Q_EMIT openRequested(path); });
    }
    if (!files.isEmpty())
        menu->addSeparator();
    menu->addAction(m_actions->clearRecent);
    m_actions->clearRecent->setEnabled(!files.isEmpty());
    menu->setEnabled(!files.isEmpty());
}

} // namespace kforge
