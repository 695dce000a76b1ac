#pragma once
// A source profile's lines as rows (line, share of samples, samples, top stall reasons, the source text):
// what the editor's heat gutter paints and Compare's side-by-side heat maps list, hottest first.
#include "core/sourcelevel/sourceheat.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace kforge {

class HeatLinesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { LineColumn, ShareColumn, SamplesColumn, StallsColumn, SourceColumn, ColumnCount };
    enum Role { ShareRole = Qt::UserRole + 1, LineRole };

    explicit HeatLinesModel(QObject *parent = nullptr);

    // `source`: the text the lines are of, for the Source column (may be empty).
    void setHeat(const SourceHeat &heat, const QString &source = {});
    void clear();
    const SourceHeat &heat() const { return m_heat; }
    // Rows by samples, most first (the SourceHeat keeps them by line).
    const LineHeat &lineAt(int row) const { return m_rows.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The tint of a share of samples, shared by the gutter and the tables.
    static QColor heatColor(double share, bool dark = false);

private:
    SourceHeat m_heat;
    QList<LineHeat> m_rows;
    QStringList m_source;
};

} // namespace kforge
