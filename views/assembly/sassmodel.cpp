#include "views/assembly/sassmodel.h"

#include "core/sourcelevel/sourceheat.h"

#include <QColor>
#include <QFontDatabase>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QColor heatColor(double share)
{
    // Transparent to a saturated orange: an eighth of the samples on one instruction is already hot.
    const double t = qBound(0.0, share * 8.0, 1.0);
    return QColor(255, 140, 0, int(40 + 160 * t));
}

} // namespace

SassModel::SassModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void SassModel::setFunction(const SassFunction &function, const QString &baseName)
{
    beginResetModel();
    m_function = function;
    m_lines.clear();
    for (const SassInstruction &i : m_function.instructions)
        m_lines.append(outermostLineInFile(i.where, baseName));
    m_pcByOffset.clear();
    m_kernel = {};
    m_totalSamples = 0;
    endResetModel();
}

void SassModel::setSamples(const SourceProfile::Kernel &kernel)
{
    m_kernel = kernel;
    m_pcByOffset.clear();
    m_totalSamples = 0;
    for (const SourceProfile::Pc &pc : m_kernel.pcs) {
        m_pcByOffset.insert(pc.offset, &pc);
        m_totalSamples += pc.samples;
    }
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void SassModel::setHighlightLine(int line)
{
    if (line == m_highlight)
        return;
    m_highlight = line;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::BackgroundRole, HighlightRole});
}

QList<int> SassModel::rowsOfLine(int line) const
{
    QList<int> rows;
    for (qsizetype i = 0; i < m_lines.size(); ++i) {
        if (line > 0 && m_lines.at(i) == line)
            rows.append(int(i));
    }
    return rows;
}

int SassModel::hottestRowOfLine(int line) const
{
    int best = -1;
    qint64 bestSamples = -1;
    for (int row : rowsOfLine(line)) {
        const SourceProfile::Pc *pc = m_pcByOffset.value(m_function.instructions.at(row).offset, nullptr);
        const qint64 samples = pc ? pc->samples : 0;
        if (samples > bestSamples) {
            best = row;
            bestSamples = samples;
        }
    }
    return best;
}

int SassModel::lineOfRow(int row) const
{
    return row >= 0 && row < m_lines.size() ? m_lines.at(row) : 0;
}

int SassModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_function.instructions.size());
}

int SassModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SassModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const SassInstruction &ins = m_function.instructions.at(index.row());
    const SourceProfile::Pc *pc = m_pcByOffset.value(ins.offset);
    const double share = pc && m_totalSamples > 0 ? double(pc->samples) / double(m_totalSamples) : 0.0;
    const int line = m_lines.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case OffsetColumn: return u"%1"_s.arg(ins.offset, 4, 16, QLatin1Char('0'));
        case InstructionColumn: return ins.text();
        case LineColumn: return line > 0 ? QVariant(line) : QVariant();
        case SamplesColumn:
            return pc && pc->samples > 0 ? QVariant(u"%1 (%2%)"_s.arg(pc->samples).arg(100.0 * share, 0, 'f', 1))
                                         : QVariant();
        case ExecutedColumn: return pc && pc->hasExecuted() ? QVariant(QLocale().toString(pc->executed)) : QVariant();
        case EfficiencyColumn:
            return pc && pc->threadEfficiency() >= 0 ? QVariant(u"%1%"_s.arg(qRound(100.0 * pc->threadEfficiency())))
                                                     : QVariant();
        }
        break;
    case Qt::ToolTipRole: {
        QStringList parts;
        if (ins.where.isEmpty())
            parts.append(tr("No line information for this instruction."));
        for (qsizetype i = 0; i < ins.where.size(); ++i)
            parts.append((i == 0 ? QString() : tr("inlined at "))
                         + u"%1:%2"_s.arg(sourceBaseName(ins.where.at(i).file)).arg(ins.where.at(i).line));
        if (pc && !pc->stalls.isEmpty()) {
            QList<std::pair<QString, qint64>> stalls = pc->stalls;
            std::sort(stalls.begin(), stalls.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
            parts.append(tr("Stalls: %1").arg(SourceHeat::stallMix(stalls)));
        }
        if (pc && pc->hasExecuted())
            parts.append(pc->threadsExecuted >= 0
                             ? tr("Executed by %1 warps, %2 threads")
                                   .arg(QLocale().toString(pc->executed), QLocale().toString(pc->threadsExecuted))
                             : tr("Executed by %1 warps").arg(QLocale().toString(pc->executed)));
        return parts.join(u'\n');
    }
    case Qt::FontRole: return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    case Qt::TextAlignmentRole:
        return index.column() == InstructionColumn ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                                   : int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
        if (m_highlight > 0 && line == m_highlight)
            return QColor(80, 140, 255, 90);
        if (index.column() == SamplesColumn && share > 0)
            return heatColor(share);
        return {};
    case SourceLineRole: return line;
    case ShareRole: return share;
    case HighlightRole: return m_highlight > 0 && line == m_highlight;
    case ExecutedRole: return pc ? pc->executed : qint64(-1);
    case ThreadsExecutedRole: return pc ? pc->threadsExecuted : qint64(-1);
    case EfficiencyRole: return pc ? pc->threadEfficiency() : -1.0;
    }
    return {};
}

QVariant SassModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ExecutedColumn:
            return tr("Warp-level executions of the instruction in one launch (CUPTI SASS metrics, "
                      "smsp__sass_inst_executed)");
        case EfficiencyColumn:
            return tr("Thread efficiency: threads executing the instruction / (32 x warps executing it)");
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case OffsetColumn: return tr("Offset");
    case InstructionColumn: return tr("Instruction");
    case LineColumn: return tr("Line");
    case SamplesColumn: return tr("Samples");
    case ExecutedColumn: return tr("Executed");
    case EfficiencyColumn: return tr("Threads");
    }
    return {};
}

} // namespace kforge
