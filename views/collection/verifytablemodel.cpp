#include "views/collection/verifytablemodel.h"

#include "core/collection/hackclass.h"
#include "core/eval/evalresult.h"

#include <QBrush>
#include <QColor>
#include <QLocale>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// Compared field by field: what a new result of a pair can change.
bool sameRow(const VerifyRow &a, const VerifyRow &b)
{
    return a.pair == b.pair && a.state == b.state && a.verdict == b.verdict && a.otherVerdict == b.otherVerdict
           && a.speedup == b.speedup && a.speedupLow == b.speedupLow && a.speedupHigh == b.speedupHigh && a.claim == b.claim
           && a.flags == b.flags && a.passesAt == b.passesAt && a.heldOut == b.heldOut && a.timeS == b.timeS
           && a.message == b.message && a.kernels == b.kernels && a.speedOfLightPct == b.speedOfLightPct;
}

} // namespace

VerifyTableModel::VerifyTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void VerifyTableModel::setRows(const QList<VerifyRow> &rows)
{
    bool samePairs = rows.size() == m_rows.size();
    for (qsizetype i = 0; samePairs && i < rows.size(); ++i)
        samePairs = rows.at(i).pair == m_rows.at(i).pair;
    if (!samePairs) {
        beginResetModel();
        m_rows = rows;
        endResetModel();
        return;
    }
    for (qsizetype i = 0; i < rows.size(); ++i) {
        if (sameRow(rows.at(i), m_rows.at(i)))
            continue;
        m_rows[i] = rows.at(i);
        Q_EMIT dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
    }
}

int VerifyTableModel::rowOf(const QString &pair) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).pair == pair)
            return int(i);
    return -1;
}

int VerifyTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int VerifyTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString VerifyTableModel::speedupText(std::optional<double> v)
{
    return v ? tr("%1×").arg(QLocale().toString(*v, 'f', 2)) : QString();
}

QString VerifyTableModel::verdictText(const VerifyRow &row)
{
    switch (row.state) {
    case VerifyRow::State::NotImported: return tr("not imported");
    case VerifyRow::State::NotRun: return tr("not run");
    case VerifyRow::State::Measured: break;
    }
    return row.verdict ? verdictDisplayName(*row.verdict) : row.otherVerdict;
}

QString VerifyTableModel::heldOutText(const VerifyRow &row)
{
    if (row.heldOut.isEmpty())
        return {};
    if (row.heldOutFailed)
        return tr("fails");
    if (row.heldOut.startsWith(u"holds"))
        return row.heldOut.contains(u" not ") ? tr("holds so far") : tr("holds");
    if (row.heldOut.startsWith(u"not tried"))
        return tr("not tried");
    return tr("pending");
}

QVariant VerifyTableModel::display(const VerifyRow &r, int column) const
{
    switch (Column(column)) {
    case Pair: return r.pair;
    case Problem: return r.problem;
    case Kind: return r.kind;
    case Verdict: return verdictText(r);
    case Speedup: return speedupText(r.speedup);
    case Noise:
        return r.speedupLow && r.speedupHigh ? tr("%1–%2×").arg(QLocale().toString(*r.speedupLow, 'f', 2),
                                                                QLocale().toString(*r.speedupHigh, 'f', 2))
                                             : QString();
    case Claimed: return speedupText(r.claimed);
    case Claim:
        switch (r.claim) {
        case VerifyRow::Claim::Holds: return tr("holds");
        case VerifyRow::Claim::DoesNotHold: return tr("does not hold");
        case VerifyRow::Claim::None: break;
        }
        return {};
    case SpeedOfLight:
        return r.speedOfLightPct ? tr("%1%").arg(QLocale().toString(*r.speedOfLightPct, 'f', 1)) : QVariant();
    case Flags: return r.flags.join(u", "_s);
    case HackClass: {
        QStringList names;
        for (const kforge::HackClass &h : r.hacks)
            names << (h.number ? tr("#%1 %2").arg(h.number).arg(HackClasses::displayName(h)) : HackClasses::displayName(h));
        return names.join(u"; "_s);
    }
    case PassesAt:
        if (r.passesAt == u"no")
            return tr("not at 1e-2");
        return r.passesAt;
    case Kernels: return r.kernels;
    case Time: return r.timeS > 0 ? tr("%1 s").arg(QLocale().toString(r.timeS, 'f', 1)) : QString();
    case HeldOut: return heldOutText(r);
    case Cause: return r.message;
    case ColumnCount: break;
    }
    return {};
}

QVariant VerifyTableModel::sortValue(const VerifyRow &r, int column) const
{
    const auto number = [](std::optional<double> v) { return v ? QVariant(*v) : QVariant(); };
    switch (Column(column)) {
    case Speedup: return number(r.speedup);
    case Noise: return number(r.speedupLow);
    case Claimed: return number(r.claimed);
    case SpeedOfLight: return number(r.speedOfLightPct);
    case Time: return r.timeS > 0 ? QVariant(r.timeS) : QVariant();
    case Verdict: return r.measured() ? (r.correct() ? 0 : 1) * 10 + (r.flagged() ? 1 : 0) : 100 + int(r.state);
    case Claim: return r.claim == VerifyRow::Claim::None ? QVariant() : QVariant(int(r.claim));
    case Flags: return int(r.flags.size());
    default: break;
    }
    const QVariant text = display(r, column);
    return text.toString().isEmpty() ? QVariant() : text;
}

QVariant VerifyTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const VerifyRow &r = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole: return display(r, index.column());
    case PairRole: return r.pair;
    case SortRole: return sortValue(r, index.column());
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Problem: return r.problemOrigin;
        case Pair: return r.candidate;
        case HeldOut: return r.heldOut;
        case SpeedOfLight: return r.speedOfLight;
        case Cause:
        case Verdict: return r.message.isEmpty() ? QVariant() : r.message;
        default: return r.notes.isEmpty() ? QVariant() : r.notes.join(u'\n');
        }
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case Speedup:
        case Noise:
        case Claimed:
        case SpeedOfLight:
        case Time: return int(Qt::AlignRight | Qt::AlignVCenter);
        default: return {};
        }
    case Qt::ForegroundRole:
        if (index.column() == Verdict && r.measured())
            return QBrush(r.correct() ? (r.flagged() ? QColor(0xb3, 0x6b, 0x00) : QColor(0x1e, 0x7d, 0x32))
                                      : QColor(0xc6, 0x28, 0x28));
        if (index.column() == Claim && r.claim != VerifyRow::Claim::None)
            return QBrush(r.claim == VerifyRow::Claim::Holds ? QColor(0x1e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
        if (index.column() == HeldOut && r.heldOutFailed)
            return QBrush(QColor(0xc6, 0x28, 0x28));
        return {};
    default: return {};
    }
}

QVariant VerifyTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case Noise: return tr("The speedup's noise interval: both medians' 95% intervals combined");
        case Claim: return tr("Whether the claimed speedup holds: correct, unflagged, and within the noise interval");
        case PassesAt: return tr("The tolerance at which a failing pair would pass (atol = rtol)");
        case Kernels: return tr("What it runs on the GPU, from the trace: its own kernels or a library's");
        case Time: return tr("The workers' time on the pair, every run, plus its compile");
        case HeldOut: return tr("Whether it still holds at two held-out sizes of the problem");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Pair: return tr("Pair");
    case Problem: return tr("Problem");
    case Kind: return tr("Kind");
    case Verdict: return tr("Verdict");
    case Speedup: return tr("Speedup");
    case Noise: return tr("Noise interval");
    case Claimed: return tr("Claimed");
    case Claim: return tr("Claim");
    case SpeedOfLight: return tr("% SoL");
    case Flags: return tr("Flags");
    case HackClass: return tr("Hack class");
    case PassesAt: return tr("Passes at");
    case Kernels: return tr("Kernels");
    case Time: return tr("Time");
    case HeldOut: return tr("Held-out sizes");
    case Cause: return tr("Cause");
    case ColumnCount: break;
    }
    return {};
}

} // namespace kforge
