#include "views/charts/speedupchart.h"
#include "core/session/sessionstore.h"
#include "views/variants/variantselection.h"

#include <cmath>

namespace kforge {

SpeedupChart::SpeedupChart(SessionStore *store, VariantSelection *selection, QWidget *parent)
    : ChartBase(store, selection, parent)
{
    auto scatter = [this](QCPScatterStyle style, const QString &name) {
        QCPGraph *g = addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(style);
        g->setName(name);
        g->setAdaptiveSampling(true);
        return g;
    };
    m_reference = addGraph();
    m_reference->setPen(QPen(Qt::gray, 1, Qt::DashLine));
    m_reference->setName(tr("reference (1×)"));
    m_bestLine = addGraph();
    m_bestLine->setLineStyle(QCPGraph::lsStepLeft);
    m_bestLine->setPen(QPen(QColor(0x2c, 0xa0, 0x2c), 2));
    m_bestLine->setName(tr("best so far"));
    m_correct = scatter(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(0x1f, 0x77, 0xb4), 6), tr("correct"));
    m_suspicious = scatter(QCPScatterStyle(QCPScatterStyle::ssTriangle, QColor(0xff, 0x7f, 0x0e), 8), tr("held for review"));
    m_failed = scatter(QCPScatterStyle(QCPScatterStyle::ssCross, QColor(0xd6, 0x27, 0x28), 7), tr("failed"));
    m_selected = scatter(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 13), tr("selected"));
    const QCPGraph *marks[3] = {m_correct, m_suspicious, m_failed};
    for (int i = 0; i < 3; ++i) {
        m_styles[i] = marks[i]->scatterStyle();
        m_rasters[i] = rasterized(m_styles[i]);
    }

    xAxis->setLabel(tr("Round"));
    yAxis->setLabel(tr("Speedup over the reference"));
    yAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> logTicker(new QCPAxisTickerLog);
    yAxis->setTicker(logTicker);
    yAxis->setNumberFormat(QStringLiteral("gb"));
    QSharedPointer<QCPAxisTickerFixed> roundTicker(new QCPAxisTickerFixed);
    roundTicker->setTickStep(1.0);
    roundTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    xAxis->setTicker(roundTicker);
    xAxis->setSubTicks(false);
    legend->setVisible(true);
}

int SpeedupChart::correctCount() const
{
    return m_correct->dataCount();
}

int SpeedupChart::suspiciousCount() const
{
    return m_suspicious->dataCount();
}

int SpeedupChart::failedCount() const
{
    return m_failed->dataCount();
}

void SpeedupChart::rebuild()
{
    clearHits();
    m_best = 0;
    if (!store() || !store()->isOpen() || store()->population().isEmpty()) {
        for (QCPGraph *g : {m_correct, m_suspicious, m_failed, m_bestLine, m_reference, m_selected})
            g->data()->clear();
        setMessage(store() && store()->isOpen() ? tr("No variants yet") : tr("No session is open"));
        return;
    }
    setMessage({});
    const auto &variants = store()->population().variants();
    QHash<qint64, int> roundNumbers;
    int lastRound = 0;
    for (const auto &r : store()->rounds().all()) {
        roundNumbers.insert(r.id, r.number);
        lastRound = std::max(lastRound, r.number);
    }
    // Plain arrays indexed by round number: this runs over every variant of a 10,000-variant session.
    std::vector<int> perRound(size_t(lastRound) + 1, 0), seen(size_t(lastRound) + 1, 0);
    std::vector<int> roundOf;
    roundOf.reserve(variants.size());
    for (const auto &v : variants) {
        const int n = std::clamp(v.roundId ? roundNumbers.value(v.roundId) : 0, 0, lastRound);
        roundOf.push_back(n);
        ++perRound[size_t(n)];
    }
    QVector<QCPGraphData> correct, suspicious, failed, best;
    correct.reserve(qsizetype(variants.size()));
    std::vector<double> bestOfRound(size_t(lastRound) + 1, 0.0);
    std::vector<std::pair<double, qint64>> failures;
    double lo = 1.0, hi = 1.0;
    for (size_t i = 0; i < variants.size(); ++i) {
        const Variant &v = variants[i];
        const int round = roundOf[i];
        const int count = perRound[size_t(round)];
        const int index = seen[size_t(round)]++;
        // Spread each round's variants across its slot so they do not sit on one vertical line.
        const double x = round + (count > 1 ? (double(index) / (count - 1) - 0.5) * 0.6 : 0.0);
        if (v.isCorrect() && v.eval.speedup && *v.eval.speedup > 0) {
            const double y = *v.eval.speedup;
            lo = std::min(lo, y);
            hi = std::max(hi, y);
            const bool held = v.suspicious && !v.accepted;
            (held ? suspicious : correct).append(QCPGraphData(x, y));
            addHit(xAxis, yAxis, x, y, v.id);
            if (!held)
                bestOfRound[size_t(round)] = std::max(bestOfRound[size_t(round)], y);
        } else if (v.status == VariantStatus::Failed || (v.hasEvaluation() && !v.isCorrect())) {
            failures.emplace_back(x, v.id);
        }
    }
    // Failures sit just above the bottom edge, where no speedup can be.
    const double bottom = lo / 2.0;
    const double top = hi * 1.6;
    const double failY = bottom * std::pow(top / bottom, 0.04);
    for (const auto &[x, id] : failures) {
        failed.append(QCPGraphData(x, failY));
        addHit(xAxis, yAxis, x, failY, id);
    }
    double running = 0;
    for (int round = 0; round <= lastRound; ++round) {
        running = std::max(running, bestOfRound[size_t(round)]);
        if (running > 0)
            best.append(QCPGraphData(round - 0.5, running));
    }
    if (running > 0)
        best.append(QCPGraphData(lastRound + 0.5, running));
    m_best = running;
    // Thousands of vector markers are the slowest part of a replot: dense plots blit pixmaps instead (exports
    // of small sessions keep vector markers).
    const bool dense = correct.size() + suspicious.size() + failed.size() > 1500;
    QCPGraph *marks[3] = {m_correct, m_suspicious, m_failed};
    for (int i = 0; i < 3; ++i)
        marks[i]->setScatterStyle(dense ? m_rasters[i] : m_styles[i]);
    m_correct->data()->set(correct);
    m_suspicious->data()->set(suspicious);
    m_failed->data()->set(failed);
    m_bestLine->data()->set(best, true);
    m_reference->data()->set({QCPGraphData(-0.6, 1.0), QCPGraphData(lastRound + 0.6, 1.0)}, true);
    xAxis->setRange(-0.6, lastRound + 0.6);
    yAxis->setRange(bottom, top);
    updateSelected();
}

void SpeedupChart::updateSelected()
{
    QVector<QCPGraphData> sel;
    if (selection())
        for (qint64 id : selection()->selected()) {
            const QPointF p = positionOf(id);
            if (p.x() > -1)
                sel.append(QCPGraphData(p.x(), p.y()));
        }
    m_selected->data()->set(sel);
}

void SpeedupChart::selectionMoved()
{
    updateSelected();
    if (isVisible())
        replot(rpQueuedReplot);
}

} // namespace kforge
