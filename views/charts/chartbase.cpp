#include "views/charts/chartbase.h"
#include "core/session/sessionstore.h"
#include "views/variants/variantselection.h"

#include <QFileInfo>
#include <QSvgGenerator>

namespace kforge {

ChartBase::ChartBase(SessionStore *store, VariantSelection *selection, QWidget *parent)
    : QCustomPlot(parent)
    , m_store(store)
    , m_selection(selection)
{
    setNoAntialiasingOnDrag(true);
    setPlottingHint(QCP::phFastPolylines, true);
    setMinimumSize(240, 180);
    m_rebuildTimer.setSingleShot(true);
    m_rebuildTimer.setInterval(150);
    connect(&m_rebuildTimer, &QTimer::timeout, this, &ChartBase::runRebuild);

    m_message = new QCPItemText(this);
    m_message->setClipToAxisRect(false);
    m_message->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_message->position->setCoords(0.5, 0.5);
    m_message->setPositionAlignment(Qt::AlignCenter);
    m_message->setTextAlignment(Qt::AlignCenter);
    m_message->setColor(Qt::darkGray);
    m_message->setVisible(false);

    // The legend goes under the plot, not over the points.
    auto *below = new QCPLayoutGrid;
    plotLayout()->addElement(1, 0, below);
    plotLayout()->setRowSpacing(2);
    below->setMargins(QMargins(4, 0, 4, 4));
    axisRect()->insetLayout()->take(legend);
    below->addElement(0, 0, legend);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(4);
    legend->setBorderPen(Qt::NoPen);
    legend->setFont(QFont(font().family(), std::max(7, font().pointSize() - 1)));
    plotLayout()->setRowStretchFactor(1, 0.001);

    if (m_store) {
        for (auto signal : {&SessionStore::opened, &SessionStore::closed, &SessionStore::taskChanged})
            connect(m_store, signal, this, &ChartBase::scheduleRebuild);
        connect(m_store, &SessionStore::variantAdded, this, &ChartBase::scheduleRebuild);
        connect(m_store, &SessionStore::variantChanged, this, &ChartBase::scheduleRebuild);
        connect(m_store, &SessionStore::evaluationAdded, this, &ChartBase::scheduleRebuild);
    }
    if (m_selection)
        connect(m_selection, &VariantSelection::selectionChanged, this, [this] { selectionMoved(); });
}

ChartBase::~ChartBase() = default;

SessionStore *ChartBase::store() const
{
    return m_store;
}

VariantSelection *ChartBase::selection() const
{
    return m_selection;
}

QColor ChartBase::colorFor(int index)
{
    static const QColor palette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                                     QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                     QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};
    return palette[index % int(std::size(palette))];
}

QCPScatterStyle ChartBase::rasterized(const QCPScatterStyle &style)
{
    const int side = int(std::ceil(style.size())) + 4;
    QPixmap pixmap(side, side);
    pixmap.fill(Qt::transparent);
    QCPPainter painter(&pixmap);
    painter.setAntialiasing(true);
    style.applyTo(&painter, style.pen());
    style.drawShape(&painter, QPointF(side / 2.0, side / 2.0));
    painter.end();
    return QCPScatterStyle(pixmap);
}

void ChartBase::scheduleRebuild()
{
    m_dirty = true;
    // Hidden charts wait for showEvent(): a round must not pay for plots nobody looks at.
    if (isVisible() && !m_rebuildTimer.isActive())
        m_rebuildTimer.start();
}

void ChartBase::runRebuild()
{
    if (!isVisible()) {
        m_dirty = true;
        return;
    }
    refreshNow();
}

void ChartBase::refreshNow()
{
    m_rebuildTimer.stop();
    m_dirty = false;
    ++m_rebuilds;
    rebuild();
    replot(rpQueuedRefresh);
}

void ChartBase::showEvent(QShowEvent *event)
{
    QCustomPlot::showEvent(event);
    // The user just turned to this chart: bring it up to date at once.
    if (m_dirty)
        refreshNow();
}

void ChartBase::resizeEvent(QResizeEvent *event)
{
    // As many legend columns as fit, so the legend under the plot never clips its entries.
    legend->setWrap(std::max(1, event->size().width() / 190));
    QCustomPlot::resizeEvent(event);
}

void ChartBase::addHit(QCPAxis *keyAxis, QCPAxis *valueAxis, double key, double value, qint64 variantId, double barHalfWidth)
{
    m_hits.append(Hit{keyAxis, valueAxis, key, value, variantId, barHalfWidth});
}

void ChartBase::setMessage(const QString &text, bool overData)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    // Over data the note moves to the top edge so it hides nothing.
    m_message->position->setCoords(0.5, overData ? 0.06 : 0.5);
}

QPointF ChartBase::positionOf(qint64 variantId) const
{
    for (const Hit &h : m_hits)
        if (h.variantId == variantId)
            return {h.key, h.value};
    return {-1e300, 0};
}

QPointF ChartBase::pixelOf(qint64 variantId) const
{
    for (const Hit &h : m_hits)
        if (h.variantId == variantId) {
            const double k = h.keyAxis->coordToPixel(h.key);
            const double v = h.valueAxis->coordToPixel(h.value);
            return h.keyAxis->orientation() == Qt::Horizontal ? QPointF(k, v) : QPointF(v, k);
        }
    return {-1, -1};
}

qint64 ChartBase::variantAt(const QPoint &pos) const
{
    constexpr double radius = 8.0;
    qint64 best = 0;
    double bestDistance = radius * radius;
    for (const Hit &h : m_hits) {
        if (h.halfWidth > 0) {
            // A bar: inside its rectangle, in pixels along both axes.
            const bool horizontalKey = h.keyAxis->orientation() == Qt::Horizontal;
            const double along = horizontalKey ? pos.x() : pos.y();
            const double across = horizontalKey ? pos.y() : pos.x();
            const double k1 = h.keyAxis->coordToPixel(h.key - h.halfWidth),
                         k2 = h.keyAxis->coordToPixel(h.key + h.halfWidth);
            const double v1 = h.valueAxis->coordToPixel(0), v2 = h.valueAxis->coordToPixel(h.value);
            if (along >= std::min(k1, k2) && along <= std::max(k1, k2) && across >= std::min(v1, v2) - 2
                && across <= std::max(v1, v2) + 2)
                return h.variantId;
            continue;
        }
        const double k = h.keyAxis->coordToPixel(h.key);
        const double v = h.valueAxis->coordToPixel(h.value);
        const QPointF p = h.keyAxis->orientation() == Qt::Horizontal ? QPointF(k, v) : QPointF(v, k);
        const double dx = p.x() - pos.x(), dy = p.y() - pos.y();
        if (dx * dx + dy * dy <= bestDistance) {
            bestDistance = dx * dx + dy * dy;
            best = h.variantId;
        }
    }
    return best;
}

void ChartBase::mousePressEvent(QMouseEvent *event)
{
    QCustomPlot::mousePressEvent(event);
    if (event->button() != Qt::LeftButton)
        return;
    const qint64 id = variantAt(event->pos());
    if (!id)
        return;
    if (m_selection) {
        if (event->modifiers() & Qt::ControlModifier) {
            QList<qint64> ids = m_selection->selected();
            if (ids.contains(id))
                ids.removeAll(id);
            else
                ids << id;
            m_selection->setSelected(ids, id);
        } else {
            m_selection->setCurrent(id);
        }
    }
    Q_EMIT variantClicked(id);
}

bool ChartBase::exportTo(const QString &path, QString *error, QSize size)
{
    if (m_dirty)
        refreshNow();
    if (size.isEmpty())
        size = this->size().expandedTo(QSize(640, 420));
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok = false;
    if (suffix == QLatin1String("png")) {
        ok = savePng(path, size.width(), size.height(), 2.0);
    } else if (suffix == QLatin1String("pdf")) {
        ok = savePdf(path, size.width(), size.height(), QCP::epNoCosmetic, QStringLiteral("KForge"));
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(QStringLiteral("KForge"));
        QCPPainter painter;
        ok = painter.begin(&svg);
        if (ok) {
            toPainter(&painter, size.width(), size.height());
            ok = painter.end();
        }
    } else {
        if (error)
            *error = tr("Unknown image format “%1”: use .png, .svg or .pdf.").arg(suffix);
        return false;
    }
    if (!ok && error)
        *error = tr("Could not write %1.").arg(path);
    return ok;
}

} // namespace kforge
