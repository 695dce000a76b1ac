#pragma once
// The files of an export as a table (path, what happens to it), for the export dialog: conflicts are
// marked so nobody overwrites a file without seeing it.
#include "core/export/exportplan.h"

#include <QAbstractTableModel>

namespace kforge {

class ExportPlanModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { PathColumn, StateColumn, ColumnCount };
    enum Role { StateRole = Qt::UserRole + 1, ReasonRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setPlan(const ExportPlan &plan);
    const ExportPlan &plan() const { return m_plan; }
    const ExportPlan::Entry *entry(const QModelIndex &index) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString stateText(ExportPlan::State s); // translated: "new", "unchanged", "conflict"

private:
    ExportPlan m_plan;
};

} // namespace kforge
