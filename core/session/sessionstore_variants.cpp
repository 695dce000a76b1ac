// SessionStore: variants (add, texts, status, flags, labels, notes); the class's other parts are in sessionstore*.cpp.
#include "core/session/sessionrows.h"
#include "core/session/sessionstore.h"

#include <QSqlError>
#include <QSqlQuery>

namespace kforge {

using namespace sessionrows;

qint64 SessionStore::addVariant(const Variant &in, const VariantTexts &texts)
{
    if (!isOpen())
        return failId(tr("No session is open"));
    Variant v = in;
    v.eval = {};
    if (!v.created.isValid())
        v.created = QDateTime::currentDateTimeUtc();
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.transaction())
        return failId(db.lastError().text());
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO variants (origin, round_id, prompt_id, response_id, label, tags, notes, "
                             "nvcc_flags, pinned, excluded, accepted, suspicious, suspicious_reason, status, "
                             "status_message, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(toString(v.origin));
    q.addBindValue(idOrNull(v.roundId));
    q.addBindValue(idOrNull(v.promptId));
    q.addBindValue(idOrNull(v.responseId));
    q.addBindValue(text(v.label));
    q.addBindValue(jsonText(v.tags));
    q.addBindValue(text(v.notes));
    q.addBindValue(jsonText(v.nvccFlags));
    q.addBindValue(int(v.pinned));
    q.addBindValue(int(v.excluded));
    q.addBindValue(int(v.accepted));
    q.addBindValue(int(v.suspicious));
    q.addBindValue(text(v.suspiciousReason));
    q.addBindValue(toString(v.status));
    q.addBindValue(text(v.statusMessage));
    q.addBindValue(stamp(v.created));
    bool ok = q.exec();
    if (ok) {
        v.id = q.lastInsertId().toLongLong();
        q.prepare(QStringLiteral("INSERT INTO variant_texts (variant_id, source, analysis, design) VALUES (?, ?, ?, ?)"));
        q.addBindValue(v.id);
        q.addBindValue(text(texts.source));
        q.addBindValue(text(texts.analysis));
        q.addBindValue(text(texts.design));
        ok = q.exec();
    }
    if (ok) {
        for (qint64 parent : std::as_const(v.parentIds)) {
            q.prepare(QStringLiteral("INSERT OR IGNORE INTO variant_parents (variant_id, parent_id) VALUES (?, ?)"));
            q.addBindValue(v.id);
            q.addBindValue(parent);
            if (!(ok = q.exec()))
                break;
        }
    }
    if (!ok) {
        db.rollback();
        return sqlFailId(q);
    }
    if (!db.commit())
        return failId(db.lastError().text());
    m_population.insert(v);
    Q_EMIT variantAdded(v.id);
    return v.id;
}

VariantTexts SessionStore::texts(qint64 variantId) const
{
    if (!isOpen())
        return {};
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT source, analysis, design FROM variant_texts WHERE variant_id = ?"));
    q.addBindValue(variantId);
    if (!q.exec() || !q.next())
        return {};
    return {q.value(0).toString(), q.value(1).toString(), q.value(2).toString()};
}

QString SessionStore::source(qint64 variantId) const
{
    if (!isOpen())
        return {};
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT source FROM variant_texts WHERE variant_id = ?"));
    q.addBindValue(variantId);
    if (!q.exec() || !q.next())
        return {};
    return q.value(0).toString();
}

bool SessionStore::updateVariantColumn(qint64 variantId, const char *column, const QVariant &value)
{
    if (!m_population.contains(variantId))
        return fail(tr("No variant %1 in this session").arg(variantId));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE variants SET %1 = ? WHERE id = ?").arg(QLatin1String(column)));
    q.addBindValue(value);
    q.addBindValue(variantId);
    return q.exec() || sqlFail(q);
}

bool SessionStore::setStatus(qint64 variantId, VariantStatus status, const QString &message)
{
    if (!m_population.contains(variantId))
        return fail(tr("No variant %1 in this session").arg(variantId));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE variants SET status = ?, status_message = ? WHERE id = ?"));
    q.addBindValue(toString(status));
    q.addBindValue(text(message));
    q.addBindValue(variantId);
    if (!q.exec())
        return sqlFail(q);
    Variant *v = m_population.findMutable(variantId);
    v->status = status;
    v->statusMessage = message;
    Q_EMIT variantChanged(variantId);
    return true;
}

bool SessionStore::setPinned(qint64 variantId, bool pinned)
{
    if (!updateVariantColumn(variantId, "pinned", int(pinned)))
        return false;
    Variant *v = m_population.findMutable(variantId);
    v->pinned = pinned;
    if (pinned && v->excluded && updateVariantColumn(variantId, "excluded", 0))
        v->excluded = false;
    Q_EMIT variantChanged(variantId);
    return true;
}

bool SessionStore::setExcluded(qint64 variantId, bool excluded)
{
    if (!updateVariantColumn(variantId, "excluded", int(excluded)))
        return false;
    Variant *v = m_population.findMutable(variantId);
    v->excluded = excluded;
    if (excluded && v->pinned && updateVariantColumn(variantId, "pinned", 0))
        v->pinned = false;
    Q_EMIT variantChanged(variantId);
    return true;
}

bool SessionStore::setAccepted(qint64 variantId, bool accepted)
{
    if (!updateVariantColumn(variantId, "accepted", int(accepted)))
        return false;
    m_population.findMutable(variantId)->accepted = accepted;
    Q_EMIT variantChanged(variantId);
    return true;
}

bool SessionStore::setSuspicious(qint64 variantId, bool suspicious, const QString &reason)
{
    if (!updateVariantColumn(variantId, "suspicious", int(suspicious))
        || !updateVariantColumn(variantId, "suspicious_reason", suspicious ? text(reason) : QVariant()))
        return false;
    Variant *v = m_population.findMutable(variantId);
    v->suspicious = suspicious;
    v->suspiciousReason = suspicious ? reason : QString();
    Q_EMIT variantChanged(variantId);
    return true;
}

bool SessionStore::setLabel(qint64 variantId, const QString &label)
{
    if (!updateVariantColumn(variantId, "label", text(label)))
        return false;
    m_population.findMutable(variantId)->label = label;
    Q_EMIT variantChanged(variantId);
    return true;
}

bool SessionStore::setTags(qint64 variantId, const QStringList &tags)
{
    if (!updateVariantColumn(variantId, "tags", jsonText(tags)))
        return false;
    m_population.findMutable(variantId)->tags = tags;
    Q_EMIT variantChanged(variantId);
    return true;
}

bool SessionStore::setNotes(qint64 variantId, const QString &notes)
{
    if (!updateVariantColumn(variantId, "notes", text(notes)))
        return false;
    m_population.findMutable(variantId)->notes = notes;
    Q_EMIT variantChanged(variantId);
    return true;
}

bool SessionStore::setAnalysisAndDesign(qint64 variantId, const QString &analysis, const QString &design)
{
    if (!m_population.contains(variantId))
        return fail(tr("No variant %1 in this session").arg(variantId));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE variant_texts SET analysis = ?, design = ? WHERE variant_id = ?"));
    q.addBindValue(text(analysis));
    q.addBindValue(text(design));
    q.addBindValue(variantId);
    if (!q.exec())
        return sqlFail(q);
    Q_EMIT variantChanged(variantId);
    return true;
}

} // namespace kforge
