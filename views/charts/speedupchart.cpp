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
    m_suspicious = scatter(QCPScatterStyle(QCPScatterStyle::ssTriangle, QColor(0xff, 0x7f, 0x0e), 8),
                           tr("suspicious (not yet accepted)"));
    m_failed = scatter(QCPScatterStyle(QCPScatterStyle::ssCross, QColor(0xd6, 0x27, 0x28), 7), tr("failed"));
    m_selected = scatter(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 13), tr("selected"));

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
    m_positions.clear();
    m_best = 0;
    QVector<QCPGraphData> correct, suspicious, failed, best;
    if (!store() || !store()->isOpen() || store()->population().isEmpty()) {
        for (QCPGraph *g : {m_correct, m_suspicious, m_failed, m_bestLine, m_reference, m_selected})
            g->data()->clear();
        setMessage(store() && store()->isOpen() ? tr("No variants yet") : tr("No session is open"));
        return;
    }
    setMessage({});
    const auto &variants = store()->population().variants();
    QHash<qint64, int> roundNumbers;
    for (const auto &r : store()->rounds())
        roundNumbers.insert(r.id, r.number);
    // Spread each round's variants across its slot so they do not sit on one vertical line.
    QHash<int, int> perRound, seen;
    int lastRound = 0;
    for (const auto &v : variants) {
        const int n = roundNumbers.value(v.roundId);
        ++perRound[n];
        lastRound = std::max(lastRound, n);
    }
    double lo = 1.0, hi = 1.0;
    struct Pending { double x; qint64 id; };
    QList<Pending> failures;
    QMap<int, double> bestOfRound;
    for (const auto &v : variants) {
        const int round = roundNumbers.value(v.roundId);
        const int count = perRound.value(round);
        const int index = seen[round]++;
        const double x = round + (count > 1 ? (double(index) / (count - 1) - 0.5) * 0.6 : 0.0);
        if (v.isCorrect() && v.eval.speedup && *v.eval.speedup > 0) {
            const double y = *v.eval.speedup;
            lo = std::min(lo, y);
            hi = std::max(hi, y);
            const bool held = v.suspicious && !v.accepted;
            (held ? suspicious : correct).append(QCPGraphData(x, y));
            addHit(xAxis, yAxis, x, y, v.id);
            m_positions.insert(v.id, QPointF(x, y));
            if (!held) {
                auto it = bestOfRound.find(round);
                if (it == bestOfRound.end() || *it < y)
                    bestOfRound[round] = y;
            }
        } else if (v.status == VariantStatus::Failed || (v.hasEvaluation() && !v.isCorrect())) {
            failures.append({x, v.id});
        }
    }
    // Failures sit just above the bottom edge, where no speedup can be.
    const double bottom = lo / 2.0;
    const double top = hi * 1.6;
    const double failY = bottom * std::pow(top / bottom, 0.04);
    for (const Pending &f : std::as_const(failures)) {
        failed.append(QCPGraphData(f.x, failY));
        addHit(xAxis, yAxis, f.x, failY, f.id);
        m_positions.insert(f.id, QPointF(f.x, failY));
    }
    double running = 0;
    for (int round = 0; round <= lastRound; ++round) {
        if (bestOfRound.contains(round))
            running = std::max(running, bestOfRound.value(round));
        if (running > 0)
            best.append(QCPGraphData(round - 0.5, running));
    }
    if (running > 0)
        best.append(QCPGraphData(lastRound + 0.5, running));
    m_best = running;
    m_correct->data()->set(correct);
    m_suspicious->data()->set(suspicious);
    m_failed->data()->set(failed);
    m_bestLine->data()->set(best);
    m_reference->data()->set({QCPGraphData(-0.6, 1.0), QCPGraphData(lastRound + 0.6, 1.0)});
    xAxis->setRange(-0.6, lastRound + 0.6);
    yAxis->setRange(bottom, top);
    updateSelected();
}

void SpeedupChart::updateSelected()
{
    QVector<QCPGraphData> sel;
    if (selection())
        for (qint64 id : selection()->selected())
            if (const auto it = m_positions.constFind(id); it != m_positions.cend())
                sel.append(QCPGraphData(it->x(), it->y()));
    m_selected->data()->set(sel);
}

void SpeedupChart::selectionMoved()
{
    updateSelected();
    if (isVisible())
        replot(rpQueuedReplot);
}

} // namespace kforge
