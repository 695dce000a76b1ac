#pragma once
// The one queue every evaluation goes through, whoever asks for it: a round's candidates and its reference,
// Ctrl+Enter in the editor, a fork, a re-run, `kforge-cli eval` and `kforge-cli optimize`. It builds the
// request from the session's task record, hands it to the Evaluator (the worker pool, or the scripted
// stand-in of tests), follows its stages into the variant's status, and commits the result to the session
// the moment it arrives. A correct result that looks too good (the session's suspicion rule) is measured once
// more with EvalOptions::deep before its ticket finishes: passing accepts the variant, failing leaves the failure
// as its latest evaluation, and only what fails or cannot be checked stays held for review. Lives on the store's
// thread; finished() comes exactly once per ticket.
#include "core/compile/compileresult.h"
#include "core/eval/evaloptions.h"
#include "core/eval/evalresult.h"
#include "core/eval/measurement.h"
#include "core/queue/metricspolicy.h"
#include "core/session/variant.h"
#include "core/task/task.h"
#include "core/workerpool/evaluator.h"
#include "core/workerpool/workerreadiness.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <map>
#include <optional>

namespace kforge {

class SessionStore;

// What came of one ticket.
struct QueuedEvaluation {
    int ticket = 0;
    qint64 variantId = 0; // 0 for a source outside any session (submitSource)
    qint64 roundId = 0;   // the round that asked for it, 0 for none
    EvalResult result;
    std::optional<CompileResult> compiled;
    std::optional<Measurement> stored; // the stored form (storedResult()); none when nothing was stored
    qint64 evaluationId = 0;           // the evaluation committed to the session, 0 when none
    // Set when the result looked too good and was measured again with the deep check: then `result`, `stored` and
    // `evaluationId` are the deep check's, and firstEvaluationId the evaluation that triggered it.
    bool deepChecked = false;
    qint64 firstEvaluationId = 0;
    // Set when a round candidate measured without the metrics pass (MetricsPolicy::WhenTheyPay) landed among the
    // session's best and was measured again with it: `result`, `stored` and `evaluationId` are that second run's,
    // firstEvaluationId the first.
    bool metricsFollowUp = false;

    bool cancelled() const { return result.errorCode == QLatin1String("cancelled"); }
};

class EvaluationQueue : public QObject
{
    Q_OBJECT
public:
    // Neither is owned; both must outlive the queue.
    EvaluationQueue(SessionStore *store, Evaluator *evaluator, QObject *parent = nullptr);
    ~EvaluationQueue() override;

    Evaluator *evaluator() const;
    SessionStore *store() const;
    // Why nothing submitted now would be measured (no worker, none started, no GPU), or empty. Nothing is
    // created then: it would only leave a failure in the session.
    QString cannotEvaluate() const;
    // For evaluations that bring no options of their own (manual variants, forks, re-runs).
    void setDefaultOptions(const EvalOptions &options) { m_defaultOptions = options; }
    EvalOptions defaultOptions() const { return m_defaultOptions; }
    // For round candidates (a submit() with a roundId, the reference left out): whether their first evaluation
    // runs the metrics pass (core/queue/metricspolicy.h). Default Always.
    void setMetricsPolicy(const MetricsPolicy &policy) { m_metricsPolicy = policy; }
    MetricsPolicy metricsPolicy() const { return m_metricsPolicy; }
    QString errorString() const { return m_error; }

    // The open session's task as the evaluator takes it, built from its stored record (in memory, no folder);
    // nullptr with errorString() when it does not load.
    const Task *task();

    // ---- what enters the queue
    // A variant of the open session (a round's candidate or its reference when roundId is given). Returns the
    // ticket; 0 when the variant is unknown or the task does not load (the variant is marked Failed then).
    int submit(qint64 variantId, const EvalOptions &options, qint64 roundId = 0);
    // A hand-written variant (origin manual), evaluated at once with the default options. Its id, 0 on error.
    qint64 addManualVariant(const QString &source, const QList<qint64> &parentIds = {}, const QString &label = {});
    // A hand-edited copy of `parentId` (its source when `source` is empty), named "fork of ..." unless labelled.
    qint64 fork(qint64 parentId, const QString &source, const QString &label = {});
    // A new measurement of a variant; false with errorString() when it is unknown or in the queue already.
    // sourceProfile: with the source-level pass ("Profile Source Lines": stall reasons per line).
    bool reevaluate(qint64 variantId, bool sourceProfile = false);
    // A source outside any session (`kforge-cli eval` without --session): evaluated, nothing stored.
    int submitSource(const EvalRequest &request);
    // A candidate from outside the session made a new variant of it and evaluated at once, in the editor's order
    // (addManualVariant): the variant first, then its evaluation (`kforge-cli eval --session`). `request` brings the
    // source, the file name its diagnostics use, the options and the architecture; the task is the session's. The
    // ticket, with the new variant's id in *variantId; 0 with errorString() when nothing was added.
    int addVariant(const Variant &variant, const EvalRequest &request, qint64 *variantId = nullptr);

    void cancel(int ticket);
    // What an evaluation of `request` will need, started ahead of its submit (Evaluator::prepare): a collection's
    // upcoming pairs get their nvcc and load_inline builds while earlier pairs are measured.
    void prepare(const EvalRequest &request);
    bool isEvaluating(qint64 variantId) const;
    // The variant a ticket in flight evaluates; 0 for a source outside any session or a ticket not in flight.
    qint64 variantOf(int ticket) const;
    int pendingCount() const { return int(m_pending.size()); }

    // Commits one finished evaluation of `variantId`: the stored form, the device (`device`, or deviceOf()), and the
    // variant's status from the verdict. The evaluation's id, 0 on error.
    qint64 commit(qint64 variantId, const EvalResult &result, const std::optional<CompileResult> &compiled,
                  const QJsonObject &device = {});
    // Where the workers' full device descriptions come from (the composition root sets the pool's), by device name;
    // an empty object for a name it does not know.
    void setDeviceLookup(std::function<QJsonObject(const QString &deviceName)> lookup) { m_deviceLookup = std::move(lookup); }
    // The device a result is stored with: the full description of the GPU that measured it where the lookup knows
    // it, else its name, and the worker's name.
    QJsonObject deviceOf(const EvalResult &result) const;
    // The stored result: the worker's EvalResult plus what the compiler said about the candidate.
    static Measurement storedResult(const EvalResult &result, const std::optional<CompileResult> &compiled);

Q_SIGNALS:
    // The evaluator's stages ("compiling", "queued", "loading", "verifying", ...).
    void progress(int ticket, const QString &stage);
    void compiled(int ticket, const kforge::CompileResult &candidate);
    // The verdict and timing after the worker's timing stage, before its passes (Evaluator::measured), only to be
    // shown: nothing is stored, nothing decided from it, and finished() follows with the result that counts. Not for
    // a deep check, whose stages stay "deep check running".
    void provisional(int ticket, const kforge::EvalResult &result);
    // A result of `variantId` looked too good (`reason`) and is being measured again with the deep check.
    void deepCheckStarted(int ticket, qint64 variantId, const QString &reason);
    // Exactly once per ticket; for a variant, the result is committed and its status current already.
    void finished(const kforge::QueuedEvaluation &evaluation);

private:
    struct Pending {
        int ticket = 0; // what the caller holds: the first evaluator id, kept through the deep check
        qint64 variantId = 0;
        qint64 roundId = 0;
        std::optional<CompileResult> compiled;
        std::optional<EvalRequest> request; // variants only: what a deep check submits again
        bool deep = false;                  // this is the deep check of an earlier result
        qint64 firstEvaluationId = 0;
        QString suspicion;      // why the first result looked too good
        QString metricsSkipped; // EvalResult::metricsSkipped for this evaluation's result, empty when the pass runs
        bool metricsFollowUp = false; // this is the metrics pass of a result that turned out among the best
    };
    int enqueue(const EvalRequest &request, qint64 variantId, qint64 roundId);
    // submit() with what a request from outside the session brings (addVariant): its file name and architecture.
    int submitVariant(qint64 variantId, const EvalOptions &options, qint64 roundId, const EvalRequest *outside);
    bool startDeepCheck(Pending pending, qint64 firstEvaluationId);
    bool startMetricsFollowUp(Pending pending, qint64 firstEvaluationId);
    // Commits the deep check's result (its stored form into `stored`) and holds or accepts the variant; the
    // evaluation's id.
    qint64 concludeDeepCheck(const Pending &pending, EvalResult &result, std::optional<Measurement> &stored);
    // commit() of the stored form built once (storedResult()), which the store keeps.
    qint64 commitStored(qint64 variantId, const Measurement &result, const std::optional<CompileResult> &compiled,
                        const QJsonObject &device = {});
    std::map<int, Pending>::iterator findTicket(int ticket);
    bool fail(const QString &message);
    qint64 failId(const QString &message);
    void onProgress(int id, const QString &stage);
    void onCompiled(int id, const CompileResult &result);
    void onMeasured(int id, const EvalResult &provisional);
    void onFinished(int id, const EvalResult &measured);

    QPointer<SessionStore> m_store;
    QPointer<Evaluator> m_evaluator;
    EvalOptions m_defaultOptions;
    MetricsPolicy m_metricsPolicy;
    QString m_error;
    std::optional<Task> m_task;
    std::function<QJsonObject(const QString &)> m_deviceLookup;
    QString m_taskOf;                 // the session the task was built from
    std::map<int, Pending> m_pending; // by the evaluator's id, which is the ticket
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::QueuedEvaluation)
