#pragma once
// The open session: one *.kforge SQLite file (WAL, versioned schema) and the population loaded from it.
// Every write commits at once and is announced by a signal, so views observe this one object and a killed
// process loses only the work in flight. Lives on one thread (the GUI's or the CLI's main thread); only
// openAsync() reads the file on a worker thread, into data the store adopts on its own thread.
#include "core/session/evaluation.h"
#include "core/session/keptevaluations.h"
#include "core/session/pairanalysis.h"
#include "core/session/population.h"
#include "core/session/promptrecord.h"
#include "core/session/responserecord.h"
#include "core/session/roundrecord.h"
#include "core/session/sessionnote.h"
#include "core/session/taskrecord.h"
#include "core/session/variant.h"

#include <QJsonObject>
#include <QObject>
#include <QSqlDatabase>
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
    static constexpr double kDefaultSuspiciousSpeedup = 10.0;

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

    // A result faster than this many times the reference, on a task not flagged degenerate, is suspicious: the
    // evaluation queue checks it deeper and holds it for review unless it passes (flag deep_checked).
    void setSuspiciousSpeedup(double factor) { m_suspiciousSpeedup = factor; }
    double suspiciousSpeedup() const { return m_suspiciousSpeedup; }

    // ---- task
    // Copies a task folder in (task.json, reference.cu or a torch task's reference.py, everything else under it) and adds the reference as a
    // variant; with importTaskVariants, also the hand-written variants task.json lists (origin Imported).
    bool importTask(const QString &folder, bool importTaskVariants = false);
    const TaskRecord &task() const { return m_task; }
    bool hasTask() const { return m_task.isValid(); }

    // ---- variants
    const Population &population() const { return m_population; }
    // Adds a variant (v.id and v.eval are ignored; created is now when null). Returns its id, 0 on error.
    qint64 addVariant(const Variant &v, const VariantTexts &texts);
    VariantTexts texts(qint64 variantId) const;
    QString source(qint64 variantId) const;
    bool setStatus(qint64 variantId, VariantStatus status, const QString &message = {});
    bool setPinned(qint64 variantId, bool pinned);
    bool setExcluded(qint64 variantId, bool excluded);
    bool setAccepted(qint64 variantId, bool accepted);
    bool setSuspicious(qint64 variantId, bool suspicious, const QString &reason = {});
    bool setLabel(qint64 variantId, const QString &label);
    bool setTags(qint64 variantId, const QStringList &tags);
    bool setNotes(qint64 variantId, const QString &notes);
    bool setAnalysisAndDesign(qint64 variantId, const QString &analysis, const QString &design);

    // ---- evaluations
    // Stores an evaluation and makes it the variant's latest; marks the variant suspicious (or clears the mark)
    // by suspicionReason(). Returns its id, 0 on error. The file gets its document (`e.result`); the store keeps `e`
    // itself, with the Measurement it was built from (Evaluation::fromMeasurement), for evaluation().
    qint64 addEvaluation(const Evaluation &e);
    // One evaluation in full. What was added or read in this session comes from memory (the last
    // KeptEvaluations::kDefaultCapacity), its Measurement and figures shared; anything else is read from the file
    // and parsed once (Measurement::fromJson), then kept: an evaluation is parsed at most once while it is kept.
    std::optional<Evaluation> evaluation(qint64 evaluationId) const;
    std::optional<Evaluation> latestEvaluation(qint64 variantId) const;
    QList<EvaluationSummary> evaluations(qint64 variantId) const;
    int evaluationCount() const;
    // Why a result must be checked deeper (or reviewed) before it is trusted, or empty (also for deep_checked).
    QString suspicionReason(const EvaluationSummary &e) const;

    // ---- prompts and responses
    qint64 addPrompt(const PromptRecord &p);
    std::optional<PromptRecord> prompt(qint64 promptId) const;
    QList<PromptRecord> prompts(qint64 roundId) const;
    qint64 addResponse(const ResponseRecord &r);
    bool updateResponse(const ResponseRecord &r);
    std::optional<ResponseRecord> response(qint64 responseId) const;
    QList<ResponseRecord> responses(qint64 promptId) const;

    // ---- rounds
    qint64 addRound(const QJsonObject &settings);
    bool setRoundState(qint64 roundId, RoundState state, const QString &message = {});
    bool addRoundUsage(qint64 roundId, const RoundUsage &usage);
    std::optional<RoundRecord> round(qint64 roundId) const;
    QList<RoundRecord> rounds() const;
    RoundUsage sessionUsage() const;
    QList<qint64> variantsOfRound(qint64 roundId) const;

    // ---- pair analyses and notes
    qint64 addPairAnalysis(const PairAnalysis &a);
    bool setPairAnswer(qint64 analysisId, const QString &answer, qint64 responseId);
    QList<PairAnalysis> pairAnalyses(qint64 variantA = 0, qint64 variantB = 0) const;
    qint64 addNote(const SessionNote &n);
    bool removeNote(qint64 noteId);
    QList<SessionNote> notes() const;

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
    qint64 failId(const QString &message);
    qint64 sqlFailId(const QSqlQuery &q);
    bool loadTask();
    bool updateVariantColumn(qint64 variantId, const char *column, const QVariant &value);

    QString m_path;
    QString m_connection;
    QString m_error;
    std::unique_ptr<QLockFile> m_lock;
    TaskRecord m_task;
    Population m_population;
    QList<qint64> m_interrupted;
    double m_suspiciousSpeedup = kDefaultSuspiciousSpeedup;
    std::shared_ptr<OpenJob> m_opening;    // the openAsync() in flight
    std::unique_ptr<QThreadPool> m_loader; // one thread: a superseded load ends before the next one starts
    mutable KeptEvaluations m_kept;        // evaluation(): the typed evaluations of this session, by id
};

} // namespace kforge
