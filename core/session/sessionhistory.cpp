#include "core/session/sessionhistory.h"
#include "core/session/sessionrows.h"
#include "core/session/sessionstore.h"

#include <QHash>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QtConcurrent>

#include <algorithm>
#include <tuple>

namespace kforge {

using namespace sessionrows;

namespace {

// Answers whose id is over the first value, or among the JSON array of the second: a later read asks only for what
// is new and what may have changed since (still streaming, or no variant yet).
const char *const kAnswersSql =
    "SELECT r.id, r.prompt_id, COALESCE(p.round_id, 0), p.kind, p.exemplar_ids, r.finish_status, r.parse_status, "
    "r.parse_message, r.error, r.prompt_tokens + r.completion_tokens, length(r.raw_text), r.created, "
    "COALESCE(v.variant_id, 0) "
    "FROM responses r JOIN prompts p ON p.id = r.prompt_id "
    "LEFT JOIN (SELECT response_id, MIN(id) AS variant_id FROM variants WHERE response_id IS NOT NULL "
    "GROUP BY response_id) v ON v.response_id = r.id "
    "WHERE r.id > ? OR r.id IN (SELECT value FROM json_each(?))";

bool settled(const HistoryAnswer &a)
{
    return a.variantId && a.finishStatus != QLatin1String("streaming");
}

QString readInto(const QSqlDatabase &db, SessionHistory &h, const SessionHistory *base)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT %1 FROM rounds ORDER BY id").arg(QLatin1String(kRoundColumns))))
        return sqlError(q);
    QHash<qint64, int> numbers;
    while (q.next()) {
        h.rounds << roundOf(q);
        numbers.insert(h.rounds.constLast().id, h.rounds.constLast().number);
    }
    // What an earlier read of this file found and cannot change any more is kept; the texts' sizes are not read again.
    qint64 after = 0;
    QList<qint64> again;
    if (base && base->path == h.path && base->error.isEmpty())
        for (const HistoryAnswer &a : base->answers) {
            after = std::max(after, a.responseId);
            if (settled(a))
                h.answers << a;
            else
                again << a.responseId;
        }
    q.prepare(QLatin1String(kAnswersSql));
    q.addBindValue(after);
    q.addBindValue(jsonText(again));
    if (!q.exec())
        return sqlError(q);
    while (q.next()) {
        HistoryAnswer a;
        a.responseId = q.value(0).toLongLong();
        a.promptId = q.value(1).toLongLong();
        a.roundId = q.value(2).toLongLong();
        a.kind = q.value(3).toString();
        a.exemplarIds = idsOf(q.value(4));
        a.finishStatus = q.value(5).toString();
        if (q.value(6).toString() != QLatin1String("ok"))
            a.parseMessage = q.value(7).toString();
        a.error = q.value(8).toString();
        a.tokens = q.value(9).toLongLong();
        a.characters = q.value(10).toLongLong();
        a.created = parseStamp(q.value(11));
        a.variantId = q.value(12).toLongLong();
        h.answers << a;
    }
    // Positions as the round sent them (prompt by prompt), as Reasoning's titles always counted; then by id.
    std::sort(h.answers.begin(), h.answers.end(), [](const HistoryAnswer &x, const HistoryAnswer &y) {
        return std::tie(x.roundId, x.promptId, x.responseId) < std::tie(y.roundId, y.promptId, y.responseId);
    });
    QHash<std::pair<qint64, QString>, int> counts; // answers so far per round and kind
    for (HistoryAnswer &a : h.answers) {
        a.roundNumber = numbers.value(a.roundId);
        a.position = ++counts[{a.roundId, a.kind}];
    }
    std::sort(h.answers.begin(), h.answers.end(),
              [](const HistoryAnswer &x, const HistoryAnswer &y) { return x.responseId < y.responseId; });
    if (!q.exec(QStringLiteral("SELECT id, variant_a, variant_b, question, answer, response_id, created "
                               "FROM pair_analyses ORDER BY id")))
        return sqlError(q);
    while (q.next())
        h.analyses << PairAnalysis{q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong(),
                                   q.value(3).toString(),   q.value(4).toString(),   q.value(5).toLongLong(),
                                   parseStamp(q.value(6))};
    return {};
}

} // namespace

SessionHistory SessionHistory::read(const QString &path, const SessionHistory *base)
{
    SessionHistory h;
    h.path = path;
    // A connection of this thread for this read only; WAL lets it read beside the store's writes.
    const QString connection = QStringLiteral("kforge-history-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
        const QString error = db.open() ? readInto(db, h, base) : db.lastError().text();
        if (!error.isEmpty()) {
            h = SessionHistory{};
            h.path = path;
            h.error = SessionStore::tr("Cannot read the history of %1: %2").arg(path, error);
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(connection);
    return h;
}

QList<HistoryAnswer> SessionHistory::answersOfRound(qint64 roundId) const
{
    QList<HistoryAnswer> out;
    for (const HistoryAnswer &a : answers)
        if (a.roundId == roundId)
            out << a;
    std::stable_sort(out.begin(), out.end(), [](const HistoryAnswer &x, const HistoryAnswer &y) {
        return x.promptId != y.promptId ? x.promptId < y.promptId : x.responseId < y.responseId;
    });
    return out;
}

const RoundRecord *SessionHistory::round(qint64 roundId) const
{
    for (const RoundRecord &r : rounds)
        if (r.id == roundId)
            return &r;
    return nullptr;
}

// ------------------------------------------------------------------------------------------------ watch

SessionHistoryWatch *SessionHistoryWatch::of(SessionStore *store)
{
    if (!store)
        return nullptr;
    if (auto *existing = store->findChild<SessionHistoryWatch *>(QString(), Qt::FindDirectChildrenOnly))
        return existing;
    return new SessionHistoryWatch(store);
}

SessionHistoryWatch::SessionHistoryWatch(SessionStore *store)
    : QObject(store)
    , m_store(store)
{
    m_throttle.setSingleShot(true);
    m_throttle.setInterval(250);
    connect(&m_throttle, &QTimer::timeout, this, &SessionHistoryWatch::load);
    connect(store, &SessionStore::opened, this, &SessionHistoryWatch::load);
    connect(store, &SessionStore::closed, this, [this] {
        m_reads.drop(); // a read of the closed session is dropped
        m_throttle.stop();
        m_reading = false;
        m_again = false;
        const bool had = !m_history.path.isEmpty();
        m_history = SessionHistory{};
        if (had)
            Q_EMIT changed();
    });
    connect(store, &SessionStore::roundChanged, this, &SessionHistoryWatch::schedule);
    connect(store, &SessionStore::responseChanged, this, &SessionHistoryWatch::schedule);
    connect(store, &SessionStore::pairAnalysisChanged, this, &SessionHistoryWatch::schedule);
    connect(store, &SessionStore::variantAdded, this, &SessionHistoryWatch::schedule);
    if (store->isOpen())
        load();
}

bool SessionHistoryWatch::isCurrent() const
{
    return m_store && m_store->isOpen() && m_history.path == m_store->path();
}

void SessionHistoryWatch::reload()
{
    m_throttle.stop();
    load();
}

void SessionHistoryWatch::schedule()
{
    if (m_reading)
        m_again = true;
    else if (!m_throttle.isActive())
        m_throttle.start();
}

void SessionHistoryWatch::load()
{
    if (!m_store || !m_store->isOpen())
        return;
    m_reading = true;
    m_again = false;
    // The history so far goes along (shared, not copied): only what is new or may have changed is read again. The
    // answer comes from the event loop even when the read is done at once, never inside the opened() that started
    // it, before the panels have forgotten the session before; one superseded by a newer read, or after the session
    // changed, is dropped.
    const QFuture<SessionHistory> read = QtConcurrent::run([path = m_store->path(), base = isCurrent() ? m_history : SessionHistory{}] {
        return SessionHistory::read(path, &base);
    });
    m_reads.deliver(this, read, [this](SessionHistory h) {
        m_reading = false;
        m_history = std::move(h);
        Q_EMIT changed();
        if (std::exchange(m_again, false))
            schedule();
    });
}

} // namespace kforge
