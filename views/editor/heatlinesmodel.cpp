#include "views/editor/heatlinesmodel.h"

#include "core/sourcelevel/stallreason.h"

#include <QColor>

using namespace Qt::StringLiterals;

namespace kforge {

HeatLinesModel::HeatLinesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void HeatLinesModel::setHeat(const SourceHeat &heat, const QString &source)
{
    beginResetModel();
    m_heat = heat;
    m_rows = heat.hottest(int(heat.lines.size()));
    m_source = source.split(u'\n');
    endResetModel();
}

void HeatLinesModel::clear()
{
    setHeat(SourceHeat{});
}

int HeatLinesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int HeatLinesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QColor HeatLinesModel::heatColor(double share, bool dark)
{
    // From the paper to a saturated red-orange; a line with a quarter of the samples is already at full heat.
    const double t = qBound(0.0, share * 4.0, 1.0);
    const QColor cold = dark ? QColor(60, 50, 40) : QColor(255, 244, 214);
    const QColor hot = dark ? QColor(200, 70, 20) : QColor(240, 110, 40);
    return QColor(int(cold.red() + t * (hot.red() - cold.red())), int(cold.green() + t * (hot.green() - cold.green())),
                  int(cold.blue() + t * (hot.blue() - cold.blue())));
}

QVariant HeatLinesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const LineHeat &l = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case LineColumn: return l.line;
        case ShareColumn: return u"%1%"_s.arg(100.0 * l.share, 0, 'f', 1);
        case SamplesColumn: return l.samples;
        case StallsColumn: return SourceHeat::stallMix(l.stalls, 2);
        case SourceColumn:
            return l.line > 0 && l.line <= m_source.size() ? m_source.at(l.line - 1).trimmed() : QString();
        }
        break;
    case Qt::ToolTipRole:
        return QString(SourceHeat::describe(l) + u"\n"_s + tr("Stalls: %1").arg(SourceHeat::stallMix(l.stalls, 5)));
    case Qt::BackgroundRole: return index.column() == ShareColumn ? QVariant(heatColor(l.share)) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() <= SamplesColumn ? int(Qt::AlignRight | Qt::AlignVCenter)
                                               : int(Qt::AlignLeft | Qt::AlignVCenter);
    case ShareRole: return l.share;
    case LineRole: return l.line;
    }
    return {};
}

QVariant HeatLinesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case LineColumn: return tr("Line");
    case ShareColumn: return tr("Share");
    case SamplesColumn: return tr("Samples");
    case StallsColumn: return tr("Top stalls");
    case SourceColumn: return tr("Source");
    }
    return {};
}

} // namespace kforge
