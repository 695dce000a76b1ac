#pragma once
// The open session: one *.kforge SQLite file (WAL, versioned schema), its task and the population loaded from it.
// The store opens, migrates and closes the file; the rows are read and written through one repository per kind
// (variants(), evaluations(), rounds(), exchanges(), analyses()). Every write commits at once and is announced by
// a signal of this store, so views observe this one object and a killed process loses only the work in flight.
// Lives on one thread (the GUI's or the CLI's main thread); only openAsync() reads the file on a worker thread,
// into data the store adopts on its own thread.
#include "core/session/analysisrepository.h"
#include "core/session/evaluationrepository.h"
#include "core/session/exchangerepository.h"
#include "core/session/population.h"
#include "core/session/roundrepository.h"
#include "core/session/taskrecord.h"
#include "core/session/variantrepository.h"

#include <QJsonObject>
#include <QObject>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QVariantList>
#include <atomic>
#include <memory>
#include <optional>

class QLockFile;
class QSqlQuery;
class QThreadPool;

namespace kforge {

class SessionStore : public QObject
{
    Q_OBJECT

public:
    explicit SessionStore(QObject *parent = nullptr);
    ~SessionStore() override;

    // Opens a session file, creating an empty one when `path` does not exist, and migrates an older schema.
    // Rounds left Running or Paused by a process that died become Interrupted (see interruptedRounds()).
    // False with errorString() set: not a session, newer schema, or open in another KForge process.
    bool open(const QString &path);
    // The same as open(), without making the calling thread wait for the file: closes the current session at
    // once (closed()), locks, migrates and reads the file on a worker thread, then, back in this thread's event
    // loop, adopts it (opened(), then openFinished(true, {})) or reports why not (errorOccurred(), then
    // openFinished(false, message); the store stays closed). A later open(), openAsync() or close() supersedes
    // it: its result is dropped and nothing is emitted for it.
    void openAsync(const QString &path);
    // True from openAsync() until its result is adopted or reported, or it is superseded.
    bool isOpening() const { return m_opening != nullptr; }
    // A new session at `path` (which must not exist) holding the task copied from `taskFolder`.
    bool create(const QString &path, const QString &taskFolder, bool importTaskVariants = false);
    void close();
    bool isOpen() const;
    QString path() const { return m_path; }
    QString errorString() const { return m_error; }
    int schemaVersion() const;
    // Rounds this open() found Running/Paused and marked Interrupted.
    QList<qint64> interruptedRounds() const { return m_interrupted; }

    // ---- task
    // Copies a task folder in (task.json, reference.cu or a torch task's reference.py, everything else under it) and adds the reference as a
    // variant; with importTaskVariants, also the hand-written variants task.json lists (origin Imported).
    bool importTask(const QString &folder, bool importTaskVariants = false);
    const TaskRecord &task() const { return m_task; }
    bool hasTask() const { return m_task.isValid(); }

    // ---- the rows, by kind (each repository announces its writes by this store's signals)
    // The variants as loaded and kept up to date by every write; their texts are read when asked for.
    const Population &population() const { return m_population; }
    VariantRepository &variants() { return m_variants; }
    const VariantRepository &variants() const { return m_variants; }
    EvaluationRepository &evaluations() { return m_evaluations; }
    const EvaluationRepository &evaluations() const { return m_evaluations; }
    RoundRepository &rounds() { return m_rounds; }
    const RoundRepository &rounds() const { return m_rounds; }
    ExchangeRepository &exchanges() { return m_exchanges; }
    const ExchangeRepository &exchanges() const { return m_exchanges; }
    AnalysisRepository &analyses() { return m_analyses; }
    const AnalysisRepository &analyses() const { return m_analyses; }

    // ---- free key/value metadata (session title, last settings...)
    QString meta(const QString &key) const;
    bool setMeta(const QString &key, const QString &value);

Q_SIGNALS:
    void opened();
    void closed();
    void variantAdded(qint64 variantId);
    void variantChanged(qint64 variantId);
    void evaluationAdded(qint64 variantId, qint64 evaluationId);
    void roundChanged(qint64 roundId); // added, state or usage changed
    void promptAdded(qint64 promptId);
    void responseChanged(qint64 responseId); // added or updated
    void pairAnalysisChanged(qint64 analysisId);
    void notesChanged();
    void taskChanged();
    void errorOccurred(const QString &message);
    // The end of an openAsync() that was not superseded; after opened() or errorOccurred().
    void openFinished(bool ok, const QString &error);

private:
    // The repositories share this store's connection, population, task and error reporting.
    friend class VariantRepository;
    friend class EvaluationRepository;
    friend class RoundRepository;
    friend class ExchangeRepository;
    friend class AnalysisRepository;
    struct LoadedSession;
    struct OpenJob;
    // Locks, migrates and reads the session at `path`, touching nothing of a store, so it can run on any thread;
    // stops early once *cancelled is set.
    static void load(const QString &path, const std::atomic<bool> *cancelled, LoadedSession &out);
    // Makes a loaded session the open one: a connection of this thread, the interrupted-round marking, opened().
    bool adopt(LoadedSession &&loaded);
    void cancelOpening();
    void finishOpening(const std::shared_ptr<OpenJob> &job);

    bool fail(const QString &message);
    bool sqlFail(const QSqlQuery &q);
    // One statement on the open session with `binds` in order: the query once it ran, or nothing when no session
    // is open or the statement failed (the error then says which). The repositories' writes go through it.
    std::optional<QSqlQuery> write(const QString &sql, const QVariantList &binds);
    qint64 failId(const QString &message);
    qint64 sqlFailId(const QSqlQuery &q);
    bool loadTask();

    QString m_path;
    QString m_connection;
    QString m_error;
    std::unique_ptr<QLockFile> m_lock;
    TaskRecord m_task;
    Population m_population;
    QList<qint64> m_interrupted;
    std::shared_ptr<OpenJob> m_opening;    // the openAsync() in flight
    std::unique_ptr<QThreadPool> m_loader; // one thread: a superseded load ends before the next one starts
    VariantRepository m_variants{*this};
    EvaluationRepository m_evaluations{*this};
    RoundRepository m_rounds{*this};
    ExchangeRepository m_exchanges{*this};
    AnalysisRepository m_analyses{*this};
};

} // namespace kforge
