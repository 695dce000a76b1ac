#include "views/log/logmodel.h"

#include <QApplication>
#include <QColor>
#include <QIcon>
#include <QStyle>

namespace kforge {

LogModel::LogModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

void LogModel::setHub(LogHub *hub)
{
    if (m_hub)
        m_hub->disconnect(this);
    beginResetModel();
    m_hub = hub;
    m_entries.clear();
    if (hub) {
        const QList<LogEntry> existing = hub->entries();
        m_entries.assign(existing.begin(), existing.end());
        while (m_entries.size() > size_t(m_capacity))
            m_entries.pop_front();
    }
    endResetModel();
    if (hub) {
        connect(hub, &LogHub::entriesAdded, this, &LogModel::append);
        connect(hub, &LogHub::cleared, this, [this] {
            beginResetModel();
            m_entries.clear();
            endResetModel();
        });
    }
}

void LogModel::setCapacity(int capacity)
{
    m_capacity = std::max(1, capacity);
    trim();
}

void LogModel::append(const QList<LogEntry> &entries)
{
    if (entries.isEmpty())
        return;
    const int first = int(m_entries.size());
    beginInsertRows({}, first, first + int(entries.size()) - 1);
    m_entries.insert(m_entries.end(), entries.begin(), entries.end());
    endInsertRows();
    trim();
}

void LogModel::trim()
{
    const int excess = int(m_entries.size()) - m_capacity;
    if (excess <= 0)
        return;
    beginRemoveRows({}, 0, excess - 1);
    m_entries.erase(m_entries.begin(), m_entries.begin() + excess);
    endRemoveRows();
}

int LogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant LogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LogEntry &e = m_entries[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: {
        QString text = e.time.toString(QStringLiteral("HH:mm:ss")) + u"  " + LogHub::sourceName(e.source);
        if (!e.context.isEmpty())
            text += u" (" + e.context + u')';
        return QString(text + u"  " + e.message);
    }
    case Qt::ToolTipRole:
        return QString(e.time.toString(Qt::ISODateWithMs) + u'\n' + LogHub::sourceName(e.source) + u" · "
                       + LogHub::levelName(e.level) + u'\n' + e.message);
    case Qt::DecorationRole: {
        const QStyle *style = QApplication::style();
        switch (e.level) {
        case LogLevel::Error: return style->standardIcon(QStyle::SP_MessageBoxCritical);
        case LogLevel::Warning: return style->standardIcon(QStyle::SP_MessageBoxWarning);
        case LogLevel::Info:
        case LogLevel::Debug: return style->standardIcon(QStyle::SP_MessageBoxInformation);
        }
        return {};
    }
    case Qt::ForegroundRole:
        if (e.level == LogLevel::Error)
            return QColor(0xd3, 0x2f, 0x2f);
        if (e.level == LogLevel::Debug)
            return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
        return {};
    case SourceRole: return int(e.source);
    case LevelRole: return int(e.level);
    case TimeRole: return e.time;
    case MessageRole: return e.message;
    case ContextRole: return e.context;
    default: return {};
    }
}

QHash<int, QByteArray> LogModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(SourceRole, "source");
    names.insert(LevelRole, "level");
    names.insert(TimeRole, "time");
    names.insert(MessageRole, "message");
    names.insert(ContextRole, "context");
    return names;
}

} // namespace kforge
