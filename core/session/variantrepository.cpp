// VariantRepository: the session's variants, their texts and flags.
#include "core/session/variantrepository.h"
#include "core/session/sessionrows.h"
#include "core/session/sessionstore.h"

#include <QSqlError>
#include <QSqlQuery>

namespace kforge {

using namespace sessionrows;

qint64 VariantRepository::add(const Variant &in, const VariantTexts &texts)
{
    if (!m_store.isOpen())
        return m_store.failId(SessionStore::tr("No session is open"));
    Variant v = in;
    v.eval = {};
    if (!v.created.isValid())
        v.created = QDateTime::currentDateTimeUtc();
    QSqlDatabase db = QSqlDatabase::database(m_store.m_connection, false);
    if (!db.transaction())
        return m_store.failId(db.lastError().text());
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
        return m_store.sqlFailId(q);
    }
    if (!db.commit())
        return m_store.failId(db.lastError().text());
    m_store.m_population.insert(v);
    Q_EMIT m_store.variantAdded(v.id);
    return v.id;
}

VariantTexts VariantRepository::texts(qint64 variantId) const
{
    if (!m_store.isOpen())
        return {};
    QSqlQuery q(QSqlDatabase::database(m_store.m_connection, false));
    q.prepare(QStringLiteral("SELECT source, analysis, design FROM variant_texts WHERE variant_id = ?"));
    q.addBindValue(variantId);
    if (!q.exec() || !q.next())
        return {};
    return {q.value(0).toString(), q.value(1).toString(), q.value(2).toString()};
}

QString VariantRepository::source(qint64 variantId) const
{
    if (!m_store.isOpen())
        return {};
    QSqlQuery q(QSqlDatabase::database(m_store.m_connection, false));
    q.prepare(QStringLiteral("SELECT source FROM variant_texts WHERE variant_id = ?"));
    q.addBindValue(variantId);
    if (!q.exec() || !q.next())
        return {};
    return q.value(0).toString();
}

bool VariantRepository::updateColumn(qint64 variantId, const char *column, const QVariant &value)
{
    if (!m_store.m_population.contains(variantId))
        return m_store.fail(SessionStore::tr("No variant %1 in this session").arg(variantId));
    QSqlQuery q(QSqlDatabase::database(m_store.m_connection, false));
    q.prepare(QStringLiteral("UPDATE variants SET %1 = ? WHERE id = ?").arg(QLatin1String(column)));
    q.addBindValue(value);
    q.addBindValue(variantId);
    return q.exec() || m_store.sqlFail(q);
}

bool VariantRepository::setStatus(qint64 variantId, VariantStatus status, const QString &message)
{
    if (!m_store.m_population.contains(variantId))
        return m_store.fail(SessionStore::tr("No variant %1 in this session").arg(variantId));
    QSqlQuery q(QSqlDatabase::database(m_store.m_connection, false));
    q.prepare(QStringLiteral("UPDATE variants SET status = ?, status_message = ? WHERE id = ?"));
    q.addBindValue(toString(status));
    q.addBindValue(text(message));
    q.addBindValue(variantId);
    if (!q.exec())
        return m_store.sqlFail(q);
    Variant *v = m_store.m_population.findMutable(variantId);
    v->status = status;
    v->statusMessage = message;
    Q_EMIT m_store.variantChanged(variantId);
    return true;
}

bool VariantRepository::setPinned(qint64 variantId, bool pinned)
{
    if (!updateColumn(variantId, "pinned", int(pinned)))
        return false;
    Variant *v = m_store.m_population.findMutable(variantId);
    v->pinned = pinned;
    if (pinned && v->excluded && updateColumn(variantId, "excluded", 0))
        v->excluded = false;
    Q_EMIT m_store.variantChanged(variantId);
    return true;
}

bool VariantRepository::setExcluded(qint64 variantId, bool excluded)
{
    if (!updateColumn(variantId, "excluded", int(excluded)))
        return false;
    Variant *v = m_store.m_population.findMutable(variantId);
    v->excluded = excluded;
    if (excluded && v->pinned && updateColumn(variantId, "pinned", 0))
        v->pinned = false;
    Q_EMIT m_store.variantChanged(variantId);
    return true;
}

bool VariantRepository::setAccepted(qint64 variantId, bool accepted)
{
    if (!updateColumn(variantId, "accepted", int(accepted)))
        return false;
    m_store.m_population.findMutable(variantId)->accepted = accepted;
    Q_EMIT m_store.variantChanged(variantId);
    return true;
}

bool VariantRepository::setSuspicious(qint64 variantId, bool suspicious, const QString &reason)
{
    if (!updateColumn(variantId, "suspicious", int(suspicious))
        || !updateColumn(variantId, "suspicious_reason", suspicious ? text(reason) : QVariant()))
        return false;
    Variant *v = m_store.m_population.findMutable(variantId);
    v->suspicious = suspicious;
    v->suspiciousReason = suspicious ? reason : QString();
    Q_EMIT m_store.variantChanged(variantId);
    return true;
}

bool VariantRepository::setLabel(qint64 variantId, const QString &label)
{
    if (!updateColumn(variantId, "label", text(label)))
        return false;
    m_store.m_population.findMutable(variantId)->label = label;
    Q_EMIT m_store.variantChanged(variantId);
    return true;
}

bool VariantRepository::setTags(qint64 variantId, const QStringList &tags)
{
    if (!updateColumn(variantId, "tags", jsonText(tags)))
        return false;
    m_store.m_population.findMutable(variantId)->tags = tags;
    Q_EMIT m_store.variantChanged(variantId);
    return true;
}

bool VariantRepository::setNotes(qint64 variantId, const QString &notes)
{
    if (!updateColumn(variantId, "notes", text(notes)))
        return false;
    m_store.m_population.findMutable(variantId)->notes = notes;
    Q_EMIT m_store.variantChanged(variantId);
    return true;
}

bool VariantRepository::setAnalysisAndDesign(qint64 variantId, const QString &analysis, const QString &design)
{
    if (!m_store.m_population.contains(variantId))
        return m_store.fail(SessionStore::tr("No variant %1 in this session").arg(variantId));
    QSqlQuery q(QSqlDatabase::database(m_store.m_connection, false));
    q.prepare(QStringLiteral("UPDATE variant_texts SET analysis = ?, design = ? WHERE variant_id = ?"));
    q.addBindValue(text(analysis));
    q.addBindValue(text(design));
    q.addBindValue(variantId);
    if (!q.exec())
        return m_store.sqlFail(q);
    Q_EMIT m_store.variantChanged(variantId);
    return true;
}

QList<qint64> VariantRepository::ofRound(qint64 roundId) const
{
    QList<qint64> out;
    for (const auto &v : m_store.m_population.variants())
        if (v.roundId == roundId)
            out << v.id;
    return out;
}

} // namespace kforge
