// EvaluationRepository: the session's evaluations, kept typed, and the rule that makes a result suspicious.
#include "core/session/evaluationrepository.h"
#include "core/session/sessionrows.h"
#include "core/session/sessionstore.h"

#include <QSqlError>
#include <QSqlQuery>

namespace kforge {

using namespace sessionrows;

QString EvaluationRepository::suspicionReason(const EvaluationSummary &e) const
{
    // A result that passed the automatic deep check (EvaluationQueue) is trusted as measured.
    if (!e.isCorrect() || e.hasFlag(QLatin1String("deep_checked")))
        return {};
    if (e.hasFlag(QLatin1String("below_speed_of_light")))
        return SessionStore::tr("faster than the speed-of-light floor of the task, which is impossible");
    if (e.speedup && *e.speedup > m_suspiciousSpeedup && !m_store.m_task.isDegenerate()) {
        if (e.hasFlag(QLatin1String("degenerate_output")))
            return SessionStore::tr("%1x faster, and the output does not depend on the inputs").arg(*e.speedup, 0, 'f', 1);
        return SessionStore::tr("%1x faster than the reference (over %2x)")
            .arg(*e.speedup, 0, 'f', 1)
            .arg(m_suspiciousSpeedup, 0, 'g', 3);
    }
    return {};
}

qint64 EvaluationRepository::add(const Evaluation &in)
{
    if (!m_store.isOpen())
        return m_store.failId(SessionStore::tr("No session is open"));
    const qint64 variantId = in.summary.variantId;
    if (!m_store.m_population.contains(variantId))
        return m_store.failId(SessionStore::tr("No variant %1 in this session").arg(variantId));
    EvaluationSummary s = in.summary;
    if (!s.created.isValid())
        s.created = QDateTime::currentDateTimeUtc();
    QSqlDatabase db = QSqlDatabase::database(m_store.m_connection, false);
    if (!db.transaction())
        return m_store.failId(db.lastError().text());
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO evaluations (variant_id, verdict, speedup, ref_median_ms, cand_median_ms, "
                             "cand_cv, flags, message, compile_flags, nvcc_version, created) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(variantId);
    q.addBindValue(text(s.verdictName()));
    q.addBindValue(optionalNumber(s.speedup));
    q.addBindValue(optionalNumber(s.referenceMedianMs));
    q.addBindValue(optionalNumber(s.candidateMedianMs));
    q.addBindValue(optionalNumber(s.candidateCv));
    q.addBindValue(jsonText(s.flags));
    q.addBindValue(text(s.message));
    q.addBindValue(jsonText(in.compileFlags));
    q.addBindValue(text(in.nvccVersion));
    q.addBindValue(stamp(s.created));
    bool ok = q.exec();
    if (ok) {
        s.id = q.lastInsertId().toLongLong();
        q.prepare(
            QStringLiteral("INSERT INTO evaluation_results (evaluation_id, result_json, device_json) VALUES (?, ?, ?)"));
        q.addBindValue(s.id);
        q.addBindValue(jsonText(in.result));
        q.addBindValue(jsonText(in.device));
        ok = q.exec();
    }
    if (!ok) {
        db.rollback();
        return m_store.sqlFailId(q);
    }
    if (!db.commit())
        return m_store.failId(db.lastError().text());
    Evaluation kept = in;
    kept.summary = s;
    m_kept.keep(s.id, std::move(kept));
    Variant *v = m_store.m_population.findMutable(variantId);
    v->eval = s;
    const QString reason = suspicionReason(s);
    if (!reason.isEmpty() || v->suspicious)
        m_store.variants().setSuspicious(variantId, !reason.isEmpty(), reason);
    Q_EMIT m_store.evaluationAdded(variantId, s.id);
    return s.id;
}

std::optional<Evaluation> EvaluationRepository::find(qint64 evaluationId) const
{
    if (std::optional<Evaluation> kept = m_kept.find(evaluationId))
        return kept;
    const QString sql = QStringLiteral("SELECT %1, r.result_json, r.device_json, compile_flags, nvcc_version "
                                       "FROM evaluations LEFT JOIN evaluation_results r "
                                       "ON r.evaluation_id = evaluations.id WHERE id = ?")
                            .arg(QLatin1String(kSummaryColumns));
    std::optional<Evaluation> read = selectRow(m_store.m_connection, sql, {evaluationId}, [](const QSqlQuery &q) {
        Evaluation e;
        e.summary = summaryOf(q);
        e.result = objectOf(q.value(10));
        e.device = objectOf(q.value(11));
        e.compileFlags = stringsOf(q.value(12));
        e.nvccVersion = q.value(13).toString();
        return e;
    });
    if (!read)
        return read;
    return m_kept.keep(evaluationId, std::move(*read));
}

std::optional<Evaluation> EvaluationRepository::latest(qint64 variantId) const
{
    const Variant *v = m_store.m_population.find(variantId);
    if (!v || !v->hasEvaluation())
        return std::nullopt;
    return find(v->eval.id);
}

QList<EvaluationSummary> EvaluationRepository::ofVariant(qint64 variantId) const
{
    const QString sql =
        QStringLiteral("SELECT %1 FROM evaluations WHERE variant_id = ? ORDER BY id").arg(QLatin1String(kSummaryColumns));
    return selectRows(m_store.m_connection, sql, {variantId}, [](const QSqlQuery &q) { return summaryOf(q); });
}

int EvaluationRepository::count() const
{
    if (!m_store.isOpen())
        return 0;
    QSqlQuery q(QSqlDatabase::database(m_store.m_connection, false));
    if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM evaluations")) || !q.next())
        return 0;
    return q.value(0).toInt();
}

} // namespace kforge
