#include "views/export/exportplanmodel.h"

#include <QBrush>
#include <QColor>
#include <QDir>
#include <QFont>

namespace kforge {

void ExportPlanModel::setPlan(const ExportPlan &plan)
{
    beginResetModel();
    m_plan = plan;
    endResetModel();
}

const ExportPlan::Entry *ExportPlanModel::entry(const QModelIndex &index) const
{
    if (!index.isValid() || index.row() < 0 || index.row() >= m_plan.entries().size())
        return nullptr;
    return &m_plan.entries()[index.row()];
}

int ExportPlanModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_plan.entries().size());
}

int ExportPlanModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ExportPlanModel::stateText(ExportPlan::State s)
{
    switch (s) {
    case ExportPlan::State::New: return tr("new");
    case ExportPlan::State::Identical: return tr("unchanged");
    case ExportPlan::State::Conflict: return tr("conflict");
    }
    return {};
}

QVariant ExportPlanModel::data(const QModelIndex &index, int role) const
{
    const ExportPlan::Entry *e = entry(index);
    if (!e)
        return {};
    switch (role) {
    case Qt::DisplayRole: return index.column() == PathColumn ? e->path : stateText(e->state);
    case Qt::ToolTipRole:
        if (e->state == ExportPlan::State::Conflict)
            return tr("%1\nConflict: %2").arg(QDir::toNativeSeparators(e->absolutePath), e->reason);
        return QDir::toNativeSeparators(e->absolutePath);
    case Qt::ForegroundRole:
        if (e->state == ExportPlan::State::Conflict)
            return QBrush(QColor(0xc6, 0x28, 0x28));
        if (e->state == ExportPlan::State::Identical)
            return QBrush(QColor(0x80, 0x80, 0x80));
        return {};
    case Qt::FontRole:
        if (e->state == ExportPlan::State::Conflict) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case StateRole: return int(e->state);
    case ReasonRole: return e->reason;
    default: return {};
    }
}

QVariant ExportPlanModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == PathColumn ? tr("File") : section == StateColumn ? tr("On disk") : QVariant();
}

} // namespace kforge
