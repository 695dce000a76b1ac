#include "views/compare/comparemetricsmodel.h"
#include "core/optimizer/profilesummary.h"
#include "views/variants/measurementtext.h"

#include <QColor>
#include <QLocale>
#include <cmath>

namespace kforge {

namespace {

QString bytesText(double bytes)
{
    return QLocale().formattedDataSize(qint64(bytes), 2, QLocale::DataSizeTraditionalFormat);
}

} // namespace

CompareMetricsModel::CompareMetricsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void CompareMetricsModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_labelA.clear();
    m_labelB.clear();
    endResetModel();
}

void CompareMetricsModel::setMeasurements(const VariantMeasurement &a, const VariantMeasurement &b, const QString &labelA,
                                          const QString &labelB)
{
    beginResetModel();
    m_labelA = labelA;
    m_labelB = labelB;
    m_rows.clear();
    auto add = [&](const char *key, const QString &name, Kind kind, Better better, std::optional<double> va,
                   std::optional<double> vb, const QString &whyA, const QString &whyB) {
        Row r;
        r.key = QLatin1String(key);
        r.name = name;
        r.kind = kind;
        r.better = better;
        r.a = va;
        r.b = vb;
        r.missingA = whyA;
        r.missingB = whyB;
        m_rows << r;
    };
    auto intOpt = [](std::optional<int> v) { return v ? std::optional<double>(*v) : std::nullopt; };
    auto longOpt = [](std::optional<qint64> v) { return v ? std::optional<double>(double(*v)) : std::nullopt; };
    const QString noCompile = tr("no resource usage from the compiler was stored");

    add("time", tr("Median time"), Kind::Ms, Better::Lower, a.medianMs, b.medianMs, a.timingProblem, b.timingProblem);
    add("speedup", tr("Speedup over the reference"), Kind::Times, Better::Higher, a.speedup, b.speedup, a.timingProblem,
        b.timingProblem);
    add("sol", tr("Speed of light"), Kind::Percent, Better::Higher, a.solPct, b.solPct,
        a.timingProblem.isEmpty() ? tr("the task has no FLOP or byte formula, or the device peaks are unknown") : a.timingProblem,
        b.timingProblem.isEmpty() ? tr("the task has no FLOP or byte formula, or the device peaks are unknown") : b.timingProblem);
    {
        Row r;
        r.key = QStringLiteral("bound");
        r.name = tr("Bound");
        r.kind = Kind::Text;
        r.textA = a.bound.isEmpty() ? QString() : MeasurementText::bound(a.bound);
        r.textB = b.bound.isEmpty() ? QString() : MeasurementText::bound(b.bound);
        r.missingA = a.metricsProblem;
        r.missingB = b.metricsProblem;
        m_rows << r;
    }
    add("kernel_time", tr("Kernel time per run (CUPTI)"), Kind::Ms, Better::Lower, a.kernelTimeMs, b.kernelTimeMs,
        a.traceProblem, b.traceProblem);
    add("launches", tr("Kernel launches per run"), Kind::Count, Better::Neither, a.launchesPerRun, b.launchesPerRun,
        a.traceProblem, b.traceProblem);
    add("dram_bytes", tr("DRAM traffic"), Kind::Bytes, Better::Lower, a.dramBytes, b.dramBytes, a.metricsProblem,
        b.metricsProblem);
    add("bandwidth", tr("DRAM bandwidth"), Kind::Gbps, Better::Neither, a.achievedGbps, b.achievedGbps, a.metricsProblem,
        b.metricsProblem);
    add("gflops", tr("FP32 rate"), Kind::Gflops, Better::Neither, a.achievedGflops, b.achievedGflops, a.metricsProblem,
        b.metricsProblem);
    add("occupancy", tr("Achieved occupancy"), Kind::Percent, Better::Neither, a.achievedOccupancyPct,
        b.achievedOccupancyPct, a.metricsProblem, b.metricsProblem);
    add("theoretical_occupancy", tr("Theoretical occupancy"), Kind::Percent, Better::Neither, a.theoreticalOccupancyPct,
        b.theoreticalOccupancyPct, a.traceProblem, b.traceProblem);
    add("sm_throughput", tr("SM throughput"), Kind::Percent, Better::Neither, a.smThroughputPct, b.smThroughputPct,
        a.metricsProblem, b.metricsProblem);
    add("dram_throughput", tr("DRAM throughput"), Kind::Percent, Better::Neither, a.dramThroughputPct,
        b.dramThroughputPct, a.metricsProblem, b.metricsProblem);
    add("l2_hit_rate", tr("L2 hit rate"), Kind::Percent, Better::Neither, a.l2HitRatePct, b.l2HitRatePct,
        a.metricsProblem, b.metricsProblem);
    add("registers", tr("Registers per thread"), Kind::Count, Better::Neither, intOpt(a.registers), intOpt(b.registers),
        a.traceProblem.isEmpty() ? noCompile : a.traceProblem, b.traceProblem.isEmpty() ? noCompile : b.traceProblem);
    add("spills", tr("Register spills"), Kind::Bytes, Better::Lower, longOpt(a.spillBytes), longOpt(b.spillBytes), noCompile,
        noCompile);
    add("smem", tr("Shared memory per block"), Kind::Bytes, Better::Neither, longOpt(a.sharedBytes), longOpt(b.sharedBytes),
        a.traceProblem, b.traceProblem);
    endResetModel();
}

int CompareMetricsModel::rowOf(const QString &key) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].key == key)
            return i;
    return -1;
}

int CompareMetricsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CompareMetricsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString CompareMetricsModel::format(const Row &r, bool sideA) const
{
    if (r.kind == Kind::Text)
        return sideA ? r.textA : r.textB;
    const std::optional<double> v = sideA ? r.a : r.b;
    if (!v)
        return {};
    switch (r.kind) {
    case Kind::Ms: return tr("%1 ms").arg(formatMeasure(*v));
    case Kind::Times: return formatMeasure(*v) + QStringLiteral("×");
    case Kind::Percent: return tr("%1%").arg(formatMeasure(*v));
    case Kind::Bytes: return bytesText(*v);
    case Kind::Gbps: return tr("%1 GB/s").arg(formatMeasure(*v));
    case Kind::Gflops: return tr("%1 GFLOP/s").arg(formatMeasure(*v));
    case Kind::Count: return formatMeasure(*v);
    case Kind::Text: break;
    }
    return {};
}

QString CompareMetricsModel::deltaText(const Row &r) const
{
    if (r.kind == Kind::Text) {
        if (r.textA.isEmpty() || r.textB.isEmpty())
            return {};
        return r.textA == r.textB ? tr("same") : tr("differs");
    }
    if (!r.a || !r.b)
        return {};
    const double a = *r.a, b = *r.b;
    switch (r.kind) {
    case Kind::Percent: {
        const double d = a - b;
        return tr("%1%2 pp").arg(d >= 0 ? QStringLiteral("+") : QString(), formatMeasure(d));
    }
    case Kind::Count: {
        const double d = a - b;
        return d == 0 ? tr("same") : QStringLiteral("%1%2").arg(d > 0 ? QStringLiteral("+") : QString(), formatMeasure(d));
    }
    default:
        if (b == 0)
            return a == 0 ? tr("same") : QString();
        if (a == b)
            return tr("same");
        if (r.kind == Kind::Ms && a > 0)
            return a < b ? tr("%1× faster").arg(formatMeasure(b / a)) : tr("%1× slower").arg(formatMeasure(a / b));
        return tr("ratio %1").arg(formatMeasure(a / b));
    }
}

int CompareMetricsModel::verdict(const Row &r) const
{
    if (r.better == Better::Neither || !r.a || !r.b || *r.a == *r.b)
        return 0;
    const bool aHigher = *r.a > *r.b;
    return (r.better == Better::Higher) == aHigher ? 1 : -1;
}

QVariant CompareMetricsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Metric: return r.name;
        case A: {
            const QString s = format(r, true);
            return s.isEmpty() ? QStringLiteral("—") : s;
        }
        case B: {
            const QString s = format(r, false);
            return s.isEmpty() ? QStringLiteral("—") : s;
        }
        case Delta: return deltaText(r);
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == A && format(r, true).isEmpty() && !r.missingA.isEmpty())
            return tr("Not measured: %1").arg(r.missingA);
        if (index.column() == B && format(r, false).isEmpty() && !r.missingB.isEmpty())
            return tr("Not measured: %1").arg(r.missingB);
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() == Metric ? (Qt::AlignLeft | Qt::AlignVCenter)
                                                            : (Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ForegroundRole:
        if (index.column() == Delta) {
            const int v = verdict(r);
            if (v > 0)
                return QColor(0x1e, 0x84, 0x49);
            if (v < 0)
                return QColor(0xc0, 0x39, 0x2b);
        }
        if ((index.column() == A && format(r, true).isEmpty()) || (index.column() == B && format(r, false).isEmpty()))
            return QColor(Qt::gray);
        return {};
    case VerdictRole: return verdict(r);
    case KeyRole: return r.key;
    default: return {};
    }
}

QVariant CompareMetricsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Metric: return tr("Metric");
    case A: return m_labelA.isEmpty() ? tr("A") : tr("A: %1").arg(m_labelA);
    case B: return m_labelB.isEmpty() ? tr("B") : tr("B: %1").arg(m_labelB);
    case Delta: return tr("A against B");
    }
    return {};
}

} // namespace kforge
