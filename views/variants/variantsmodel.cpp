#include "views/variants/variantsmodel.h"

#include "core/eval/kernelname.h"
#include "core/eval/measureformat.h"
#include "core/eval/measurementfigures.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "views/variants/measurementtext.h"

#include <QColor>
#include <QElapsedTimer>
#include <QFont>
#include <cmath>

namespace kforge {

namespace {

QString formatTimes(double v)
{
    return formatMeasure(v) + QStringLiteral("×");
}

} // namespace

VariantsModel::VariantsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    m_loadTimer.setSingleShot(true);
    m_loadTimer.setInterval(0);
    connect(&m_loadTimer, &QTimer::timeout, this, &VariantsModel::loadSomeDetails);
}

VariantsModel::~VariantsModel() = default;

void VariantsModel::setStore(SessionStore *store)
{
    for (const auto &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_store = store;
    if (store) {
        m_connections << connect(store, &SessionStore::opened, this, &VariantsModel::reload)
                      << connect(store, &SessionStore::closed, this, &VariantsModel::reload)
                      << connect(store, &SessionStore::variantAdded, this, &VariantsModel::onVariantAdded)
                      << connect(store, &SessionStore::variantChanged, this, &VariantsModel::onVariantChanged)
                      << connect(store, &SessionStore::evaluationAdded, this,
                                 [this](qint64 variantId, qint64) {
                                     dropProvisional(variantId); // the final result replaces it
                                     onVariantChanged(variantId);
                                 })
                      << connect(store, &SessionStore::roundChanged, this, &VariantsModel::onRoundChanged)
                      << connect(store, &QObject::destroyed, this, &VariantsModel::reload);
    }
    reload();
}

SessionStore *VariantsModel::store() const
{
    return m_store;
}

void VariantsModel::setQueue(EvaluationQueue *queue)
{
    for (const auto &c : std::as_const(m_queueConnections))
        disconnect(c);
    m_queueConnections.clear();
    m_evalQueue = queue;
    for (const qint64 id : m_provisional.keys())
        dropProvisional(id);
    if (!queue)
        return;
    m_queueConnections << connect(queue, &EvaluationQueue::provisional, this, &VariantsModel::onProvisional)
                       << connect(queue, &EvaluationQueue::finished, this,
                                  [this](const QueuedEvaluation &e) { dropProvisional(e.variantId); });
}

void VariantsModel::onProvisional(int ticket, const EvalResult &result)
{
    const qint64 variantId = m_evalQueue ? m_evalQueue->variantOf(ticket) : 0;
    const int row = rowOf(variantId);
    if (row < 0)
        return;
    Provisional p;
    p.speedup = result.speedup;
    p.candidateMs = result.candidate.medianMs;
    const QString passes = pendingPassesText(result.pending);
    if (passes.isEmpty())
        p.status = tr("measured, finishing…");
    else if (result.isCorrect())
        p.status = tr("checking: %1…").arg(passes);
    else
        p.status = tr("%1, checking: %2…").arg(verdictDisplayName(result.verdict), passes);
    p.tip = passes.isEmpty() ? tr("Provisional: the final result replaces it")
                             : tr("Provisional: measured before the %1 passes ran; the final result replaces it").arg(passes);
    m_provisional.insert(variantId, p);
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void VariantsModel::dropProvisional(qint64 variantId)
{
    if (!m_provisional.remove(variantId))
        return;
    if (const int row = rowOf(variantId); row >= 0)
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

const VariantsModel::Provisional *VariantsModel::provisionalOf(const Variant &v) const
{
    if (m_provisional.isEmpty())
        return nullptr;
    const auto it = m_provisional.constFind(v.id);
    return it != m_provisional.cend() ? &*it : nullptr;
}

void VariantsModel::reload()
{
    beginResetModel();
    m_details.clear();
    m_queue.clear();
    m_queued.clear();
    m_roundNumbers.clear();
    m_provisional.clear();
    m_rows = 0;
    if (m_store && m_store->isOpen()) {
        m_rows = m_store->population().size();
        for (const auto &r : m_store->rounds().all())
            m_roundNumbers.insert(r.id, r.number);
        // Every measured variant's details, in creation order; rows on screen jump the queue in data().
        for (const auto &v : m_store->population().variants())
            if (v.hasEvaluation())
                enqueue(v.id, false);
    }
    endResetModel();
}

void VariantsModel::onVariantAdded(qint64 id)
{
    if (!m_store)
        return;
    const int size = m_store->population().size();
    if (size > m_rows) {
        beginInsertRows({}, m_rows, size - 1);
        m_rows = size;
        endInsertRows();
    }
    if (const Variant *v = m_store->population().find(id); v && v->hasEvaluation())
        enqueue(id, false);
}

void VariantsModel::onVariantChanged(qint64 id)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    const Variant *v = variantAt(row);
    if (v && v->hasEvaluation() && !m_details.contains(v->eval.id))
        enqueue(id, true);
    if (v && !isInFlight(v->status))
        m_provisional.remove(id); // cancelled or failed without a result: nothing is checked any more
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void VariantsModel::onRoundChanged(qint64 roundId)
{
    if (!m_store || m_roundNumbers.contains(roundId))
        return;
    if (const auto r = m_store->rounds().find(roundId))
        m_roundNumbers.insert(roundId, r->number);
}

int VariantsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int VariantsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const Variant *VariantsModel::variantAt(int row) const
{
    if (!m_store || row < 0 || row >= m_rows || row >= m_store->population().size())
        return nullptr;
    return &m_store->population().variants()[size_t(row)];
}

qint64 VariantsModel::idAt(int row) const
{
    const Variant *v = variantAt(row);
    return v ? v->id : 0;
}

int VariantsModel::rowOf(qint64 variantId) const
{
    if (!m_store)
        return -1;
    const Variant *v = m_store->population().find(variantId);
    if (!v)
        return -1;
    const int row = int(v - m_store->population().variants().data());
    return row < m_rows ? row : -1;
}

QString VariantsModel::originText(VariantOrigin origin)
{
    switch (origin) {
    case VariantOrigin::Reference: return tr("reference");
    case VariantOrigin::Manual: return tr("manual");
    case VariantOrigin::Model: return tr("model");
    case VariantOrigin::Imported: return tr("imported");
    }
    return {};
}

QString VariantsModel::statusText(const Variant &v)
{
    switch (v.status) {
    // Written by the model or by hand and not evaluated yet (a round's candidate waits for a compile slot).
    case VariantStatus::Generated: return tr("not measured");
    case VariantStatus::Compiling: return tr("compiling");
    case VariantStatus::Verifying: return tr("verifying");
    case VariantStatus::Timing: return tr("timing");
    case VariantStatus::Profiling: return tr("profiling");
    case VariantStatus::Done: return tr("done");
    case VariantStatus::Failed: {
        QString why = v.statusMessage.section(QLatin1Char('\n'), 0, 0).trimmed();
        // The stored reason of a measured failure is "<verdict>: <worker's message>" in the language of the day
        // it was measured: say the verdict in today's.
        const QString message = v.eval.message.section(QLatin1Char('\n'), 0, 0).trimmed();
        if (v.hasEvaluation() && !v.eval.isCorrect() && v.eval.hasVerdict() && (message.isEmpty() || why.endsWith(message)))
            why = message.isEmpty() ? MeasurementText::verdict(v.eval.verdictName())
                                    : tr("%1: %2").arg(MeasurementText::verdict(v.eval.verdictName()), message);
        return why.isEmpty() ? tr("failed") : tr("failed: %1").arg(why);
    }
    }
    return {};
}

QStringList VariantsModel::flagTexts(const Variant &v)
{
    QStringList out;
    // A too-good result: checked deeper by the evaluation queue, held when that fails or cannot run.
    if (v.suspicious && !v.accepted)
        out << (isInFlight(v.status) ? tr("deep check running") : tr("held"));
    else if (v.suspicious)
        out << tr("accepted");
    for (const QString &f : v.eval.flags)
        if (f != QLatin1String("held_for_review")) // said by the state above
            out << MeasurementText::flag(f);
    return out;
}

void VariantsModel::enqueue(qint64 variantId, bool urgent) const
{
    if (urgent)
        m_queue.push_front(variantId); // a stale later copy is skipped once its details exist
    else if (!m_queued.contains(variantId))
        m_queue.push_back(variantId);
    m_queued.insert(variantId);
    if (!m_loadTimer.isActive())
        m_loadTimer.start();
}

const VariantsModel::Details *VariantsModel::details(const Variant &v) const
{
    if (!v.hasEvaluation())
        return nullptr;
    const auto it = m_details.constFind(v.eval.id);
    if (it != m_details.cend())
        return &*it;
    enqueue(v.id, true);
    return nullptr;
}

void VariantsModel::loadSomeDetails()
{
    if (!m_store || !m_store->isOpen()) {
        m_queue.clear();
        m_queued.clear();
        return;
    }
    QElapsedTimer clock;
    clock.start();
    QList<int> rows;
    while (!m_queue.empty() && clock.elapsed() < m_budgetMs) {
        const qint64 id = m_queue.front();
        m_queue.pop_front();
        m_queued.remove(id);
        const Variant *v = m_store->population().find(id);
        if (!v || !v->hasEvaluation() || m_details.contains(v->eval.id))
            continue;
        Details d;
        if (const auto e = m_store->evaluations().find(v->eval.id)) {
            const MeasurementFigures &m = e->figures();
            d.speedOfLight = m.speedOfLight;
            d.bound = m.bound;
            d.registers = m.registers;
            d.sharedBytes = m.sharedBytes;
            d.heaviestKernel = m.heaviestKernel;
            d.spillBytes = m.spillBytes;
            d.seed = m.seed;
        }
        m_details.insert(v->eval.id, d);
        if (const int row = rowOf(id); row >= 0)
            rows << row;
    }
    std::sort(rows.begin(), rows.end());
    // Consecutive rows as one range: fewer signals for the proxy and the view to digest.
    for (qsizetype i = 0; i < rows.size();) {
        qsizetype j = i;
        while (j + 1 < rows.size() && rows[j + 1] == rows[j] + 1)
            ++j;
        Q_EMIT dataChanged(index(rows[i], SpeedOfLight), index(rows[j], Registers));
        i = j + 1;
    }
    if (!m_queue.empty())
        m_loadTimer.start();
}

QVariant VariantsModel::display(const Variant &v, int column) const
{
    switch (Column(column)) {
    case Id: return QStringLiteral("#%1").arg(v.id);
    case Label: return v.label;
    case Round: {
        const int n = m_roundNumbers.value(v.roundId);
        return n > 0 ? QVariant(n) : QVariant();
    }
    case Origin: return originText(v.origin);
    case Status:
        if (const Provisional *p = provisionalOf(v))
            return p->status;
        return statusText(v);
    case Speedup:
        if (const Provisional *p = provisionalOf(v))
            return std::isfinite(p->speedup) ? QVariant(formatTimes(p->speedup)) : QVariant();
        return v.eval.speedup ? QVariant(formatTimes(*v.eval.speedup)) : QVariant();
    case Time:
        if (const Provisional *p = provisionalOf(v))
            return std::isfinite(p->candidateMs) ? QVariant(formatDuration(p->candidateMs)) : QVariant();
        return v.eval.candidateMedianMs ? QVariant(formatDuration(*v.eval.candidateMedianMs)) : QVariant();
    case SpeedOfLight:
        if (const Details *d = details(v); d && d->speedOfLight.isKnown())
            return d->speedOfLight.cellText();
        return {};
    case Bound:
        if (const Details *d = details(v); d && !d->bound.isEmpty())
            return MeasurementText::bound(d->bound);
        return {};
    case Registers:
        if (const Details *d = details(v); d && d->registers) {
            if (d->spillBytes && *d->spillBytes > 0)
                return tr("%1 (spills %2 B)").arg(*d->registers).arg(*d->spillBytes);
            return *d->registers;
        }
        return {};
    case Flags: return flagTexts(v).join(QLatin1String(", "));
    case Exemplar: {
        QStringList s;
        if (v.pinned)
            s << tr("pinned");
        if (v.excluded)
            s << tr("excluded");
        return s.join(QLatin1String(", "));
    }
    case Tags: return v.tags.join(QLatin1String(", "));
    case ColumnCount: break;
    }
    return {};
}

std::optional<double> VariantsModel::sortNumber(const Variant &v, int column) const
{
    // Empty numbers sort below every measured one.
    constexpr double none = -1e300;
    switch (Column(column)) {
    case Id: return double(v.id);
    case Round: return double(m_roundNumbers.value(v.roundId));
    case Status: return double(int(v.status));
    // A provisional figure sorts where it shows.
    case Speedup:
        if (const Provisional *p = provisionalOf(v); p && std::isfinite(p->speedup))
            return p->speedup;
        return v.eval.speedup.value_or(none);
    case Time:
        if (const Provisional *p = provisionalOf(v); p && std::isfinite(p->candidateMs))
            return p->candidateMs;
        return v.eval.candidateMedianMs.value_or(none);
    case SpeedOfLight: {
        // Beating a floor sorts above every percentage: beats the FLOP floor, then impossible.
        const Details *d = details(v);
        if (!d)
            return none;
        switch (d->speedOfLight.state) {
        case kforge::SpeedOfLight::State::WithinFloors: return d->speedOfLight.percent().value_or(none);
        case kforge::SpeedOfLight::State::BeatsFlopFloor: return 101.0;
        case kforge::SpeedOfLight::State::BelowByteFloor: return 102.0;
        case kforge::SpeedOfLight::State::Unknown: break;
        }
        return none;
    }
    case Registers: {
        const Details *d = details(v);
        return d && d->registers ? double(*d->registers) : none;
    }
    default: return std::nullopt;
    }
}

QVariant VariantsModel::sortValue(const Variant &v, int column) const
{
    if (const auto n = sortNumber(v, column))
        return *n;
    return display(v, column).toString();
}

bool VariantsModel::lessThan(int leftRow, int rightRow, int column) const
{
    const Variant *l = variantAt(leftRow);
    const Variant *r = variantAt(rightRow);
    if (!l || !r)
        return l < r;
    if (const auto a = sortNumber(*l, column)) {
        const double b = *sortNumber(*r, column);
        return *a < b || (*a == b && l->id < r->id);
    }
    const int c = QString::compare(display(*l, column).toString(), display(*r, column).toString(), Qt::CaseInsensitive);
    return c < 0 || (c == 0 && l->id < r->id);
}

QVariant VariantsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Variant *v = variantAt(index.row());
    if (!v)
        return {};
    switch (role) {
    case Qt::DisplayRole: return display(*v, index.column());
    case Qt::ToolTipRole: {
        QStringList lines;
        if (const Provisional *p = provisionalOf(*v);
            p && (index.column() == Status || index.column() == Speedup || index.column() == Time))
            lines << p->tip;
        if (index.column() == Status && !v->statusMessage.isEmpty())
            lines << v->statusMessage;
        if (v->suspicious && !v->suspiciousReason.isEmpty())
            lines << (v->accepted             ? tr("Accepted after review; held: %1")
                      : isInFlight(v->status) ? tr("Deep check running: %1")
                                              : tr("Held: %1"))
                         .arg(v->suspiciousReason);
        if (index.column() == Flags)
            for (const QString &f : v->eval.flags)
                lines << tr("%1 (%2)").arg(MeasurementText::flag(f), f); // the worker's own name too
        if (index.column() == SpeedOfLight)
            if (const Details *d = details(*v); d && d->speedOfLight.isKnown())
                lines << d->speedOfLight.explanation();
        if (index.column() == Registers)
            if (const Details *d = details(*v); d && !d->heaviestKernel.isEmpty()) {
                // The cell's kernel and its shared memory, the figures the prompt and the report give beside it.
                lines << tr("Longest-running kernel: %1").arg(kernelDisplayName(d->heaviestKernel));
                if (d->sharedBytes && *d->sharedBytes > 0)
                    lines << tr("%1 B of shared memory per block (static and dynamic)").arg(*d->sharedBytes);
            }
        if (index.column() == Status && !v->eval.message.isEmpty() && !v->isCorrect())
            lines << v->eval.message;
        if (index.column() == Status)
            if (const Details *d = details(*v); d && d->seed)
                lines << tr("Inputs from seed %1 (kforge-cli eval --seed %1 reproduces them)").arg(*d->seed);
        return lines.isEmpty() ? QVariant() : QVariant(lines.join(QLatin1Char('\n')));
    }
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case Id:
        case Round:
        case Speedup:
        case Time:
        case SpeedOfLight:
        case Registers: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        default: return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        }
    case Qt::ForegroundRole:
        if (v->excluded)
            return QColor(Qt::gray);
        if (index.column() == Status && v->status == VariantStatus::Failed)
            return QColor(0xc0, 0x39, 0x2b);
        if (index.column() == Flags && v->suspicious && !v->accepted)
            return QColor(0xd3, 0x54, 0x00);
        return {};
    case Qt::FontRole: {
        // Italic: the reference's row, and a provisional figure until its final result comes.
        const bool provisional = provisionalOf(*v)
                                 && (index.column() == Status || index.column() == Speedup || index.column() == Time);
        if (v->pinned || v->origin == VariantOrigin::Reference || provisional) {
            QFont f;
            f.setBold(v->pinned);
            f.setItalic(v->origin == VariantOrigin::Reference || provisional);
            return f;
        }
        return {};
    }
    case IdRole: return v->id;
    case SortRole: return sortValue(*v, index.column());
    case StatusRole: return int(v->status);
    case CorrectRole: return v->isCorrect();
    case InFlightRole: return isInFlight(v->status);
    case SuspiciousRole: return v->suspicious && !v->accepted;
    case PinnedRole: return v->pinned;
    case ExcludedRole: return v->excluded;
    case SearchTextRole:
        return QStringList{QString::number(v->id),
                           QStringLiteral("#%1").arg(v->id),
                           v->label,
                           v->tags.join(QLatin1Char(' ')),
                           originText(v->origin),
                           statusText(*v),
                           v->notes}
            .join(QLatin1Char(' '));
    default: return {};
    }
}

QVariant VariantsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case Speedup: return tr("The reference's event time (median) divided by this variant's");
        case Time: return QString(TimeNames::eventTime() + QLatin1String(": ") + TimeNames::eventTimeTip());
        case SpeedOfLight: return tr("The task's speed-of-light floor as a percentage of the event time (median)");
        case Bound: return tr("What limits the kernels, from the roofline");
        case Registers: return tr("Registers per thread of the longest-running kernel");
        case Exemplar: return tr("Pinned variants are always shown to the model; excluded ones never");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Id: return tr("ID");
    case Label: return tr("Label");
    case Round: return tr("Round");
    case Origin: return tr("Origin");
    case Status: return tr("Status");
    case Speedup: return tr("Speedup");
    // The event time (median), short enough that the main columns fit at 1280×800; the tooltip names it in full.
    case Time: return tr("Event time");
    case SpeedOfLight: return tr("% SOL");
    case Bound: return tr("Bound");
    case Registers: return tr("Registers");
    case Flags: return tr("Flags");
    case Exemplar: return tr("Exemplar");
    case Tags: return tr("Tags");
    case ColumnCount: break;
    }
    return {};
}

} // namespace kforge
