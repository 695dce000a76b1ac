#include "views/charts/rooflinechart.h"
#include "core/eval/measureformat.h"
#include "core/session/sessionstore.h"
#include "views/variants/variantselection.h"

#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace kforge {

namespace {

constexpr double kHoverRadius = 8.0;    // pixels: what counts as "under the cursor"
constexpr double kCoincideRadius = 7.0; // pixels: markers closer than this would hide each other
constexpr int kMaxLabelledPoints = 12;  // more labels than this cover the plot; then only the current variant's

// "rowscale4(float const*, ...)" -> "rowscale4": a label beside a point has room for the name only.
QString shortKernelName(const QString &name)
{
    QString s = name.left(name.indexOf(QLatin1Char('(')) < 0 ? name.size() : name.indexOf(QLatin1Char('(')));
    if (s.startsWith(QLatin1String("void ")))
        s = s.mid(5);
    if (s.size() > 28)
        s = s.left(27) + QStringLiteral("…");
    return s;
}

QString flopRate(double gflops)
{
    return gflops >= 1000 ? RooflineChart::tr("%1 TFLOP/s").arg(formatMeasure(gflops / 1000))
                          : RooflineChart::tr("%1 GFLOP/s").arg(formatMeasure(gflops));
}

} // namespace

RooflineChart::RooflineChart(SessionStore *store, VariantSelection *selection, QWidget *parent)
    : ChartBase(store, selection, parent)
{
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("gb"));
        connect(axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this] {
            if (!m_settingRange)
                m_userRange = true;
        });
    }
    xAxis->setLabel(tr("Arithmetic intensity (FLOP/byte)"));
    yAxis->setLabel(tr("Performance (GFLOP/s)"));
    legend->setVisible(true);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    setMouseTracking(true);
    setToolTip(tr("Wheel: zoom. Drag: pan. Double-click: fit the view. Hover over a point for its figures."));
    // Pixel positions are known once the layout is: fan out coincident points and place the texts then, so they
    // stay apart at every zoom level and size.
    connect(this, &QCustomPlot::afterLayout, this, &RooflineChart::layoutOverlays);
    if (store)
        connect(store, &SessionStore::closed, this, [this] {
            m_cache.clear();
            m_userRange = false;
        });
}

void RooflineChart::setDevice(const DeviceInfo &device)
{
    m_device = device;
    scheduleRebuild();
}

void RooflineChart::setRangeQuietly(QCPAxis *axis, const QCPRange &range)
{
    m_settingRange = true;
    axis->setRange(range);
    m_settingRange = false;
}

void RooflineChart::resetZoom()
{
    m_userRange = false;
    refreshNow();
}

void RooflineChart::clearOverlays()
{
    for (QCPAbstractItem *item : std::as_const(m_overlays))
        removeItem(item);
    m_overlays.clear();
    for (QCPAbstractItem *item : std::as_const(m_fanItems))
        removeItem(item);
    m_fanItems.clear();
    m_memoryRoofText = m_computeRoofText = m_hoverText = nullptr;
    m_hovered = -1;
    m_points.clear();
}

// The selection, or else the reference and the best variant so far; the last 8 of them.
QList<qint64> RooflineChart::chartedIds() const
{
    QList<qint64> ids = selection() ? selection()->selected() : QList<qint64>{};
    if (ids.isEmpty()) {
        if (const Variant *r = store()->population().reference())
            ids << r->id;
        if (const Variant *b = store()->population().bestCorrect(); b && !ids.contains(b->id))
            ids << b->id;
    }
    return ids.size() > 8 ? ids.mid(ids.size() - 8) : ids;
}

void RooflineChart::rebuild()
{
    clearGraphs();
    clearHits();
    clearOverlays();
    m_kernelPoints = 0;
    m_ridge = 0;
    m_peakGbps = m_device.peakCopyGbps;
    m_peakGflops = m_device.peakFmaGflops;
    QString deviceName = m_device.name;
    if (!store() || !store()->isOpen()) {
        setMessage(tr("No session is open"));
        return;
    }
    const QList<qint64> ids = chartedIds();

    struct Series {
        qint64 id;
        QString name;
        MeasurementFigures m;
    };
    QList<Series> series;
    for (qint64 id : std::as_const(ids)) {
        const Variant *v = store()->population().find(id);
        if (!v || !v->hasEvaluation())
            continue;
        auto cached = m_cache.constFind(id);
        if (cached == m_cache.cend() || cached->first != v->eval.id) {
            const auto e = store()->evaluations().find(v->eval.id);
            cached = m_cache.insert(id, {v->eval.id, e ? e->figures() : MeasurementFigures()});
        }
        const MeasurementFigures &m = cached->second;
        if (m_peakGbps <= 0 && m.peakGbps)
            m_peakGbps = *m.peakGbps;
        if (m_peakGflops <= 0 && m.peakGflops)
            m_peakGflops = *m.peakGflops;
        if (deviceName.isEmpty())
            deviceName = m.deviceName;
        series.append(
            {id, v->label.isEmpty() ? QStringLiteral("#%1").arg(id) : QStringLiteral("#%1 %2").arg(id).arg(v->label), m});
    }
    const bool roofs = hasRoofs();
    const double ridge = roofs ? m_peakGflops / m_peakGbps : 0;

    double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
    auto extend = [&](double x, double y) {
        xmin = std::min(xmin, x);
        xmax = std::max(xmax, x);
        ymin = std::min(ymin, y);
        ymax = std::max(ymax, y);
    };
    // A plotted point: intensity and rate known and positive (a kernel the profiler could not time has neither).
    auto plotted = [](const RooflineKernel &k) {
        return k.arithmeticIntensity.value_or(0) > 0 && k.achievedGflops.value_or(0) > 0;
    };
    auto detail = [&](const QString &who, const RooflineKernel &k) {
        const double x = *k.arithmeticIntensity, y = *k.achievedGflops;
        QString s = tr("%1: %2 FLOP/byte, %3 GFLOP/s").arg(who, formatMeasure(x), formatMeasure(y));
        if (roofs) {
            const double attainable = std::min(m_peakGflops, x * m_peakGbps);
            s += tr(", %1% of the roof above it").arg(formatMeasure(100.0 * y / attainable));
        }
        if (!k.bound.isEmpty())
            s += tr(", %1-bound").arg(k.bound);
        return s;
    };
    for (int i = 0; i < series.size(); ++i) {
        const Series &s = series[i];
        const QColor c = colorFor(i);
        if (std::any_of(s.m.rooflineKernels.cbegin(), s.m.rooflineKernels.cend(), plotted)) {
            QCPGraph *g = addGraph();
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, 8));
            g->setName(tr("%1 kernels").arg(s.name));
            for (const RooflineKernel &k : s.m.rooflineKernels) {
                if (!plotted(k))
                    continue;
                Point p;
                p.x = p.shownX = *k.arithmeticIntensity;
                p.y = p.shownY = *k.achievedGflops;
                p.variantId = s.id;
                p.graph = g;
                p.label = QStringLiteral("#%1 %2").arg(s.id).arg(shortKernelName(k.name));
                p.detail = detail(tr("%1, kernel %2").arg(s.name, k.name), k);
                m_points << p;
                extend(p.x, p.y);
                ++m_kernelPoints;
            }
        }
        if (s.m.rooflineTask) {
            QCPGraph *g = addGraph();
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(c, 2), Qt::NoBrush, 11));
            g->setName(tr("%1 whole task").arg(s.name));
            Point p;
            p.x = p.shownX = *s.m.rooflineTask->arithmeticIntensity;
            p.y = p.shownY = *s.m.rooflineTask->achievedGflops;
            p.variantId = s.id;
            p.graph = g;
            p.label = tr("#%1 task").arg(s.id);
            p.detail = detail(tr("%1, whole task (FLOP and byte formulas)").arg(s.name), *s.m.rooflineTask);
            m_points << p;
            extend(p.x, p.y);
        }
    }
    if (roofs)
        extend(ridge, m_peakGflops);
    if (xmax <= 0) {
        setMessage(series.isEmpty() ? tr("Select measured variants to place their kernels on the roofline")
                                    : tr("The selected variants have no roofline data (no FLOP and byte counts)"));
        setRangeQuietly(xAxis, QCPRange(0.01, 100));
        setRangeQuietly(yAxis, QCPRange(1, 1e5));
        return;
    }
    xmin /= 8;
    xmax *= 8;
    ymin /= 8;
    ymax *= 3;

    // Labels beside the points of the variants the user selected; when that would be too many labels, beside
    // the current one's only. The rest are named on hover.
    const qint64 current = selection() ? selection()->current() : 0;
    const QList<qint64> picked = selection() ? selection()->selected() : QList<qint64>{};
    int pickedPoints = 0;
    for (const Point &p : std::as_const(m_points))
        pickedPoints += picked.contains(p.variantId) ? 1 : 0;
    for (Point &p : m_points) {
        p.labelled = picked.contains(p.variantId) && (pickedPoints <= kMaxLabelledPoints || p.variantId == current);
        if (!p.labelled)
            continue;
        auto *text = new QCPItemText(this);
        text->setText(p.label);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        text->setPadding(QMargins(7, 0, 0, 0));
        text->setColor(p.graph->scatterStyle().pen().color().darker(130));
        text->setSelectable(false);
        p.labelItem = text;
        m_overlays << text;
    }
    m_hoverText = new QCPItemText(this);
    m_hoverText->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_hoverText->position->setType(QCPItemPosition::ptAbsolute); // a few pixels up and right of the point
    m_hoverText->setPadding(QMargins(6, 2, 6, 2));
    m_hoverText->setBrush(QColor(255, 255, 240));
    m_hoverText->setPen(QPen(QColor(0x99, 0x99, 0x99)));
    m_hoverText->setVisible(false);
    m_overlays << m_hoverText;

    if (roofs) {
        m_ridge = ridge;
        m_roofXmin = std::min(xmin, 1e-4);
        QCPGraph *memory = addGraph();
        memory->setPen(QPen(QColor(0x55, 0x55, 0x55), 2));
        memory->setName(tr("memory roof %1 GB/s").arg(m_peakGbps, 0, 'f', 0));
        memory->setData({m_roofXmin, ridge}, {m_roofXmin * m_peakGbps, m_peakGflops});
        QCPGraph *compute = addGraph();
        compute->setPen(QPen(QColor(0x22, 0x22, 0x22), 2, Qt::DashLine));
        compute->setName(tr("FP32 roof %1").arg(flopRate(m_peakGflops)));
        compute->setData({ridge, 1e6}, {m_peakGflops, m_peakGflops});
        ymin = std::min(ymin, xmin * m_peakGbps);
        // Say on the roofs that they were measured on this GPU, not taken from a data sheet.
        const QString on = deviceName.isEmpty() ? QString() : tr(" on %1").arg(deviceName);
        m_memoryRoofText = new QCPItemText(this);
        // Short on the slope, where the points crowd; the device's name goes on the flat roof, where there is room.
        m_memoryRoofText->setText(tr("measured: %1 GB/s").arg(formatMeasure(m_peakGbps)));
        m_memoryRoofText->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        m_computeRoofText = new QCPItemText(this);
        m_computeRoofText->setText(tr("FP32 roof, measured%1: %2").arg(on, flopRate(m_peakGflops)));
        m_computeRoofText->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        for (QCPItemText *t : {m_memoryRoofText, m_computeRoofText}) {
            t->setColor(QColor(0x33, 0x33, 0x33));
            t->setPadding(QMargins(2, 0, 2, 3));
            t->setSelectable(false);
            m_overlays << t;
        }
        setMessage({});
    } else {
        setMessage(tr("No device peaks measured: the roofs are missing"), true);
    }
    if (!m_userRange) {
        setRangeQuietly(xAxis, QCPRange(xmin, xmax));
        setRangeQuietly(yAxis, QCPRange(std::max(ymin, 1e-3), ymax));
    }
    layoutOverlays();
}

void RooflineChart::layoutOverlays()
{
    // Every marker stays at its measured coordinates: on a log-log roofline a sideways move of a few pixels is a
    // quarter of the intensity at a wide view, the axis that carries the meaning. Markers that would cover each
    // other (greedy clusters in pixel space) are told apart instead: each after the first gets a ring of its
    // colour around the same spot, one size larger per member, and their labels spread around the cluster with a
    // leader line to the spot. The tool tip lists every point under the cursor with its figures.
    for (QCPAbstractItem *item : std::as_const(m_fanItems))
        removeItem(item);
    m_fanItems.clear();
    const int n = int(m_points.size());
    std::vector<QPointF> px;
    px.reserve(std::size_t(n));
    for (Point &p : m_points) {
        p.shownX = p.x;
        p.shownY = p.y;
        px.emplace_back(xAxis->coordToPixel(p.x), yAxis->coordToPixel(p.y));
    }
    std::vector<std::vector<int>> clusters;
    for (int i = 0; i < n; ++i) {
        std::vector<int> *home = nullptr;
        for (auto &c : clusters)
            for (int j : c)
                if (!home && QLineF(px[std::size_t(i)], px[std::size_t(j)]).length() < kCoincideRadius)
                    home = &c;
        if (home)
            home->push_back(i);
        else
            clusters.push_back({i});
    }
    // Rings, and where each label wants to be: beside its point, or for a shared spot in a column right of it.
    struct Label {
        int point;
        QPointF at;
    };
    std::vector<Label> labels;
    constexpr double kLine = 15.0; // a label's height, pixels
    for (const std::vector<int> &members : clusters) {
        QPointF centre;
        for (int i : members)
            centre += px[std::size_t(i)];
        centre /= double(members.size());
        int labelled = 0;
        for (int i : members)
            labelled += m_points[i].labelItem ? 1 : 0;
        int ring = 0, row = 0;
        for (int i : members) { // in measured order
            Point &p = m_points[i];
            if (ring++ > 0) {
                auto *circle = new QCPItemEllipse(this);
                const double r = 5.0 + 4.0 * ring;
                for (QCPItemPosition *corner : {circle->topLeft, circle->bottomRight})
                    corner->setType(QCPItemPosition::ptAbsolute);
                circle->topLeft->setCoords(px[std::size_t(i)] - QPointF(r, r));
                circle->bottomRight->setCoords(px[std::size_t(i)] + QPointF(r, r));
                circle->setPen(QPen(p.graph->scatterStyle().pen().color(), 1.5));
                circle->setSelectable(false);
                m_fanItems << circle;
            }
            if (!p.labelItem)
                continue;
            const double right = 9.0 + 4.0 * double(members.size());
            labels.push_back({i, labelled < 2 ? px[std::size_t(i)] + QPointF(right, 0)
                                              : centre + QPointF(right + 8, (row++ - (labelled - 1) / 2.0) * kLine)});
        }
    }
    // No two labels on top of each other: top to bottom, one that would overlap the one above moves down.
    std::sort(labels.begin(), labels.end(), [](const Label &a, const Label &b) { return a.at.y() < b.at.y(); });
    for (std::size_t k = 0; k < labels.size(); ++k)
        for (std::size_t j = 0; j < k; ++j)
            if (std::abs(labels[k].at.x() - labels[j].at.x()) < 110 && labels[k].at.y() - labels[j].at.y() < kLine)
                labels[k].at.setY(labels[j].at.y() + kLine);
    for (const Label &l : labels) {
        Point &p = m_points[l.point];
        p.labelItem->position->setType(QCPItemPosition::ptAbsolute);
        p.labelItem->position->setCoords(l.at);
        p.labelItem->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        p.labelItem->setPadding(QMargins(2, 0, 0, 0));
        const QPointF spot = px[std::size_t(l.point)];
        if (std::abs(l.at.y() - spot.y()) < 4) // beside its own point: no line needed
            continue;
        auto *leader = new QCPItemLine(this);
        leader->start->setType(QCPItemPosition::ptAbsolute);
        leader->end->setType(QCPItemPosition::ptAbsolute);
        leader->start->setCoords(l.at);
        leader->end->setCoords(spot);
        leader->setPen(QPen(p.graph->scatterStyle().pen().color().lighter(130), 1));
        leader->setSelectable(false);
        m_fanItems << leader;
    }
    // Every graph's data is its points where they are drawn, and the clickable spots follow them.
    QHash<QCPGraph *, std::pair<QList<double>, QList<double>>> data;
    clearHits();
    for (const Point &p : std::as_const(m_points)) {
        auto &d = data[p.graph];
        d.first << p.shownX;
        d.second << p.shownY;
        addHit(xAxis, yAxis, p.shownX, p.shownY, p.variantId);
    }
    for (auto it = data.begin(); it != data.end(); ++it)
        it.key()->setData(it->first, it->second, true);

    if (m_memoryRoofText && m_computeRoofText && m_ridge > 0) {
        // Above the memory roof, ending just short of the ridge and turned to the roof's slope on screen: the points
        // lie under the roofs, and a memory-bound task's crowd sits far left of the ridge.
        const QCPRange xr = xAxis->range();
        const double x1 = std::min(m_ridge / 1.4, xr.upper / 1.2);
        const double x0 = std::max(x1 / 10, m_roofXmin);
        const QPointF a(xAxis->coordToPixel(x0), yAxis->coordToPixel(x0 * m_peakGbps));
        const QPointF b(xAxis->coordToPixel(x1), yAxis->coordToPixel(x1 * m_peakGbps));
        m_memoryRoofText->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        m_memoryRoofText->position->setCoords(x1, x1 * m_peakGbps);
        m_memoryRoofText->setRotation(std::atan2(b.y() - a.y(), b.x() - a.x()) * 180 / std::numbers::pi);
        m_memoryRoofText->setVisible(x1 > xr.lower);
        const double right = xr.upper / 1.3;
        m_computeRoofText->position->setCoords(std::max(right, m_ridge), m_peakGflops);
        m_computeRoofText->setVisible(true);
    }
    if (m_hoverText && m_hovered >= 0 && m_hovered < n)
        placeHoverText();
}

void RooflineChart::placeHoverText()
{
    const Point &p = m_points[m_hovered];
    m_hoverText->position->setCoords(xAxis->coordToPixel(p.shownX) + 6, yAxis->coordToPixel(p.shownY) - 6);
}

QList<QPointF> RooflineChart::measuredPixels() const
{
    QList<QPointF> out;
    for (const Point &p : m_points)
        out << QPointF(xAxis->coordToPixel(p.x), yAxis->coordToPixel(p.y));
    return out;
}

QList<QPointF> RooflineChart::labelPixels() const
{
    QList<QPointF> out;
    for (const Point &p : m_points)
        if (p.labelItem)
            out << p.labelItem->position->pixelPosition();
    return out;
}

int RooflineChart::ringCount() const
{
    int rings = 0;
    for (const QCPAbstractItem *item : m_fanItems)
        rings += qobject_cast<const QCPItemEllipse *>(item) ? 1 : 0;
    return rings;
}

QList<QPointF> RooflineChart::drawnPixels() const
{
    QList<QPointF> out;
    for (const Point &p : m_points)
        out << QPointF(xAxis->coordToPixel(p.shownX), yAxis->coordToPixel(p.shownY));
    return out;
}

int RooflineChart::pointAt(const QPoint &pos) const
{
    int best = -1;
    double bestDistance = kHoverRadius;
    for (int i = 0; i < m_points.size(); ++i) {
        const QPointF p(xAxis->coordToPixel(m_points[i].shownX), yAxis->coordToPixel(m_points[i].shownY));
        const double d = QLineF(p, QPointF(pos)).length();
        if (d <= bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    return best;
}

QString RooflineChart::toolTipAt(const QPoint &pos) const
{
    QStringList lines;
    for (const Point &p : m_points) {
        const QPointF at(xAxis->coordToPixel(p.shownX), yAxis->coordToPixel(p.shownY));
        if (QLineF(at, QPointF(pos)).length() <= kHoverRadius)
            lines << p.detail;
    }
    return lines.join(QLatin1Char('\n'));
}

QStringList RooflineChart::roofLabels() const
{
    QStringList out;
    for (const QCPItemText *t : {m_memoryRoofText, m_computeRoofText})
        if (t)
            out << t->text();
    return out;
}

QStringList RooflineChart::pointLabels() const
{
    QStringList out;
    for (const Point &p : m_points)
        if (p.labelItem)
            out << p.labelItem->text();
    if (m_hoverText && m_hoverText->visible())
        out << m_hoverText->text();
    return out;
}

void RooflineChart::mouseMoveEvent(QMouseEvent *event)
{
    ChartBase::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton)
        return; // panning
    const int hovered = pointAt(event->pos());
    if (hovered != m_hovered && m_hoverText) {
        m_hovered = hovered;
        m_hoverText->setVisible(hovered >= 0 && !m_points[hovered].labelled);
        if (hovered >= 0) {
            m_hoverText->setText(m_points[hovered].label);
            placeHoverText();
        }
        replot(rpQueuedReplot);
    }
    const QString tip = toolTipAt(event->pos());
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

void RooflineChart::mouseDoubleClickEvent(QMouseEvent *event)
{
    ChartBase::mouseDoubleClickEvent(event);
    resetZoom();
}

void RooflineChart::leaveEvent(QEvent *event)
{
    ChartBase::leaveEvent(event);
    if (m_hoverText && m_hoverText->visible()) {
        m_hovered = -1;
        m_hoverText->setVisible(false);
        replot(rpQueuedReplot);
    }
}

} // namespace kforge
