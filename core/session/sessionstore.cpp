#include "core/session/sessionstore.h"
#include "core/async/lateresultguard.h"
#include "core/session/sessionrows.h"
#include "core/session/sessionschema.h"
#include "core/task/task.h"

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

using namespace sessionrows;

namespace {

// Larger files in a task folder are data sets or build outputs, not part of the task.
constexpr qint64 kMaxTaskFileBytes = 16 * 1024 * 1024;

// The pragmas every connection to a session file runs first; the error text, or empty.
QString configure(QSqlDatabase &db)
{
    QSqlQuery q(db);
    // WAL: readers never block the writer and a killed process leaves a consistent file. NORMAL sync is
    // durable against process death (the case that matters here); only a power cut can lose the last commits.
    for (const char *pragma :
         {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON", "PRAGMA busy_timeout=5000"}) {
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
    task.setTaskJson(q.value(1).toString());
    task.referenceSource = q.value(2).toString();
    task.originPath = q.value(3).toString();
    if (!q.exec(QStringLiteral("SELECT path, content FROM task_files ORDER BY path")))
        return sqlError(q);
    while (q.next())
        task.files.insert(q.value(0).toString(), q.value(1).toByteArray());
    return {};
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

std::optional<QSqlQuery> SessionStore::write(const QString &sql, const QVariantList &binds)
{
    if (!isOpen()) {
        fail(tr("No session is open"));
        return std::nullopt;
    }
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(sql);
    for (const QVariant &value : binds)
        q.addBindValue(value);
    if (!q.exec()) {
        sqlFail(q);
        return std::nullopt;
    }
    return q;
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
    const QFuture<void> loading = QtConcurrent::run(m_loader.get(), [job] {
        load(job->path, &job->cancelled, job->loaded);
        const std::lock_guard guard(job->mutex);
        job->finished = true;
        if (job->cancelled)
            job->loaded.lock.reset();
    });
    whenFinished(this, loading, [this, job] { finishOpening(job); });
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
    const QString connection = QStringLiteral("kforge-session-load-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
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
    const QString connection = QStringLiteral("kforge-session-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
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
    m_evaluations.m_kept.clear();
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
    m_evaluations.m_kept.clear();
    m_interrupted.clear();
    m_path.clear();
    if (wasOpen)
        Q_EMIT closed();
}

// ---------------------------------------------------------------------------------------------- meta

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
        return fail(
            tr("%1: invalid JSON at offset %2: %3").arg(jsonFile.fileName()).arg(perr.offset).arg(perr.errorString()));
    // A torch task (docs/torch-tasks.md) has its PyTorch Model as reference.py.
    QFile refFile(dir.filePath(Task::referenceFileOf(json)));
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
    if (!m_variants.add(ref, {reference, {}, {}}))
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
            if (!m_variants.add(v, {QString::fromUtf8(files.value(file)), {}, {}}))
                return false;
        }
    }
    return true;
}

} // namespace kforge
