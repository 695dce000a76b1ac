#pragma once
// The Task panel's tree of what a task asks for (CUDA or PyTorch, core/task/tasksummary): one section per kind of
// thing (signature, inputs, parameters and buffers of a torch module, outputs, tolerance, params, work, the task,
// what discovery derived how) with a row per item; columns name, dtype, shape, details.
#include "core/task/tasksummary.h"

#include <QAbstractItemModel>

namespace kforge {

class TaskInfoModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, DtypeColumn, ShapeColumn, DetailColumn, ColumnCount };

    explicit TaskInfoModel(QObject *parent = nullptr);

    // The task.json text of the task to show (a session's); empty shows nothing.
    void setTaskJson(const QByteArray &taskJson);
    // Why the task cannot be shown (unreadable task.json); empty otherwise.
    QString problem() const { return m_problem; }
    const std::optional<TaskSummary> &summary() const { return m_summary; }
    // Every row as text, sections unindented and their rows indented by two spaces, cells joined by " | ".
    QString dump() const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString cells[ColumnCount];
        QString toolTip;
    };
    struct Section {
        QString title;
        QString detail; // the section row's last column (a count, "none")
        QList<Row> rows;
    };
    void build(const TaskSummary &s);

    QByteArray m_json;
    QList<Section> m_sections;
    std::optional<TaskSummary> m_summary;
    QString m_problem;
};

} // namespace kforge
