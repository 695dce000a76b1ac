#pragma once
// The kernels one variant launched, from its CUPTI trace: launches and time per run, mean duration, launch
// configuration and resources. Longest first.
#include "core/eval/measurementfigures.h"

#include <QAbstractTableModel>

namespace kforge {

class KernelListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, PerRun, MeanUs, MsPerRun, Grid, Block, Registers, SharedMemory, ColumnCount };

    explicit KernelListModel(QObject *parent = nullptr);

    void setKernels(const QList<TraceKernel> &kernels, std::optional<double> runs);
    void clear() { setKernels({}, std::nullopt); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<TraceKernel> m_kernels;
    std::optional<double> m_runs;
};

} // namespace kforge
