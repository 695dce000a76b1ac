#include "views/collection/verifytableproxy.h"

#include "views/collection/verifytablemodel.h"

namespace kforge {

VerifyTableProxy::VerifyTableProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(VerifyTableModel::SortRole);
}

bool VerifyTableProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const bool hasLeft = left.data(sortRole()).isValid();
    const bool hasRight = right.data(sortRole()).isValid();
    // A descending sort places a row first when it is the greater one (lessThan(other, row)): an empty row is
    // the smaller one then, and the greater one in an ascending sort, so it comes last either way.
    const bool ascending = sortOrder() == Qt::AscendingOrder;
    if (hasLeft != hasRight)
        return ascending == hasLeft;
    if (hasLeft && QSortFilterProxyModel::lessThan(left, right))
        return true;
    if (hasLeft && QSortFilterProxyModel::lessThan(right, left))
        return false;
    // Equals in the collection's order in either direction: a row whose result comes later is re-inserted among
    // its equals by a search, not a stable sort, and would land wherever the search stops.
    return ascending ? left.row() < right.row() : left.row() > right.row();
}

} // namespace kforge
