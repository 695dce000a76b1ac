#include "views/variants/variantsfiltermodel.h"
#include "core/session/variant.h"
#include "views/variants/variantsmodel.h"

namespace kforge {

VariantsFilterModel::VariantsFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(VariantsModel::SortRole);
    setDynamicSortFilter(true);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void VariantsFilterModel::setSourceModel(QAbstractItemModel *model)
{
    m_variants = qobject_cast<VariantsModel *>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

bool VariantsFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    if (m_variants && sortRole() == VariantsModel::SortRole)
        return m_variants->lessThan(left.row(), right.row(), left.column());
    return QSortFilterProxyModel::lessThan(left, right);
}

void VariantsFilterModel::setText(const QString &text)
{
    const QString t = text.trimmed();
    if (t == m_text)
        return;
    m_text = t;
    invalidateRowsFilter();
}

void VariantsFilterModel::setStatusFilter(StatusFilter filter)
{
    if (filter == m_status)
        return;
    m_status = filter;
    invalidateRowsFilter();
}

void VariantsFilterModel::setCorrectOnly(bool on)
{
    if (on == m_correctOnly)
        return;
    m_correctOnly = on;
    invalidateRowsFilter();
}

void VariantsFilterModel::setLineage(const QSet<qint64> &ids, const QString &description)
{
    m_lineage = ids;
    m_lineageDescription = ids.isEmpty() ? QString() : description;
    invalidateRowsFilter();
}

bool VariantsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_lineage.isEmpty() && !m_lineage.contains(i.data(VariantsModel::IdRole).toLongLong()))
        return false;
    if (m_correctOnly && !i.data(VariantsModel::CorrectRole).toBool())
        return false;
    switch (m_status) {
    case StatusFilter::All: break;
    case StatusFilter::InFlight:
        if (!i.data(VariantsModel::InFlightRole).toBool())
            return false;
        break;
    case StatusFilter::Done:
        if (i.data(VariantsModel::StatusRole).toInt() != int(VariantStatus::Done))
            return false;
        break;
    case StatusFilter::Failed:
        if (i.data(VariantsModel::StatusRole).toInt() != int(VariantStatus::Failed))
            return false;
        break;
    case StatusFilter::Suspicious:
        if (!i.data(VariantsModel::SuspiciousRole).toBool())
            return false;
        break;
    case StatusFilter::Pinned:
        if (!i.data(VariantsModel::PinnedRole).toBool())
            return false;
        break;
    case StatusFilter::Excluded:
        if (!i.data(VariantsModel::ExcludedRole).toBool())
            return false;
        break;
    }
    if (!m_text.isEmpty() && !i.data(VariantsModel::SearchTextRole).toString().contains(m_text, Qt::CaseInsensitive))
        return false;
    return true;
}

} // namespace kforge
