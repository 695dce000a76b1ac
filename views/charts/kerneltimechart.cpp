#include "views/charts/kerneltimechart.h"
#include "core/eval/kernelname.h"
#include "core/eval/measureformat.h"
#include "core/session/sessionstore.h"
#include "views/variants/variantselection.h"

namespace kforge {

namespace {

// A tick label has room for 40 characters.
QString shortName(const QString &name)
{
    const QString shown = kernelDisplayName(name, 40);
    return shown.size() > 40 ? shown.left(38) + QStringLiteral("…") : shown;
}

} // namespace

KernelTimeChart::KernelTimeChart(SessionStore *store, VariantSelection *selection, QWidget *parent)
    : ChartBase(store, selection, parent)
{
    yAxis->setRangeReversed(true); // first variant on top
    xAxis->setLabel(tr("%1 per run (%2)").arg(TimeNames::kernelTime(), timeUnitSymbol(TimeUnit::Ms)));
    yAxis->setTickLength(0, 0);
    yAxis->setSubTicks(false);
    legend->setVisible(true);
    if (store)
        connect(store, &SessionStore::closed, this, [this] { m_cache.clear(); });
}

void KernelTimeChart::rebuild()
{
    clearPlottables();
    clearHits();
    m_bars = 0;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    yAxis->setTicker(ticker);
    if (!store() || !store()->isOpen()) {
        setMessage(tr("No session is open"));
        return;
    }
    QList<qint64> ids = selection() ? selection()->selected() : QList<qint64>{};
    if (ids.size() > kMaxVariants)
        ids = ids.mid(ids.size() - kMaxVariants);
    if (ids.isEmpty()) {
        setMessage(tr("Select variants to see their kernels"));
        return;
    }
    double position = 0;
    double maxMs = 0;
    QStringList missing;
    struct Placed {
        QCPBars *bars;
        double position, ms;
        qint64 variantId;
    };
    QList<Placed> placed;
    for (int i = 0; i < ids.size(); ++i) {
        const Variant *v = store()->population().find(ids[i]);
        if (!v)
            continue;
        if (!v->hasEvaluation()) {
            missing << tr("#%1: not evaluated").arg(v->id);
            continue;
        }
        auto cached = m_cache.constFind(v->id);
        if (cached == m_cache.cend() || cached->first != v->eval.id) {
            const auto e = store()->evaluations().find(v->eval.id);
            cached = m_cache.insert(v->id, {v->eval.id, e ? e->figures() : MeasurementFigures()});
        }
        const MeasurementFigures &m = cached->second;
        if (m.kernels.isEmpty()) {
            missing << tr("#%1: no kernel trace (%2)").arg(v->id).arg(m.traceProblem.isEmpty() ? tr("no kernels") : m.traceProblem);
            continue;
        }
        auto *bars = new QCPBars(yAxis, xAxis);
        const QColor c = colorFor(i);
        bars->setPen(c.darker(130));
        bars->setBrush(c);
        bars->setWidth(0.7);
        bars->setName(v->label.isEmpty() ? QStringLiteral("#%1").arg(v->id)
                                         : QStringLiteral("#%1 %2").arg(v->id).arg(v->label));
        int shown = 0;
        for (const TraceKernel &k : m.kernels) {
            if (shown++ >= kMaxKernelsEach)
                break;
            const double ms = k.msPerRun(m.traceRuns).value_or(0);
            placed.append({bars, position, ms, v->id});
            ticker->addTick(position, QStringLiteral("#%1 %2").arg(v->id).arg(shortName(k.name)));
            maxMs = std::max(maxMs, ms);
            ++m_bars;
            position += 1;
        }
        position += 0.6; // a gap between variants
    }
    // One unit for the axis, picked by the longest bar as every time is (core/eval/measureformat.h).
    const TimeUnit unit = timeUnitFor(maxMs);
    xAxis->setLabel(tr("%1 per run (%2)").arg(TimeNames::kernelTime(), timeUnitSymbol(unit)));
    for (const Placed &p : placed) {
        p.bars->addData(p.position, inTimeUnit(p.ms, unit));
        addHit(yAxis, xAxis, p.position, inTimeUnit(p.ms, unit), p.variantId, 0.35);
    }
    setMessage(missing.isEmpty() ? QString() : missing.join(QLatin1Char('\n')), position > 0);
    if (position > 0) {
        yAxis->setRange(-0.7, position - 0.3);
        xAxis->setRange(0, maxMs > 0 ? inTimeUnit(maxMs, unit) * 1.15 : 1);
    }
}

} // namespace kforge
