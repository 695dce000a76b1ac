#include "views/reasoning/reasoningentriesmodel.h"

#include <QLocale>

namespace kforge {

ReasoningEntriesModel::ReasoningEntriesModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

int ReasoningEntriesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QString ReasoningEntriesModel::stateText(const ReasoningEntry &e)
{
    const QString size = QLocale().toString(qint64(e.text.size()));
    if (e.live)
        return tr("streaming, %1 characters").arg(size);
    if (!e.error.isEmpty())
        return tr("failed: %1").arg(e.error.section(QLatin1Char('\n'), 0, 0));
    if (e.finish == QLatin1String("length"))
        return tr("cut off at the token limit, %1 characters").arg(size);
    if (e.finish == QLatin1String("cancelled"))
        return tr("cancelled");
    return tr("%1 characters").arg(size);
}

QVariant ReasoningEntriesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ReasoningEntry &e = m_entries[index.row()];
    switch (role) {
    case Qt::DisplayRole: return QStringLiteral("%1 — %2").arg(e.title, stateText(e));
    case Qt::ToolTipRole: return e.error.isEmpty() ? QVariant() : QVariant(e.error);
    case ResponseIdRole: return e.responseId;
    case LiveRole: return e.live;
    case VariantIdRole: return e.variantId;
    default: return {};
    }
}

int ReasoningEntriesModel::rowOf(qint64 responseId) const
{
    for (int i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].responseId == responseId)
            return i;
    return -1;
}

const ReasoningEntry *ReasoningEntriesModel::entry(int row) const
{
    return row >= 0 && row < m_entries.size() ? &m_entries[row] : nullptr;
}

ReasoningEntry *ReasoningEntriesModel::find(qint64 responseId)
{
    const int row = rowOf(responseId);
    return row < 0 ? nullptr : &m_entries[row];
}

int ReasoningEntriesModel::upsert(const ReasoningEntry &e, qint64 keep)
{
    if (const int row = rowOf(e.responseId); row >= 0) {
        m_entries[row] = e;
        Q_EMIT dataChanged(index(row), index(row));
        return row;
    }
    // Make room first: the oldest finished entries go (they are in the store).
    while (m_entries.size() >= kMaxEntries) {
        int drop = -1;
        for (int i = 0; i < m_entries.size(); ++i)
            if (!m_entries[i].live && m_entries[i].responseId != keep) {
                drop = i;
                break;
            }
        if (drop < 0)
            break;
        beginRemoveRows({}, drop, drop);
        m_entries.removeAt(drop);
        endRemoveRows();
    }
    const int row = int(m_entries.size());
    beginInsertRows({}, row, row);
    m_entries.append(e);
    endInsertRows();
    return row;
}

void ReasoningEntriesModel::touch(qint64 responseId)
{
    if (const int row = rowOf(responseId); row >= 0)
        Q_EMIT dataChanged(index(row), index(row));
}

void ReasoningEntriesModel::clear()
{
    if (m_entries.isEmpty())
        return;
    beginResetModel();
    m_entries.clear();
    endResetModel();
}

} // namespace kforge
