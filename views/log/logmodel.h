#pragma once
// The log hub's entries as a list model, newest last; follows the hub as entries arrive.
#include "core/log/loghub.h"

#include <QAbstractListModel>
#include <QPointer>
#include <deque>

namespace kforge {

class LogModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        SourceRole = Qt::UserRole + 1, // int(LogSource)
        LevelRole,                     // int(LogLevel)
        TimeRole,                      // QDateTime
        MessageRole,                   // QString, the message alone
        ContextRole,                   // QString
    };

    explicit LogModel(QObject *parent = nullptr);

    void setHub(LogHub *hub);
    LogHub *hub() const { return m_hub; }
    void setCapacity(int capacity);
    int capacity() const { return m_capacity; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    const LogEntry &entry(int row) const { return m_entries[size_t(row)]; }

private:
    void append(const QList<LogEntry> &entries);
    void trim();

    QPointer<LogHub> m_hub;
    std::deque<LogEntry> m_entries;
    int m_capacity = LogHub::defaultCapacity;
};

} // namespace kforge
