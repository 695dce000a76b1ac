#pragma once
// The verified table of a collection (core/collection/verifytable.h) for the Collection page: one row per pair of
// the collection, in its order, with the verdict, the speedup and its noise interval, the claim beside it, % of
// speed of light, flags and the hack classes they point to, the tolerance a failing pair passes at, what it runs on
// the GPU, its time and its held-out sizes. setRows() follows a running verification row by row (dataChanged for
// what changed), resetting only for another collection. SortRole sorts every column naturally (numbers as numbers;
// no value: an invalid QVariant, which VerifyTableProxy sorts after every value in either order).
#include "core/collection/verifytable.h"

#include <QAbstractTableModel>
#include <QList>

namespace kforge {

class VerifyTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Pair,
        Problem,
        Kind,
        Verdict,
        Speedup,
        Noise,
        Claimed,
        Claim,
        SpeedOfLight,
        Flags,
        HackClass,
        PassesAt,
        Kernels,
        Time,
        HeldOut,
        Cause,
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        PairRole = Qt::UserRole + 1, // the pair's id (every column)
        SortRole,    // a number or a text; invalid where the row has no value in the column
    };

    explicit VerifyTableModel(QObject *parent = nullptr);

    void setRows(const QList<VerifyRow> &rows);
    const QList<VerifyRow> &rows() const { return m_rows; }
    // The row of a pair, -1 when there is none.
    int rowOf(const QString &pair) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Texts the page shares with its summary.
    static QString speedupText(std::optional<double> v);
    static QString verdictText(const VerifyRow &row);
    static QString heldOutText(const VerifyRow &row);

private:
    QVariant display(const VerifyRow &r, int column) const;
    QVariant sortValue(const VerifyRow &r, int column) const;

    QList<VerifyRow> m_rows;
};

} // namespace kforge
