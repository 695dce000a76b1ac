// kforge-cli optimize: contrastive optimization rounds without the workbench. Creates (or continues) a session
// file, runs R rounds of N candidates against a language model endpoint and GPU workers, prints one row per
// candidate and a summary per round, and leaves a session the workbench opens.
#include "command.h"
#include "headless.h"

#include "core/eval/measureformat.h"
#include "core/llm/requestbuilder.h"
#include "core/log/loghub.h"
#include "core/optimizer/roundrunner.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/workbench/workbench.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QSet>
#include <QSocketNotifier>
#include <QTextStream>
#include <csignal>
#include <memory>
#include <optional>
#include <unistd.h>

namespace kforge::cli {

namespace {

// Exit statuses (also in --help).
constexpr int kDone = 0;        // every round ran to its end
constexpr int kRoundFailed = 1; // a round failed (no answer arrived, the reference cannot be measured...)
constexpr int kUsage = 2;       // bad arguments, unreadable task or session, no key
constexpr int kStopped = 3;     // interrupted (Ctrl+C) or a budget was spent before the last round

// The exit status of a round that ended (or was refused) with `outcome`; kDone lets the next round start.
int exitStatus(RoundRunner::Outcome outcome, bool interrupted)
{
    switch (outcome) {
    case RoundRunner::Outcome::Failed: return kRoundFailed;
    case RoundRunner::Outcome::Stopped:
    case RoundRunner::Outcome::BudgetSpent: return kStopped;
    case RoundRunner::Outcome::None:
    case RoundRunner::Outcome::Finished: break;
    }
    return interrupted ? kStopped : kDone;
}

QString tr(const char *text, const char *comment = nullptr, int n = -1)
{
    return QCoreApplication::translate("kforge::cli", text, comment, n);
}

int g_signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] const auto written = ::write(g_signalPipe[1], &c, 1);
}

QString speedupText(const Variant &v)
{
    return v.eval.speedup ? QString::number(*v.eval.speedup, 'f', 2) + QLatin1Char('x') : QStringLiteral("-");
}

class Printer
{
    Q_DECLARE_TR_FUNCTIONS(kforge::cli::Printer)

public:
    explicit Printer(const SessionStore &store)
        : m_store(store)
    {
    }

    // One row per candidate as its evaluation finishes, one per answer without code, the runner's errors on `err`.
    void follow(RoundRunner &runner, QTextStream &err) const
    {
        QObject::connect(&runner, &RoundRunner::evaluationFinished, &runner, [this](qint64 id) {
            const Variant *v = m_store.population().find(id);
            if (v && v->origin != VariantOrigin::Reference)
                variantRow(id);
        });
        QObject::connect(&runner, &RoundRunner::responseFinished, &runner,
                         [this](qint64 responseId, qint64 variantId, const ParsedResponse &parsed) {
                             if (!variantId)
                                 unparsedRow(responseId, parsed);
                         });
        QObject::connect(&runner, &RoundRunner::errorOccurred, &runner, [&err](const QString &m) {
            err << m << '\n' << Qt::flush;
        });
    }

    void header() const
    {
        m_out << QStringLiteral("%1 %2 %3 %4 %5  %6")
                     .arg(tr("round"), -5)
                     .arg(tr("variant"), -14)
                     .arg(tr("verdict"), -14)
                     .arg(tr("speedup"), 9)
                     .arg(tr("event time"), 10)
                     .arg(tr("notes"))
              << '\n'
              << Qt::flush;
    }

    void variantRow(qint64 id) const
    {
        const Variant *v = m_store.population().find(id);
        if (!v)
            return;
        const auto round = m_store.rounds().find(v->roundId);
        QStringList notes;
        if (v->tags.contains(QLatin1String("repair")) && !v->parentIds.isEmpty())
            notes << tr("repair of #%1").arg(v->parentIds.first());
        else if (const auto prompt = v->promptId ? m_store.exchanges().prompt(v->promptId) : std::nullopt)
            notes << tr("shown %1").arg(exemplarList(prompt->exemplarIds)); // what this candidate's prompt held
        if (v->suspicious)
            notes << (v->accepted ? tr("accepted: %1") : tr("held for review: %1")).arg(v->suspiciousReason);
        if (v->status == VariantStatus::Failed && !v->statusMessage.isEmpty())
            notes << v->statusMessage.section(QLatin1Char('\n'), 0, 0).left(100);
        if (!v->eval.flags.isEmpty())
            notes << v->eval.flags.join(QLatin1String(", "));
        const QString name = (v->label.isEmpty() ? tr("variant") : v->label) + QStringLiteral(" #%1").arg(v->id);
        m_out << QStringLiteral("%1 %2 %3 %4 %5  %6")
                     .arg(round ? QStringLiteral("R%1").arg(round->number) : QStringLiteral("-"), -5)
                     .arg(name, -14)
                     .arg(v->eval.hasVerdict() ? v->eval.verdictName() : toString(v->status), -14)
                     .arg(speedupText(*v), 9)
                     .arg(v->eval.candidateMedianMs ? formatDuration(*v->eval.candidateMedianMs) : QStringLiteral("-"), 10)
                     .arg(notes.join(QLatin1String("; ")))
              << '\n'
              << Qt::flush;
    }

    void unparsedRow(qint64 responseId, const ParsedResponse &parsed) const
    {
        const auto r = m_store.exchanges().response(responseId);
        const auto p = r ? m_store.exchanges().prompt(r->promptId) : std::nullopt;
        const auto round = p ? m_store.rounds().find(p->roundId) : std::nullopt;
        m_out << QStringLiteral("%1 %2 %3 %4 %5  %6")
                     .arg(round ? QStringLiteral("R%1").arg(round->number) : QStringLiteral("-"), -5)
                     .arg(tr("answer #%1").arg(responseId), -14)
                     .arg(tr("no code"), -14)
                     .arg(QStringLiteral("-"), 9)
                     .arg(QStringLiteral("-"), 10)
                     .arg(parsed.message().left(120))
              << '\n'
              << Qt::flush;
    }

    void roundSummary(qint64 roundId, RoundState state, const QString &message, double seconds) const
    {
        const auto round = m_store.rounds().find(roundId);
        if (!round)
            return;
        int candidates = 0, correct = 0;
        const Variant *best = nullptr;
        for (qint64 id : m_store.variants().ofRound(roundId)) {
            const Variant *v = m_store.population().find(id);
            ++candidates;
            if (v->isCorrect()) {
                ++correct;
                if (!best || v->eval.speedup.value_or(0) > best->eval.speedup.value_or(0))
                    best = v;
            }
        }
        m_out << tr("Round %1 %2: %3 candidate(s), %4 correct").arg(round->number).arg(toString(state)).arg(candidates).arg(correct);
        if (best)
            m_out << tr(", best %1 (%2 #%3)").arg(speedupText(*best), best->label).arg(best->id);
        m_out << tr("; %1 request(s), %2 tokens").arg(round->usage.requests).arg(round->usage.totalTokens());
        if (round->usage.cost > 0)
            m_out << tr(", $%1").arg(round->usage.cost, 0, 'f', 4);
        m_out << tr(", %1 s").arg(seconds, 0, 'f', 1);
        if (!message.isEmpty())
            m_out << " — " << message;
        m_out << "\n\n" << Qt::flush;
    }

private:
    QString exemplarList(const QList<qint64> &ids) const
    {
        QStringList parts;
        for (qint64 id : ids)
            parts << QStringLiteral("#%1").arg(id);
        return parts.join(QLatin1Char(','));
    }

    const SessionStore &m_store;
    mutable QTextStream m_out{stdout};
};

// What the command line asks for, checked: the rounds' settings and budget, where the answers come from, the
// task or session, the worker.
struct OptimizeArgs {
    QString target;                     // a task folder or a session file
    std::optional<QString> sessionFile; // --session: the new session's file, for a task folder
    bool seedVariants = false;
    QString endpoint, model, keyVariable, worker;
    std::optional<int> answerTokens;
    std::optional<double> temperature;
    int rounds = 1;
    RoundSettings settings;
    Budget budget; // of this run
    bool metrics = true;
    MetricsPolicy::Mode metricsMode = MetricsPolicy::Mode::WhenTheyPay;
};

struct OptimizeOptions {
    QCommandLineOption rounds, candidates, endpoint, model, keyEnv, session, worker, exemplars, strategy, exemplarMode,
        repair, hint, maxRequests, maxTokens, maxCost, answerTokens, temperature, seedVariants, accept, noMetrics, metrics;

    void addTo(QCommandLineParser &p) const
    {
        p.addOptions({rounds,    candidates,   endpoint,     model,        keyEnv, session,     worker,
                      exemplars, strategy,     exemplarMode, repair,       hint,   maxRequests, maxTokens,
                      maxCost,   answerTokens, temperature,  seedVariants, accept, noMetrics,   metrics});
    }
};

// kforge-cli optimize's options, with their help texts.
OptimizeOptions optimizeOptions()
{
    return OptimizeOptions{
        .rounds = QCommandLineOption({QStringLiteral("r"), QStringLiteral("rounds")}, tr("Rounds to run (default 1)."),
                                     tr("R")),
        .candidates = QCommandLineOption({QStringLiteral("n"), QStringLiteral("candidates")},
                                         tr("Candidates (concurrent requests) per round (default 4)."), tr("N")),
        .endpoint = QCommandLineOption({QStringLiteral("e"), QStringLiteral("endpoint")},
                                       tr("A preset (openai, deepseek, openrouter, anthropic, vllm, ollama, llamacpp), a saved endpoint, or an "
                                          "OpenAI-compatible base URL such as http://localhost:8000/v1."),
                                       tr("endpoint")),
        .model = QCommandLineOption({QStringLiteral("m"), QStringLiteral("model")},
                                    tr("Model name (default: the endpoint's)."), tr("name")),
        .keyEnv = QCommandLineOption(QStringLiteral("api-key-env"),
                                     tr("Read the API key from this environment variable."), tr("VAR")),
        .session = QCommandLineOption({QStringLiteral("s"), QStringLiteral("session")},
                                      tr("The session file to create for a task folder (default: <task>-<date>.kforge here)."),
                                      tr("file")),
        .worker = QCommandLineOption(
            QStringLiteral("worker"),
            tr("The worker command (default: the first worker in Settings, 'kforge-worker --device 0')."), tr("command")),
        .exemplars = QCommandLineOption(QStringLiteral("exemplars"),
                                        tr("Measured variants shown per prompt (default 2)."), tr("K")),
        .strategy = QCommandLineOption(QStringLiteral("sampling"), tr("buckets (default), top-k or most-different."),
                                       tr("strategy")),
        .exemplarMode = QCommandLineOption(
            QStringLiteral("exemplar-mode"),
            tr("auto (default: per candidate when there are more correct variants than exemplars), per-candidate "
               "(each candidate draws its own exemplars, the best always among them) or per-round (one prompt for all)."),
            tr("mode")),
        .repair = QCommandLineOption(QStringLiteral("repair"), tr("Repair attempts per failed candidate (default 1)."),
                                     tr("N")),
        .hint = QCommandLineOption(QStringLiteral("hint"), tr("Guidance added to every prompt."), tr("text")),
        .maxRequests = QCommandLineOption(QStringLiteral("max-requests"), tr("Budget: requests over the whole run."),
                                          tr("N")),
        .maxTokens = QCommandLineOption(QStringLiteral("max-tokens"), tr("Budget: tokens over the whole run."), tr("N")),
        .maxCost = QCommandLineOption(QStringLiteral("max-cost"),
                                      tr("Budget: dollars over the whole run (needs prices in Settings)."), tr("USD")),
        .answerTokens = QCommandLineOption(QStringLiteral("answer-tokens"), tr("Limit on tokens per answer."), tr("N")),
        .temperature = QCommandLineOption(QStringLiteral("temperature"), tr("Sampling temperature of the model."), tr("T")),
        .seedVariants = QCommandLineOption(
            QStringLiteral("seed-variants"),
            tr("Also import the task's hand-written variants into a new session (they become exemplars once measured).")),
        .accept = QCommandLineOption(
            QStringLiteral("accept-suspicious"),
            tr("Accept the correct results held for review (those the automatic deep check could not clear), of this run "
               "and of earlier rounds of the session, without review (never one under the speed-of-light floor).")),
        .noMetrics = QCommandLineOption(QStringLiteral("no-metrics"), tr("Skip the hardware metrics pass (faster).")),
        .metrics = QCommandLineOption(
            QStringLiteral("metrics"),
            tr("When a round's candidates get the hardware metrics pass: 'when-they-pay' (default: only a correct "
               "candidate among the session's 3 fastest is measured again with it; the others say 'not measured'), "
               "'always', or 'never'."),
            tr("mode"), QStringLiteral("when-they-pay")),
    };
}

// The rounds' counts and choices (--rounds, --candidates, --exemplars, --repair, --sampling, --exemplar-mode);
// empty, or what is wrong with them.
QString parseRoundChoices(const QCommandLineParser &p, const OptimizeOptions &o, OptimizeArgs &a)
{
    auto intOption = [&](const QCommandLineOption &option, int fallback, int min, bool *ok) {
        if (!p.isSet(option))
            return fallback;
        const int v = p.value(option).toInt(ok);
        *ok = *ok && v >= min;
        return v;
    };
    bool ok = true;
    RoundSettings &settings = a.settings;
    a.rounds = intOption(o.rounds, 1, 1, &ok);
    if (ok)
        settings.candidates = intOption(o.candidates, settings.candidates, 1, &ok);
    if (ok)
        settings.sampler.count = intOption(o.exemplars, settings.sampler.count, 1, &ok);
    if (ok)
        settings.repairAttempts = intOption(o.repair, settings.repairAttempts, 0, &ok);
    if (!ok)
        return tr("--rounds, --candidates and --exemplars take a positive number, --repair zero or more");
    if (p.isSet(o.strategy)) {
        settings.sampler.strategy = samplingStrategyFromString(p.value(o.strategy), &ok);
        if (!ok)
            return tr("--sampling is buckets, top-k or most-different, not '%1'").arg(p.value(o.strategy));
    }
    if (p.isSet(o.exemplarMode)) {
        settings.exemplarMode = exemplarModeFromString(p.value(o.exemplarMode), &ok);
        if (!ok)
            return tr("--exemplar-mode is auto, per-candidate or per-round, not '%1'").arg(p.value(o.exemplarMode));
    }
    return {};
}

// The command line, checked; --help prints and exits here. Empty with `error` set when it does not hold up.
std::optional<OptimizeArgs> parseOptimizeArgs(const QStringList &args, QString *error)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        tr("Runs contrastive optimization rounds headless: each round shows the model measured variants, asks for "
           "N faster ones, compiles, verifies and times every answer on the GPU workers, and stores everything in "
           "a session file the workbench opens.\n\n"
           "Exit status: 0 every round finished; 1 a round failed; 2 bad input; 3 stopped early (Ctrl+C or a "
           "spent budget)."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("task-or-session"),
                            tr("A task folder (a new session is created) or a *.kforge session to continue."));
    const OptimizeOptions o = optimizeOptions();
    o.addTo(p);
    if (!parseArguments(p, args, error))
        return std::nullopt;
    if (p.positionalArguments().size() != 1)
        *error = tr("expected one task folder or session file; see --help");
    else if (!p.isSet(o.endpoint))
        *error = tr("--endpoint is required");
    OptimizeArgs a;
    if (const auto mode = MetricsPolicy::modeFromString(p.value(o.metrics)); mode)
        a.metricsMode = *mode;
    else if (error->isEmpty())
        *error = tr("--metrics expects when-they-pay, always or never, not '%1'").arg(p.value(o.metrics));
    if (error->isEmpty())
        *error = parseRoundChoices(p, o, a);
    if (!error->isEmpty())
        return std::nullopt;
    a.target = p.positionalArguments().first();
    if (p.isSet(o.session))
        a.sessionFile = p.value(o.session);
    a.seedVariants = p.isSet(o.seedVariants);
    a.endpoint = p.value(o.endpoint);
    a.model = p.value(o.model);
    a.keyVariable = p.value(o.keyEnv);
    a.worker = p.value(o.worker);
    if (p.isSet(o.answerTokens))
        a.answerTokens = p.value(o.answerTokens).toInt();
    if (p.isSet(o.temperature))
        a.temperature = p.value(o.temperature).toDouble();
    a.settings.hint = p.value(o.hint);
    a.settings.acceptSuspicious = p.isSet(o.accept);
    a.budget.maxRequests = p.value(o.maxRequests).toInt();
    a.budget.maxTokens = p.value(o.maxTokens).toLongLong();
    a.budget.maxCost = p.value(o.maxCost).toDouble();
    a.metrics = !p.isSet(o.noMetrics);
    return a;
}

// The request every candidate's is made from: the endpoint, its key and the model's parameters, checked before a
// session is made (the runner supplies the messages).
std::optional<LlmRequest> requestTemplate(Workbench &workbench, const OptimizeArgs &a, QString *error)
{
    std::optional<EndpointConfig> endpoint = workbench.findEndpoint(a.endpoint);
    if (!endpoint) {
        *error = tr("unknown endpoint '%1': give a preset, a saved endpoint or a URL").arg(a.endpoint);
        return std::nullopt;
    }
    LlmRequest request;
    request.endpoint = *endpoint;
    request.model = a.model;
    if (a.answerTokens)
        request.maxTokens = *a.answerTokens;
    if (a.temperature)
        request.temperature = *a.temperature;
    const ApiKeyLookup key = waitForKey(workbench, request.endpoint, a.keyVariable);
    if (!key.error.isEmpty()) {
        *error = key.error;
        return std::nullopt;
    }
    request.apiKey = key.key;
    LlmRequest probe = request;
    probe.messages = {LlmMessage{QStringLiteral("user"), QStringLiteral("?")}};
    *error = RequestBuilder::validate(probe);
    return error->isEmpty() ? std::optional<LlmRequest>(request) : std::nullopt;
}

// The session: a new one for a task folder, or the one given. False with `error` set when it cannot be had.
bool openSession(SessionStore &store, const OptimizeArgs &a, QTextStream &err, QString *error)
{
    const QFileInfo targetInfo(a.target);
    if (targetInfo.isDir()) {
        QString path = a.sessionFile.value_or(QString());
        if (path.isEmpty())
            path = QDir::current().filePath(targetInfo.fileName() + QLatin1Char('-')
                                            + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))
                                            + QLatin1String(".kforge"));
        if (!store.create(path, a.target, a.seedVariants))
            *error = store.errorString();
        else
            err << tr("Session %1 (new, task %2)").arg(store.path(), store.task().name) << '\n';
        return error->isEmpty();
    }
    if (a.sessionFile)
        *error = tr("--session is for a task folder; %1 is already a session").arg(a.target);
    else if (!targetInfo.isFile())
        *error = tr("%1 is neither a task folder nor a session file").arg(a.target);
    else if (!store.open(a.target))
        *error = store.errorString();
    else if (!store.hasTask())
        *error = tr("%1 holds no task").arg(a.target);
    else
        err << tr("Session %1 (%n variant(s), task %2)", nullptr, store.population().size())
                   .arg(store.path(), store.task().name)
            << '\n';
    return error->isEmpty();
}

// Compiler, GPU worker, model client and round runner, as the workbench sets them up (prices included), with the
// run's evaluation options, metrics policy, request and budget.
void setUpRounds(Workbench &workbench, SessionStore &store, OptimizeArgs &a, const LlmRequest &request)
{
    workbench.useEvaluation(a.worker);
    workbench.useRounds(&store);
    RoundRunner &runner = *workbench.runner();
    a.settings.evalOptions = workbench.evalOptions();
    a.settings.evalOptions.metrics = a.metrics;
    EvaluationQueue &queue = *workbench.queue();
    queue.setDefaultOptions(a.settings.evalOptions);
    MetricsPolicy metricsPolicy;
    metricsPolicy.mode = a.metricsMode;
    queue.setMetricsPolicy(metricsPolicy);
    runner.setRequestTemplate(request);
    // The budget covers this run: what the session spent before does not count against it.
    const RoundUsage before = store.rounds().sessionUsage();
    Budget sessionBudget = a.budget;
    if (sessionBudget.maxRequests > 0)
        sessionBudget.maxRequests += before.requests;
    if (sessionBudget.maxTokens > 0)
        sessionBudget.maxTokens += before.totalTokens();
    if (sessionBudget.maxCost > 0)
        sessionBudget.maxCost += before.cost;
    runner.setSessionBudget(sessionBudget);
}

// Runs the rounds one after the other until all ran, one failed, the budget is spent or Ctrl+C stops them: an
// interrupted round of the session first, else the imported variants never measured, then the new rounds.
class RoundLoop
{
    Q_DECLARE_TR_FUNCTIONS(kforge::cli::RoundLoop)

public:
    RoundLoop(SessionStore &store, RoundRunner &runner, EvaluationQueue &queue, const OptimizeArgs &a,
              const Printer &printer, QTextStream &err)
        : m_store(store)
        , m_runner(runner)
        , m_queue(queue)
        , m_args(a)
        , m_printer(printer)
        , m_err(err)
    {
    }

    int exec()
    {
        catchInterrupts();
        QObject::connect(&m_runner, &RoundRunner::roundFinished, &m_runner,
                         [this](qint64 roundId, RoundState state, const QString &message) {
                             roundFinished(roundId, state, message);
                         });
        const QList<qint64> interruptedRounds = m_store.interruptedRounds();
        if (!interruptedRounds.isEmpty()) {
            m_err << tr("Resuming interrupted round %1").arg(m_store.rounds().find(interruptedRounds.first())->number)
                  << '\n';
            m_clock.start();
            if (!m_runner.resume(interruptedRounds.first())) {
                m_err << m_runner.errorString() << '\n';
                return kRoundFailed;
            }
        } else {
            measureImportedThenStart();
        }
        m_loop.exec();
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
        return m_status;
    }

private:
    // Ctrl+C stops the round cleanly: what is in the session stays, the round is marked stopped.
    void catchInterrupts()
    {
        if (::pipe(g_signalPipe) == 0) {
            std::signal(SIGINT, onSignal);
            std::signal(SIGTERM, onSignal);
        }
        m_interrupt = std::make_unique<QSocketNotifier>(g_signalPipe[0], QSocketNotifier::Read);
        QObject::connect(m_interrupt.get(), &QSocketNotifier::activated, &m_runner, [this] {
            char c;
            [[maybe_unused]] const auto n = ::read(g_signalPipe[0], &c, 1);
            if (!m_interrupted) {
                m_interrupted = true;
                m_err << tr("Stopping: cancelling the requests and evaluations in flight...") << '\n' << Qt::flush;
                m_runner.stop();
            }
        });
    }

    void roundFinished(qint64 roundId, RoundState state, const QString &message)
    {
        m_printer.roundSummary(roundId, state, message, double(m_clock.elapsed()) / 1000.0);
        ++m_done;
        m_status = exitStatus(m_runner.outcome(), m_interrupted);
        if (m_status != kDone || m_done >= m_args.rounds)
            m_loop.quit();
        else
            startNextSoon();
    }

    void startNextSoon()
    {
        QMetaObject::invokeMethod(
            &m_runner, [this] { startNext(); }, Qt::QueuedConnection);
    }

    void startNext()
    {
        m_clock.restart();
        if (!m_runner.start(m_args.settings)) {
            m_err << m_runner.errorString() << '\n';
            m_status = m_runner.outcome() == RoundRunner::Outcome::BudgetSpent ? kStopped : kRoundFailed;
            m_loop.quit();
        }
    }

    // Hand-written variants imported with the task (--seed-variants) but never measured are measured first,
    // through the same queue, so that the first round can already show them as exemplars.
    void measureImportedThenStart()
    {
        QList<qint64> unmeasured;
        for (const Variant &v : m_store.population().variants())
            if (v.origin == VariantOrigin::Imported && v.status == VariantStatus::Generated && !v.excluded)
                unmeasured << v.id;
        if (unmeasured.isEmpty())
            return startNextSoon();
        m_err << tr("Measuring %n imported variant(s) before the first round", nullptr, int(unmeasured.size())) << '\n'
              << Qt::flush;
        m_pending = QSet<qint64>(unmeasured.cbegin(), unmeasured.cend());
        m_measured = QObject::connect(&m_queue, &EvaluationQueue::finished, &m_runner, [this](const QueuedEvaluation &e) {
            if (m_pending.remove(e.variantId) && m_pending.isEmpty()) {
                QObject::disconnect(m_measured);
                if (m_interrupted)
                    m_loop.quit();
                else
                    startNextSoon();
            }
        });
        for (qint64 id : unmeasured)
            if (!m_queue.reevaluate(id)) {
                m_err << m_queue.errorString() << '\n';
                m_pending.remove(id);
            }
        if (m_pending.isEmpty()) {
            QObject::disconnect(m_measured);
            startNextSoon();
        }
    }

    SessionStore &m_store;
    RoundRunner &m_runner;
    EvaluationQueue &m_queue;
    const OptimizeArgs &m_args;
    const Printer &m_printer;
    QTextStream &m_err;
    QEventLoop m_loop;
    QElapsedTimer m_clock;
    std::unique_ptr<QSocketNotifier> m_interrupt;
    bool m_interrupted = false;
    int m_status = kDone;
    int m_done = 0;
    QSet<qint64> m_pending; // imported variants still being measured
    QMetaObject::Connection m_measured;
};

// The session's best correct variant, for the record, with its review state: a result held for review is still
// the fastest one measured, and the user has to know it waits for them.
void printBest(const SessionStore &store)
{
    const Variant *best = nullptr;
    for (const Variant &v : store.population().variants())
        if (v.isCorrect() && v.eval.speedup && (!best || *v.eval.speedup > *best->eval.speedup))
            best = &v;
    QTextStream out(stdout);
    if (best) {
        QString state = toString(best->origin);
        if (best->suspicious && !best->accepted)
            state += QStringLiteral(", ")
                     + tr("held for review: %1")
                           .arg(best->suspiciousReason.isEmpty() ? tr("not yet accepted") : best->suspiciousReason);
        else if (best->suspicious)
            state += QStringLiteral(", ") + tr("accepted after review");
        out << tr("Best: %1 #%2, %3 (%4)").arg(best->label).arg(best->id).arg(speedupText(*best), state) << '\n';
        // What the next round's prompts can show until the user accepts it.
        if (const Variant *usable = store.population().bestCorrect(); usable && usable != best && !best->accepted)
            out << tr("Best reviewed: %1 #%2, %3 (%4)")
                       .arg(usable->label)
                       .arg(usable->id)
                       .arg(speedupText(*usable), toString(usable->origin))
                << '\n';
    }
    out << tr("Session: %1").arg(store.path()) << '\n';
}

// Parse → the model's request and the session → the workbench's rounds → run them → print the best.
int run(const QStringList &args)
{
    QTextStream err(stderr);
    auto fail = [&err](int status, const QString &message) {
        err << tr("kforge-cli optimize: %1").arg(message) << '\n';
        return status;
    };
    QString error;
    std::optional<OptimizeArgs> a = parseOptimizeArgs(args, &error);
    if (!a)
        return fail(kUsage, error);

    // The model endpoint and its key, then the session; the compiler, GPU worker and round runner only after.
    Settings appSettings;
    LogHub log;
    echoWorkerLines(log, err);
    SessionStore store; // before the workbench: its round runner goes first
    Workbench workbench(appSettings, log);
    const std::optional<LlmRequest> request = requestTemplate(workbench, *a, &error);
    if (!request || !openSession(store, *a, err, &error))
        return fail(kUsage, error);
    setUpRounds(workbench, store, *a, *request);

    Printer printer(store);
    printer.header();
    printer.follow(*workbench.runner(), err);
    const int status = RoundLoop(store, *workbench.runner(), *workbench.queue(), *a, printer, err).exec();
    printBest(store);
    return status;
}

} // namespace

KFORGE_REGISTER_COMMAND(optimize, QStringLiteral("optimize"),
                        QCoreApplication::translate("kforge-cli",
                                                    "Run contrastive optimization rounds headless and keep a session"),
                        run)

} // namespace kforge::cli
