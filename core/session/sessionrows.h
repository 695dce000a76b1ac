#pragma once
// How SessionStore's rows and columns become records and back: the SQL text and JSON helpers, the column lists
// and the record builders the store and its repositories (*repository.cpp) share. Internal to core/session.
#include "core/session/evaluationsummary.h"
#include "core/session/promptrecord.h"
#include "core/session/responserecord.h"
#include "core/session/roundrecord.h"
#include "core/session/variant.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <optional>
#include <type_traits>

namespace kforge::sessionrows {

QString now();
QString stamp(const QDateTime &t);
QDateTime parseStamp(const QVariant &v);
QString jsonText(const QJsonObject &o);
QString jsonText(const QStringList &list);
QString jsonText(const QList<qint64> &ids);
QJsonObject objectOf(const QVariant &v);
QStringList stringsOf(const QVariant &v);
QList<qint64> idsOf(const QVariant &v);
QVariant idOrNull(qint64 id);
QVariant optionalNumber(const std::optional<double> &d);
std::optional<double> numberOf(const QVariant &v);
// Qt binds a null QString as SQL NULL; text columns are NOT NULL.
QVariant text(const QString &s);
// "Session database error: ..." (translated) for a failed query.
QString sqlError(const QSqlQuery &q);

inline constexpr const char *kSummaryColumns =
    "id, variant_id, verdict, speedup, ref_median_ms, cand_median_ms, cand_cv, flags, message, created";
EvaluationSummary summaryOf(const QSqlQuery &q, int first = 0);

inline constexpr const char *kRoundColumns =
    "id, number, settings_json, state, started, finished, requests, prompt_tokens, completion_tokens, cost, message";
RoundRecord roundOf(const QSqlQuery &q);

inline constexpr const char *kPromptColumns = "id, round_id, kind, template, rendered, exemplar_ids, hint, created";
PromptRecord promptOf(const QSqlQuery &q);

inline constexpr const char *kResponseColumns =
    "id, prompt_id, raw_text, reasoning_text, parse_status, parse_message, prompt_tokens, completion_tokens, "
    "reasoning_tokens, cost, endpoint, model, finish_status, error, created";
ResponseRecord responseOf(const QSqlQuery &q);

// Summary columns only: sources, analyses and designs are read when someone asks (texts()).
inline constexpr const char *kVariantColumns =
    "id, origin, round_id, prompt_id, response_id, label, tags, notes, nvcc_flags, pinned, excluded, accepted, "
    "suspicious, suspicious_reason, status, status_message, created";
Variant variantOf(const QSqlQuery &q);

// Every record read back by a query with bound values, made by `recordOf` from each row; empty when the
// session is closed or the query fails. The one loop behind the getters that read rows.
template <typename RecordOf>
auto selectRows(const QString &connection, const QString &sql, const QVariantList &binds, RecordOf recordOf)
{
    QList<std::invoke_result_t<RecordOf, const QSqlQuery &>> out;
    const QSqlDatabase db = QSqlDatabase::database(connection, false);
    if (!db.isOpen())
        return out;
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(sql);
    for (const QVariant &value : binds)
        q.addBindValue(value);
    if (q.exec())
        while (q.next())
            out << recordOf(q);
    return out;
}

template <typename RecordOf>
auto selectRow(const QString &connection, const QString &sql, const QVariantList &binds, RecordOf recordOf)
    -> std::optional<std::invoke_result_t<RecordOf, const QSqlQuery &>>
{
    auto rows = selectRows(connection, sql, binds, recordOf);
    if (rows.isEmpty())
        return std::nullopt;
    return rows.takeFirst();
}

} // namespace kforge::sessionrows
