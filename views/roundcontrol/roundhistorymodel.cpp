#include "views/roundcontrol/roundhistorymodel.h"
#include "core/eval/measureformat.h"
#include "core/session/sessionhistory.h"
#include "core/session/sessionstore.h"

#include <QHash>
#include <QLocale>

namespace kforge {

namespace {

QString outcomeText(RoundState s)
{
    switch (s) {
    case RoundState::Finished: return RoundHistoryModel::tr("finished");
    case RoundState::Stopped: return RoundHistoryModel::tr("stopped");
    case RoundState::Failed: return RoundHistoryModel::tr("failed");
    case RoundState::Interrupted: return RoundHistoryModel::tr("interrupted");
    case RoundState::Running: return RoundHistoryModel::tr("running");
    case RoundState::Paused: return RoundHistoryModel::tr("paused");
    }
    return {};
}

} // namespace

RoundHistoryModel::RoundHistoryModel(SessionStore *store, SessionHistoryWatch *history, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
    , m_history(history)
{
    m_recount.setSingleShot(true);
    m_recount.setInterval(200);
    connect(&m_recount, &QTimer::timeout, this, &RoundHistoryModel::recount);
    if (m_history)
        connect(m_history, &SessionHistoryWatch::changed, this, &RoundHistoryModel::reload);
    if (m_store) {
        const auto later = [this] {
            if (!m_recount.isActive() && !m_rows.isEmpty())
                m_recount.start();
        };
        connect(m_store, &SessionStore::variantChanged, this, later);
        connect(m_store, &SessionStore::evaluationAdded, this, later);
    }
    reload();
}

void RoundHistoryModel::reload()
{
    QList<Row> rows;
    if (m_history) {
        const SessionHistory &h = m_history->history();
        QHash<qint64, int> at;
        for (const RoundRecord &r : h.rounds) {
            at.insert(r.id, int(rows.size()));
            Row row;
            row.id = r.id;
            row.number = r.number;
            row.state = int(r.state);
            row.message = r.message;
            row.started = r.started;
            row.tokens = r.usage.totalTokens();
            rows << row;
        }
        for (const HistoryAnswer &a : h.answers)
            if (const auto it = at.constFind(a.roundId); it != at.constEnd()) {
                Row &row = rows[*it];
                (a.kind == QLatin1String("repair") ? row.repairs : row.answers) += 1;
            }
    }
    // The same rounds and maybe new ones: changed cells and appended rows, so a selection stays where it is.
    bool prefix = rows.size() >= m_rows.size();
    for (int i = 0; prefix && i < m_rows.size(); ++i)
        prefix = rows[i].id == m_rows[i].id;
    if (!prefix) {
        beginResetModel();
        m_rows = rows;
        count();
        endResetModel();
        return;
    }
    const int old = int(m_rows.size());
    for (int i = 0; i < old; ++i)
        m_rows[i] = rows[i];
    if (rows.size() > old) {
        beginInsertRows({}, old, int(rows.size()) - 1);
        m_rows.append(rows.mid(old));
        endInsertRows();
    }
    recount();
}

void RoundHistoryModel::recount()
{
    m_recount.stop();
    if (m_rows.isEmpty())
        return;
    count();
    Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

void RoundHistoryModel::count()
{
    QHash<qint64, int> at;
    for (int i = 0; i < m_rows.size(); ++i) {
        at.insert(m_rows[i].id, i);
        Row &row = m_rows[i];
        row.variants = row.correct = 0;
        row.best.reset();
        row.bestVariant = 0;
    }
    if (m_store)
        for (const Variant &v : m_store->population().variants()) {
            const auto it = at.constFind(v.roundId);
            if (!v.roundId || it == at.constEnd())
                continue;
            Row &row = m_rows[*it];
            ++row.variants;
            if (!v.isCorrect())
                continue;
            ++row.correct;
            if (v.eval.speedup && (!row.best || *v.eval.speedup > *row.best)) {
                row.best = v.eval.speedup;
                row.bestVariant = v.id;
            }
        }
}

int RoundHistoryModel::rowOfRound(qint64 roundId) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].id == roundId)
            return i;
    return -1;
}

qint64 RoundHistoryModel::roundAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows[row].id : 0;
}

QString RoundHistoryModel::summary() const
{
    if (m_rows.isEmpty())
        return {};
    int answers = 0, correct = 0;
    const Row *best = nullptr;
    for (const Row &r : m_rows) {
        answers += r.answers;
        correct += r.correct;
        if (r.best && (!best || *r.best > *best->best))
            best = &r;
    }
    QString text = tr("Rounds: %1 · answers: %2 · correct variants: %3").arg(m_rows.size()).arg(answers).arg(correct);
    if (best)
        text += QStringLiteral(" · ")
                + tr("best %1× (#%2, round %3)").arg(formatMeasure(*best->best)).arg(best->bestVariant).arg(best->number);
    return text;
}

int RoundHistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RoundHistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RoundHistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[index.row()];
    const QLocale l;
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case Round: return r.number;
        case Outcome: return outcomeText(RoundState(r.state));
        case Answers:
            return r.repairs ? QStringLiteral("%1+%2").arg(r.answers).arg(r.repairs) : QString::number(r.answers);
        case Correct: return tr("%1 of %2").arg(r.correct).arg(r.variants);
        case Best: return r.best ? QVariant(tr("%1× (#%2)").arg(formatMeasure(*r.best)).arg(r.bestVariant)) : QVariant();
        case Tokens: return r.tokens ? QVariant(l.toString(r.tokens)) : QVariant();
        case Started: return r.started.isValid() ? l.toString(r.started.toLocalTime(), QLocale::ShortFormat) : QString();
        case ColumnCount: break;
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == Outcome && !r.message.isEmpty())
            return r.message;
        if (index.column() == Answers && r.repairs)
            return tr("%1 answers, then %2 answers to repair requests").arg(r.answers).arg(r.repairs);
        if (index.column() == Correct)
            return tr("Variants of this round measured correct, of those its answers produced");
        if (index.column() == Best && r.bestVariant)
            return tr("The fastest correct variant of this round");
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() == Outcome || index.column() == Started
                                       ? (Qt::AlignLeft | Qt::AlignVCenter)
                                       : (Qt::AlignRight | Qt::AlignVCenter));
    case RoundIdRole: return r.id;
    case BestVariantRole: return r.bestVariant;
    default: return {};
    }
}

QVariant RoundHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Round: return tr("Round");
    case Outcome: return tr("Outcome");
    case Answers: return tr("Answers");
    case Correct: return tr("Correct");
    case Best: return tr("Best");
    case Tokens: return tr("Tokens");
    case Started: return tr("Started");
    case ColumnCount: break;
    }
    return {};
}

} // namespace kforge
