#pragma once
// The Collection page's sorting over VerifyTableModel: by its SortRole (numbers as numbers), and a pair without a
// value in the column (no speedup, no claim, nothing run on the GPU yet) after every pair with one, in either order:
// sorting by speedup, highest first or lowest first, shows measured pairs before those without a verdict. Pairs
// equal in the column stay in the collection's order, also while results come in (the page opens sorted by flags).
#include <QSortFilterProxyModel>

namespace kforge {

class VerifyTableProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit VerifyTableProxy(QObject *parent = nullptr);

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};

} // namespace kforge
