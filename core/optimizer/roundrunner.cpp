#include "core/optimizer/roundrunner.h"
#include "core/llm/llmclient.h"
#include "core/optimizer/llmexchange.h"
#include "core/optimizer/promptbuilder.h"
#include "core/optimizer/responseparser.h"
#include "core/optimizer/whyfaster.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/workerpool/evaluator.h"

#include <QJsonArray>
#include <QTimer>

namespace kforge {

namespace {

std::optional<RepairRequest::Failure> repairableFailure(Verdict verdict)
{
    if (verdict == Verdict::CompileError)
        return RepairRequest::Failure::CompileError;
    if (verdict == Verdict::Incorrect)
        return RepairRequest::Failure::WrongResult;
    if (verdict == Verdict::Correct || verdict == Verdict::Error)
        return std::nullopt; // correct, or nothing the model can fix (no GPU, worker down...)
    return RepairRequest::Failure::RuntimeError; // crashed, cuda_error, timeout, load_error
}

} // namespace

RoundRunner::RoundRunner(SessionStore *store, LlmClient *llm, EvaluationQueue *queue, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_llm(llm)
    , m_queue(queue)
{
    connectServices();
}

RoundRunner::RoundRunner(SessionStore *store, LlmClient *llm, Evaluator *evaluator, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_llm(llm)
    , m_queue(new EvaluationQueue(store, evaluator, this))
{
    connectServices();
}

void RoundRunner::connectServices()
{
    qRegisterMetaType<kforge::ParsedResponse>();
    qRegisterMetaType<kforge::RoundState>();
    connect(m_llm, &LlmClient::textDelta, this, &RoundRunner::onLlmText);
    connect(m_llm, &LlmClient::reasoningDelta, this, &RoundRunner::onLlmReasoning);
    connect(m_llm, &LlmClient::finished, this, &RoundRunner::onLlmFinished);
    connect(m_queue, &EvaluationQueue::finished, this, &RoundRunner::onEvalFinished);
    m_whyFaster = new WhyFaster(m_store, m_llm, this);
    m_whyFaster->setUsage([this] { return sessionUsed(); });
    connect(m_whyFaster, &WhyFaster::requestStarted, this, &RoundRunner::requestStarted);
    connect(m_whyFaster, &WhyFaster::textDelta, this, &RoundRunner::textDelta);
    connect(m_whyFaster, &WhyFaster::reasoningDelta, this, &RoundRunner::reasoningDelta);
    connect(m_whyFaster, &WhyFaster::pairAnswered, this, &RoundRunner::pairAnswered);
    connect(m_whyFaster, &WhyFaster::responseFinished, this, &RoundRunner::responseFinished);
    // A session closed under a running round: what remains in flight belongs to nobody (the queue drops the
    // evaluations itself).
    connect(m_store, &SessionStore::closed, this, [this] {
        for (const auto &[id, r] : m_requests)
            if (m_llm)
                m_llm->cancel(id);
        m_requests.clear();
        m_evals.clear();
        m_evalQueue.clear();
        m_repairQueue.clear();
        m_prompts.clear();
        m_roundId = 0;
        setState(State::Idle);
    });
}

RoundRunner::~RoundRunner()
{
    for (const auto &[id, r] : m_requests)
        if (m_llm)
            m_llm->cancel(id);
    for (const auto &[id, round] : m_evals)
        if (m_queue)
            m_queue->cancel(id);
}

void RoundRunner::setRequestTemplate(const LlmRequest &request)
{
    m_template = request;
    m_whyFaster->setRequestTemplate(request);
}

void RoundRunner::setPriceTable(const PriceTable &prices)
{
    m_prices = prices;
    m_whyFaster->setPriceTable(prices);
}

const PriceTable &RoundRunner::priceTable() const
{
    return m_prices;
}

void RoundRunner::setSessionBudget(const Budget &budget)
{
    m_sessionBudget = budget;
    m_whyFaster->setSessionBudget(budget);
}

void RoundRunner::setState(State s)
{
    if (m_state == s)
        return;
    m_state = s;
    Q_EMIT stateChanged(s);
}

void RoundRunner::resetRoundProgress()
{
    m_prompts.clear();
    m_withContent = 0;
    m_firstError.clear();
    m_budgetReason.clear();
    m_budgetSpent = false;
    m_paused = false;
    m_stopping = false;
}

bool RoundRunner::fail(const QString &message)
{
    m_error = message;
    Q_EMIT errorOccurred(message);
    return false;
}

qint64 RoundRunner::failId(const QString &message)
{
    fail(message);
    return 0;
}

RoundUsage RoundRunner::sessionUsed() const
{
    RoundUsage used = m_store->rounds().sessionUsage();
    // Rounds record a request when its answer is in; the ones in flight count already.
    for (const auto &[id, r] : m_requests)
        if (r.roundId)
            ++used.requests;
    return used;
}

QString RoundRunner::budgetBlock() const
{
    if (const QString why = m_settings.budget.exhaustedBy(m_usage); !why.isEmpty())
        return tr("round budget: %1").arg(why);
    if (const QString why = m_sessionBudget.exhaustedBy(sessionUsed()); !why.isEmpty())
        return tr("session budget: %1").arg(why);
    return {};
}

int RoundRunner::requestsInFlight(qint64 roundId) const
{
    int n = 0;
    for (const auto &[id, r] : m_requests)
        n += r.roundId == roundId;
    return n;
}

int RoundRunner::evaluationsOf(qint64 roundId) const
{
    int n = 0;
    for (const auto &[id, round] : m_evals)
        n += round == roundId;
    for (const auto &[variant, round] : m_evalQueue)
        n += round == roundId;
    return n;
}

// ------------------------------------------------------------------------------------------------ a round

EvaluationQueue *RoundRunner::queue() const
{
    return m_queue;
}

Evaluator *RoundRunner::evaluator() const
{
    return m_queue ? m_queue->evaluator() : nullptr;
}

bool RoundRunner::start(const RoundSettings &in)
{
    m_error.clear();
    m_outcome = Outcome::Failed;
    if (!m_store || !m_store->isOpen() || !m_store->hasTask())
        return fail(tr("Open a session with a task first."));
    if (m_state != State::Idle)
        return fail(tr("A round is already running."));
    if (const QString why = m_queue->cannotEvaluate(); !why.isEmpty())
        return fail(why);
    if (in.candidates < 1)
        return fail(tr("A round needs at least one candidate."));
    if (const QString why = m_sessionBudget.exhaustedBy(sessionUsed()); !why.isEmpty()) {
        m_outcome = Outcome::BudgetSpent;
        return fail(tr("The session budget is spent: %1").arg(why));
    }
    if (!m_queue->task())
        return fail(m_queue->errorString());
    m_outcome = Outcome::None;
    m_settings = in;
    if (m_settings.hint.isEmpty())
        m_settings.hint = m_nextHint;
    m_nextHint.clear();
    if (m_settings.model.isEmpty())
        m_settings.model = m_template.effectiveModel();
    if (m_settings.endpoint.isEmpty())
        m_settings.endpoint = m_template.endpoint.baseUrl;
    m_roundId = m_store->rounds().add(m_settings.toJson());
    if (!m_roundId)
        return fail(m_store->errorString());
    m_usage = {};
    resetRoundProgress();
    setState(State::Preparing);
    Q_EMIT roundStarted(m_roundId);
    // Callers connect to the signals after start() returns; the work begins on the next event loop turn.
    QTimer::singleShot(0, this, [this, round = m_roundId] {
        if (m_roundId == round && m_state == State::Preparing)
            prepare();
    });
    return true;
}

void RoundRunner::prepare()
{
    const Variant *ref = m_store->population().reference();
    if (!ref) {
        finishRound(RoundState::Failed, tr("The session has no reference variant."));
        return;
    }
    // The reference's own measurement gives the first prompt its profile; an infrastructure error is retried.
    if (!ref->hasEvaluation() || ref->eval.verdict == Verdict::Error) {
        if (m_referenceEval)
            return;
        m_referenceEval = m_queue->submit(ref->id, m_settings.evalOptions);
        if (!m_referenceEval) {
            fail(m_queue->errorString());
            finishRound(RoundState::Failed, m_error);
            return;
        }
        m_evals[m_referenceEval] = 0;
        return;
    }
    if (!ref->isCorrect()) {
        finishRound(RoundState::Failed,
                    tr("The reference itself did not verify (%1): %2").arg(ref->eval.verdictName(), ref->eval.message));
        return;
    }
    sample();
}

bool RoundRunner::acceptHeld(qint64 variantId)
{
    const Variant *v = m_store->population().find(variantId);
    const bool held = v && v->suspicious && !v->accepted && v->isCorrect();
    return held && !v->eval.hasFlag(QLatin1String("below_speed_of_light"))
           && m_store->variants().setAccepted(variantId, true);
}

void RoundRunner::sample()
{
    setState(State::Sampling);
    // Headless: nobody reviews, so what earlier rounds (of a resumed session too) left held is accepted now.
    for (const Variant &v : m_settings.acceptSuspicious ? m_store->population().variants() : std::vector<Variant>())
        acceptHeld(v.id);
    QString error;
    const quint64 seed = m_settings.seed ? m_settings.seed : quint64(m_roundId) * 0x9E3779B97F4A7C15ull + 1;
    if (!m_prompts.draw(*m_store, m_settings, seed, &error)) {
        finishRound(RoundState::Failed, error.isEmpty() ? tr("No correct, measured variant to show the model.") : error);
        return;
    }
    if (m_review) {
        setState(State::AwaitingApproval);
        Q_EMIT promptReady(m_roundId, m_prompts.prompts().constFirst().text);
        return;
    }
    sendPrompts();
}

QString RoundRunner::pendingPrompt() const
{
    return m_state == State::AwaitingApproval ? m_prompts.prompts().constFirst().text : QString();
}

void RoundRunner::approvePrompt(const QString &text)
{
    approvePrompts({text});
}

void RoundRunner::approvePrompts(const QStringList &texts)
{
    if (m_state != State::AwaitingApproval)
        return;
    for (int i = 0; i < texts.size(); ++i)
        if (!texts[i].trimmed().isEmpty())
            m_prompts.setText(i, texts[i]);
    sendPrompts();
}

void RoundRunner::rejectPrompt()
{
    if (m_state != State::AwaitingApproval)
        return;
    finishRound(RoundState::Stopped, tr("The prompt was not sent."));
}

void RoundRunner::sendPrompts()
{
    if (!m_prompts.store(*m_store, m_roundId, m_settings)) {
        finishRound(RoundState::Failed, m_store->errorString());
        return;
    }
    setState(State::Streaming);
    pump();
}

bool RoundRunner::launch(const Request &request, const QString &prompt)
{
    const LlmRequest r = llmexchange::request(m_template, prompt);
    Request req = request;
    req.responseId = m_store->exchanges().addResponse(llmexchange::started(r, request.promptId));
    if (!req.responseId)
        return fail(m_store->errorString());
    const quint64 id = m_llm->send(r);
    m_requests[id] = req;
    if (req.roundId == m_roundId && m_roundId)
        ++m_usage.requests;
    Q_EMIT requestStarted(req.responseId);
    return true;
}

void RoundRunner::pump()
{
    if (!m_roundId || m_paused || m_stopping || m_state == State::AwaitingApproval || !m_prompts.isStored())
        return;
    for (const auto &[variant, round] : std::exchange(m_evalQueue, {}))
        submitEvaluation(variant, round);
    const int limit = m_settings.maxConcurrent > 0 ? m_settings.maxConcurrent : m_settings.candidates;
    while (m_prompts.hasUnsent() && requestsInFlight(m_roundId) < limit) {
        if (const QString why = budgetBlock(); !why.isEmpty()) {
            m_budgetReason = why;
            m_budgetSpent = true;
            break;
        }
        const int candidate = m_prompts.nextUnsent();
        const CandidatePrompts::Prompt &prompt = m_prompts.promptOf(candidate);
        Request r;
        r.kind = RequestKind::Contrastive;
        r.roundId = m_roundId;
        r.promptId = prompt.id;
        r.parents = prompt.exemplars; // the exemplars this candidate was shown
        const int number = m_store->rounds().find(m_roundId).value_or(RoundRecord{}).number;
        r.label = QStringLiteral("R%1.%2").arg(number).arg(candidate + 1);
        if (!launch(r, prompt.text)) {
            m_budgetReason = m_error; // nothing more can be sent; the round ends with what it has
            break;
        }
        m_prompts.markSent(candidate);
    }
    while (!m_repairQueue.empty()) {
        if (const QString why = budgetBlock(); !why.isEmpty()) {
            m_budgetReason = why;
            m_budgetSpent = true;
            m_repairQueue.clear();
            break;
        }
        const RepairJob job = m_repairQueue.front();
        m_repairQueue.pop_front();
        launchRepair(job);
    }
    updatePhase();
    maybeFinish();
}

void RoundRunner::updatePhase()
{
    if (!m_roundId || m_state == State::Stopping || m_state == State::AwaitingApproval || m_state == State::Preparing
        || m_state == State::Sampling)
        return;
    if (m_paused)
        setState(State::Paused);
    else if (requestsInFlight(m_roundId) > 0 || (m_prompts.hasUnsent() && m_budgetReason.isEmpty()))
        setState(State::Streaming);
    else
        setState(State::Evaluating);
}

void RoundRunner::maybeFinish()
{
    if (!m_roundId || m_state == State::Idle || m_state == State::Preparing || m_state == State::Sampling
        || m_state == State::AwaitingApproval || m_paused)
        return;
    if (requestsInFlight(m_roundId) > 0 || evaluationsOf(m_roundId) > 0 || !m_repairQueue.empty())
        return;
    if (!m_stopping && m_prompts.hasUnsent() && m_budgetReason.isEmpty())
        return;
    if (m_stopping)
        finishRound(RoundState::Stopped, tr("Stopped by the user."));
    else if (m_withContent == 0 && m_prompts.sentCount() > 0)
        finishRound(RoundState::Failed, m_firstError.isEmpty() ? tr("No answer arrived.") : m_firstError);
    else
        finishRound(RoundState::Finished,
                    m_budgetReason.isEmpty() ? QString() : tr("Stopped early: %1").arg(m_budgetReason));
}

void RoundRunner::finishRound(RoundState state, const QString &message)
{
    const qint64 round = m_roundId;
    if (!round)
        return;
    m_store->rounds().setState(round, state, message);
    m_outcome = state == RoundState::Failed    ? Outcome::Failed
                : state == RoundState::Stopped ? Outcome::Stopped
                : m_budgetSpent                ? Outcome::BudgetSpent
                                               : Outcome::Finished;
    m_roundId = 0;
    m_prompts.clear();
    m_paused = false;
    m_stopping = false;
    m_repairQueue.clear();
    setState(State::Idle);
    Q_EMIT roundFinished(round, state, message);
}

void RoundRunner::pause()
{
    if (!m_roundId || m_paused || m_stopping || m_state == State::Idle)
        return;
    m_paused = true;
    m_store->rounds().setState(m_roundId, RoundState::Paused);
    setState(State::Paused);
}

void RoundRunner::unpause()
{
    if (!m_roundId || !m_paused)
        return;
    m_paused = false;
    m_store->rounds().setState(m_roundId, RoundState::Running);
    setState(State::Streaming);
    if (!m_prompts.isStored()) {
        prepare(); // paused before the prompt existed
        return;
    }
    pump();
}

void RoundRunner::stop()
{
    if (!m_roundId || m_stopping)
        return;
    if (m_state == State::AwaitingApproval || m_state == State::Preparing || m_state == State::Sampling) {
        if (m_referenceEval)
            m_queue->cancel(m_referenceEval);
        finishRound(RoundState::Stopped, tr("Stopped by the user."));
        return;
    }
    m_stopping = true;
    m_paused = false;
    setState(State::Stopping);
    m_repairQueue.clear();
    for (const auto &[variant, round] : std::exchange(m_evalQueue, {}))
        m_store->variants().setStatus(variant, VariantStatus::Failed, tr("Not evaluated: the round was stopped."));
    for (const auto &[id, r] : m_requests)
        if (r.roundId == m_roundId)
            m_llm->cancel(id);
    for (const auto &[id, round] : m_evals)
        if (round == m_roundId)
            m_queue->cancel(id);
    maybeFinish();
}

bool RoundRunner::resume(qint64 roundId)
{
    m_error.clear();
    if (!m_store || !m_store->isOpen())
        return fail(tr("Open a session first."));
    if (m_state != State::Idle)
        return fail(tr("A round is already running."));
    const auto round = m_store->rounds().find(roundId);
    if (!round)
        return fail(tr("There is no round %1 in this session.").arg(roundId));
    if (round->state != RoundState::Interrupted && round->state != RoundState::Paused)
        return fail(
            tr("Round %1 is %2; only an interrupted round can be resumed.").arg(round->number).arg(toString(round->state)));
    if (const QString why = m_queue->cannotEvaluate(); !why.isEmpty())
        return fail(why);
    if (!m_queue->task())
        return fail(m_queue->errorString());
    m_outcome = Outcome::None;
    m_settings = RoundSettings::fromJson(round->settings);
    m_roundId = roundId;
    m_usage = round->usage;
    resetRoundProgress();
    m_store->rounds().setState(roundId, RoundState::Running);
    Q_EMIT roundStarted(roundId);

    const QList<PromptRecord> prompts = m_store->exchanges().prompts(roundId);
    QList<PromptRecord> contrastive;
    for (const auto &p : prompts)
        if (p.kind == QLatin1String("contrastive"))
            contrastive << p;
    m_prompts.restore(contrastive, m_settings.candidates);
    if (!m_prompts.isStored()) {
        // It died before its prompt was sent: start over from the exemplars.
        setState(State::Preparing);
        QTimer::singleShot(0, this, [this, roundId] {
            if (m_roundId == roundId && m_state == State::Preparing)
                prepare();
        });
        return true;
    }
    QSet<qint64> parsedResponses;
    for (const auto &v : m_store->population().variants())
        if (v.responseId)
            parsedResponses.insert(v.responseId);
    const int number = round->number;
    for (const auto &p : prompts) {
        for (ResponseRecord r : m_store->exchanges().responses(p.id)) {
            const bool streamed = r.finishStatus == QLatin1String("streaming")
                                  || r.finishStatus == QLatin1String("interrupted");
            if (r.finishStatus == QLatin1String("streaming")) {
                r.finishStatus = QStringLiteral("interrupted");
                r.parseStatus = QStringLiteral("failed");
                r.error = tr("The process ended while this answer was streaming.");
                m_store->exchanges().updateResponse(r);
            }
            if (streamed)
                continue;
            const int candidate = m_prompts.markAnswered(p.id);
            if (!r.rawText.isEmpty())
                ++m_withContent;
            // An answer stored but never turned into a variant (the process died in between).
            if ((r.parseStatus == QLatin1String("ok") || r.parseStatus == QLatin1String("partial"))
                && !parsedResponses.contains(r.id)) {
                Request req;
                req.kind = p.kind == QLatin1String("repair") ? RequestKind::Repair : RequestKind::Contrastive;
                req.roundId = roundId;
                req.promptId = p.id;
                req.responseId = r.id;
                req.parents = p.exemplarIds;
                if (candidate >= 0) {
                    req.label = QStringLiteral("R%1.%2").arg(number).arg(candidate + 1);
                } else if (const Variant *parent = p.exemplarIds.isEmpty()
                                                       ? nullptr
                                                       : m_store->population().find(p.exemplarIds.first())) {
                    const int depth = repairDepth(parent->id) + 1; // named as launchRepair() names it
                    req.label = parent->label.isEmpty() ? QStringLiteral("repair %1").arg(depth)
                                                        : parent->label + QStringLiteral("r%1").arg(depth);
                }
                addParsedVariant(req, ResponseParser::parse(r.rawText, r.finishStatus == QLatin1String("truncated")));
            }
        }
    }
    for (const auto &v : m_store->population().variants()) {
        if (v.roundId != roundId)
            continue;
        if (isInFlight(v.status)) {
            submitEvaluation(v.id, roundId);
        } else if (v.status == VariantStatus::Failed && v.origin == VariantOrigin::Model
                   && m_store->population().children(v.id).isEmpty()) {
            if (const auto e = m_store->evaluations().latest(v.id))
                considerRepair(v.id, e->measurement());
        }
    }
    setState(State::Streaming);
    pump();
    return true;
}

// ------------------------------------------------------------------------------------------------ answers

void RoundRunner::onLlmText(quint64 id, const QString &text)
{
    const auto it = m_requests.find(id);
    if (it != m_requests.end())
        Q_EMIT textDelta(it->second.responseId, text);
}

void RoundRunner::onLlmReasoning(quint64 id, const QString &text)
{
    const auto it = m_requests.find(id);
    if (it != m_requests.end())
        Q_EMIT reasoningDelta(it->second.responseId, text);
}

qint64 RoundRunner::addParsedVariant(const Request &r, const ParsedResponse &parsed)
{
    Variant v;
    v.origin = VariantOrigin::Model;
    v.roundId = r.roundId;
    v.promptId = r.promptId;
    v.responseId = r.responseId;
    v.parentIds = r.parents;
    v.label = r.label;
    if (r.kind == RequestKind::Repair)
        v.tags << QStringLiteral("repair");
    v.status = VariantStatus::Generated;
    const qint64 id = m_store->variants().add(v, {parsed.code, parsed.analysis, parsed.design});
    if (id)
        submitEvaluation(id, r.roundId);
    return id;
}

void RoundRunner::onLlmFinished(quint64 id, const LlmResult &result)
{
    const auto it = m_requests.find(id);
    if (it == m_requests.end())
        return;
    const Request req = it->second;
    m_requests.erase(it);

    const bool usable = llmexchange::usable(result);
    const ParsedResponse parsed = llmexchange::parse(result);
    const ResponseRecord rec = llmexchange::storeAnswer(*m_store, req.responseId, result, parsed, m_prices);

    if (req.roundId) {
        const RoundUsage u{1, result.usage.promptTokens, result.usage.completionTokens, rec.cost};
        m_store->rounds().addUsage(req.roundId, u);
        if (req.roundId == m_roundId) {
            m_usage.promptTokens += u.promptTokens;
            m_usage.completionTokens += u.completionTokens;
            m_usage.cost += u.cost;
            if (result.hasContent())
                ++m_withContent;
            else if (m_firstError.isEmpty())
                m_firstError = result.errorMessage;
        }
    }

    qint64 variantId = 0;
    if (usable && parsed.hasCode() && !(m_stopping && req.roundId == m_roundId)) {
        variantId = addParsedVariant(req, parsed);
    }
    Q_EMIT responseFinished(req.responseId, variantId, parsed);
    if (req.roundId == m_roundId) {
        pump();
        maybeFinish();
    }
}

// ------------------------------------------------------------------------------------------------ evaluations

void RoundRunner::submitEvaluation(qint64 variantId, qint64 roundId, bool sourceProfile)
{
    if (roundId && roundId == m_roundId && m_paused) {
        m_evalQueue.emplace_back(variantId, roundId);
        return;
    }
    EvalOptions options = roundId && roundId == m_roundId ? m_settings.evalOptions : m_queue->defaultOptions();
    options.sourceProfile = options.sourceProfile || sourceProfile;
    if (const int ticket = m_queue->submit(variantId, options, roundId))
        m_evals[ticket] = roundId;
    else if (!m_queue->errorString().isEmpty())
        fail(m_queue->errorString());
}

void RoundRunner::onEvalFinished(const QueuedEvaluation &done)
{
    const int id = done.ticket;
    const auto it = m_evals.find(id);
    const bool mine = it != m_evals.end();
    const qint64 roundId = mine ? it->second : 0;
    if (mine)
        m_evals.erase(it);
    const qint64 variantId = done.variantId;
    if (!variantId)
        return; // a source outside the session: nothing of a round
    const EvalResult &result = done.result;
    if (!done.cancelled()) {
        const Variant *v = m_store->population().find(variantId);
        const bool roundOwned = roundId && roundId == m_roundId;
        if (m_settings.acceptSuspicious && m_roundId)
            acceptHeld(variantId); // also a variant of an earlier round, measured again
        Q_EMIT evaluationFinished(variantId);
        if (roundOwned && !m_stopping && v && v->origin == VariantOrigin::Model && done.stored)
            considerRepair(variantId, *done.stored);
        // A new best of the round, measured without the source-level pass: once more with it, outside the
        // round (roundId 0), so the round does not wait for it.
        if (roundOwned && m_settings.profileNewBest && !m_stopping && v && v->origin != VariantOrigin::Reference
            && m_store->population().bestCorrect() == v && done.stored
            && done.stored->sourceProfile.status == SourceProfile::Status::Absent)
            submitEvaluation(variantId, 0, true);
    }
    if (!mine)
        return;

    if (id == m_referenceEval) {
        m_referenceEval = 0;
        // Cancelled by a stopped round while a new one already waits for it: measure it again.
        if (result.errorCode == QLatin1String("cancelled") && m_roundId && m_state == State::Preparing) {
            prepare();
            return;
        }
        if (m_roundId && m_state == State::Preparing) {
            const Variant *ref = m_store->population().find(variantId);
            if (!ref || !ref->isCorrect()) {
                finishRound(RoundState::Failed,
                            tr("The reference could not be measured: %1").arg(ref ? ref->statusMessage : QString()));
                return;
            }
            if (m_paused)
                return;
            sample();
        }
        return;
    }
    if (roundId && roundId == m_roundId) {
        pump();
        maybeFinish();
    }
}

int RoundRunner::repairDepth(qint64 variantId) const
{
    int depth = 0;
    const Variant *v = m_store->population().find(variantId);
    while (v && v->tags.contains(QLatin1String("repair")) && !v->parentIds.isEmpty()) {
        ++depth;
        v = m_store->population().find(v->parentIds.first());
    }
    return depth;
}

void RoundRunner::considerRepair(qint64 variantId, const Measurement &result)
{
    if (!repairableFailure(result.verdict))
        return;
    const int depth = repairDepth(variantId);
    if (depth >= m_settings.repairAttempts)
        return;
    m_repairQueue.push_back(RepairJob{variantId, result, depth + 1});
}

void RoundRunner::launchRepair(const RepairJob &job)
{
    const Variant *v = m_store->population().find(job.variantId);
    if (!v)
        return;
    const VariantTexts texts = m_store->variants().texts(job.variantId);
    RepairRequest req;
    req.task = m_store->task();
    req.source = texts.source;
    req.design = texts.design;
    req.failure = *repairableFailure(job.result.verdict);
    req.result = job.result;
    req.diagnostics = job.result.compile.log;
    if (req.diagnostics.trimmed().isEmpty())
        req.diagnostics = job.result.message;
    req.nvccCommand = job.result.compile.command;
    QString error;
    const QString prompt = PromptBuilder::repair(req, &error);
    if (prompt.isEmpty()) {
        fail(error);
        return;
    }
    PromptRecord p;
    p.roundId = m_roundId;
    p.kind = QStringLiteral("repair");
    p.templateName = PromptBuilder::templateFor(req.templateName, req.task);
    p.rendered = prompt;
    p.exemplarIds = {job.variantId};
    const qint64 promptId = m_store->exchanges().addPrompt(p);
    if (!promptId)
        return;
    Request r;
    r.kind = RequestKind::Repair;
    r.roundId = m_roundId;
    r.promptId = promptId;
    r.parents = {job.variantId};
    r.repairDepth = job.depth;
    r.label = v->label.isEmpty() ? QStringLiteral("repair %1").arg(job.depth)
                                 : v->label + QStringLiteral("r%1").arg(job.depth);
    launch(r, prompt);
}

// ------------------------------------------------------------------------------------------------ steering

qint64 RoundRunner::askWhyFaster(qint64 a, qint64 b, const QString &question)
{
    m_error.clear();
    const qint64 pairId = m_whyFaster->ask(a, b, question);
    if (!pairId)
        return failId(m_whyFaster->errorString());
    return pairId;
}

} // namespace kforge
