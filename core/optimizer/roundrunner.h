#pragma once
// Runs contrastive optimization rounds on the open session: evaluate the reference if needed, sample
// exemplars, render the prompt (optionally held for the user to edit), stream N answers concurrently, parse
// each into a variant, have it evaluated through the EvaluationQueue, send failures back for repair, and keep
// everything in the store as it happens. The round's state machine and nothing else: evaluations outside
// rounds go to the queue, "why is A faster than B" to WhyFaster (whose signals it forwards). Lives on the
// store's thread; all work is asynchronous through LlmClient and EvaluationQueue signals.
#include "core/eval/evaloptions.h"
#include "core/eval/measurement.h"
#include "core/llm/llmrequest.h"
#include "core/llm/llmresult.h"
#include "core/llm/pricetable.h"
#include "core/optimizer/candidateprompts.h"
#include "core/optimizer/parsedresponse.h"
#include "core/optimizer/roundsettings.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <deque>
#include <map>
#include <memory>
#include <optional>

namespace kforge {

class EvaluationQueue;
class Evaluator;
class LlmClient;
class SessionStore;
class WhyFaster;
struct QueuedEvaluation;

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

    // Why the last round ended, or why start() refused one, in a form callers decide on (the CLI's exit
    // status); the message is for people.
    enum class Outcome {
        None,        // no round ended yet
        Finished,    // every candidate was asked for and evaluated
        BudgetSpent, // refused or ended early by the round's or the session's budget
        Stopped,     // stopped by the user, or its prompt was not sent
        Failed,      // it could not run (no task, no worker, the reference failed, no answer arrived...)
    };
    Q_ENUM(Outcome)

    // None is owned; all must outlive the runner.
    RoundRunner(SessionStore *store, LlmClient *llm, EvaluationQueue *queue, QObject *parent = nullptr);
    // With a queue of its own over `evaluator`, for callers that need no other path into the queue.
    RoundRunner(SessionStore *store, LlmClient *llm, Evaluator *evaluator, QObject *parent = nullptr);
    ~RoundRunner() override;

    // Endpoint, model, key and per-request overrides for every request; system and messages are the runner's.
    void setRequestTemplate(const LlmRequest &request);
    void setPriceTable(const PriceTable &prices);
    const PriceTable &priceTable() const;
    void setSessionBudget(const Budget &budget);
    // When on, each round's rendered prompt is announced by promptReady() and sent only on approvePrompt().
    void setPromptReview(bool on) { m_review = on; }

    State state() const { return m_state; }
    bool isRunning() const { return m_state != State::Idle; }
    qint64 currentRound() const { return m_roundId; }
    QString errorString() const { return m_error; }
    // How the last round ended or why start() refused; None before any.
    Outcome outcome() const { return m_outcome; }
    // What evaluates the candidates; its readiness() says whether anything can be measured now.
    Evaluator *evaluator() const;
    // The queue the round's evaluations go through (every other evaluation too).
    EvaluationQueue *queue() const;

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

    // ---- steering (pins, exclusions and acceptance are the store's)
    // Guidance for the next round that does not bring its own.
    void setNextHint(const QString &hint) { m_nextHint = hint; }
    QString nextHint() const { return m_nextHint; }
    // Asks the model why `a` is faster than `b` (WhyFaster, with this runner's endpoint, prices and budget);
    // the answer lands in the store's pair analyses. Returns the analysis id, 0 on error.
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
    // An evaluation that went through the queue is stored (the variant's status and latest evaluation are
    // current), a round's or not.
    void evaluationFinished(qint64 variantId);
    void pairAnswered(qint64 analysisId);
    void roundFinished(qint64 roundId, kforge::RoundState state, const QString &message);
    void errorOccurred(const QString &message);

private:
    enum class RequestKind { Contrastive, Repair };
    struct Request {
        RequestKind kind = RequestKind::Contrastive;
        qint64 roundId = 0;
        qint64 promptId = 0;
        qint64 responseId = 0;
        QList<qint64> parents;
        int repairDepth = 0;
        QString label;
    };
    struct RepairJob {
        qint64 variantId = 0;
        Measurement result;
        int depth = 0;
    };

    void setState(State s);
    // What a round counts from nothing, whether it starts or resumes: prompts, answers with content, errors,
    // budget, pause and stop.
    void resetRoundProgress();
    bool fail(const QString &message);
    qint64 failId(const QString &message);
    void connectServices();
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
    void considerRepair(qint64 variantId, const Measurement &result);
    int repairDepth(qint64 variantId) const;
    // --accept-suspicious: accepts a held, correct variant that is not under the speed-of-light floor.
    bool acceptHeld(qint64 variantId);
    qint64 addParsedVariant(const Request &r, const ParsedResponse &parsed);

    void onLlmText(quint64 id, const QString &text);
    void onLlmReasoning(quint64 id, const QString &text);
    void onLlmFinished(quint64 id, const LlmResult &result);
    void onEvalFinished(const QueuedEvaluation &done);

    QPointer<SessionStore> m_store;
    QPointer<LlmClient> m_llm;
    QPointer<EvaluationQueue> m_queue;
    WhyFaster *m_whyFaster = nullptr;
    LlmRequest m_template;
    PriceTable m_prices;
    Budget m_sessionBudget;
    bool m_review = false;
    QString m_nextHint;
    QString m_error;
    Outcome m_outcome = Outcome::None;

    State m_state = State::Idle;
    qint64 m_roundId = 0;
    RoundSettings m_settings;
    RoundUsage m_usage;         // this round, requests counted when sent
    CandidatePrompts m_prompts; // who is sent what, and who was sent already (or found finished when resuming)
    int m_withContent = 0;      // answers that carried any text
    QString m_firstError;
    QString m_budgetReason;
    bool m_budgetSpent = false; // m_budgetReason is a budget's, not a failed send's
    int m_referenceEval = 0;    // the evaluation prepare() waits for
    bool m_paused = false;
    bool m_stopping = false;

    std::map<quint64, Request> m_requests;
    std::map<int, qint64> m_evals; // the queue's tickets of this runner -> the round that asked (0: none)
    std::deque<std::pair<qint64, qint64>> m_evalQueue; // (variant, round) held while paused
    std::deque<RepairJob> m_repairQueue;
};

} // namespace kforge
