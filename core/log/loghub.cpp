#include "core/log/loghub.h"

#include <QMutexLocker>

namespace kforge {

LogHub::LogHub(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<kforge::LogEntry>();
    qRegisterMetaType<QList<kforge::LogEntry>>();
}

LogHub::~LogHub() = default;

void LogHub::post(LogSource source, LogLevel level, const QString &message, const QString &context)
{
    post(LogEntry{QDateTime::currentDateTime(), source, level, message, context});
}

void LogHub::post(LogEntry entry)
{
    if (!entry.time.isValid())
        entry.time = QDateTime::currentDateTime();
    QMutexLocker lock(&m_mutex);
    m_pending.append(std::move(entry));
    if (m_flushScheduled)
        return;
    m_flushScheduled = true;
    // Queued even from the hub's own thread: a compiler spilling 500 lines becomes one batch.
    QMetaObject::invokeMethod(this, &LogHub::flush, Qt::QueuedConnection);
}

void LogHub::flush()
{
    QList<LogEntry> batch;
    {
        QMutexLocker lock(&m_mutex);
        batch.swap(m_pending);
        m_flushScheduled = false;
        for (const LogEntry &e : std::as_const(batch))
            m_history.push_back(e);
        while (m_history.size() > size_t(m_capacity))
            m_history.pop_front();
    }
    if (!batch.isEmpty())
        Q_EMIT entriesAdded(batch);
}

QList<LogEntry> LogHub::entries() const
{
    QMutexLocker lock(&m_mutex);
    return QList<LogEntry>(m_history.begin(), m_history.end());
}

void LogHub::setCapacity(int capacity)
{
    QMutexLocker lock(&m_mutex);
    m_capacity = std::max(1, capacity);
    while (m_history.size() > size_t(m_capacity))
        m_history.pop_front();
}

void LogHub::clear()
{
    {
        QMutexLocker lock(&m_mutex);
        m_history.clear();
        m_pending.clear();
    }
    Q_EMIT cleared();
}

QString LogHub::sourceName(LogSource source)
{
    switch (source) {
    case LogSource::App: return tr("KForge");
    case LogSource::Compiler: return tr("Compiler");
    case LogSource::Worker: return tr("Worker");
    case LogSource::Model: return tr("Model");
    }
    return {};
}

QString LogHub::levelName(LogLevel level)
{
    switch (level) {
    case LogLevel::Debug: return tr("Debug");
    case LogLevel::Info: return tr("Info");
    case LogLevel::Warning: return tr("Warning");
    case LogLevel::Error: return tr("Error");
    }
    return {};
}

} // namespace kforge
