#pragma once
// One kernel's SASS as rows (offset, instruction, source line, samples, executions and thread efficiency
// from CUPTI SASS metrics) for the assembly panel: rows of the selected source line are highlighted, and
// each row's share of the kernel's PC samples tints it.
#include "core/eval/sourceprofile.h"
#include "core/sourcelevel/sasslisting.h"

#include <QAbstractTableModel>
#include <QHash>

namespace kforge {

class SassModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        OffsetColumn,
        InstructionColumn,
        LineColumn,
        SamplesColumn,
        ExecutedColumn,   // warp-level executions (smsp__sass_inst_executed)
        EfficiencyColumn, // threads / (32 * warps) executing it
        ColumnCount
    };
    enum Role {
        SourceLineRole = Qt::UserRole + 1,
        ShareRole,
        HighlightRole,
        ExecutedRole,        // qint64, -1 when not measured
        ThreadsExecutedRole, // qint64, -1 when not measured
        EfficiencyRole,      // 0..1, -1 without both counts
    };

    explicit SassModel(QObject *parent = nullptr);

    // `baseName`: the file whose lines count (the editor tab's compile file name).
    void setFunction(const SassFunction &function, const QString &baseName);
    // The PC samples and execution counts of this kernel (matched by name); an empty kernel clears them.
    void setSamples(const SourceProfile::Kernel &kernel);
    void setHighlightLine(int line); // 0: none
    int highlightLine() const { return m_highlight; }
    QList<int> rowsOfLine(int line) const;
    // The row of `line` with most samples (the first of the line without samples); -1 if the line has none.
    int hottestRowOfLine(int line) const;
    int lineOfRow(int row) const;
    QString functionName() const { return m_function.name; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    SassFunction m_function;
    QList<int> m_lines; // per row
    QHash<qint64, const SourceProfile::Pc *> m_pcByOffset;
    SourceProfile::Kernel m_kernel;
    qint64 m_totalSamples = 0;
    int m_highlight = 0;
};

} // namespace kforge
