#pragma once
// Time per run of each kernel of the selected variants (from their CUPTI traces), as horizontal bars
// grouped by variant, so a fused kernel and the three it replaced sit one above the other.
#include "core/eval/measurementfigures.h"
#include "views/charts/chartbase.h"

namespace kforge {

class KernelTimeChart : public ChartBase
{
    Q_OBJECT
public:
    static constexpr int kMaxVariants = 8;
    static constexpr int kMaxKernelsEach = 6;

    KernelTimeChart(SessionStore *store, VariantSelection *selection, QWidget *parent = nullptr);

    int barCount() const { return m_bars; }

protected:
    void rebuild() override;

private:
    QHash<qint64, std::pair<qint64, MeasurementFigures>> m_cache; // variant -> (evaluation id, measurement)
    int m_bars = 0;
};

} // namespace kforge
