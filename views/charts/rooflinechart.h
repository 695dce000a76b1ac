#pragma once
// The roofline of the measuring device (log-log: FLOP per byte against GFLOP/s; the memory roof from the
// measured copy bandwidth, the compute roof from the measured FP32 FMA rate) with the selected variants'
// kernels as points, and each variant's whole-task point from the task's FLOP and byte formulas.
#include "core/eval/deviceinfo.h"
#include "views/charts/chartbase.h"
#include "views/variants/variantmeasurement.h"

namespace kforge {

class RooflineChart : public ChartBase
{
    Q_OBJECT
public:
    RooflineChart(SessionStore *store, VariantSelection *selection, QWidget *parent = nullptr);

    // Peaks of the device the workers run on; without them the chart uses the peaks stored in the results.
    void setDevice(const DeviceInfo &device);
    bool hasRoofs() const { return m_peakGbps > 0 && m_peakGflops > 0; }
    double peakGbps() const { return m_peakGbps; }
    double peakGflops() const { return m_peakGflops; }
    int kernelPointCount() const { return m_kernelPoints; }

protected:
    void rebuild() override;

private:
    DeviceInfo m_device;
    QHash<qint64, std::pair<qint64, VariantMeasurement>> m_cache;
    double m_peakGbps = 0;
    double m_peakGflops = 0;
    int m_kernelPoints = 0;
};

} // namespace kforge
