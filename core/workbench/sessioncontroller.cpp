#include "core/workbench/sessioncontroller.h"

#include "core/log/loghub.h"
#include "core/optimizer/roundrunner.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QtConcurrent>

namespace kforge {

namespace {
const QString sessionSuffix = QStringLiteral("kforge");

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

SessionController::SessionController(SessionStore *store, Settings &settings, LogHub &log, RoundRunner *runner,
                                     QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_log(log)
    , m_runner(runner)
{
    connect(m_store, &SessionStore::openFinished, this, [this](bool ok, const QString &error) {
        const QString file = std::exchange(m_pendingSession, QString());
        if (file.isEmpty())
            return; // not one of ours (or superseded)
        Q_EMIT progress(QString());
        if (ok) {
            adoptOpenedSession(file);
            return;
        }
        Q_EMIT failed(tr("Could not open the session %1:\n%2").arg(displayPath(file), error));
        m_settings.removeRecentFile(file);
        Q_EMIT changed();
    });
}

QString SessionController::displayPath(const QString &path)
{
    const QString home = QDir::homePath();
    if (path.startsWith(home + u'/'))
        return u'~' + path.mid(home.size());
    return path;
}

bool SessionController::isSessionFile(const QString &path)
{
    return QFileInfo(path).suffix() == sessionSuffix;
}

QString SessionController::withSessionSuffix(const QString &file)
{
    return QFileInfo(file).suffix().isEmpty() ? file + u'.' + sessionSuffix : file;
}

bool SessionController::hasSubject() const
{
    return m_store->isOpen() || m_task.isValid();
}

QString SessionController::subject() const
{
    QString subject;
    if (m_store->isOpen()) {
        subject = QFileInfo(m_store->path()).fileName();
        if (m_store->hasTask())
            subject += QStringLiteral(" (") + m_store->task().name + u')';
    } else if (m_task.isValid()) {
        subject = m_task.title().isEmpty() ? m_task.name() : m_task.title() + QStringLiteral(" (") + m_task.name() + u')';
    }
    return subject;
}

QString SessionController::saveSuggestion() const
{
    QString suggestion = m_store->isOpen() ? m_store->path() : QString();
    if (suggestion.isEmpty() && m_task.isValid())
        suggestion = QDir::home().filePath(m_task.name() + u'.' + sessionSuffix);
    return suggestion;
}

void SessionController::openTaskFolder(const QString &folder)
{
    Q_EMIT progress(tr("Opening %1…").arg(displayPath(folder)));
    // Dropped when the user opens something else meanwhile.
    m_taskLoads.deliver(this, QtConcurrent::run([folder] { return Task::load(folder); }), [this, folder](const TaskLoadResult &result) {
        Q_EMIT progress(QString());
        if (!result.ok()) {
            Q_EMIT failed(tr("Could not open the task folder %1:\n%2").arg(displayPath(folder), result.error.message()));
            return;
        }
        const QString cleanFolder = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
        m_settings.addRecentFile(cleanFolder);
        for (const QString &w : result.task->warnings())
            m_log.post(LogSource::App, LogLevel::Warning, w, result.task->name());
        // Rounds, evaluations and steering live in a session: the task gets a working session at once,
        // which File → Save Session As keeps under a name of the user's choosing.
        if (!createWorkingSession(cleanFolder)) {
            m_store->close();
            m_task = *result.task; // shown read-only; rounds need a session
            m_taskFolder = cleanFolder;
            m_settings.setLastSession({});
            Q_EMIT taskShown(m_task);
            Q_EMIT changed();
        }
        m_log.post(LogSource::App, LogLevel::Info, tr("Opened task %1 (%2)").arg(result.task->name(), m_taskFolder));
        Q_EMIT taskOpened(m_taskFolder);
    });
}

bool SessionController::createWorkingSession(const QString &taskFolder)
{
    QString name = QFileInfo(taskFolder).fileName();
    if (name.isEmpty())
        name = QStringLiteral("task");
    const QString path = workingSessionPath(name);
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        m_log.post(LogSource::App, LogLevel::Error,
                   tr("Could not make the folder for working sessions: %1").arg(QFileInfo(path).absolutePath()));
        return false;
    }
    m_store->close();
    Q_EMIT replacing();
    if (!m_store->create(path, taskFolder, /*importTaskVariants*/ true)) {
        m_log.post(LogSource::App, LogLevel::Error,
                   tr("Could not create a working session for %1: %2").arg(displayPath(taskFolder), m_store->errorString()));
        return false;
    }
    m_task = Task();
    m_taskFolder = taskFolder;
    m_settings.setLastSession(path);
    Q_EMIT sessionShown();
    Q_EMIT changed();
    m_log.post(LogSource::App, LogLevel::Info,
               tr("Working session %1 (File → Save Session As keeps it under another name)").arg(displayPath(path)));
    return true;
}

bool SessionController::openSession(const QString &file)
{
    m_taskLoads.drop(); // a task folder still loading must not replace the session
    m_pendingSession.clear();
    Q_EMIT replacing();
    if (!m_store->open(file)) {
        Q_EMIT failed(tr("Could not open the session %1:\n%2").arg(displayPath(file), m_store->errorString()));
        m_settings.removeRecentFile(file);
        Q_EMIT changed();
        return false;
    }
    adoptOpenedSession(file);
    return true;
}

void SessionController::openSessionAsync(const QString &file)
{
    m_taskLoads.drop();
    m_pendingSession = file;
    Q_EMIT replacing();
    Q_EMIT progress(tr("Opening %1…").arg(displayPath(file)));
    m_store->openAsync(file);
}

void SessionController::adoptOpenedSession(const QString &file)
{
    m_task = Task();
    m_taskFolder.clear();
    m_settings.addRecentFile(file);
    m_settings.setLastSession(m_store->path());
    Q_EMIT sessionShown();
    Q_EMIT changed();
    m_log.post(LogSource::App, LogLevel::Info, tr("Opened session %1").arg(m_store->path()));
    if (!m_store->interruptedRounds().isEmpty())
        m_log.post(LogSource::App, LogLevel::Warning,
                   tr("Rounds of this session that were interrupted and can be resumed: %1")
                       .arg(m_store->interruptedRounds().size()));
    Q_EMIT sessionOpened(m_store->path());
}

bool SessionController::saveSessionAs(const QString &file)
{
    const QString target = QFileInfo(file).absoluteFilePath();
    if (m_store->isOpen() && QFileInfo(m_store->path()).absoluteFilePath() == target)
        return true; // every change is already committed to this file
    if (!m_store->isOpen() && !m_task.isValid()) {
        Q_EMIT failed(tr("There is nothing to save: open a task folder or a session first."));
        return false;
    }
    if (m_runner && m_runner->isRunning()) {
        Q_EMIT failed(tr("A round is running: stop it (Round Control) before saving the session under another name."));
        return false;
    }
    // The file dialog asked before overwriting.
    if (QFileInfo::exists(target) && !QFile::remove(target)) {
        Q_EMIT failed(tr("Could not replace %1.").arg(displayPath(target)));
        return false;
    }
    if (m_store->isOpen()) {
        // Closing checkpoints the write-ahead log, so the copy is the whole session.
        const QString source = m_store->path();
        m_store->close();
        const bool copied = QFile::copy(source, target);
        if (!copied)
            Q_EMIT failed(tr("Could not copy the session to %1.").arg(displayPath(target)));
        return openSession(copied ? target : source) && copied;
    }
    if (!m_store->create(target, m_taskFolder, /*importTaskVariants*/ true)) {
        Q_EMIT failed(tr("Could not create the session %1:\n%2").arg(displayPath(target), m_store->errorString()));
        return false;
    }
    m_task = Task();
    m_taskFolder.clear();
    m_settings.addRecentFile(target);
    m_settings.setLastSession(target);
    Q_EMIT sessionShown();
    Q_EMIT changed();
    m_log.post(LogSource::App, LogLevel::Info, tr("Saved session %1").arg(target));
    Q_EMIT sessionOpened(target);
    return true;
}

} // namespace kforge
