#include "views/assembly/ptxmodel.h"

#include <QColor>
#include <QFontDatabase>

namespace kforge {

PtxModel::PtxModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void PtxModel::setListing(const PtxListing &listing, const QString &function, const QString &baseName)
{
    beginResetModel();
    m_rows.clear();
    int first = 0, last = int(listing.lines.size()) - 1;
    if (const PtxFunction *f = function.isEmpty() ? nullptr : listing.function(function)) {
        first = f->firstLine;
        last = f->lastLine;
    }
    for (int i = first; i <= last; ++i) {
        const PtxLine &l = listing.lines.at(i);
        QString text = l.text;
        text.replace(u'\t', QLatin1String("    "));
        m_rows.append(Row{text, l.instruction ? outermostLineInFile(l.where, baseName) : 0});
    }
    endResetModel();
}

void PtxModel::setHighlightLine(int line)
{
    if (line == m_highlight)
        return;
    m_highlight = line;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::BackgroundRole, HighlightRole});
}

QList<int> PtxModel::rowsOfLine(int line) const
{
    QList<int> rows;
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (line > 0 && m_rows.at(i).line == line)
            rows.append(int(i));
    }
    return rows;
}

int PtxModel::lineOfRow(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row).line : 0;
}

int PtxModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PtxModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PtxModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row &r = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == TextColumn)
            return r.text;
        return r.line > 0 ? QVariant(r.line) : QVariant();
    case Qt::FontRole: return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    case Qt::BackgroundRole:
        return m_highlight > 0 && r.line == m_highlight ? QVariant(QColor(80, 140, 255, 90)) : QVariant();
    case SourceLineRole: return r.line;
    case HighlightRole: return m_highlight > 0 && r.line == m_highlight;
    }
    return {};
}

QVariant PtxModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == TextColumn ? tr("PTX") : tr("Line");
}

} // namespace kforge
