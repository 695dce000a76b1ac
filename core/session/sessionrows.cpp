#include "core/session/sessionrows.h"
#include "core/session/sessionstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>

namespace kforge::sessionrows {

QString now()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QString stamp(const QDateTime &t)
{
    return (t.isValid() ? t.toUTC() : QDateTime::currentDateTimeUtc()).toString(Qt::ISODateWithMs);
}

QDateTime parseStamp(const QVariant &v)
{
    return v.isNull() ? QDateTime() : QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
}

QString jsonText(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString jsonText(const QStringList &list)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(list)).toJson(QJsonDocument::Compact));
}

QString jsonText(const QList<qint64> &ids)
{
    QJsonArray a;
    for (qint64 id : ids)
        a.append(id);
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

QJsonObject objectOf(const QVariant &v)
{
    return QJsonDocument::fromJson(v.toString().toUtf8()).object();
}

QStringList stringsOf(const QVariant &v)
{
    QStringList out;
    if (v.isNull() || v.toString() == QLatin1String("[]")) // the common case, on every row when a session opens
        return out;
    for (const auto &x : QJsonDocument::fromJson(v.toString().toUtf8()).array())
        out << x.toString();
    return out;
}

QList<qint64> idsOf(const QVariant &v)
{
    QList<qint64> out;
    for (const auto &x : QJsonDocument::fromJson(v.toString().toUtf8()).array())
        out << x.toInteger();
    return out;
}

QVariant idOrNull(qint64 id)
{
    return id > 0 ? QVariant(id) : QVariant(QMetaType::fromType<qint64>());
}

QVariant optionalNumber(const std::optional<double> &d)
{
    return d ? QVariant(*d) : QVariant(QMetaType::fromType<double>());
}

std::optional<double> numberOf(const QVariant &v)
{
    if (v.isNull())
        return std::nullopt;
    return v.toDouble();
}

EvaluationSummary summaryOf(const QSqlQuery &q, int first)
{
    EvaluationSummary s;
    s.id = q.value(first + 0).toLongLong();
    s.variantId = q.value(first + 1).toLongLong();
    s.setVerdictName(q.value(first + 2).toString());
    s.speedup = numberOf(q.value(first + 3));
    s.referenceMedianMs = numberOf(q.value(first + 4));
    s.candidateMedianMs = numberOf(q.value(first + 5));
    s.candidateCv = numberOf(q.value(first + 6));
    s.flags = stringsOf(q.value(first + 7));
    s.message = q.value(first + 8).toString();
    s.created = parseStamp(q.value(first + 9));
    return s;
}

RoundRecord roundOf(const QSqlQuery &q)
{
    RoundRecord r;
    r.id = q.value(0).toLongLong();
    r.number = q.value(1).toInt();
    r.settings = objectOf(q.value(2));
    r.state = roundStateFromString(q.value(3).toString());
    r.started = parseStamp(q.value(4));
    r.finished = parseStamp(q.value(5));
    r.usage.requests = q.value(6).toInt();
    r.usage.promptTokens = q.value(7).toLongLong();
    r.usage.completionTokens = q.value(8).toLongLong();
    r.usage.cost = q.value(9).toDouble();
    r.message = q.value(10).toString();
    return r;
}

PromptRecord promptOf(const QSqlQuery &q)
{
    PromptRecord p;
    p.id = q.value(0).toLongLong();
    p.roundId = q.value(1).toLongLong();
    p.kind = q.value(2).toString();
    p.templateName = q.value(3).toString();
    p.rendered = q.value(4).toString();
    p.exemplarIds = idsOf(q.value(5));
    p.hint = q.value(6).toString();
    p.created = parseStamp(q.value(7));
    return p;
}

ResponseRecord responseOf(const QSqlQuery &q)
{
    ResponseRecord r;
    r.id = q.value(0).toLongLong();
    r.promptId = q.value(1).toLongLong();
    r.rawText = q.value(2).toString();
    r.reasoningText = q.value(3).toString();
    r.parseStatus = q.value(4).toString();
    r.parseMessage = q.value(5).toString();
    r.promptTokens = q.value(6).toLongLong();
    r.completionTokens = q.value(7).toLongLong();
    r.reasoningTokens = q.value(8).toLongLong();
    r.cost = q.value(9).toDouble();
    r.endpoint = q.value(10).toString();
    r.model = q.value(11).toString();
    r.finishStatus = q.value(12).toString();
    r.error = q.value(13).toString();
    r.created = parseStamp(q.value(14));
    return r;
}

QVariant text(const QString &s)
{
    return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s);
}

QString sqlError(const QSqlQuery &q)
{
    return SessionStore::tr("Session database error: %1").arg(q.lastError().text());
}

Variant variantOf(const QSqlQuery &q)
{
    Variant v;
    v.id = q.value(0).toLongLong();
    v.origin = variantOriginFromString(q.value(1).toString());
    v.roundId = q.value(2).toLongLong();
    v.promptId = q.value(3).toLongLong();
    v.responseId = q.value(4).toLongLong();
    v.label = q.value(5).toString();
    v.tags = stringsOf(q.value(6));
    v.notes = q.value(7).toString();
    v.nvccFlags = stringsOf(q.value(8));
    v.pinned = q.value(9).toBool();
    v.excluded = q.value(10).toBool();
    v.accepted = q.value(11).toBool();
    v.suspicious = q.value(12).toBool();
    v.suspiciousReason = q.value(13).toString();
    v.status = variantStatusFromString(q.value(14).toString());
    v.statusMessage = q.value(15).toString();
    v.created = parseStamp(q.value(16));
    return v;
}

} // namespace kforge::sessionrows
