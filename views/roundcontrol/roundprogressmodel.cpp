#include "views/roundcontrol/roundprogressmodel.h"
#include "core/eval/measureformat.h"
#include "core/optimizer/parsedresponse.h"
#include "core/optimizer/roundrunner.h"
#include "core/session/sessionhistory.h"
#include "core/session/sessionstore.h"
#include "views/variants/variantsmodel.h"

#include <QColor>
#include <QHash>
#include <QLocale>

namespace kforge {

RoundProgressModel::RoundProgressModel(SessionStore *store, RoundRunner *runner, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
    , m_runner(runner)
{
    m_flush.setSingleShot(true);
    m_flush.setInterval(200);
    connect(&m_flush, &QTimer::timeout, this, &RoundProgressModel::flush);
    if (m_runner) {
        connect(m_runner, &RoundRunner::roundStarted, this, &RoundProgressModel::startRound);
        connect(m_runner, &RoundRunner::requestStarted, this, &RoundProgressModel::onRequestStarted);
        connect(m_runner, &RoundRunner::textDelta, this, [this](qint64 responseId, const QString &text) {
            const int row = rowOfResponse(responseId);
            if (row < 0)
                return;
            m_rows[row].chars += text.size();
            m_dirty.insert(row);
            if (!m_flush.isActive())
                m_flush.start();
        });
        connect(m_runner, &RoundRunner::responseFinished, this,
                [this](qint64 responseId, qint64 variantId, const ParsedResponse &parsed) {
                    onResponseFinished(responseId, variantId, parsed.hasCode() ? QString() : parsed.message());
                });
    }
    if (m_store) {
        connect(m_store, &SessionStore::variantChanged, this, &RoundProgressModel::onVariantChanged);
        connect(m_store, &SessionStore::evaluationAdded, this,
                [this](qint64 variantId, qint64) { onVariantChanged(variantId); });
        connect(m_store, &SessionStore::closed, this, [this] { startRound(0); });
    }
}

void RoundProgressModel::startRound(qint64 roundId)
{
    beginResetModel();
    m_round = roundId;
    m_rows.clear();
    m_dirty.clear();
    endResetModel();
    Q_EMIT progressChanged();
}

void RoundProgressModel::showRound(qint64 roundId, const QList<HistoryAnswer> &answers)
{
    beginResetModel();
    m_round = roundId;
    m_rows.clear();
    m_dirty.clear();
    const bool live = m_runner && m_runner->isRunning();
    QHash<QList<qint64>, QString> exemplarTexts; // a round's prompts mostly show the same exemplars
    for (const HistoryAnswer &a : answers) {
        Row r;
        r.responseId = a.responseId;
        r.repair = a.kind == QLatin1String("repair");
        r.promptId = a.promptId;
        r.position = a.position;
        r.streaming = live && a.finishStatus == QLatin1String("streaming");
        r.chars = a.characters;
        r.variantId = a.variantId;
        r.tokens = a.tokens;
        r.problem = r.variantId ? QString() : (a.error.isEmpty() ? a.parseMessage : a.error);
        if (!r.streaming && !r.variantId && r.problem.isEmpty() && a.finishStatus == QLatin1String("streaming"))
            r.problem = tr("the answer was interrupted");
        if (r.repair) {
            r.repairOf = a.exemplarIds.value(0);
        } else {
            r.exemplars = a.exemplarIds;
            auto text = exemplarTexts.constFind(r.exemplars);
            if (text == exemplarTexts.constEnd())
                text = exemplarTexts.insert(r.exemplars, exemplarText(m_store, r.exemplars));
            r.exemplarText = *text;
        }
        m_rows << r;
    }
    endResetModel();
    Q_EMIT progressChanged();
}

void RoundProgressModel::onRequestStarted(qint64 responseId)
{
    if (!m_store || !m_round)
        return;
    const auto response = m_store->exchanges().response(responseId);
    const auto prompt = response ? m_store->exchanges().prompt(response->promptId) : std::nullopt;
    if (!prompt || prompt->roundId != m_round || rowOfResponse(responseId) >= 0)
        return; // a question about a pair, another round's repair, or one the history already showed
    Row r;
    r.responseId = responseId;
    int answers = 0;
    for (const Row &existing : std::as_const(m_rows))
        answers += existing.repair ? 0 : 1;
    r.repair = prompt->kind == QLatin1String("repair");
    r.promptId = prompt->id;
    if (!r.repair) {
        r.exemplars = prompt->exemplarIds;
        r.exemplarText = exemplarText(m_store, r.exemplars);
    }
    r.title = r.repair ? (prompt->exemplarIds.isEmpty() ? tr("repair")
                                                        : tr("repair of #%1").arg(prompt->exemplarIds.constFirst()))
                       : tr("answer %1").arg(answers + 1);
    const int row = int(m_rows.size());
    beginInsertRows({}, row, row);
    m_rows.append(r);
    endInsertRows();
    Q_EMIT progressChanged();
}

void RoundProgressModel::onResponseFinished(qint64 responseId, qint64 variantId, const QString &problem)
{
    const int row = rowOfResponse(responseId);
    if (row < 0)
        return;
    Row &r = m_rows[row];
    r.streaming = false;
    r.variantId = variantId;
    if (const auto rec = m_store ? m_store->exchanges().response(responseId) : std::nullopt) {
        r.tokens = rec->promptTokens + rec->completionTokens;
        r.chars = rec->rawText.size();
        r.problem = !rec->error.isEmpty() ? rec->error : problem;
    } else {
        r.problem = problem;
    }
    if (variantId)
        r.problem.clear();
    m_dirty.remove(row);
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    Q_EMIT progressChanged();
}

void RoundProgressModel::onVariantChanged(qint64 variantId)
{
    for (int row = 0; row < m_rows.size(); ++row)
        if (m_rows[row].variantId == variantId) {
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
            Q_EMIT progressChanged();
        }
}

void RoundProgressModel::flush()
{
    for (int row : std::as_const(m_dirty))
        if (row < m_rows.size())
            Q_EMIT dataChanged(index(row, Stage), index(row, Stage));
    m_dirty.clear();
}

QString RoundProgressModel::exemplarText(const SessionStore *store, const QList<qint64> &ids)
{
    QStringList parts;
    for (qint64 id : ids) {
        const kforge::Variant *v = store ? store->population().find(id) : nullptr;
        parts << (v && v->eval.speedup ? tr("#%1 (%2×)").arg(id).arg(formatMeasure(*v->eval.speedup))
                                       : QStringLiteral("#%1").arg(id));
    }
    return parts.join(QLatin1String(", "));
}

int RoundProgressModel::rowOfResponse(qint64 responseId) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].responseId == responseId)
            return i;
    return -1;
}

bool RoundProgressModel::isFinished(const Row &r) const
{
    if (r.streaming)
        return false;
    if (!r.variantId)
        return true;
    const kforge::Variant *v = m_store ? m_store->population().find(r.variantId) : nullptr;
    return !v || !isInFlight(v->status);
}

int RoundProgressModel::finishedCount() const
{
    int n = 0;
    for (const Row &r : m_rows)
        n += isFinished(r);
    return n;
}

QString RoundProgressModel::titleOf(const Row &r)
{
    if (!r.title.isEmpty())
        return r.title;
    if (r.repair)
        return r.repairOf ? tr("repair of #%1").arg(r.repairOf) : tr("repair");
    return tr("answer %1").arg(r.position);
}

QString RoundProgressModel::stageText(const Row &r) const
{
    if (r.streaming)
        return tr("generating (%1 characters)").arg(QLocale().toString(r.chars));
    if (!r.variantId)
        return r.problem.isEmpty() ? tr("no code in the answer") : tr("no variant: %1").arg(r.problem);
    const kforge::Variant *v = m_store ? m_store->population().find(r.variantId) : nullptr;
    return v ? VariantsModel::statusText(*v) : QString();
}

int RoundProgressModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RoundProgressModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RoundProgressModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[index.row()];
    const kforge::Variant *v = r.variantId && m_store ? m_store->population().find(r.variantId) : nullptr;
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case Candidate: return titleOf(r);
        case Stage: return stageText(r);
        case Variant: return r.variantId ? QVariant(QStringLiteral("#%1").arg(r.variantId)) : QVariant();
        case Speedup:
            return v && v->eval.speedup ? QVariant(formatMeasure(*v->eval.speedup) + QStringLiteral("×")) : QVariant();
        case Tokens: return r.tokens ? QVariant(QLocale().toString(r.tokens)) : QVariant();
        case Exemplars: return r.exemplarText;
        case ColumnCount: break;
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == Stage) {
            if (v && !v->statusMessage.isEmpty())
                return v->statusMessage;
            if (!r.problem.isEmpty())
                return r.problem;
        }
        if (index.column() == Exemplars && !r.exemplars.isEmpty())
            return tr("The measured variants this candidate's prompt showed the model");
        return {};
    case Qt::ForegroundRole:
        if (index.column() == Stage && !r.streaming && (!r.variantId || (v && v->status == VariantStatus::Failed)))
            return QColor(0xc0, 0x39, 0x2b);
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() >= Speedup && index.column() != Exemplars
                                       ? (Qt::AlignRight | Qt::AlignVCenter)
                                       : (Qt::AlignLeft | Qt::AlignVCenter));
    case ResponseIdRole: return r.responseId;
    case VariantIdRole: return r.variantId;
    case FinishedRole: return isFinished(r);
    case PromptIdRole: return r.promptId;
    case ExemplarIdsRole: return QVariant::fromValue(r.exemplars);
    default: return {};
    }
}

QVariant RoundProgressModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Candidate: return tr("Candidate");
    case Stage: return tr("Stage");
    case Variant: return tr("Variant");
    case Speedup: return tr("Speedup");
    case Tokens: return tr("Tokens");
    case Exemplars: return tr("Exemplars");
    case ColumnCount: break;
    }
    return {};
}

} // namespace kforge
