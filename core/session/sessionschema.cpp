#include "core/session/sessionschema.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>

namespace kforge {

namespace {

// Version 1: the first release's tables.
QStringList version1()
{
    return {
        QStringLiteral("CREATE TABLE schema_version (version INTEGER NOT NULL, summary TEXT NOT NULL, "
                       "applied TEXT NOT NULL)"),
        QStringLiteral("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
        QStringLiteral("CREATE TABLE task (id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL, "
                       "task_json TEXT NOT NULL, reference_source TEXT NOT NULL, origin_path TEXT, "
                       "imported TEXT NOT NULL)"),
        QStringLiteral("CREATE TABLE task_files (path TEXT PRIMARY KEY, content BLOB NOT NULL)"),
        QStringLiteral("CREATE TABLE rounds (id INTEGER PRIMARY KEY, number INTEGER NOT NULL, "
                       "settings_json TEXT NOT NULL, state TEXT NOT NULL, started TEXT, finished TEXT, "
                       "requests INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0, "
                       "completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0, message TEXT)"),
        QStringLiteral("CREATE TABLE prompts (id INTEGER PRIMARY KEY, "
                       "round_id INTEGER REFERENCES rounds(id) ON DELETE CASCADE, kind TEXT NOT NULL, "
                       "template TEXT NOT NULL, rendered TEXT NOT NULL, exemplar_ids TEXT NOT NULL DEFAULT '[]', "
                       "created TEXT NOT NULL)"),
        QStringLiteral("CREATE TABLE responses (id INTEGER PRIMARY KEY, "
                       "prompt_id INTEGER NOT NULL REFERENCES prompts(id) ON DELETE CASCADE, "
                       "raw_text TEXT NOT NULL DEFAULT '', reasoning_text TEXT NOT NULL DEFAULT '', "
                       "parse_status TEXT NOT NULL DEFAULT 'pending', parse_message TEXT, "
                       "prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, "
                       "endpoint TEXT, model TEXT, finish_status TEXT, created TEXT NOT NULL)"),
        // Large texts live beside the summary rows, so opening a session reads only small rows.
        QStringLiteral("CREATE TABLE variants (id INTEGER PRIMARY KEY, origin TEXT NOT NULL "
                       "CHECK (origin IN ('reference','manual','model','imported')), "
                       "round_id INTEGER REFERENCES rounds(id) ON DELETE SET NULL, "
                       "prompt_id INTEGER REFERENCES prompts(id) ON DELETE SET NULL, label TEXT NOT NULL DEFAULT '', "
                       "tags TEXT NOT NULL DEFAULT '[]', notes TEXT NOT NULL DEFAULT '', "
                       "pinned INTEGER NOT NULL DEFAULT 0, excluded INTEGER NOT NULL DEFAULT 0, "
                       "accepted INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL, status_message TEXT, "
                       "created TEXT NOT NULL)"),
        QStringLiteral("CREATE TABLE variant_texts (variant_id INTEGER PRIMARY KEY REFERENCES variants(id) "
                       "ON DELETE CASCADE, source TEXT NOT NULL, analysis TEXT NOT NULL DEFAULT '', "
                       "design TEXT NOT NULL DEFAULT '')"),
        QStringLiteral("CREATE TABLE variant_parents (variant_id INTEGER NOT NULL REFERENCES variants(id) "
                       "ON DELETE CASCADE, parent_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE, "
                       "PRIMARY KEY (variant_id, parent_id))"),
        QStringLiteral("CREATE TABLE evaluations (id INTEGER PRIMARY KEY, variant_id INTEGER NOT NULL "
                       "REFERENCES variants(id) ON DELETE CASCADE, verdict TEXT NOT NULL, speedup REAL, "
                       "ref_median_ms REAL, cand_median_ms REAL, compile_flags TEXT, nvcc_version TEXT, "
                       "created TEXT NOT NULL)"),
        QStringLiteral("CREATE TABLE evaluation_results (evaluation_id INTEGER PRIMARY KEY REFERENCES evaluations(id) "
                       "ON DELETE CASCADE, result_json TEXT NOT NULL, device_json TEXT)"),
        QStringLiteral("CREATE TABLE notes (id INTEGER PRIMARY KEY, variant_id INTEGER REFERENCES variants(id) "
                       "ON DELETE CASCADE, text TEXT NOT NULL, created TEXT NOT NULL)"),
    };
}

// Version 2: review of suspicious results, the "why is A faster than B" answers, per-variant flags, token
// accounting of reasoning models. Summary columns that version 1 kept only inside result_json are copied out
// so views can sort on them.
QStringList version2()
{
    return {
        QStringLiteral("ALTER TABLE variants ADD COLUMN suspicious INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE variants ADD COLUMN suspicious_reason TEXT"),
        QStringLiteral("ALTER TABLE variants ADD COLUMN response_id INTEGER REFERENCES responses(id) "
                       "ON DELETE SET NULL"),
        QStringLiteral("ALTER TABLE variants ADD COLUMN nvcc_flags TEXT NOT NULL DEFAULT '[]'"),
        QStringLiteral("ALTER TABLE evaluations ADD COLUMN cand_cv REAL"),
        QStringLiteral("ALTER TABLE evaluations ADD COLUMN flags TEXT NOT NULL DEFAULT '[]'"),
        QStringLiteral("ALTER TABLE evaluations ADD COLUMN message TEXT"),
        QStringLiteral("UPDATE evaluations SET "
                       "cand_cv = (SELECT json_extract(result_json, '$.timing.candidate.cv') FROM evaluation_results "
                       "           WHERE evaluation_id = evaluations.id AND json_valid(result_json)), "
                       "flags = COALESCE((SELECT json_extract(result_json, '$.flags') FROM evaluation_results "
                       "           WHERE evaluation_id = evaluations.id AND json_valid(result_json)), '[]'), "
                       "message = (SELECT json_extract(result_json, '$.message') FROM evaluation_results "
                       "           WHERE evaluation_id = evaluations.id AND json_valid(result_json))"),
        // A result under the speed-of-light floor is impossible: hold it for review, as new results are.
        QStringLiteral("UPDATE variants SET suspicious = 1, suspicious_reason = 'below_speed_of_light' "
                       "WHERE accepted = 0 AND id IN (SELECT variant_id FROM evaluations, json_each(evaluations.flags) "
                       "WHERE json_each.value = 'below_speed_of_light')"),
        QStringLiteral("ALTER TABLE responses ADD COLUMN reasoning_tokens INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE responses ADD COLUMN cost REAL NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE responses ADD COLUMN error TEXT"),
        QStringLiteral("ALTER TABLE prompts ADD COLUMN hint TEXT NOT NULL DEFAULT ''"),
        QStringLiteral("ALTER TABLE notes ADD COLUMN round_id INTEGER REFERENCES rounds(id) ON DELETE CASCADE"),
        QStringLiteral("CREATE TABLE pair_analyses (id INTEGER PRIMARY KEY, "
                       "variant_a INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE, "
                       "variant_b INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE, "
                       "question TEXT NOT NULL, answer TEXT NOT NULL DEFAULT '', "
                       "response_id INTEGER REFERENCES responses(id) ON DELETE SET NULL, created TEXT NOT NULL)"),
    };
}

// Version 3: indexes for opening large sessions fast (latest evaluation per variant, lineage, rounds).
QStringList version3()
{
    return {
        QStringLiteral("CREATE INDEX evaluations_by_variant ON evaluations(variant_id, id)"),
        QStringLiteral("CREATE INDEX variant_parents_by_parent ON variant_parents(parent_id)"),
        QStringLiteral("CREATE INDEX variants_by_round ON variants(round_id)"),
        QStringLiteral("CREATE INDEX prompts_by_round ON prompts(round_id)"),
        QStringLiteral("CREATE INDEX responses_by_prompt ON responses(prompt_id)"),
    };
}

bool exec(QSqlQuery &q, const QString &sql, QString *error)
{
    if (q.exec(sql))
        return true;
    if (error)
        *error = SessionSchema::tr("SQL error in \"%1\": %2").arg(sql.left(80), q.lastError().text());
    return false;
}

} // namespace

const std::vector<SchemaMigration> &SessionSchema::migrations()
{
    static const std::vector<SchemaMigration> all{
        {1, "initial tables", version1()},
        {2, "review flags, pair analyses, reasoning tokens", version2()},
        {3, "indexes for large sessions", version3()},
    };
    return all;
}

int SessionSchema::latestVersion()
{
    return migrations().back().version;
}

int SessionSchema::version(const QSqlDatabase &db, QString *error)
{
    const QStringList tables = db.tables();
    if (tables.isEmpty())
        return 0;
    if (!tables.contains(QLatin1String("schema_version"))) {
        if (error)
            *error = tr("the file is an SQLite database but not a KForge session");
        return -1;
    }
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT MAX(version) FROM schema_version")) || !q.next()) {
        if (error)
            *error = tr("cannot read the schema version: %1").arg(q.lastError().text());
        return -1;
    }
    return q.value(0).toInt();
}

bool SessionSchema::migrate(QSqlDatabase &db, QString *error)
{
    const int current = version(db, error);
    if (current < 0)
        return false;
    if (current > latestVersion()) {
        if (error)
            *error = tr("the session was written by a newer KForge (schema version %1; this one reads up to %2)")
                         .arg(current)
                         .arg(latestVersion());
        return false;
    }
    for (const auto &m : migrations()) {
        if (m.version <= current)
            continue;
        if (!db.transaction()) {
            if (error)
                *error = tr("cannot start a transaction: %1").arg(db.lastError().text());
            return false;
        }
        QSqlQuery q(db);
        bool ok = true;
        for (const auto &sql : m.statements)
            if (!(ok = exec(q, sql, error)))
                break;
        if (ok) {
            q.prepare(QStringLiteral("INSERT INTO schema_version (version, summary, applied) VALUES (?, ?, ?)"));
            q.addBindValue(m.version);
            q.addBindValue(QString::fromLatin1(m.summary));
            q.addBindValue(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
            ok = q.exec();
            if (!ok && error)
                *error = q.lastError().text();
        }
        if (!ok || !db.commit()) {
            if (ok && error)
                *error = db.lastError().text();
            db.rollback();
            if (error)
                *error = tr("migration to schema version %1 failed: %2").arg(m.version).arg(*error);
            return false;
        }
    }
    return true;
}

} // namespace kforge
