#include "core/optimizer/roundrunner.h"
#include "core/llm/llmclient.h"
#include "core/optimizer/promptbuilder.h"
#include "core/optimizer/responseparser.h"
#include "core/session/sessionstore.h"
#include "core/worker/evaluator.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimer>

namespace kforge {

namespace {

// Why nothing handed to `evaluator` now would be measured (no worker, none started, no GPU), or empty. A round,
// a variant or a re-evaluation is not created then: it would only leave a failure in the session.
QString cannotEvaluate(const Evaluator *evaluator)
{
    const WorkerReadiness readiness = evaluator ? evaluator->readiness() : WorkerReadiness(WorkerReadiness::State::NoWorker);
    return readiness.isUnusable() ? readiness.explanation() : QString();
}

// Compiler output can be long; the prompt and the store need its beginning.
constexpr qsizetype kMaxLogChars = 20000;

// Absolute paths in nvcc output point into the user's cache folder: keep only file names.
QString withoutPaths(QString text)
{
    static const QRegularExpression path(QStringLiteral("(?:/[^\\s/:\"']+)+/([^\\s/:\"']+)"));
    return text.replace(path, QStringLiteral("\\1"));
}

QString nvccCommand(const CompileResult &c)
{
    QStringList parts;
    for (const QString &a : c.commandLine)
        parts << (a.startsWith(QLatin1Char('/')) ? QFileInfo(a).fileName() : a);
    return parts.join(QLatin1Char(' '));
}

// The stored result: the worker's EvalResult plus what the compiler said about the candidate.
QJsonObject storedResult(const EvalResult &r, const std::optional<CompileResult> &compiled)
{
    QJsonObject o = r.toJson();
    if (compiled) {
        o.insert(QStringLiteral("compile"),
                 QJsonObject{{QStringLiteral("ok"), compiled->ok},
                             {QStringLiteral("cache_hit"), compiled->cacheHit},
                             {QStringLiteral("resources"), KernelResources::listToJson(compiled->resources)},
                             {QStringLiteral("diagnostics"), Diagnostic::listToJson(compiled->diagnostics)},
                             {QStringLiteral("log"), withoutPaths(compiled->log).left(kMaxLogChars)},
                             {QStringLiteral("command"), nvccCommand(*compiled)},
                             {QStringLiteral("nvcc_version"), compiled->nvccVersion},
                             {QStringLiteral("arch"), compiled->arch},
                             {QStringLiteral("elapsed_ms"), compiled->elapsedMs}});
    }
    return o;
}

std::optional<RepairRequest::Failure> repairableFailure(const QString &verdict)
{
    if (verdict == QLatin1String("compile_error"))
        return RepairRequest::Failure::CompileError;
    if (verdict == QLatin1String("incorrect"))
        return RepairRequest::Failure::WrongResult;
    if (verdict == QLatin1String("crashed") || verdict == QLatin1String("cuda_error")
        || verdict == QLatin1String("timeout") || verdict == QLatin1String("load_error"))
        return RepairRequest::Failure::RuntimeError;
    return std::nullopt; // correct, or "error": nothing the model can fix (no GPU, worker down...)
}

VariantStatus statusOfStage(const QString &stage, VariantStatus current)
{
    if (stage == QLatin1String("compiling") || stage == QLatin1String("queued") || stage == QLatin1String("loading"))
        return VariantStatus::Compiling;
    if (stage == QLatin1String("verifying"))
        return VariantStatus::Verifying;
    if (stage == QLatin1String("timing"))
        return VariantStatus::Timing;
    if (stage == QLatin1String("tracing") || stage == QLatin1String("profiling"))
        return VariantStatus::Profiling;
    return current;
}

} // namespace

RoundRunner::RoundRunner(SessionStore *store, LlmClient *llm, Evaluator *evaluator, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_llm(llm)
    , m_evaluator(evaluator)
{
    qRegisterMetaType<kforge::ParsedResponse>();
    qRegisterMetaType<kforge::RoundState>();
    connect(m_llm, &LlmClient::textDelta, this, &RoundRunner::onLlmText);
    connect(m_llm, &LlmClient::reasoningDelta, this, &RoundRunner::onLlmReasoning);
    connect(m_llm, &LlmClient::finished, this, &RoundRunner::onLlmFinished);
    connect(m_evaluator, &Evaluator::progress, this, &RoundRunner::onEvalProgress);
    connect(m_evaluator, &Evaluator::compiled, this, &RoundRunner::onEvalCompiled);
    connect(m_evaluator, &Evaluator::finished, this, &RoundRunner::onEvalFinished);
    // A session closed under a running round: what remains in flight belongs to nobody.
    connect(m_store, &SessionStore::closed, this, [this] {
        for (const auto &[id, r] : m_requests)
            if (m_llm)
                m_llm->cancel(id);
        for (const auto &[id, e] : m_evals)
            if (m_evaluator)
                m_evaluator->cancel(id);
        m_requests.clear();
        m_evals.clear();
        m_evalQueue.clear();
        m_repairQueue.clear();
        m_prompts.clear();
        m_task.reset();
        m_taskOf.clear();
        m_roundId = 0;
        setState(State::Idle);
    });
}

RoundRunner::~RoundRunner()
{
    for (const auto &[id, r] : m_requests)
        if (m_llm)
            m_llm->cancel(id);
    for (const auto &[id, e] : m_evals)
        if (m_evaluator)
            m_evaluator->cancel(id);
}

void RoundRunner::setState(State s)
{
    if (m_state == s)
        return;
    m_state = s;
    Q_EMIT stateChanged(s);
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

const Task *RoundRunner::task()
{
    if (m_task && m_taskOf == m_store->path())
        return &*m_task;
    // The evaluator takes a task folder's model; the session's copy of the folder is the one to use.
    m_task.reset();
    m_taskDir = std::make_unique<QTemporaryDir>();
    if (!m_taskDir->isValid() || !m_store->writeTaskFolder(m_taskDir->path())) {
        fail(tr("Cannot write the session's task to a temporary folder: %1").arg(m_store->errorString()));
        return nullptr;
    }
    TaskLoadResult loaded = Task::load(m_taskDir->path());
    if (!loaded.ok()) {
        fail(tr("The session's task does not load: %1").arg(loaded.error.message()));
        return nullptr;
    }
    m_task = std::move(loaded.task);
    m_taskOf = m_store->path();
    return &*m_task;
}

RoundUsage RoundRunner::sessionUsed() const
{
    RoundUsage used = m_store->sessionUsage();
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
    for (const auto &[id, e] : m_evals)
        n += e.roundId == roundId;
    for (const auto &[variant, round] : m_evalQueue)
        n += round == roundId;
    return n;
}

// ------------------------------------------------------------------------------------------------ a round

Evaluator *RoundRunner::evaluator() const
{
    return m_evaluator;
}

bool RoundRunner::start(const RoundSettings &in)
{
    m_error.clear();
    if (!m_store || !m_store->isOpen() || !m_store->hasTask())
        return fail(tr("Open a session with a task first."));
    if (m_state != State::Idle)
        return fail(tr("A round is already running."));
    if (const QString why = cannotEvaluate(m_evaluator); !why.isEmpty())
        return fail(why);
    if (in.candidates < 1)
        return fail(tr("A round needs at least one candidate."));
    if (const QString why = m_sessionBudget.exhaustedBy(sessionUsed()); !why.isEmpty())
        return fail(tr("The session budget is spent: %1").arg(why));
    if (!task())
        return false;
    m_settings = in;
    if (m_settings.hint.isEmpty())
        m_settings.hint = m_nextHint;
    m_nextHint.clear();
    if (m_settings.model.isEmpty())
        m_settings.model = m_template.effectiveModel();
    if (m_settings.endpoint.isEmpty())
        m_settings.endpoint = m_template.endpoint.baseUrl;
    m_roundId = m_store->addRound(m_settings.toJson());
    if (!m_roundId)
        return fail(m_store->errorString());
    m_usage = {};
    m_prompts.clear();
    m_withContent = 0;
    m_firstError.clear();
    m_budgetReason.clear();
    m_paused = false;
    m_stopping = false;
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
    if (!ref->hasEvaluation() || ref->eval.verdict == QLatin1String("error")) {
        if (m_referenceEval)
            return;
        const Task *t = task();
        if (!t) {
            finishRound(RoundState::Failed, m_error);
            return;
        }
        EvalRequest req;
        req.task = *t;
        req.candidateSource = m_store->source(ref->id);
        req.candidateName = QStringLiteral("reference.cu");
        req.options = m_settings.evalOptions;
        m_referenceEval = m_evaluator->submit(req);
        m_evals[m_referenceEval] = PendingEval{ref->id, 0, std::nullopt};
        m_store->setStatus(ref->id, VariantStatus::Compiling);
        return;
    }
    if (!ref->isCorrect()) {
        finishRound(RoundState::Failed,
                    tr("The reference itself did not verify (%1): %2").arg(ref->eval.verdict, ref->eval.message));
        return;
    }
    sample();
}

void RoundRunner::sample()
{
    setState(State::Sampling);
    QString error;
    const quint64 seed = m_settings.seed ? m_settings.seed : quint64(m_roundId) * 0x9E3779B97F4A7C15ull + 1;
    if (!m_prompts.draw(*m_store, m_settings, seed, &error)) {
        finishRound(RoundState::Failed,
                    error.isEmpty() ? tr("No correct, measured variant to show the model.") : error);
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
    QString error;
    LlmRequest r = m_template;
    r.system = PromptBuilder::system(&error);
    r.messages = {LlmMessage{QStringLiteral("user"), prompt}};
    ResponseRecord rec;
    rec.promptId = request.promptId;
    rec.finishStatus = QStringLiteral("streaming");
    rec.endpoint = r.endpoint.baseUrl.isEmpty() ? r.endpoint.id : r.endpoint.baseUrl;
    rec.model = r.effectiveModel();
    Request req = request;
    req.responseId = m_store->addResponse(rec);
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
            break;
        }
        const int candidate = m_prompts.nextUnsent();
        const CandidatePrompts::Prompt &prompt = m_prompts.promptOf(candidate);
        Request r;
        r.kind = RequestKind::Contrastive;
        r.roundId = m_roundId;
        r.promptId = prompt.id;
        r.parents = prompt.exemplars; // the exemplars this candidate was shown
        const int number = m_store->round(m_roundId).value_or(RoundRecord{}).number;
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
        finishRound(RoundState::Finished, m_budgetReason.isEmpty() ? QString() : tr("Stopped early: %1").arg(m_budgetReason));
}

void RoundRunner::finishRound(RoundState state, const QString &message)
{
    const qint64 round = m_roundId;
    if (!round)
        return;
    m_store->setRoundState(round, state, message);
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
    m_store->setRoundState(m_roundId, RoundState::Paused);
    setState(State::Paused);
}

void RoundRunner::unpause()
{
    if (!m_roundId || !m_paused)
        return;
    m_paused = false;
    m_store->setRoundState(m_roundId, RoundState::Running);
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
            m_evaluator->cancel(m_referenceEval);
        finishRound(RoundState::Stopped, tr("Stopped by the user."));
        return;
    }
    m_stopping = true;
    m_paused = false;
    setState(State::Stopping);
    m_repairQueue.clear();
    for (const auto &[variant, round] : std::exchange(m_evalQueue, {}))
        m_store->setStatus(variant, VariantStatus::Failed, tr("Not evaluated: the round was stopped."));
    for (const auto &[id, r] : m_requests)
        if (r.roundId == m_roundId)
            m_llm->cancel(id);
    for (const auto &[id, e] : m_evals)
        if (e.roundId == m_roundId)
            m_evaluator->cancel(id);
    maybeFinish();
}

bool RoundRunner::resume(qint64 roundId)
{
    m_error.clear();
    if (!m_store || !m_store->isOpen())
        return fail(tr("Open a session first."));
    if (m_state != State::Idle)
        return fail(tr("A round is already running."));
    const auto round = m_store->round(roundId);
    if (!round)
        return fail(tr("There is no round %1 in this session.").arg(roundId));
    if (round->state != RoundState::Interrupted && round->state != RoundState::Paused)
        return fail(tr("Round %1 is %2; only an interrupted round can be resumed.").arg(round->number).arg(toString(round->state)));
    if (const QString why = cannotEvaluate(m_evaluator); !why.isEmpty())
        return fail(why);
    if (!task())
        return false;
    m_settings = RoundSettings::fromJson(round->settings);
    m_roundId = roundId;
    m_usage = round->usage;
    m_withContent = 0;
    m_firstError.clear();
    m_budgetReason.clear();
    m_paused = false;
    m_stopping = false;
    m_prompts.clear();
    m_store->setRoundState(roundId, RoundState::Running);
    Q_EMIT roundStarted(roundId);

    const QList<PromptRecord> prompts = m_store->prompts(roundId);
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
        for (ResponseRecord r : m_store->responses(p.id)) {
            const bool streamed = r.finishStatus == QLatin1String("streaming") || r.finishStatus == QLatin1String("interrupted");
            if (r.finishStatus == QLatin1String("streaming")) {
                r.finishStatus = QStringLiteral("interrupted");
                r.parseStatus = QStringLiteral("failed");
                r.error = tr("The process ended while this answer was streaming.");
                m_store->updateResponse(r);
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
                } else if (const Variant *parent =
                               p.exemplarIds.isEmpty() ? nullptr : m_store->population().find(p.exemplarIds.first())) {
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
            if (const auto e = m_store->latestEvaluation(v.id))
                considerRepair(v.id, e->result);
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
    const qint64 id = m_store->addVariant(v, {parsed.code, parsed.analysis, parsed.design});
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

    const bool usable = result.status == LlmStatus::Complete || result.status == LlmStatus::Truncated;
    ParsedResponse parsed;
    if (usable)
        parsed = ResponseParser::parse(result.text, result.status == LlmStatus::Truncated);
    else
        parsed.problems << (result.errorMessage.isEmpty() ? tr("the answer did not arrive complete") : result.errorMessage);

    ResponseRecord rec = m_store->response(req.responseId).value_or(ResponseRecord{});
    rec.id = req.responseId;
    rec.rawText = result.text;
    rec.reasoningText = parsed.reasoning.isEmpty() ? result.reasoning
                        : result.reasoning.isEmpty() ? parsed.reasoning
                                                     : result.reasoning + QLatin1String("\n\n") + parsed.reasoning;
    rec.parseStatus = parsed.statusName();
    rec.parseMessage = parsed.message();
    rec.promptTokens = result.usage.promptTokens;
    rec.completionTokens = result.usage.completionTokens;
    rec.reasoningTokens = result.usage.reasoningTokens;
    const QString model = result.model.isEmpty() ? rec.model : result.model;
    rec.cost = m_prices.cost(model, result.usage).value_or(0.0);
    rec.model = model;
    rec.finishStatus = llmStatusName(result.status);
    rec.error = result.errorMessage;
    m_store->updateResponse(rec);

    if (req.roundId) {
        const RoundUsage u{1, result.usage.promptTokens, result.usage.completionTokens, rec.cost};
        m_store->addRoundUsage(req.roundId, u);
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
    if (req.kind == RequestKind::Compare) {
        QString text = result.text;
        // The answer is prose: only <think> blocks are taken out.
        static const QRegularExpression think(QStringLiteral("<think>.*?</think>\\s*"),
                                              QRegularExpression::DotMatchesEverythingOption);
        text.remove(think);
        m_store->setPairAnswer(req.pairId, usable ? text.trimmed() : QString(), req.responseId);
        Q_EMIT pairAnswered(req.pairId);
    } else if (usable && parsed.hasCode() && !(m_stopping && req.roundId == m_roundId)) {
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
    const Variant *v = m_store->population().find(variantId);
    const Task *t = task();
    if (!v || !t) {
        m_store->setStatus(variantId, VariantStatus::Failed, m_error);
        return;
    }
    EvalRequest req;
    req.task = *t;
    req.candidateSource = m_store->source(variantId);
    req.candidateFlags = v->nvccFlags;
    req.options = roundId && roundId == m_roundId ? m_settings.evalOptions : m_defaultEvalOptions;
    req.options.sourceProfile = req.options.sourceProfile || sourceProfile;
    const int id = m_evaluator->submit(req);
    m_evals[id] = PendingEval{variantId, roundId, std::nullopt};
    m_store->setStatus(variantId, VariantStatus::Compiling);
}

void RoundRunner::onEvalProgress(int id, const QString &stage)
{
    const auto it = m_evals.find(id);
    if (it == m_evals.end())
        return;
    const Variant *v = m_store->population().find(it->second.variantId);
    if (!v)
        return;
    const VariantStatus next = statusOfStage(stage, v->status);
    if (next != v->status)
        m_store->setStatus(v->id, next);
}

void RoundRunner::onEvalCompiled(int id, const CompileResult &result)
{
    const auto it = m_evals.find(id);
    if (it != m_evals.end())
        it->second.compiled = result;
}

void RoundRunner::onEvalFinished(int id, const EvalResult &result)
{
    const auto it = m_evals.find(id);
    if (it == m_evals.end())
        return;
    const PendingEval pending = it->second;
    m_evals.erase(it);
    const qint64 variantId = pending.variantId;

    if (result.errorCode == QLatin1String("cancelled")) {
        m_store->setStatus(variantId, VariantStatus::Failed, tr("The evaluation was cancelled."));
    } else {
        const QJsonObject json = storedResult(result, pending.compiled);
        QJsonObject device{{QStringLiteral("name"), result.deviceName}};
        if (!result.workerName.isEmpty())
            device.insert(QStringLiteral("worker"), result.workerName);
        const QStringList flags = pending.compiled ? pending.compiled->commandLine : QStringList();
        m_store->addEvaluation(Evaluation::fromResult(variantId, json, device, flags,
                                                      pending.compiled ? pending.compiled->nvccVersion : QString()));
        if (result.isCorrect()) {
            m_store->setStatus(variantId, VariantStatus::Done);
        } else {
            QString reason = verdictDisplayName(result.verdict);
            if (!result.message.isEmpty())
                reason += QLatin1String(": ") + result.message.section(QLatin1Char('\n'), 0, 0);
            m_store->setStatus(variantId, VariantStatus::Failed, reason);
        }
        const Variant *v = m_store->population().find(variantId);
        const bool roundOwned = pending.roundId && pending.roundId == m_roundId;
        if (v && v->suspicious && !v->accepted && roundOwned && m_settings.acceptSuspicious
            && !result.hasFlag(QStringLiteral("below_speed_of_light")))
            m_store->setAccepted(variantId, true);
        Q_EMIT evaluationFinished(variantId);
        if (roundOwned && !m_stopping && v && v->origin == VariantOrigin::Model)
            considerRepair(variantId, json);
        // A new best of the round, measured without the source-level pass: once more with it, outside the
        // round (roundId 0), so the round does not wait for it.
        if (roundOwned && m_settings.profileNewBest && !m_stopping && v && v->origin != VariantOrigin::Reference
            && m_store->population().bestCorrect() == v && !json.contains(QLatin1String("source_profile")))
            submitEvaluation(variantId, 0, true);
    }

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
                finishRound(RoundState::Failed, tr("The reference could not be measured: %1")
                                                    .arg(ref ? ref->statusMessage : QString()));
                return;
            }
            if (m_paused)
                return;
            sample();
        }
        return;
    }
    if (pending.roundId && pending.roundId == m_roundId) {
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

void RoundRunner::considerRepair(qint64 variantId, const QJsonObject &result)
{
    if (!repairableFailure(result.value(QLatin1String("verdict")).toString()))
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
    const VariantTexts texts = m_store->texts(job.variantId);
    RepairRequest req;
    req.task = m_store->task();
    req.source = texts.source;
    req.design = texts.design;
    req.failure = *repairableFailure(job.result.value(QLatin1String("verdict")).toString());
    req.result = job.result;
    const QJsonObject compile = job.result.value(QLatin1String("compile")).toObject();
    req.diagnostics = compile.value(QLatin1String("log")).toString();
    if (req.diagnostics.trimmed().isEmpty())
        req.diagnostics = job.result.value(QLatin1String("message")).toString();
    req.nvccCommand = compile.value(QLatin1String("command")).toString();
    QString error;
    const QString prompt = PromptBuilder::repair(req, &error);
    if (prompt.isEmpty()) {
        fail(error);
        return;
    }
    PromptRecord p;
    p.roundId = m_roundId;
    p.kind = QStringLiteral("repair");
    p.templateName = req.templateName;
    p.rendered = prompt;
    p.exemplarIds = {job.variantId};
    const qint64 promptId = m_store->addPrompt(p);
    if (!promptId)
        return;
    Request r;
    r.kind = RequestKind::Repair;
    r.roundId = m_roundId;
    r.promptId = promptId;
    r.parents = {job.variantId};
    r.repairDepth = job.depth;
    r.label = v->label.isEmpty() ? QStringLiteral("repair %1").arg(job.depth) : v->label + QStringLiteral("r%1").arg(job.depth);
    launch(r, prompt);
}

// ------------------------------------------------------------------------------------------------ steering

bool RoundRunner::setPinned(qint64 variantId, bool pinned)
{
    return m_store->setPinned(variantId, pinned);
}

bool RoundRunner::setExcluded(qint64 variantId, bool excluded)
{
    return m_store->setExcluded(variantId, excluded);
}

bool RoundRunner::setAccepted(qint64 variantId, bool accepted)
{
    return m_store->setAccepted(variantId, accepted);
}

qint64 RoundRunner::addManualVariant(const QString &source, const QList<qint64> &parentIds, const QString &label)
{
    m_error.clear();
    if (!m_store || !m_store->isOpen() || !m_store->hasTask())
        return failId(tr("Open a session with a task first."));
    if (source.trimmed().isEmpty())
        return failId(tr("The variant has no source."));
    if (const QString why = cannotEvaluate(m_evaluator); !why.isEmpty())
        return failId(why);
    Variant v;
    v.origin = VariantOrigin::Manual;
    v.parentIds = parentIds;
    v.label = label;
    const qint64 id = m_store->addVariant(v, {source, {}, {}});
    if (!id)
        return failId(m_store->errorString());
    submitEvaluation(id, 0);
    return id;
}

qint64 RoundRunner::fork(qint64 parentId, const QString &source, const QString &label)
{
    const Variant *parent = m_store ? m_store->population().find(parentId) : nullptr;
    if (!parent)
        return failId(tr("There is no variant %1 to fork.").arg(parentId));
    const QString name = label.isEmpty() ? tr("fork of %1").arg(parent->label.isEmpty() ? QString::number(parentId) : parent->label) : label;
    return addManualVariant(source.isEmpty() ? m_store->source(parentId) : source, {parentId}, name);
}

bool RoundRunner::reevaluate(qint64 variantId, bool sourceProfile)
{
    if (!m_store || !m_store->population().contains(variantId))
        return fail(tr("There is no variant %1.").arg(variantId));
    for (const auto &[id, e] : m_evals)
        if (e.variantId == variantId)
            return fail(tr("Variant %1 is being evaluated already.").arg(variantId));
    if (const QString why = cannotEvaluate(m_evaluator); !why.isEmpty())
        return fail(why);
    submitEvaluation(variantId, 0, sourceProfile);
    return true;
}

qint64 RoundRunner::askWhyFaster(qint64 a, qint64 b, const QString &question)
{
    m_error.clear();
    if (!m_store || !m_store->population().contains(a) || !m_store->population().contains(b))
        return failId(tr("Choose two variants of the open session."));
    if (const QString why = m_sessionBudget.exhaustedBy(sessionUsed()); !why.isEmpty())
        return failId(tr("The session budget is spent: %1").arg(why));
    CompareRequest req;
    req.task = m_store->task();
    req.a = PromptBuilder::exemplar(*m_store, a);
    req.b = PromptBuilder::exemplar(*m_store, b);
    req.question = question;
    QString error;
    const QString prompt = PromptBuilder::compare(req, &error);
    if (prompt.isEmpty())
        return failId(error);
    PromptRecord p;
    p.kind = QStringLiteral("compare");
    p.templateName = req.templateName;
    p.rendered = prompt;
    p.exemplarIds = {a, b};
    const qint64 promptId = m_store->addPrompt(p);
    const QString asked = PromptBuilder::compareContext(req).value(QStringLiteral("question")).toString();
    const qint64 pairId = m_store->addPairAnalysis(PairAnalysis{0, a, b, asked, {}, 0, {}});
    if (!promptId || !pairId)
        return failId(m_store->errorString());
    Request r;
    r.kind = RequestKind::Compare;
    r.promptId = promptId;
    r.pairId = pairId;
    if (!launch(r, prompt))
        return 0;
    return pairId;
}

} // namespace kforge
