#include "views/reasoning/reasoningentriesmodel.h"

#include <QHash>
#include <QLocale>

#include <algorithm>

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
    const QString size = QLocale().toString(e.loaded ? qint64(e.text.size()) : e.characters);
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
    int row = rowOf(e.responseId);
    if (row >= 0) {
        m_entries[row] = e;
        Q_EMIT dataChanged(index(row), index(row));
    } else {
        row = int(std::lower_bound(m_entries.cbegin(), m_entries.cend(), e.responseId,
                                   [](const ReasoningEntry &x, qint64 id) { return x.responseId < id; })
                  - m_entries.cbegin());
        beginInsertRows({}, row, row);
        m_entries.insert(row, e);
        endInsertRows();
    }
    if (!e.loaded)
        return row;
    // Keep the texts of the last kMaxLoaded answers looked at; the oldest others are read again when shown.
    qsizetype loaded = std::count_if(m_entries.cbegin(), m_entries.cend(), [](const ReasoningEntry &x) { return x.loaded; });
    for (int i = 0; i < m_entries.size() && loaded > kMaxLoaded; ++i) {
        ReasoningEntry &x = m_entries[i];
        if (!x.loaded || x.live || x.responseId == keep || x.responseId == e.responseId)
            continue;
        x.characters = x.text.size();
        x.text.clear();
        x.reasoning.clear();
        x.loaded = false;
        --loaded;
    }
    return row;
}

void ReasoningEntriesModel::merge(const QList<ReasoningEntry> &entries)
{
    QHash<qint64, int> rows;
    rows.reserve(m_entries.size());
    for (int i = 0; i < m_entries.size(); ++i)
        rows.insert(m_entries[i].responseId, i);
    QList<ReasoningEntry> added;
    for (const ReasoningEntry &e : entries) {
        const int row = rows.value(e.responseId, -1);
        if (row < 0) {
            added << e;
        } else if (!m_entries[row].loaded) {
            m_entries[row] = e;
            Q_EMIT dataChanged(index(row), index(row));
        }
    }
    if (added.isEmpty())
        return;
    const auto byId = [](const ReasoningEntry &x, const ReasoningEntry &y) { return x.responseId < y.responseId; };
    std::sort(added.begin(), added.end(), byId);
    if (m_entries.isEmpty() || added.constFirst().responseId > m_entries.constLast().responseId) {
        // The usual case (a session just opened, or new answers): one insertion at the end.
        const int first = int(m_entries.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        m_entries.append(added);
        endInsertRows();
        return;
    }
    beginResetModel();
    m_entries.append(added);
    std::sort(m_entries.begin(), m_entries.end(), byId);
    endResetModel();
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
