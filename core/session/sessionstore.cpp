#include "core/session/sessionstore.h"
#include "core/session/sessionschema.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QThreadPool>
#include <QUuid>
#include <QtConcurrent>
#include <mutex>
#include <type_traits>

namespace kforge {

namespace {

// Larger files in a task folder are data sets or build outputs, not part of the task.
constexpr qint64 kMaxTaskFileBytes = 16 * 1024 * 1024;

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

constexpr const char *kSummaryColumns =
    "id, variant_id, verdict, speedup, ref_median_ms, cand_median_ms, cand_cv, flags, message, created";

EvaluationSummary summaryOf(const QSqlQuery &q, int first = 0)
{
    EvaluationSummary s;
    s.id = q.value(first + 0).toLongLong();
    s.variantId = q.value(first + 1).toLongLong();
    s.verdict = q.value(first + 2).toString();
    s.speedup = numberOf(q.value(first + 3));
    s.referenceMedianMs = numberOf(q.value(first + 4));
    s.candidateMedianMs = numberOf(q.value(first + 5));
    s.candidateCv = numberOf(q.value(first + 6));
    s.flags = stringsOf(q.value(first + 7));
    s.message = q.value(first + 8).toString();
    s.created = parseStamp(q.value(first + 9));
    return s;
}

constexpr const char *kRoundColumns =
    "id, number, settings_json, state, started, finished, requests, prompt_tokens, completion_tokens, cost, message";

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

constexpr const char *kPromptColumns = "id, round_id, kind, template, rendered, exemplar_ids, hint, created";

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

constexpr const char *kResponseColumns =
    "id, prompt_id, raw_text, reasoning_text, parse_status, parse_message, prompt_tokens, completion_tokens, "
    "reasoning_tokens, cost, endpoint, model, finish_status, error, created";

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

// The pragmas every connection to a session file runs first; the error text, or empty.
QString configure(QSqlDatabase &db)
{
    QSqlQuery q(db);
    // WAL: readers never block the writer and a killed process leaves a consistent file. NORMAL sync is
    // durable against process death (the case that matters here); only a power cut can lose the last commits.
    for (const char *pragma : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
                               "PRAGMA busy_timeout=5000"}) {
        if (!q.exec(QLatin1String(pragma)))
            return q.lastError().text();
    }
    return {};
}

// Pragmas and migrations of a freshly opened file; the error text, or empty.
QString initialize(QSqlDatabase &db)
{
    {
        // Something else (not a database, another program's database) is refused before the pragmas, which
        // would turn another program's file to WAL mode.
        QSqlQuery probe(db);
        if (!probe.exec(QStringLiteral("SELECT COUNT(*) FROM sqlite_master")))
            return probe.lastError().text();
    }
    QString error;
    const int before = SessionSchema::version(db, &error);
    if (before < 0)
        return error;
    if (error = configure(db); !error.isEmpty())
        return error;
    if (!SessionSchema::migrate(db, &error))
        return error;
    if (before == 0) {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("INSERT INTO meta (key, value) VALUES ('application', 'KForge'), ('created', ?)"));
        q.addBindValue(now());
        if (!q.exec())
            return q.lastError().text();
    }
    return {};
}

// Qt binds a null QString as SQL NULL; text columns are NOT NULL.
QVariant text(const QString &s)
{
    return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s);
}

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

QString sqlError(const QSqlQuery &q)
{
    return SessionStore::tr("Session database error: %1").arg(q.lastError().text());
}

bool isCancelled(const std::atomic<bool> *cancelled)
{
    return cancelled && cancelled->load(std::memory_order_relaxed);
}

// How often the row loops look whether their load was superseded.
constexpr int kCancelCheckRows = 1024;

QString readTask(const QSqlDatabase &db, TaskRecord &task)
{
    task = {};
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT name, task_json, reference_source, origin_path FROM task WHERE id = 1")))
        return sqlError(q);
    if (!q.next())
        return {};
    task.name = q.value(0).toString();
    task.taskJson = q.value(1).toString();
    task.referenceSource = q.value(2).toString();
    task.originPath = q.value(3).toString();
    if (!q.exec(QStringLiteral("SELECT path, content FROM task_files ORDER BY path")))
        return sqlError(q);
    while (q.next())
        task.files.insert(q.value(0).toString(), q.value(1).toByteArray());
    return {};
}

// Summary columns only: sources, analyses and designs are read when someone asks (texts()).
constexpr const char *kVariantColumns = "id, origin, round_id, prompt_id, response_id, label, tags, notes, nvcc_flags, "
                                        "pinned, excluded, accepted, suspicious, suspicious_reason, status, "
                                        "status_message, created";

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

// Every variant with its lineage and latest evaluation. Stops early (leaving a partial population) once
// *cancelled is set; the error text, or empty.
QString readPopulation(const QSqlDatabase &db, Population &population, const std::atomic<bool> *cancelled)
{
    population.clear();
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT %1 FROM variants ORDER BY id").arg(QLatin1String(kVariantColumns))))
        return sqlError(q);
    for (int row = 0; q.next(); ++row) {
        if (row % kCancelCheckRows == 0 && isCancelled(cancelled))
            return {};
        population.insert(variantOf(q));
    }
    if (!q.exec(QStringLiteral("SELECT variant_id, parent_id FROM variant_parents ORDER BY rowid")))
        return sqlError(q);
    for (int row = 0; q.next(); ++row) {
        if (row % kCancelCheckRows == 0 && isCancelled(cancelled))
            return {};
        if (Variant *v = population.findMutable(q.value(0).toLongLong()))
            v->parentIds << q.value(1).toLongLong();
    }
    if (!q.exec(QStringLiteral("SELECT %1 FROM evaluations WHERE id IN "
                               "(SELECT MAX(id) FROM evaluations GROUP BY variant_id)")
                    .arg(QLatin1String(kSummaryColumns))))
        return sqlError(q);
    for (int row = 0; q.next(); ++row) {
        if (row % kCancelCheckRows == 0 && isCancelled(cancelled))
            return {};
        const EvaluationSummary s = summaryOf(q);
        if (Variant *v = population.findMutable(s.variantId))
            v->eval = s;
    }
    return {};
}

// Rounds left Running or Paused by a process that died become Interrupted; their ids go to `ids`. The error
// text, or empty.
QString markInterruptedRounds(const QSqlDatabase &db, QList<qint64> &ids)
{
    ids.clear();
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT id FROM rounds WHERE state IN ('running', 'paused') ORDER BY id")))
        return sqlError(q);
    while (q.next())
        ids << q.value(0).toLongLong();
    if (ids.isEmpty())
        return {};
    QSqlQuery u(db);
    u.prepare(QStringLiteral("UPDATE rounds SET state = 'interrupted', message = ? "
                             "WHERE state IN ('running', 'paused')"));
    u.addBindValue(SessionStore::tr("the process running this round ended before it finished"));
    if (!u.exec()) {
        ids.clear();
        return sqlError(u);
    }
    return {};
}

} // namespace

// What open() reads from a file, made without touching a store so that it can be made on any thread.
struct SessionStore::LoadedSession {
    QString error; // a tr() message; empty when loaded or cancelled
    bool cancelled = false;
    QString path;         // as given to open()
    QString absolutePath; // the rest is set only when loaded
    std::unique_ptr<QLockFile> lock;
    TaskRecord task;
    Population population;
};

// One openAsync() in flight, shared by the store (until it is superseded or finished) and its loader.
struct SessionStore::OpenJob {
    QString path;
    std::atomic<bool> cancelled = false;
    LoadedSession loaded; // the loader's until `finished`
    // A superseded job must free the file's lock at once, whether the loader is still running (then the loader
    // frees it when it ends) or has already finished (then cancelOpening() does); this decides which.
    std::mutex mutex;
    bool finished = false;
};

SessionStore::SessionStore(QObject *parent)
    : QObject(parent)
    , m_loader(std::make_unique<QThreadPool>())
{
    m_loader->setMaxThreadCount(1);
}

SessionStore::~SessionStore()
{
    close();
    // A superseded load stops at its next check; until then it still reads the file (and would post its
    // result to this object).
    m_loader->waitForDone();
}

bool SessionStore::fail(const QString &message)
{
    m_error = message;
    Q_EMIT errorOccurred(message);
    return false;
}

bool SessionStore::sqlFail(const QSqlQuery &q)
{
    return fail(tr("Session database error: %1").arg(q.lastError().text()));
}

qint64 SessionStore::failId(const QString &message)
{
    fail(message);
    return 0;
}

qint64 SessionStore::sqlFailId(const QSqlQuery &q)
{
    sqlFail(q);
    return 0;
}

bool SessionStore::isOpen() const
{
    return !m_connection.isEmpty() && QSqlDatabase::database(m_connection, false).isOpen();
}

int SessionStore::schemaVersion() const
{
    return isOpen() ? SessionSchema::version(QSqlDatabase::database(m_connection, false)) : 0;
}

bool SessionStore::open(const QString &path)
{
    close();
    cancelOpening();         // one that a slot of closed() may have started
    m_loader->waitForDone(); // a superseded openAsync() may still hold the file's lock
    m_error.clear();
    LoadedSession loaded;
    load(path, nullptr, loaded);
    if (!loaded.error.isEmpty())
        return fail(loaded.error);
    return adopt(std::move(loaded));
}

void SessionStore::openAsync(const QString &path)
{
    close();
    cancelOpening(); // one that a slot of closed() may have started
    m_error.clear();
    auto job = std::make_shared<OpenJob>();
    job->path = path;
    m_opening = job;
    // The loader sees only the job, never this store; the result comes back through this thread's event loop.
    QtConcurrent::run(m_loader.get(),
                      [job] {
                          load(job->path, &job->cancelled, job->loaded);
                          const std::lock_guard guard(job->mutex);
                          job->finished = true;
                          if (job->cancelled)
                              job->loaded.lock.reset();
                      })
        .then(this, [this, job] { finishOpening(job); });
}

void SessionStore::cancelOpening()
{
    if (!m_opening)
        return;
    {
        const std::lock_guard guard(m_opening->mutex);
        m_opening->cancelled = true;
        if (m_opening->finished)
            m_opening->loaded.lock.reset();
    }
    m_opening.reset();
}

void SessionStore::finishOpening(const std::shared_ptr<OpenJob> &job)
{
    if (job != m_opening)
        return; // superseded, and cancelOpening() or the loader has freed its lock
    m_opening.reset();
    if (!job->loaded.error.isEmpty()) {
        fail(job->loaded.error);
        Q_EMIT openFinished(false, m_error);
        return;
    }
    const bool ok = adopt(std::move(job->loaded));
    if (isOpening())
        return; // a slot of opened() has opened something else meanwhile
    Q_EMIT openFinished(ok, ok ? QString() : m_error);
}

void SessionStore::load(const QString &path, const std::atomic<bool> *cancelled, LoadedSession &out)
{
    out.path = path;
    if (isCancelled(cancelled)) {
        out.cancelled = true; // superseded while it waited for the loader thread
        return;
    }
    const QFileInfo info(path);
    if (info.exists() && !info.isFile()) {
        out.error = tr("%1 is not a file").arg(path);
        return;
    }
    if (!info.absoluteDir().exists()) {
        out.error = tr("The folder of %1 does not exist").arg(path);
        return;
    }

    // One process at a time: a second one would see the first one's running round as interrupted. A lock
    // left by a process that died is stale and taken over.
    auto lock = std::make_unique<QLockFile>(info.absoluteFilePath() + QLatin1String(".lock"));
    lock->setStaleLockTime(0);
    if (!lock->tryLock(0)) {
        qint64 pid = 0;
        QString host, app;
        lock->getLockInfo(&pid, &host, &app);
        if (lock->error() == QLockFile::LockFailedError)
            out.error = tr("%1 is open in another process (%2, pid %3)").arg(path, app).arg(pid);
        else
            out.error = tr("Cannot lock %1: no permission to write next to it").arg(path);
        return;
    }

    // A connection of this thread, for this load only (a QSqlDatabase may be used only where it was made).
    const QString connection =
        QStringLiteral("kforge-session-load-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
        db.setDatabaseName(info.absoluteFilePath());
        QString error = db.open() ? initialize(db) : db.lastError().text();
        if (error.isEmpty() && !isCancelled(cancelled))
            error = readTask(db, out.task);
        if (error.isEmpty() && !isCancelled(cancelled))
            error = readPopulation(db, out.population, cancelled);
        if (!error.isEmpty())
            out.error = tr("Cannot open %1: %2").arg(path, error);
        db.close();
    }
    QSqlDatabase::removeDatabase(connection);
    out.cancelled = isCancelled(cancelled);
    if (out.cancelled || !out.error.isEmpty()) {
        out.task = {};
        out.population.clear();
        return; // and the lock goes
    }
    out.absolutePath = info.absoluteFilePath();
    out.lock = std::move(lock);
}

bool SessionStore::adopt(LoadedSession &&loaded)
{
    std::unique_ptr<QLockFile> lock = std::move(loaded.lock);
    // The connection every later call uses, made on this (the store's) thread. The interrupted rounds are
    // marked here rather than by the loader: a superseded load must not change the file, or the open that
    // superseded it would find no interrupted round to offer for resuming.
    const QString connection =
        QStringLiteral("kforge-session-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    QString error;
    QList<qint64> interrupted;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
        db.setDatabaseName(loaded.absolutePath);
        error = db.open() ? configure(db) : db.lastError().text();
        if (error.isEmpty())
            error = markInterruptedRounds(db, interrupted);
        if (!error.isEmpty())
            db.close();
    }
    if (!error.isEmpty()) {
        QSqlDatabase::removeDatabase(connection);
        return fail(tr("Cannot open %1: %2").arg(loaded.path, error));
    }
    m_connection = connection;
    m_lock = std::move(lock);
    m_path = loaded.absolutePath;
    m_task = std::move(loaded.task);
    m_population = std::move(loaded.population);
    m_interrupted = interrupted;
    Q_EMIT opened();
    return true;
}

bool SessionStore::create(const QString &path, const QString &taskFolder, bool importTaskVariants)
{
    if (QFileInfo::exists(path))
        return fail(tr("%1 already exists").arg(path));
    if (!open(path))
        return false;
    if (!importTask(taskFolder, importTaskVariants)) {
        const QString message = m_error;
        close();
        QFile::remove(path);
        for (const char *suffix : {"-wal", "-shm"})
            QFile::remove(path + QLatin1String(suffix));
        return fail(message);
    }
    return true;
}

void SessionStore::close()
{
    cancelOpening();
    const bool wasOpen = !m_connection.isEmpty();
    if (wasOpen) {
        {
            QSqlDatabase db = QSqlDatabase::database(m_connection, false);
            if (db.isOpen()) {
                // Fold the WAL back so the session is one file again when copied around.
                QSqlQuery q(db);
                q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
                q.finish();
                db.close();
            }
        }
        QSqlDatabase::removeDatabase(m_connection);
        m_connection.clear();
    }
    m_lock.reset();
    m_task = {};
    m_population.clear();
    m_interrupted.clear();
    m_path.clear();
    if (wasOpen)
        Q_EMIT closed();
}

// ---------------------------------------------------------------------------------------------- task

bool SessionStore::loadTask()
{
    const QString error = readTask(QSqlDatabase::database(m_connection, false), m_task);
    return error.isEmpty() || fail(error);
}

bool SessionStore::importTask(const QString &folder, bool importTaskVariants)
{
    if (!isOpen())
        return fail(tr("No session is open"));
    if (hasTask())
        return fail(tr("The session already holds the task %1").arg(m_task.name));
    const QDir dir(folder);
    QFile jsonFile(dir.filePath(QStringLiteral("task.json")));
    if (!jsonFile.open(QIODevice::ReadOnly))
        return fail(tr("Cannot read %1: %2").arg(jsonFile.fileName(), jsonFile.errorString()));
    const QByteArray jsonBytes = jsonFile.readAll();
    QJsonParseError perr;
    const QJsonObject json = QJsonDocument::fromJson(jsonBytes, &perr).object();
    if (perr.error != QJsonParseError::NoError)
        return fail(tr("%1: invalid JSON at offset %2: %3").arg(jsonFile.fileName()).arg(perr.offset).arg(perr.errorString()));
    QFile refFile(dir.filePath(QStringLiteral("reference.cu")));
    if (!refFile.open(QIODevice::ReadOnly))
        return fail(tr("Cannot read %1: %2").arg(refFile.fileName(), refFile.errorString()));
    const QString reference = QString::fromUtf8(refFile.readAll());

    QMap<QString, QByteArray> files;
    QDirIterator it(dir.absolutePath(), QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo fi(it.next());
        const QString rel = dir.relativeFilePath(fi.absoluteFilePath());
        if (rel.startsWith(QLatin1Char('.')) || rel.contains(QLatin1String("/.")) || fi.size() > kMaxTaskFileBytes)
            continue;
        QFile f(fi.absoluteFilePath());
        if (!f.open(QIODevice::ReadOnly))
            return fail(tr("Cannot read %1: %2").arg(f.fileName(), f.errorString()));
        files.insert(rel, f.readAll());
    }

    QString name = json.value(QLatin1String("name")).toString();
    if (name.isEmpty())
        name = dir.dirName();

    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.transaction())
        return fail(db.lastError().text());
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO task (id, name, task_json, reference_source, origin_path, imported) "
                             "VALUES (1, ?, ?, ?, ?, ?)"));
    q.addBindValue(name);
    q.addBindValue(QString::fromUtf8(jsonBytes));
    q.addBindValue(reference);
    q.addBindValue(dir.absolutePath());
    q.addBindValue(now());
    bool ok = q.exec();
    for (auto f = files.cbegin(); ok && f != files.cend(); ++f) {
        q.prepare(QStringLiteral("INSERT INTO task_files (path, content) VALUES (?, ?)"));
        q.addBindValue(f.key());
        q.addBindValue(f.value());
        ok = q.exec();
    }
    if (!ok) {
        db.rollback();
        return sqlFail(q);
    }
    if (!db.commit())
        return fail(db.lastError().text());
    loadTask();
    Q_EMIT taskChanged();

    Variant ref;
    ref.origin = VariantOrigin::Reference;
    ref.label = tr("reference");
    if (!addVariant(ref, {reference, {}, {}}))
        return false;
    if (importTaskVariants) {
        for (const auto &entry : json.value(QLatin1String("variants")).toArray()) {
            const QJsonObject o = entry.toObject();
            const QString file = o.value(QLatin1String("file")).toString();
            if (!files.contains(file))
                return fail(tr("%1 lists the variant %2, which is not in the folder").arg(jsonFile.fileName(), file));
            Variant v;
            v.origin = VariantOrigin::Imported;
            v.label = o.value(QLatin1String("label")).toString(QFileInfo(file).baseName());
            v.parentIds = {m_population.reference()->id};
            if (!addVariant(v, {QString::fromUtf8(files.value(file)), {}, {}}))
                return false;
        }
    }
    return true;
}

bool SessionStore::writeTaskFolder(const QString &dirPath)
{
    if (!hasTask())
        return fail(tr("The session holds no task"));
    QDir dir(dirPath);
    for (auto f = m_task.files.cbegin(); f != m_task.files.cend(); ++f) {
        const QString target = dir.filePath(f.key());
        if (!QDir().mkpath(QFileInfo(target).absolutePath()))
            return fail(tr("Cannot create the folder of %1").arg(target));
        QFile out(target);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(f.value()) != f.value().size())
            return fail(tr("Cannot write %1: %2").arg(target, out.errorString()));
    }
    return true;
}

// ---------------------------------------------------------------------------------------------- variants

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

// ---------------------------------------------------------------------------------------------- evaluations

QString SessionStore::suspicionReason(const EvaluationSummary &e) const
{
    if (!e.isCorrect())
        return {};
    if (e.hasFlag(QLatin1String("below_speed_of_light")))
        return tr("faster than the speed-of-light floor of the task, which is impossible");
    if (e.speedup && *e.speedup > m_suspiciousSpeedup && !m_task.isDegenerate()) {
        if (e.hasFlag(QLatin1String("degenerate_output")))
            return tr("%1x faster, and the output does not depend on the inputs").arg(*e.speedup, 0, 'f', 1);
        return tr("%1x faster than the reference (over %2x): check it before it is used as an exemplar")
            .arg(*e.speedup, 0, 'f', 1)
            .arg(m_suspiciousSpeedup, 0, 'g', 3);
    }
    return {};
}

qint64 SessionStore::addEvaluation(const Evaluation &in)
{
    if (!isOpen())
        return failId(tr("No session is open"));
    const qint64 variantId = in.summary.variantId;
    if (!m_population.contains(variantId))
        return failId(tr("No variant %1 in this session").arg(variantId));
    EvaluationSummary s = in.summary;
    if (!s.created.isValid())
        s.created = QDateTime::currentDateTimeUtc();
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.transaction())
        return failId(db.lastError().text());
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO evaluations (variant_id, verdict, speedup, ref_median_ms, cand_median_ms, "
                             "cand_cv, flags, message, compile_flags, nvcc_version, created) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(variantId);
    q.addBindValue(text(s.verdict));
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
        q.prepare(QStringLiteral("INSERT INTO evaluation_results (evaluation_id, result_json, device_json) VALUES (?, ?, ?)"));
        q.addBindValue(s.id);
        q.addBindValue(jsonText(in.result));
        q.addBindValue(jsonText(in.device));
        ok = q.exec();
    }
    if (!ok) {
        db.rollback();
        return sqlFailId(q);
    }
    if (!db.commit())
        return failId(db.lastError().text());
    Variant *v = m_population.findMutable(variantId);
    v->eval = s;
    const QString reason = suspicionReason(s);
    if (!reason.isEmpty() || v->suspicious)
        setSuspicious(variantId, !reason.isEmpty(), reason);
    Q_EMIT evaluationAdded(variantId, s.id);
    return s.id;
}

std::optional<Evaluation> SessionStore::evaluation(qint64 evaluationId) const
{
    const QString sql = QStringLiteral("SELECT %1, r.result_json, r.device_json, compile_flags, nvcc_version "
                                       "FROM evaluations LEFT JOIN evaluation_results r "
                                       "ON r.evaluation_id = evaluations.id WHERE id = ?")
                            .arg(QLatin1String(kSummaryColumns));
    return selectRow(m_connection, sql, {evaluationId}, [](const QSqlQuery &q) {
        Evaluation e;
        e.summary = summaryOf(q);
        e.result = objectOf(q.value(10));
        e.device = objectOf(q.value(11));
        e.compileFlags = stringsOf(q.value(12));
        e.nvccVersion = q.value(13).toString();
        return e;
    });
}

std::optional<Evaluation> SessionStore::latestEvaluation(qint64 variantId) const
{
    const Variant *v = m_population.find(variantId);
    if (!v || !v->hasEvaluation())
        return std::nullopt;
    return evaluation(v->eval.id);
}

QList<EvaluationSummary> SessionStore::evaluations(qint64 variantId) const
{
    const QString sql = QStringLiteral("SELECT %1 FROM evaluations WHERE variant_id = ? ORDER BY id")
                            .arg(QLatin1String(kSummaryColumns));
    return selectRows(m_connection, sql, {variantId}, [](const QSqlQuery &q) { return summaryOf(q); });
}

int SessionStore::evaluationCount() const
{
    if (!isOpen())
        return 0;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM evaluations")) || !q.next())
        return 0;
    return q.value(0).toInt();
}

// ---------------------------------------------------------------------------------------------- prompts

qint64 SessionStore::addPrompt(const PromptRecord &p)
{
    if (!isOpen())
        return failId(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO prompts (round_id, kind, template, rendered, exemplar_ids, hint, created) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(idOrNull(p.roundId));
    q.addBindValue(text(p.kind));
    q.addBindValue(text(p.templateName));
    q.addBindValue(text(p.rendered));
    q.addBindValue(jsonText(p.exemplarIds));
    q.addBindValue(text(p.hint));
    q.addBindValue(stamp(p.created));
    if (!q.exec())
        return sqlFailId(q);
    const qint64 id = q.lastInsertId().toLongLong();
    Q_EMIT promptAdded(id);
    return id;
}

std::optional<PromptRecord> SessionStore::prompt(qint64 promptId) const
{
    const QString sql = QStringLiteral("SELECT %1 FROM prompts WHERE id = ?").arg(QLatin1String(kPromptColumns));
    return selectRow(m_connection, sql, {promptId}, promptOf);
}

QList<PromptRecord> SessionStore::prompts(qint64 roundId) const
{
    const QString sql =
        QStringLiteral("SELECT %1 FROM prompts WHERE round_id = ? ORDER BY id").arg(QLatin1String(kPromptColumns));
    return selectRows(m_connection, sql, {roundId}, promptOf);
}

qint64 SessionStore::addResponse(const ResponseRecord &r)
{
    if (!isOpen())
        return failId(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO responses (prompt_id, raw_text, reasoning_text, parse_status, parse_message, "
                             "prompt_tokens, completion_tokens, reasoning_tokens, cost, endpoint, model, finish_status, "
                             "error, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(r.promptId);
    q.addBindValue(text(r.rawText));
    q.addBindValue(text(r.reasoningText));
    q.addBindValue(text(r.parseStatus));
    q.addBindValue(text(r.parseMessage));
    q.addBindValue(r.promptTokens);
    q.addBindValue(r.completionTokens);
    q.addBindValue(r.reasoningTokens);
    q.addBindValue(r.cost);
    q.addBindValue(text(r.endpoint));
    q.addBindValue(text(r.model));
    q.addBindValue(text(r.finishStatus));
    q.addBindValue(text(r.error));
    q.addBindValue(stamp(r.created));
    if (!q.exec())
        return sqlFailId(q);
    const qint64 id = q.lastInsertId().toLongLong();
    Q_EMIT responseChanged(id);
    return id;
}

bool SessionStore::updateResponse(const ResponseRecord &r)
{
    if (!isOpen())
        return fail(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE responses SET raw_text = ?, reasoning_text = ?, parse_status = ?, "
                             "parse_message = ?, prompt_tokens = ?, completion_tokens = ?, reasoning_tokens = ?, "
                             "cost = ?, endpoint = ?, model = ?, finish_status = ?, error = ? WHERE id = ?"));
    q.addBindValue(text(r.rawText));
    q.addBindValue(text(r.reasoningText));
    q.addBindValue(text(r.parseStatus));
    q.addBindValue(text(r.parseMessage));
    q.addBindValue(r.promptTokens);
    q.addBindValue(r.completionTokens);
    q.addBindValue(r.reasoningTokens);
    q.addBindValue(r.cost);
    q.addBindValue(text(r.endpoint));
    q.addBindValue(text(r.model));
    q.addBindValue(text(r.finishStatus));
    q.addBindValue(text(r.error));
    q.addBindValue(r.id);
    if (!q.exec())
        return sqlFail(q);
    if (q.numRowsAffected() != 1)
        return fail(tr("No response %1 in this session").arg(r.id));
    Q_EMIT responseChanged(r.id);
    return true;
}

std::optional<ResponseRecord> SessionStore::response(qint64 responseId) const
{
    const QString sql = QStringLiteral("SELECT %1 FROM responses WHERE id = ?").arg(QLatin1String(kResponseColumns));
    return selectRow(m_connection, sql, {responseId}, responseOf);
}

QList<ResponseRecord> SessionStore::responses(qint64 promptId) const
{
    const QString sql =
        QStringLiteral("SELECT %1 FROM responses WHERE prompt_id = ? ORDER BY id").arg(QLatin1String(kResponseColumns));
    return selectRows(m_connection, sql, {promptId}, responseOf);
}

// ---------------------------------------------------------------------------------------------- rounds

qint64 SessionStore::addRound(const QJsonObject &settings)
{
    if (!isOpen())
        return failId(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO rounds (number, settings_json, state, started) "
                             "VALUES ((SELECT COALESCE(MAX(number), 0) + 1 FROM rounds), ?, 'running', ?)"));
    q.addBindValue(jsonText(settings));
    q.addBindValue(now());
    if (!q.exec())
        return sqlFailId(q);
    const qint64 id = q.lastInsertId().toLongLong();
    Q_EMIT roundChanged(id);
    return id;
}

bool SessionStore::setRoundState(qint64 roundId, RoundState state, const QString &message)
{
    if (!isOpen())
        return fail(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE rounds SET state = ?, message = ?, finished = ? WHERE id = ?"));
    q.addBindValue(toString(state));
    q.addBindValue(text(message));
    q.addBindValue(isActive(state) ? QVariant(QMetaType::fromType<QString>()) : QVariant(now()));
    q.addBindValue(roundId);
    if (!q.exec())
        return sqlFail(q);
    if (q.numRowsAffected() != 1)
        return fail(tr("No round %1 in this session").arg(roundId));
    m_interrupted.removeAll(roundId);
    Q_EMIT roundChanged(roundId);
    return true;
}

bool SessionStore::addRoundUsage(qint64 roundId, const RoundUsage &u)
{
    if (!isOpen())
        return fail(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE rounds SET requests = requests + ?, prompt_tokens = prompt_tokens + ?, "
                             "completion_tokens = completion_tokens + ?, cost = cost + ? WHERE id = ?"));
    q.addBindValue(u.requests);
    q.addBindValue(u.promptTokens);
    q.addBindValue(u.completionTokens);
    q.addBindValue(u.cost);
    q.addBindValue(roundId);
    if (!q.exec())
        return sqlFail(q);
    Q_EMIT roundChanged(roundId);
    return true;
}

std::optional<RoundRecord> SessionStore::round(qint64 roundId) const
{
    const QString sql = QStringLiteral("SELECT %1 FROM rounds WHERE id = ?").arg(QLatin1String(kRoundColumns));
    return selectRow(m_connection, sql, {roundId}, roundOf);
}

QList<RoundRecord> SessionStore::rounds() const
{
    const QString sql = QStringLiteral("SELECT %1 FROM rounds ORDER BY id").arg(QLatin1String(kRoundColumns));
    return selectRows(m_connection, sql, {}, roundOf);
}

RoundUsage SessionStore::sessionUsage() const
{
    RoundUsage total;
    if (!isOpen())
        return total;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (q.exec(QStringLiteral("SELECT COALESCE(SUM(requests), 0), COALESCE(SUM(prompt_tokens), 0), "
                              "COALESCE(SUM(completion_tokens), 0), COALESCE(SUM(cost), 0) FROM rounds"))
        && q.next()) {
        total.requests = q.value(0).toInt();
        total.promptTokens = q.value(1).toLongLong();
        total.completionTokens = q.value(2).toLongLong();
        total.cost = q.value(3).toDouble();
    }
    return total;
}

QList<qint64> SessionStore::variantsOfRound(qint64 roundId) const
{
    QList<qint64> out;
    for (const auto &v : m_population.variants())
        if (v.roundId == roundId)
            out << v.id;
    return out;
}

// ---------------------------------------------------------------------------------------------- analyses, notes

qint64 SessionStore::addPairAnalysis(const PairAnalysis &a)
{
    if (!isOpen())
        return failId(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO pair_analyses (variant_a, variant_b, question, answer, response_id, created) "
                             "VALUES (?, ?, ?, ?, ?, ?)"));
    q.addBindValue(a.variantA);
    q.addBindValue(a.variantB);
    q.addBindValue(text(a.question));
    q.addBindValue(text(a.answer));
    q.addBindValue(idOrNull(a.responseId));
    q.addBindValue(stamp(a.created));
    if (!q.exec())
        return sqlFailId(q);
    const qint64 id = q.lastInsertId().toLongLong();
    Q_EMIT pairAnalysisChanged(id);
    return id;
}

bool SessionStore::setPairAnswer(qint64 analysisId, const QString &answer, qint64 responseId)
{
    if (!isOpen())
        return fail(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE pair_analyses SET answer = ?, response_id = ? WHERE id = ?"));
    q.addBindValue(text(answer));
    q.addBindValue(idOrNull(responseId));
    q.addBindValue(analysisId);
    if (!q.exec())
        return sqlFail(q);
    Q_EMIT pairAnalysisChanged(analysisId);
    return true;
}

QList<PairAnalysis> SessionStore::pairAnalyses(qint64 variantA, qint64 variantB) const
{
    const QString sql = QStringLiteral("SELECT id, variant_a, variant_b, question, answer, response_id, created "
                                       "FROM pair_analyses WHERE (? = 0 OR variant_a = ?) AND (? = 0 OR variant_b = ?) "
                                       "ORDER BY id");
    return selectRows(m_connection, sql, {variantA, variantA, variantB, variantB}, [](const QSqlQuery &q) {
        return PairAnalysis{q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong(),
                            q.value(3).toString(),   q.value(4).toString(),   q.value(5).toLongLong(),
                            parseStamp(q.value(6))};
    });
}

qint64 SessionStore::addNote(const SessionNote &n)
{
    if (!isOpen())
        return failId(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO notes (variant_id, round_id, text, created) VALUES (?, ?, ?, ?)"));
    q.addBindValue(idOrNull(n.variantId));
    q.addBindValue(idOrNull(n.roundId));
    q.addBindValue(text(n.text));
    q.addBindValue(stamp(n.created));
    if (!q.exec())
        return sqlFailId(q);
    Q_EMIT notesChanged();
    return q.lastInsertId().toLongLong();
}

bool SessionStore::removeNote(qint64 noteId)
{
    if (!isOpen())
        return fail(tr("No session is open"));
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("DELETE FROM notes WHERE id = ?"));
    q.addBindValue(noteId);
    if (!q.exec())
        return sqlFail(q);
    Q_EMIT notesChanged();
    return true;
}

QList<SessionNote> SessionStore::notes() const
{
    const QString sql = QStringLiteral("SELECT id, variant_id, round_id, text, created FROM notes ORDER BY id");
    return selectRows(m_connection, sql, {}, [](const QSqlQuery &q) {
        return SessionNote{q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong(),
                           q.value(3).toString(), parseStamp(q.value(4))};
    });
}

QString SessionStore::meta(const QString &key) const
{
    if (!isOpen())
        return {};
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT value FROM meta WHERE key = ?"));
    q.addBindValue(text(key));
    if (!q.exec() || !q.next())
        return {};
    return q.value(0).toString();
}

bool SessionStore::setMeta(const QString &key, const QString &value)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO meta (key, value) VALUES (?, ?) "
                             "ON CONFLICT(key) DO UPDATE SET value = excluded.value"));
    q.addBindValue(text(key));
    q.addBindValue(text(value));
    return q.exec() || sqlFail(q);
}

} // namespace kforge
