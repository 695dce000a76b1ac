#pragma once
// The Charts dock: speedup by round, kernel times of the selected variants and the roofline, in tabs,
// with export of the shown chart as PNG, SVG or PDF. Clicking a point selects its variant.
#include "core/eval/deviceinfo.h"

#include <QPointer>
#include <QWidget>

class QTabWidget;
class QToolButton;

namespace kforge {

class ChartBase;
class KernelTimeChart;
class RooflineChart;
class SessionStore;
class SpeedupChart;
class VariantSelection;

class ChartsPanel : public QWidget
{
    Q_OBJECT
public:
    ChartsPanel(SessionStore *store, VariantSelection *selection, QWidget *parent = nullptr);
    ~ChartsPanel() override;

    SpeedupChart *speedupChart() const { return m_speedup; }
    KernelTimeChart *kernelTimeChart() const { return m_kernels; }
    RooflineChart *rooflineChart() const { return m_roofline; }
    QTabWidget *tabs() const { return m_tabs; }
    ChartBase *currentChart() const;

    // The device whose peaks draw the roofs (from the worker pool's device_info).
    void setDevice(const DeviceInfo &device);
    // Writes the shown chart; the format follows the suffix (.png, .svg, .pdf).
    bool exportCurrent(const QString &path, QString *error = nullptr);

Q_SIGNALS:
    void variantClicked(qint64 variantId);
    void errorOccurred(const QString &message);

private:
    void chooseExport(const QString &suffix);

    QTabWidget *m_tabs = nullptr;
    SpeedupChart *m_speedup = nullptr;
    KernelTimeChart *m_kernels = nullptr;
    RooflineChart *m_roofline = nullptr;
    QToolButton *m_export = nullptr;
};

} // namespace kforge
