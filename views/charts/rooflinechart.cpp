#include "views/charts/rooflinechart.h"
#include "core/session/sessionstore.h"
#include "views/variants/variantselection.h"

#include <cmath>

namespace kforge {

RooflineChart::RooflineChart(SessionStore *store, VariantSelection *selection, QWidget *parent)
    : ChartBase(store, selection, parent)
{
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("gb"));
    }
    xAxis->setLabel(tr("Arithmetic intensity (FLOP/byte)"));
    yAxis->setLabel(tr("Performance (GFLOP/s)"));
    legend->setVisible(true);
    if (store)
        connect(store, &SessionStore::closed, this, [this] { m_cache.clear(); });
}

void RooflineChart::setDevice(const DeviceInfo &device)
{
    m_device = device;
    scheduleRebuild();
}

void RooflineChart::rebuild()
{
    clearGraphs();
    clearHits();
    m_kernelPoints = 0;
    m_peakGbps = m_device.peakCopyGbps;
    m_peakGflops = m_device.peakFmaGflops;
    if (!store() || !store()->isOpen()) {
        setMessage(tr("No session is open"));
        return;
    }
    // The selection, or else the reference and the best variant so far.
    QList<qint64> ids = selection() ? selection()->selected() : QList<qint64>{};
    if (ids.isEmpty()) {
        if (const Variant *r = store()->population().reference())
            ids << r->id;
        if (const Variant *b = store()->population().bestCorrect(); b && !ids.contains(b->id))
            ids << b->id;
    }
    if (ids.size() > 8)
        ids = ids.mid(ids.size() - 8);

    struct Series { qint64 id; QString name; VariantMeasurement m; };
    QList<Series> series;
    for (qint64 id : std::as_const(ids)) {
        const Variant *v = store()->population().find(id);
        if (!v || !v->hasEvaluation())
            continue;
        auto cached = m_cache.constFind(id);
        if (cached == m_cache.cend() || cached->first != v->eval.id) {
            const auto e = store()->evaluation(v->eval.id);
            cached = m_cache.insert(id, {v->eval.id, e ? VariantMeasurement::fromEvaluation(*e) : VariantMeasurement()});
        }
        const VariantMeasurement &m = cached->second;
        if (m_peakGbps <= 0 && m.peakGbps)
            m_peakGbps = *m.peakGbps;
        if (m_peakGflops <= 0 && m.peakGflops)
            m_peakGflops = *m.peakGflops;
        series.append({id, v->label.isEmpty() ? QStringLiteral("#%1").arg(id) : QStringLiteral("#%1 %2").arg(id).arg(v->label), m});
    }

    double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
    auto extend = [&](double x, double y) {
        xmin = std::min(xmin, x);
        xmax = std::max(xmax, x);
        ymin = std::min(ymin, y);
        ymax = std::max(ymax, y);
    };
    for (int i = 0; i < series.size(); ++i) {
        const Series &s = series[i];
        const QColor c = colorFor(i);
        if (!s.m.rooflineKernels.isEmpty()) {
            QCPGraph *g = addGraph();
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, 8));
            g->setName(tr("%1 kernels").arg(s.name));
            for (const RooflineMark &k : s.m.rooflineKernels) {
                g->addData(k.intensity, k.gflops);
                addHit(xAxis, yAxis, k.intensity, k.gflops, s.id);
                extend(k.intensity, k.gflops);
                ++m_kernelPoints;
            }
        }
        if (s.m.rooflineTask) {
            QCPGraph *g = addGraph();
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(c, 2), Qt::NoBrush, 11));
            g->setName(tr("%1 whole task").arg(s.name));
            g->addData(s.m.rooflineTask->intensity, s.m.rooflineTask->gflops);
            addHit(xAxis, yAxis, s.m.rooflineTask->intensity, s.m.rooflineTask->gflops, s.id);
            extend(s.m.rooflineTask->intensity, s.m.rooflineTask->gflops);
        }
    }
    const bool roofs = hasRoofs();
    if (roofs) {
        const double ridge = m_peakGflops / m_peakGbps;
        extend(ridge, m_peakGflops);
    }
    if (xmax <= 0) {
        setMessage(series.isEmpty() ? tr("Select measured variants to place their kernels on the roofline")
                                    : tr("The selected variants have no roofline data (no FLOP and byte counts)"));
        xAxis->setRange(0.01, 100);
        yAxis->setRange(1, 1e5);
        return;
    }
    xmin /= 8;
    xmax *= 8;
    ymin /= 8;
    ymax *= 3;
    if (roofs) {
        const double ridge = m_peakGflops / m_peakGbps;
        QCPGraph *memory = addGraph();
        memory->setPen(QPen(QColor(0x55, 0x55, 0x55), 2));
        memory->setName(tr("memory roof %1 GB/s").arg(m_peakGbps, 0, 'f', 0));
        memory->setData({xmin, ridge}, {xmin * m_peakGbps, m_peakGflops});
        QCPGraph *compute = addGraph();
        compute->setPen(QPen(QColor(0x22, 0x22, 0x22), 2, Qt::DashLine));
        compute->setName(tr("FP32 roof %1 GFLOP/s").arg(m_peakGflops, 0, 'f', 0));
        compute->setData({ridge, xmax}, {m_peakGflops, m_peakGflops});
        ymin = std::min(ymin, xmin * m_peakGbps);
        setMessage({});
    } else {
        setMessage(tr("No device peaks measured: the roofs are missing"), true);
    }
    xAxis->setRange(xmin, xmax);
    yAxis->setRange(std::max(ymin, 1e-3), ymax);
}

} // namespace kforge
