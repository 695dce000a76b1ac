#include "views/compare/kernellistmodel.h"
#include "core/eval/kernelname.h"
#include "core/eval/measureformat.h"

#include <QLocale>

namespace kforge {

namespace {

QString dims(const QList<int> &d)
{
    if (d.isEmpty())
        return {};
    QStringList parts;
    for (int v : d)
        parts << QString::number(v);
    return parts.join(QStringLiteral("×"));
}

} // namespace

KernelListModel::KernelListModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void KernelListModel::setKernels(const QList<TraceKernel> &kernels, std::optional<double> runs)
{
    beginResetModel();
    m_kernels = kernels;
    m_runs = runs;
    endResetModel();
}

int KernelListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_kernels.size());
}

int KernelListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TraceKernel &k = m_kernels[index.row()];
    if (role == Qt::ToolTipRole && index.column() == Name)
        return tr("%1\n%n launch(es) in the timed runs", nullptr, int(k.count)).arg(k.name);
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(index.column() == Name ? (Qt::AlignLeft | Qt::AlignVCenter)
                                                          : (Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(index.column())) {
    case Name: return kernelDisplayName(k.name);
    case PerRun: return k.perRun ? QVariant(formatMeasure(*k.perRun)) : QVariant(k.count);
    case MeanUs: return k.meanUs ? QVariant(formatDuration(*k.meanUs / 1000.0)) : QVariant();
    case MsPerRun:
        if (const auto ms = k.msPerRun(m_runs))
            return formatDuration(*ms);
        return {};
    case Grid: return dims(k.grid);
    case Block: return dims(k.block);
    case Registers: return k.registers ? QVariant(*k.registers) : QVariant();
    case SharedMemory:
        if (const auto bytes = k.sharedBytes())
            return QLocale().formattedDataSize(*bytes, 1, QLocale::DataSizeTraditionalFormat);
        return {};
    case ColumnCount: break;
    }
    return {};
}

QVariant KernelListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == MsPerRun)
        return TimeNames::kernelTimeTip();
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == MeanUs)
        return tr("One launch's mean duration in CUPTI's trace");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Name: return tr("Kernel");
    case PerRun: return tr("Launches/run");
    case MeanUs: return tr("Mean");
    case MsPerRun: return tr("Kernel time/run");
    case Grid: return tr("Grid");
    case Block: return tr("Block");
    case Registers: return tr("Registers");
    case SharedMemory: return tr("Shared mem");
    case ColumnCount: break;
    }
    return {};
}

} // namespace kforge
