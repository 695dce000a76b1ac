#include "views/compare/comparemetricsmodel.h"
#include "core/eval/measureformat.h"
#include "views/variants/measurementtext.h"

#include <QColor>
#include <QFont>
#include <algorithm>
#include <cmath>

namespace kforge {

namespace {

// Bytes in a given unit (1024^power), so both sides of a row read in the same unit.
QString bytesText(double bytes, int power)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    power = std::clamp(power, 0, 4);
    return QStringLiteral("%1 %2").arg(formatMeasure(bytes / std::pow(1024.0, power)), QLatin1String(units[power]));
}

int bytesPower(double bytes)
{
    int power = 0;
    while (power < 4 && std::abs(bytes) >= 1024.0 * std::pow(1024.0, power))
        ++power;
    return power;
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
    m_largest.clear();
    m_ratio.reset();
    m_labelA.clear();
    m_labelB.clear();
    endResetModel();
}

void CompareMetricsModel::setMeasurements(const MeasurementFigures &a, const MeasurementFigures &b,
                                          const QString &labelA, const QString &labelB)
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

    m_ratio = kforge::timeRatio(a, b);
    add("time", TimeNames::eventTime(), Kind::Ms, Better::Lower, a.medianMs, b.medianMs, a.timingProblem, b.timingProblem);
    m_rows.last().nameTip = TimeNames::eventTimeTip();
    {
        // The spread of each time: the 10th to 90th percentile of the timed runs, both sides in one unit.
        const TimeUnit unit = timeUnitFor(std::max(a.p90Ms.value_or(0), b.p90Ms.value_or(0)));
        auto band = [unit](const MeasurementFigures &m) {
            return m.p10Ms && m.p90Ms ? tr("%1–%2 %3")
                                            .arg(formatMeasure(inTimeUnit(*m.p10Ms, unit)),
                                                 formatMeasure(inTimeUnit(*m.p90Ms, unit)), timeUnitSymbol(unit))
                                      : QString();
        };
        Row r;
        r.key = QStringLiteral("time_band");
        r.name = tr("Event time, 10th–90th percentile");
        r.kind = Kind::Text;
        r.textA = band(a);
        r.textB = band(b);
        const QString old = tr("the result keeps no percentiles of the timed runs");
        r.missingA = a.timingProblem.isEmpty() ? old : a.timingProblem;
        r.missingB = b.timingProblem.isEmpty() ? old : b.timingProblem;
        m_rows << r;
    }
    auto pct = [](std::optional<double> cv) { return cv ? std::optional<double>(100.0 * *cv) : std::nullopt; };
    add("cv", tr("Spread of the event time (CV)"), Kind::Percent, Better::Lower, pct(a.cv), pct(b.cv), a.timingProblem,
        b.timingProblem);
    add("runs", tr("Timed runs"), Kind::Count, Better::Neither, a.runs, b.runs, a.timingProblem, b.timingProblem);
    add("speedup", tr("Speedup over the reference"), Kind::Times, Better::Higher, a.speedup, b.speedup, a.timingProblem,
        b.timingProblem);
    {
        // A number to compare only within both floors; beating one is said in words (core/eval/speedoflight.h).
        using State = SpeedOfLight::State;
        const auto within = [](const SpeedOfLight &s) {
            return s.state == State::WithinFloors ? s.percent() : std::nullopt;
        };
        // The cell reads as the Variants table's, figure included.
        const auto words = [](const SpeedOfLight &s) { return s.isKnown() ? s.cellText() : QString(); };
        add("sol", tr("Speed of light"), Kind::Percent, Better::Higher, within(a.speedOfLight), within(b.speedOfLight),
            a.timingProblem.isEmpty() ? tr("the task has no FLOP or byte formula, or the device peaks are unknown")
                                      : a.timingProblem,
            b.timingProblem.isEmpty() ? tr("the task has no FLOP or byte formula, or the device peaks are unknown")
                                      : b.timingProblem);
        Row &sol = m_rows.last();
        sol.textA = words(a.speedOfLight);
        sol.textB = words(b.speedOfLight);
        if (a.speedOfLight.isKnown())
            sol.tipA = a.speedOfLight.explanation();
        if (b.speedOfLight.isKnown())
            sol.tipB = b.speedOfLight.explanation();
    }
    for (Row &r : m_rows)
        r.timing = true;
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
    add("kernel_time", TimeNames::kernelTime(), Kind::Ms, Better::Lower, a.kernelTimeMs, b.kernelTimeMs,
        a.traceProblem, b.traceProblem);
    m_rows.last().nameTip = TimeNames::kernelTimeTip();
    add("launches", tr("Kernel launches per run"), Kind::Count, Better::Neither, a.launchesPerRun, b.launchesPerRun,
        a.traceProblem, b.traceProblem);
    add("dram_bytes", tr("DRAM traffic"), Kind::Bytes, Better::Lower, a.dramBytes, b.dramBytes, a.metricsProblem,
        b.metricsProblem);
    add("bandwidth", tr("DRAM bandwidth"), Kind::Gbps, Better::Neither, a.achievedGbps, b.achievedGbps,
        a.metricsProblem, b.metricsProblem);
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
    add("spills", tr("Register spills"), Kind::Bytes, Better::Lower, longOpt(a.spillBytes), longOpt(b.spillBytes),
        noCompile, noCompile);
    add("smem", tr("Shared memory per block"), Kind::Bytes, Better::Neither, longOpt(a.sharedBytes),
        longOpt(b.sharedBytes), a.traceProblem, b.traceProblem);
    m_rows[rowOf(QStringLiteral("kernel_time"))].timing = true; // CUPTI's view of the same time
    // Rates are the same work over a different time: they mirror the time gap instead of explaining it.
    const QStringList mirrors{QStringLiteral("kernel_time"), QStringLiteral("bandwidth"), QStringLiteral("gflops")};

    // The time leads; the rest follows by how much it differs, so the top of the table says what changed.
    for (Row &r : m_rows)
        r.difference = r.timing || mirrors.contains(r.key) ? 0.0 : differenceOf(r);
    const auto firstOther = std::stable_partition(m_rows.begin(), m_rows.end(), [](const Row &r) { return r.timing; });
    std::stable_sort(firstOther, m_rows.end(), [](const Row &x, const Row &y) { return x.difference > y.difference; });
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].difference > 0)
            m_largest << i;
    endResetModel();
}

double CompareMetricsModel::differenceOf(const Row &r)
{
    // One scale for every kind: |ln(A/B)| for amounts (2× either way: 0.69), percentage points over 50 for
    // shares (a 35 pp gap weighs like 2×), and a fixed weight for a changed bound or a value that appears
    // from nothing (0 spills against 24 bytes).
    if (r.kind == Kind::Text)
        return !r.textA.isEmpty() && !r.textB.isEmpty() && r.textA != r.textB ? 1.0 : 0.0;
    if (!r.a || !r.b)
        return 0;
    const double a = std::abs(*r.a), b = std::abs(*r.b);
    if (r.kind == Kind::Percent)
        return std::abs(a - b) / 50.0;
    if (a == b)
        return 0;
    if (a == 0 || b == 0)
        return 1.5;
    return std::abs(std::log(a / b));
}

QList<int> CompareMetricsModel::largestDifferences(int n) const
{
    return m_largest.mid(0, n);
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
    if (r.kind == Kind::Text || !(sideA ? r.textA : r.textB).isEmpty())
        return sideA ? r.textA : r.textB;
    const std::optional<double> v = sideA ? r.a : r.b;
    if (!v)
        return {};
    switch (r.kind) {
    case Kind::Ms:
        return formatDuration(*v, timeUnitFor(std::max(std::abs(r.a.value_or(0)), std::abs(r.b.value_or(0)))));
    case Kind::Times: return formatMeasure(*v) + QStringLiteral("×");
    case Kind::Percent: return tr("%1%").arg(formatMeasure(*v));
    case Kind::Bytes: return bytesText(*v, bytesPower(std::max(std::abs(r.a.value_or(0)), std::abs(r.b.value_or(0)))));
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
        if (r.textA.isEmpty() || r.textB.isEmpty() || r.key == u"time_band") // the time's row says it
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
    case Kind::Bytes: {
        if (a == b)
            return tr("same");
        // A difference in the row's unit: a ratio against nothing says nothing.
        const double d = a - b;
        const int power = bytesPower(std::max(std::abs(a), std::abs(b)));
        return a == 0 || b == 0 ? (d > 0 ? QStringLiteral("+") : QStringLiteral("−")) + bytesText(std::abs(d), power)
                                : tr("ratio %1").arg(formatMeasure(a / b));
    }
    default:
        if (b == 0)
            return a == 0 ? tr("same") : QString();
        if (a == b)
            return tr("same");
        if (r.kind == Kind::Ms && a > 0) {
            const QString d = a < b ? tr("%1× faster").arg(formatMeasure(b / a))
                                    : tr("%1× slower").arg(formatMeasure(a / b));
            return r.key == u"time" && m_ratio && m_ratio->withinNoise() ? tr("%1, within noise").arg(d) : d;
        }
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
        if (index.column() == Delta && r.key == u"time" && m_ratio)
            return tr("A's time over B's: %1, with an 80% interval of %2 to %3 (%4). %5")
                .arg(formatMeasure(m_ratio->ratio), formatMeasure(m_ratio->low), formatMeasure(m_ratio->high),
                     m_ratio->basis == TimeRatio::Basis::Quantiles
                         ? tr("a fast run of one against a slow run of the other: the 10th and 90th percentiles")
                         : tr("from each side's coefficient of variation; the result keeps no percentiles"),
                     m_ratio->withinNoise() ? tr("The interval holds 1: the difference is within noise.")
                                            : tr("The interval excludes 1: the difference is real."));
        if (index.column() == Metric && !r.nameTip.isEmpty())
            return r.nameTip;
        if (index.column() == A && format(r, true).isEmpty() && !r.missingA.isEmpty())
            return tr("Not measured: %1").arg(r.missingA);
        if (index.column() == B && format(r, false).isEmpty() && !r.missingB.isEmpty())
            return tr("Not measured: %1").arg(r.missingB);
        if (index.column() == A && !r.tipA.isEmpty())
            return r.tipA;
        if (index.column() == B && !r.tipB.isEmpty())
            return r.tipB;
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
    case Qt::FontRole:
        if (m_largest.mid(0, 3).contains(index.row())) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case VerdictRole: return verdict(r);
    case DifferenceRole: return r.difference;
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
