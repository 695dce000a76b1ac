#pragma once
// The File menu's session half: Open Task Folder, Open File, Open Session and Save Session As ask the user for a path
// and hand it to the SessionController; Open Recent lists the recent files and keeps following them.
#include <QObject>

class QWidget;

namespace kforge {

class MainActions;
class SessionController;
class Settings;

class SessionActions : public QObject
{
    Q_OBJECT
public:
    // The dialogs open over `window`; the actions and the Open Recent menu are `actions`'.
    SessionActions(MainActions *actions, SessionController *sessions, Settings &settings, QWidget *window);

    void chooseTaskFolder();
    void chooseSession();
    // A task.json, a PyTorch problem (*.py) or a session file, handed on through openRequested().
    void chooseFile();
    void chooseSaveSessionAs();

Q_SIGNALS:
    // A recent file was chosen: a task folder, a session or a kernel file, as a path from the command line is.
    void openRequested(const QString &path);

private:
    void rebuildRecentMenu();

    MainActions *m_actions = nullptr;
    SessionController *m_sessions = nullptr;
    Settings &m_settings;
    QWidget *m_window = nullptr;
};

} // namespace kforge
