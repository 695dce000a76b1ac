#include "views/log/logfiltermodel.h"

#include "views/log/logmodel.h"

namespace kforge {

LogFilterModel::LogFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
}

void LogFilterModel::setSourceShown(LogSource source, bool shown)
{
    if (shown == isSourceShown(source))
        return;
    if (shown)
        m_hiddenSources.remove(int(source));
    else
        m_hiddenSources.insert(int(source));
    invalidateRowsFilter();
}

bool LogFilterModel::isSourceShown(LogSource source) const
{
    return !m_hiddenSources.contains(int(source));
}

void LogFilterModel::setMinimumLevel(LogLevel level)
{
    if (level == m_minimumLevel)
        return;
    m_minimumLevel = level;
    invalidateRowsFilter();
}

void LogFilterModel::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateRowsFilter();
}

bool LogFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_hiddenSources.contains(index.data(LogModel::SourceRole).toInt()))
        return false;
    if (index.data(LogModel::LevelRole).toInt() < int(m_minimumLevel))
        return false;
    if (m_text.isEmpty())
        return true;
    return index.data(LogModel::MessageRole).toString().contains(m_text, Qt::CaseInsensitive)
           || index.data(LogModel::ContextRole).toString().contains(m_text, Qt::CaseInsensitive);
}

} // namespace kforge
