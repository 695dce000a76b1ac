#pragma once
// The roofline of the measuring device (log-log: FLOP per byte against GFLOP/s; the memory roof from the
// measured copy bandwidth, the compute roof from the measured FP32 FMA rate, each marked with its measured
// figure) with the selected variants' kernels as points, and each variant's whole-task point from the task's
// FLOP and byte formulas. Every point is drawn at its measured coordinates; points that would cover each other
// get rings of their colour around the spot and labels spread around it with leader lines; hovering shows what
// lies under the cursor, the selected variants' points carry labels; the wheel zooms, a
// drag pans and a double-click fits the view again.
#include "core/eval/deviceinfo.h"
#include "core/eval/measurementfigures.h"
#include "views/charts/chartbase.h"

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

    // The texts on the roofs ("measured: 4219 GB/s", "FP32 roof, measured on NVIDIA H200: 62.9 TFLOP/s"), empty
    // without roofs.
    QStringList roofLabels() const;
    // The labels shown beside points (selected variants, and the hovered point).
    QStringList pointLabels() const;
    // What hovering at `pos` shows: every point within a few pixels, one line each; empty over nothing.
    QString toolTipAt(const QPoint &pos) const;
    // Where a point is drawn, in pixels; index in plotting order. Always where it was measured (measuredPixels).
    QList<QPointF> drawnPixels() const;
    QList<QPointF> measuredPixels() const;
    // Where the labels are anchored, in pixels, and how many rings mark points that share a spot with another.
    QList<QPointF> labelPixels() const;
    int ringCount() const;
    // True after the user zoomed or panned; a rebuild then keeps the view.
    bool isZoomed() const { return m_userRange; }
    // Fits the view to the points and roofs again (double-click).
    void resetZoom();

protected:
    void rebuild() override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    QList<qint64> chartedIds() const;
    struct Point {
        double x = 0, y = 0;           // where it is measured
        double shownX = 0, shownY = 0; // where it is drawn
        qint64 variantId = 0;
        QCPGraph *graph = nullptr;
        QString label;  // short, beside the point
        QString detail; // the tool tip's line
        bool labelled = false;
        QCPItemText *labelItem = nullptr;
    };

    void layoutOverlays();
    void placeHoverText();
    int pointAt(const QPoint &pos) const;
    void setRangeQuietly(QCPAxis *axis, const QCPRange &range);
    void clearOverlays();

    DeviceInfo m_device;
    QHash<qint64, std::pair<qint64, MeasurementFigures>> m_cache;
    QList<Point> m_points;
    QList<QCPAbstractItem *> m_overlays; // labels and roof texts, removed on every rebuild
    QList<QCPAbstractItem *> m_fanItems; // rings and leader lines of coincident points, redone on every layout
    QCPItemText *m_memoryRoofText = nullptr;
    QCPItemText *m_computeRoofText = nullptr;
    QCPItemText *m_hoverText = nullptr;
    int m_hovered = -1;
    double m_ridge = 0;
    double m_roofXmin = 0;
    double m_peakGbps = 0;
    double m_peakGflops = 0;
    int m_kernelPoints = 0;
    bool m_userRange = false;
    bool m_settingRange = false;
};

} // namespace kforge
