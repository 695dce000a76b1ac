#pragma once
// Runs contrastive optimization rounds on the open session: evaluate the reference if needed, sample
// exemplars, render the prompt (optionally held for the user to edit), stream N answers concurrently, parse
// each into a variant, evaluate it, send failures back for repair, and keep everything in the store as it
// happens. Also the steering API the workbench and the CLI share: pins, exclusions, hints, forks, hand-written
// variants, re-evaluation and "why is A faster than B". Lives on the store's thread; all work is
// asynchronous through LlmClient and Evaluator signals.
#include "core/llm/llmrequest.h"
#include "core/llm/llmresult.h"
#include "core/llm/pricetable.h"
#include "core/optimizer/candidateprompts.h"
#include "core/optimizer/parsedresponse.h"
#include "core/optimizer/roundsettings.h"
#include "core/compile/compileresult.h"
#include "core/eval/evalresult.h"
#include "core/task/task.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <deque>
#include <map>
#include <memory>
#include <optional>

class QTemporaryDir;

namespace kforge {

class Evaluator;
class LlmClient;
class SessionStore;

class RoundRunner : public QObject
{
    Q_OBJECT

public:
    enum class State {
        Idle,             // no round
        Preparing,        // measuring the reference before the first prompt
        Sampling,         // choosing exemplars, rendering the prompt
        AwaitingApproval, // the prompt waits for approvePrompt() (prompt review is on)
        Streaming,        // requests in flight or still to send
        Evaluating,       // every answer is in; evaluations and repairs remain
        Paused,           // nothing new starts; what runs finishes
        Stopping,         // cancelling what runs
    };
    Q_ENUM(State)

    // None is owned; all must outlive the runner.
    RoundRunner(SessionStore *store, LlmClient *llm, Evaluator *evaluator, QObject *parent = nullptr);
    ~RoundRunner() override;

    // Endpoint, model, key and per-request overrides for every request; system and messages are the runner's.
    void setRequestTemplate(const LlmRequest &request) { m_template = request; }
    void setPriceTable(const PriceTable &prices) { m_prices = prices; }
    void setSessionBudget(const Budget &budget) { m_sessionBudget = budget; }
    // When on, each round's rendered prompt is announced by promptReady() and sent only on approvePrompt().
    void setPromptReview(bool on) { m_review = on; }
    // For evaluations outside rounds (manual variants, forks, re-evaluation).
    void setDefaultEvalOptions(const EvalOptions &options) { m_defaultEvalOptions = options; }

    State state() const { return m_state; }
    bool isRunning() const { return m_state != State::Idle; }
    qint64 currentRound() const { return m_roundId; }
    QString errorString() const { return m_error; }
    int pendingEvaluations() const { return int(m_evals.size() + m_evalQueue.size()); }
    // What evaluates the candidates; its readiness() says whether anything can be measured now.
    Evaluator *evaluator() const;

    // A new round. False with errorString() when one runs, the session has no task, or a budget is spent.
    bool start(const RoundSettings &settings);
    // Continues an interrupted round from what the store holds: finished answers are kept, answers that were
    // streaming are asked for again, variants that were being evaluated are evaluated again.
    bool resume(qint64 roundId);
    void pause();
    void unpause();
    void stop();
    // Prompt review: send the prompt (edited, or as rendered when `text` is empty), or drop the round. With a
    // prompt per candidate, `text` is the first candidate's and approvePrompts() takes one per prompt.
    void approvePrompt(const QString &text = {});
    void approvePrompts(const QStringList &texts);
    void rejectPrompt();
    QString pendingPrompt() const;
    // The round's prompts and which candidate receives which (drawn while reviewing, stored once sent).
    const CandidatePrompts &candidatePrompts() const { return m_prompts; }

    // ---- steering
    bool setPinned(qint64 variantId, bool pinned);
    bool setExcluded(qint64 variantId, bool excluded);
    bool setAccepted(qint64 variantId, bool accepted);
    // Guidance for the next round that does not bring its own.
    void setNextHint(const QString &hint) { m_nextHint = hint; }
    QString nextHint() const { return m_nextHint; }
    // A hand-edited copy of `parentId` (origin manual, parent linked), evaluated at once. Returns its id.
    qint64 fork(qint64 parentId, const QString &source, const QString &label = {});
    // A hand-written variant, evaluated at once. Returns its id, 0 on error.
    qint64 addManualVariant(const QString &source, const QList<qint64> &parentIds = {}, const QString &label = {});
    // sourceProfile: with the source-level pass ("Profile source lines": stall reasons per line).
    bool reevaluate(qint64 variantId, bool sourceProfile = false);
    // Asks the model why `a` is faster than `b`; the answer lands in the store's pair analyses. Returns the
    // analysis id, 0 on error.
    qint64 askWhyFaster(qint64 a, qint64 b, const QString &question = {});

Q_SIGNALS:
    void stateChanged(kforge::RoundRunner::State state);
    void roundStarted(qint64 roundId);
    void promptReady(qint64 roundId, const QString &prompt);
    void requestStarted(qint64 responseId);
    void textDelta(qint64 responseId, const QString &text);
    void reasoningDelta(qint64 responseId, const QString &text);
    // An answer is in and parsed; variantId is 0 when it held no usable code.
    void responseFinished(qint64 responseId, qint64 variantId, const kforge::ParsedResponse &parsed);
    // An evaluation is stored (the variant's status and latest evaluation are current).
    void evaluationFinished(qint64 variantId);
    void pairAnswered(qint64 analysisId);
    void roundFinished(qint64 roundId, kforge::RoundState state, const QString &message);
    void errorOccurred(const QString &message);

private:
    enum class RequestKind { Contrastive, Repair, Compare };
    struct Request {
        RequestKind kind = RequestKind::Contrastive;
        qint64 roundId = 0;
        qint64 promptId = 0;
        qint64 responseId = 0;
        QList<qint64> parents;
        qint64 pairId = 0;
        int repairDepth = 0;
        QString label;
    };
    struct PendingEval {
        qint64 variantId = 0;
        qint64 roundId = 0;
        std::optional<CompileResult> compiled;
    };
    struct RepairJob {
        qint64 variantId = 0;
        QJsonObject result;
        int depth = 0;
    };

    void setState(State s);
    bool fail(const QString &message);
    qint64 failId(const QString &message);
    const Task *task();
    RoundUsage sessionUsed() const;
    QString budgetBlock() const;
    int requestsInFlight(qint64 roundId) const;
    int evaluationsOf(qint64 roundId) const;

    void prepare();
    void sample();
    void sendPrompts();
    void pump();
    bool launch(const Request &request, const QString &prompt);
    void launchRepair(const RepairJob &job);
    void updatePhase();
    void maybeFinish();
    void finishRound(RoundState state, const QString &message);

    void submitEvaluation(qint64 variantId, qint64 roundId, bool sourceProfile = false);
    void considerRepair(qint64 variantId, const QJsonObject &result);
    int repairDepth(qint64 variantId) const;
    qint64 addParsedVariant(const Request &r, const ParsedResponse &parsed);

    void onLlmText(quint64 id, const QString &text);
    void onLlmReasoning(quint64 id, const QString &text);
    void onLlmFinished(quint64 id, const LlmResult &result);
    void onEvalProgress(int id, const QString &stage);
    void onEvalCompiled(int id, const CompileResult &result);
    void onEvalFinished(int id, const EvalResult &result);

    QPointer<SessionStore> m_store;
    QPointer<LlmClient> m_llm;
    QPointer<Evaluator> m_evaluator;
    LlmRequest m_template;
    PriceTable m_prices;
    Budget m_sessionBudget;
    EvalOptions m_defaultEvalOptions;
    bool m_review = false;
    QString m_nextHint;
    QString m_error;

    std::unique_ptr<QTemporaryDir> m_taskDir;
    std::optional<Task> m_task;
    QString m_taskOf; // the session the task was loaded from

    State m_state = State::Idle;
    qint64 m_roundId = 0;
    RoundSettings m_settings;
    RoundUsage m_usage; // this round, requests counted when sent
    CandidatePrompts m_prompts; // who is sent what, and who was sent already (or found finished when resuming)
    int m_withContent = 0;   // answers that carried any text
    QString m_firstError;
    QString m_budgetReason;
    int m_referenceEval = 0; // the evaluation prepare() waits for
    bool m_paused = false;
    bool m_stopping = false;

    std::map<quint64, Request> m_requests;
    std::map<int, PendingEval> m_evals;
    std::deque<std::pair<qint64, qint64>> m_evalQueue; // (variant, round) held while paused
    std::deque<RepairJob> m_repairQueue;
};

} // namespace kforge
