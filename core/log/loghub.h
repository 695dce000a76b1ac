#pragma once
// Collects messages from the compiler, the workers, the model client and the application itself, for the
// log panel. post() may be called from any thread; bursts are delivered as one batch on the hub's thread.
#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QMutex>
#include <QObject>
#include <QString>

#include <deque>

namespace kforge {

enum class LogSource { App, Compiler, Worker, Model };
enum class LogLevel { Debug, Info, Warning, Error };

struct LogEntry {
    QDateTime time;
    LogSource source = LogSource::App;
    LogLevel level = LogLevel::Info;
    QString message;
    QString context; // e.g. the worker's name or the variant's label; may be empty
};

class LogHub : public QObject
{
    Q_OBJECT
public:
    static constexpr int defaultCapacity = 20000;

    explicit LogHub(QObject *parent = nullptr);
    ~LogHub() override;

    void post(LogSource source, LogLevel level, const QString &message, const QString &context = {});
    void post(LogEntry entry);

    // The retained history, oldest first (at most capacity() entries; older ones are dropped).
    QList<LogEntry> entries() const;
    int capacity() const { return m_capacity; }
    void setCapacity(int capacity);
    void clear();

    static QString sourceName(LogSource source); // translated
    static QString levelName(LogLevel level);    // translated

Q_SIGNALS:
    // New entries, oldest first, delivered in the hub's thread.
    void entriesAdded(const QList<kforge::LogEntry> &entries);
    void cleared();

private:
    void flush();

    mutable QMutex m_mutex;
    QList<LogEntry> m_pending;
    bool m_flushScheduled = false;
    std::deque<LogEntry> m_history;
    int m_capacity = defaultCapacity;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::LogEntry)
