#pragma once
// The open session's lifecycle, without a widget: a task folder gets a working session at once, a session file is
// opened (at once or off the GUI thread), Save Session As copies or creates one, and every opening is remembered in
// the recent files. The window asks the user for paths and shows what this reports.
#include "core/async/lateresultguard.h"
#include "core/task/task.h"

#include <QObject>
#include <QString>

namespace kforge {

class LogHub;
class RoundRunner;
class SessionStore;
class Settings;

class SessionController : public QObject
{
    Q_OBJECT
public:
    // `runner`, when given, is asked before Save Session As replaces the open session (not while a round runs).
    SessionController(SessionStore *store, Settings &settings, LogHub &log, RoundRunner *runner = nullptr,
                      QObject *parent = nullptr);

    // Loads the task off the calling thread; taskOpened() or failed() follows.
    void openTaskFolder(const QString &folder);
    // openSessionAsync() loads it off the calling thread (sessionOpened() or failed() follows); openSession()
    // loads it at once and returns whether it opened.
    void openSessionAsync(const QString &file);
    bool openSession(const QString &file);
    // Saves the open session under a new name, or makes a session of the open task folder.
    bool saveSessionAs(const QString &file);

    // The task folder shown while no session is open (no working session could be made); invalid otherwise.
    const Task &task() const { return m_task; }
    // The task folder the open working session was made from; empty for a session opened from a file.
    QString taskFolder() const { return m_taskFolder; }
    // A session or a task is open: something Save Session As can keep.
    bool hasSubject() const;
    // What the window's title names: the session file and its task, or the task alone; empty when nothing is open.
    QString subject() const;
    // Where Save Session As starts; `file` with the session suffix when it has none.
    QString saveSuggestion() const;
    static QString withSessionSuffix(const QString &file);
    static bool isSessionFile(const QString &path);
    // `path` with the home folder written as ~.
    static QString displayPath(const QString &path);

Q_SIGNALS:
    void taskOpened(const QString &folder);
    void sessionOpened(const QString &file);
    // Something the user asked for could not be done; the message says what and why.
    void failed(const QString &message);
    // A slow opening started ("Opening …"); an empty message: it ended.
    void progress(const QString &message);
    // The open session (or the task shown without one) is about to be replaced: what refers to its tabs goes.
    void replacing();
    // A session became the open one, or a task folder is shown read-only without one.
    void sessionShown();
    void taskShown(const kforge::Task &task);
    // What subject(), task() or hasSubject() say may have changed.
    void changed();

private:
    bool createWorkingSession(const QString &taskFolder);
    void adoptOpenedSession(const QString &file);

    SessionStore *m_store = nullptr;
    Settings &m_settings;
    LogHub &m_log;
    RoundRunner *m_runner = nullptr;
    QString m_pendingSession; // the session file being loaded off the calling thread
    Task m_task;
    QString m_taskFolder;
    LateResultGuard m_taskLoads; // a task load that finishes after a newer open is dropped
};

} // namespace kforge
