#pragma once
// One function's PTX as rows (text, source line), for the assembly panel's PTX tab; rows of the selected
// source line are highlighted.
#include "core/sourcelevel/ptxlisting.h"

#include <QAbstractTableModel>

namespace kforge {

class PtxModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TextColumn, LineColumn, ColumnCount };
    enum Role { SourceLineRole = Qt::UserRole + 1, HighlightRole };

    explicit PtxModel(QObject *parent = nullptr);

    // The lines of `function` (the whole module when empty or not found).
    void setListing(const PtxListing &listing, const QString &function, const QString &baseName);
    void setHighlightLine(int line);
    int highlightLine() const { return m_highlight; }
    QList<int> rowsOfLine(int line) const;
    int lineOfRow(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString text;
        int line = 0; // 0 for directives and lines without a location
    };
    QList<Row> m_rows;
    int m_highlight = 0;
};

} // namespace kforge
