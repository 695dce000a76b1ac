#pragma once
// What the three charts share: they observe the session and the selection, rebuild their data at most once
// per throttle interval (and only while shown), map a click to the nearest variant, and export as PNG, SVG
// or PDF.
#include <qcustomplot.h>

#include <QPointer>
#include <QTimer>

namespace kforge {

class SessionStore;
class VariantSelection;

class ChartBase : public QCustomPlot
{
    Q_OBJECT
public:
    ChartBase(SessionStore *store, VariantSelection *selection, QWidget *parent = nullptr);
    ~ChartBase() override;

    // The variant whose point lies within a few pixels of `pos`, or 0.
    qint64 variantAt(const QPoint &pos) const;
    // The pixel position of a variant's first point; (-1, -1) when it has none.
    QPointF pixelOf(qint64 variantId) const;
    int pointCount() const { return int(m_hits.size()); }
    // Rebuilds and replots at once (tests, export).
    void refreshNow();
    void setThrottleMs(int ms) { m_rebuildTimer.setInterval(ms); }
    // PNG, SVG or PDF by the file's suffix. False with *error on failure.
    bool exportTo(const QString &path, QString *error = nullptr, QSize size = {});
    // How many rebuilds ran (tests check the throttle).
    int rebuildCount() const { return m_rebuilds; }

Q_SIGNALS:
    void variantClicked(qint64 variantId);

protected:
    struct Hit {
        QCPAxis *keyAxis = nullptr;
        QCPAxis *valueAxis = nullptr;
        double key = 0;
        double value = 0;
        qint64 variantId = 0;
        double halfWidth = 0; // > 0: a bar from value 0 to `value`, `halfWidth` either side of `key`
    };

    // Fills the plottables from the store; called throttled, or at once by refreshNow().
    virtual void rebuild() = 0;
    // The selection moved; the default rebuilds.
    virtual void selectionMoved() { scheduleRebuild(); }
    void scheduleRebuild();
    void clearHits() { m_hits.clear(); }
    // A variant's first point in plot coordinates; (-1e300, 0) when it has none.
    QPointF positionOf(qint64 variantId) const;
    void addHit(QCPAxis *keyAxis, QCPAxis *valueAxis, double key, double value, qint64 variantId, double barHalfWidth = 0);
    // A message over the plot (empty hides it): centred, or along the top when there is data to see.
    void setMessage(const QString &text, bool overData = false);
    SessionStore *store() const;
    VariantSelection *selection() const;
    static QColor colorFor(int index);
    // The same marker drawn once into a pixmap: thousands of points blit it instead of drawing vector shapes
    // (about 9 ms instead of 65-100 ms for 10,000 points).
    static QCPScatterStyle rasterized(const QCPScatterStyle &style);

    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    void runRebuild();

    QPointer<SessionStore> m_store;
    QPointer<VariantSelection> m_selection;
    QTimer m_rebuildTimer;
    bool m_dirty = true;
    int m_rebuilds = 0;
    QList<Hit> m_hits;
    QCPItemText *m_message = nullptr;
};

} // namespace kforge
