// kforge-cli optimize: contrastive optimization rounds without the workbench. Creates (or continues) a session
// file, runs R rounds of N candidates against a language model endpoint and GPU workers, prints one row per
// candidate and a summary per round, and leaves a session the workbench opens.
#include "command.h"
#include "headless.h"

#include "core/eval/measureformat.h"
#include "core/llm/requestbuilder.h"
#include "core/log/loghub.h"
#include "core/optimizer/roundrunner.h"
#include "core/pipeline/evaluationqueue.h"
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
#include <functional>
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

    void header()
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

    void variantRow(qint64 id)
    {
        const Variant *v = m_store.population().find(id);
        if (!v)
            return;
        const auto round = m_store.round(v->roundId);
        QStringList notes;
        if (v->tags.contains(QLatin1String("repair")) && !v->parentIds.isEmpty())
            notes << tr("repair of #%1").arg(v->parentIds.first());
        else if (const auto prompt = v->promptId ? m_store.prompt(v->promptId) : std::nullopt)
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
                     .arg(v->eval.verdict.isEmpty() ? toString(v->status) : v->eval.verdict, -14)
                     .arg(speedupText(*v), 9)
                     .arg(v->eval.candidateMedianMs ? formatDuration(*v->eval.candidateMedianMs) : QStringLiteral("-"), 10)
                     .arg(notes.join(QLatin1String("; ")))
              << '\n'
              << Qt::flush;
    }

    void unparsedRow(qint64 responseId, const ParsedResponse &parsed)
    {
        const auto r = m_store.response(responseId);
        const auto p = r ? m_store.prompt(r->promptId) : std::nullopt;
        const auto round = p ? m_store.round(p->roundId) : std::nullopt;
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

    void roundSummary(qint64 roundId, RoundState state, const QString &message, double seconds)
    {
        const auto round = m_store.round(roundId);
        if (!round)
            return;
        int candidates = 0, correct = 0;
        const Variant *best = nullptr;
        for (qint64 id : m_store.variantsOfRound(roundId)) {
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
    QTextStream m_out{stdout};
};

int run(const QStringList &args)
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
    const QCommandLineOption roundsOpt({QStringLiteral("r"), QStringLiteral("rounds")},
                                       tr("Rounds to run (default 1)."), tr("R"));
    const QCommandLineOption candidatesOpt({QStringLiteral("n"), QStringLiteral("candidates")},
                                           tr("Candidates (concurrent requests) per round (default 4)."), tr("N"));
    const QCommandLineOption endpointOpt({QStringLiteral("e"), QStringLiteral("endpoint")},
                                         tr("A preset (openai, deepseek, openrouter, anthropic, vllm, ollama, llamacpp), a saved endpoint, or an "
                                            "OpenAI-compatible base URL such as http://localhost:8000/v1."),
                                         tr("endpoint"));
    const QCommandLineOption modelOpt({QStringLiteral("m"), QStringLiteral("model")},
                                      tr("Model name (default: the endpoint's)."), tr("name"));
    const QCommandLineOption keyEnvOpt(QStringLiteral("api-key-env"),
                                       tr("Read the API key from this environment variable."), tr("VAR"));
    const QCommandLineOption sessionOpt(
        {QStringLiteral("s"), QStringLiteral("session")},
        tr("The session file to create for a task folder (default: <task>-<date>.kforge here)."), tr("file"));
    const QCommandLineOption workerOpt(
        QStringLiteral("worker"),
        tr("The worker command (default: the first worker in Settings, 'kforge-worker --device 0')."), tr("command"));
    const QCommandLineOption exemplarsOpt(QStringLiteral("exemplars"),
                                          tr("Measured variants shown per prompt (default 2)."), tr("K"));
    const QCommandLineOption strategyOpt(QStringLiteral("sampling"), tr("buckets (default), top-k or most-different."),
                                         tr("strategy"));
    const QCommandLineOption exemplarModeOpt(
        QStringLiteral("exemplar-mode"),
        tr("auto (default: per candidate when there are more correct variants than exemplars), per-candidate "
           "(each candidate draws its own exemplars, the best always among them) or per-round (one prompt for all)."),
        tr("mode"));
    const QCommandLineOption repairOpt(QStringLiteral("repair"),
                                       tr("Repair attempts per failed candidate (default 1)."), tr("N"));
    const QCommandLineOption hintOpt(QStringLiteral("hint"), tr("Guidance added to every prompt."), tr("text"));
    const QCommandLineOption maxRequestsOpt(QStringLiteral("max-requests"), tr("Budget: requests over the whole run."),
                                            tr("N"));
    const QCommandLineOption maxTokensOpt(QStringLiteral("max-tokens"), tr("Budget: tokens over the whole run."), tr("N"));
    const QCommandLineOption maxCostOpt(QStringLiteral("max-cost"),
                                        tr("Budget: dollars over the whole run (needs prices in Settings)."), tr("USD"));
    const QCommandLineOption answerTokensOpt(QStringLiteral("answer-tokens"), tr("Limit on tokens per answer."), tr("N"));
    const QCommandLineOption temperatureOpt(QStringLiteral("temperature"), tr("Sampling temperature of the model."),
                                            tr("T"));
    const QCommandLineOption seedVariantsOpt(
        QStringLiteral("seed-variants"),
        tr("Also import the task's hand-written variants into a new session (they become exemplars once measured)."));
    const QCommandLineOption acceptOpt(
        QStringLiteral("accept-suspicious"),
        tr("Accept the correct results held for review (those the automatic deep check could not clear), of this run "
           "and of earlier rounds of the session, without review (never one under the speed-of-light floor)."));
    const QCommandLineOption noMetricsOpt(QStringLiteral("no-metrics"), tr("Skip the hardware metrics pass (faster)."));
    const QCommandLineOption metricsOpt(
        QStringLiteral("metrics"),
        tr("When a round's candidates get the hardware metrics pass: 'when-they-pay' (default: only a correct "
           "candidate among the session's 3 fastest is measured again with it; the others say 'not measured'), "
           "'always', or 'never'."),
        tr("mode"), QStringLiteral("when-they-pay"));
    p.addOptions({roundsOpt,      candidatesOpt, endpointOpt, modelOpt,        keyEnvOpt,      sessionOpt,
                  workerOpt,      exemplarsOpt,  strategyOpt, exemplarModeOpt, repairOpt,      hintOpt,
                  maxRequestsOpt, maxTokensOpt,  maxCostOpt,  answerTokensOpt, temperatureOpt, seedVariantsOpt,
                  acceptOpt,      noMetricsOpt,  metricsOpt});
    QTextStream err(stderr);
    auto fail = [&err](int status, const QString &message) {
        err << tr("kforge-cli optimize: %1").arg(message) << '\n';
        return status;
    };
    if (!p.parse(args))
        return fail(kUsage, p.errorText());
    if (p.isSet(QStringLiteral("help")))
        p.showHelp(0);
    if (p.positionalArguments().size() != 1)
        return fail(kUsage, tr("expected one task folder or session file; see --help"));
    if (!p.isSet(endpointOpt))
        return fail(kUsage, tr("--endpoint is required"));
    const std::optional<MetricsPolicy::Mode> metricsMode = MetricsPolicy::modeFromString(p.value(metricsOpt));
    if (!metricsMode)
        return fail(kUsage, tr("--metrics expects when-they-pay, always or never, not '%1'").arg(p.value(metricsOpt)));

    auto intOption = [&](const QCommandLineOption &o, int fallback, int min, bool *ok) {
        if (!p.isSet(o))
            return fallback;
        const int v = p.value(o).toInt(ok);
        *ok = *ok && v >= min;
        return v;
    };
    bool ok = true;
    RoundSettings settings;
    const int rounds = intOption(roundsOpt, 1, 1, &ok);
    if (ok)
        settings.candidates = intOption(candidatesOpt, settings.candidates, 1, &ok);
    if (ok)
        settings.sampler.count = intOption(exemplarsOpt, settings.sampler.count, 1, &ok);
    if (ok)
        settings.repairAttempts = intOption(repairOpt, settings.repairAttempts, 0, &ok);
    if (!ok)
        return fail(kUsage, tr("--rounds, --candidates and --exemplars take a positive number, --repair zero or more"));
    if (p.isSet(strategyOpt)) {
        settings.sampler.strategy = samplingStrategyFromString(p.value(strategyOpt), &ok);
        if (!ok)
            return fail(kUsage, tr("--sampling is buckets, top-k or most-different, not '%1'").arg(p.value(strategyOpt)));
    }
    if (p.isSet(exemplarModeOpt)) {
        settings.exemplarMode = exemplarModeFromString(p.value(exemplarModeOpt), &ok);
        if (!ok)
            return fail(kUsage,
                        tr("--exemplar-mode is auto, per-candidate or per-round, not '%1'").arg(p.value(exemplarModeOpt)));
    }
    settings.hint = p.value(hintOpt);
    settings.acceptSuspicious = p.isSet(acceptOpt);
    Budget budget;
    budget.maxRequests = p.value(maxRequestsOpt).toInt();
    budget.maxTokens = p.value(maxTokensOpt).toLongLong();
    budget.maxCost = p.value(maxCostOpt).toDouble();

    // The model endpoint and its key, then the session; the compiler, GPU worker and round runner only after.
    Settings appSettings;
    LogHub log;
    echoWorkerLines(log, err);
    SessionStore store; // before the workbench: its round runner goes first
    Workbench workbench(appSettings, log);
    std::optional<EndpointConfig> endpoint = workbench.findEndpoint(p.value(endpointOpt));
    if (!endpoint)
        return fail(kUsage,
                    tr("unknown endpoint '%1': give a preset, a saved endpoint or a URL").arg(p.value(endpointOpt)));
    LlmRequest request;
    request.endpoint = *endpoint;
    request.model = p.value(modelOpt);
    if (p.isSet(answerTokensOpt))
        request.maxTokens = p.value(answerTokensOpt).toInt();
    if (p.isSet(temperatureOpt))
        request.temperature = p.value(temperatureOpt).toDouble();
    const ApiKeyLookup key = waitForKey(workbench, request.endpoint, p.value(keyEnvOpt));
    if (!key.error.isEmpty())
        return fail(kUsage, key.error);
    request.apiKey = key.key;
    // The runner supplies the messages; everything else must be right before a session is made.
    LlmRequest probe = request;
    probe.messages = {LlmMessage{QStringLiteral("user"), QStringLiteral("?")}};
    if (const QString problem = RequestBuilder::validate(probe); !problem.isEmpty())
        return fail(kUsage, problem);

    // The session: a new one for a task folder, or the one given.
    const QString target = p.positionalArguments().first();
    const QFileInfo targetInfo(target);
    if (targetInfo.isDir()) {
        QString path = p.value(sessionOpt);
        if (path.isEmpty())
            path = QDir::current().filePath(targetInfo.fileName() + QLatin1Char('-')
                                            + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))
                                            + QLatin1String(".kforge"));
        if (!store.create(path, target, p.isSet(seedVariantsOpt)))
            return fail(kUsage, store.errorString());
        err << tr("Session %1 (new, task %2)").arg(store.path(), store.task().name) << '\n';
    } else {
        if (p.isSet(sessionOpt))
            return fail(kUsage, tr("--session is for a task folder; %1 is already a session").arg(target));
        if (!targetInfo.isFile())
            return fail(kUsage, tr("%1 is neither a task folder nor a session file").arg(target));
        if (!store.open(target))
            return fail(kUsage, store.errorString());
        if (!store.hasTask())
            return fail(kUsage, tr("%1 holds no task").arg(target));
        err << tr("Session %1 (%n variant(s), task %2)", nullptr, store.population().size())
                   .arg(store.path(), store.task().name)
            << '\n';
    }

    // Compiler, GPU worker, model client and round runner, as the workbench sets them up (prices included).
    workbench.useEvaluation(p.value(workerOpt));
    workbench.useRounds(&store);
    RoundRunner &runner = *workbench.runner();
    settings.evalOptions = workbench.evalOptions();
    settings.evalOptions.metrics = !p.isSet(noMetricsOpt);
    EvaluationQueue &queue = *workbench.queue();
    queue.setDefaultOptions(settings.evalOptions);
    MetricsPolicy metricsPolicy;
    metricsPolicy.mode = *metricsMode;
    queue.setMetricsPolicy(metricsPolicy);
    runner.setRequestTemplate(request);
    // The budget covers this run: what the session spent before does not count against it.
    const RoundUsage before = store.sessionUsage();
    Budget sessionBudget = budget;
    if (sessionBudget.maxRequests > 0)
        sessionBudget.maxRequests += before.requests;
    if (sessionBudget.maxTokens > 0)
        sessionBudget.maxTokens += before.totalTokens();
    if (sessionBudget.maxCost > 0)
        sessionBudget.maxCost += before.cost;
    runner.setSessionBudget(sessionBudget);

    Printer printer(store);
    printer.header();
    QObject::connect(&runner, &RoundRunner::evaluationFinished, &runner, [&](qint64 id) {
        const Variant *v = store.population().find(id);
        if (v && v->origin != VariantOrigin::Reference)
            printer.variantRow(id);
    });
    QObject::connect(&runner, &RoundRunner::responseFinished, &runner,
                     [&](qint64 responseId, qint64 variantId, const ParsedResponse &parsed) {
                         if (!variantId)
                             printer.unparsedRow(responseId, parsed);
                     });
    QObject::connect(&runner, &RoundRunner::errorOccurred, &runner, [&err](const QString &m) {
        err << m << '\n' << Qt::flush;
    });

    // Ctrl+C stops the round cleanly: what is in the session stays, the round is marked stopped.
    if (::pipe(g_signalPipe) == 0) {
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
    }
    QSocketNotifier interrupt(g_signalPipe[0], QSocketNotifier::Read);
    bool interrupted = false;
    QObject::connect(&interrupt, &QSocketNotifier::activated, &runner, [&] {
        char c;
        [[maybe_unused]] const auto n = ::read(g_signalPipe[0], &c, 1);
        if (!interrupted) {
            interrupted = true;
            err << tr("Stopping: cancelling the requests and evaluations in flight...") << '\n' << Qt::flush;
            runner.stop();
        }
    });

    QEventLoop loop;
    int status = kDone;
    int done = 0;
    QElapsedTimer clock;
    std::function<void()> next;
    QObject::connect(&runner, &RoundRunner::roundFinished, &runner,
                     [&](qint64 roundId, RoundState state, const QString &message) {
                         printer.roundSummary(roundId, state, message, double(clock.elapsed()) / 1000.0);
                         ++done;
                         status = exitStatus(runner.outcome(), interrupted);
                         if (status != kDone || done >= rounds)
                             loop.quit();
                         else
                             QMetaObject::invokeMethod(&runner, next, Qt::QueuedConnection);
                     });
    next = [&] {
        clock.restart();
        if (!runner.start(settings)) {
            err << runner.errorString() << '\n';
            status = runner.outcome() == RoundRunner::Outcome::BudgetSpent ? kStopped : kRoundFailed;
            loop.quit();
        }
    };
    // A session left with an interrupted round continues that one first.
    const QList<qint64> interruptedRounds = store.interruptedRounds();
    if (!interruptedRounds.isEmpty()) {
        err << tr("Resuming interrupted round %1").arg(store.round(interruptedRounds.first())->number) << '\n';
        clock.start();
        if (!runner.resume(interruptedRounds.first())) {
            err << runner.errorString() << '\n';
            return kRoundFailed;
        }
    } else {
        // Hand-written variants imported with the task (--seed-variants) but never measured are measured
        // first, through the same queue, so that the first round can already show them as exemplars.
        QList<qint64> unmeasured;
        for (const Variant &v : store.population().variants())
            if (v.origin == VariantOrigin::Imported && v.status == VariantStatus::Generated && !v.excluded)
                unmeasured << v.id;
        if (unmeasured.isEmpty()) {
            QMetaObject::invokeMethod(&runner, next, Qt::QueuedConnection);
        } else {
            err << tr("Measuring %n imported variant(s) before the first round", nullptr, int(unmeasured.size())) << '\n'
                << Qt::flush;
            auto pending = std::make_shared<QSet<qint64>>(unmeasured.cbegin(), unmeasured.cend());
            auto conn = std::make_shared<QMetaObject::Connection>();
            *conn = QObject::connect(&queue, &EvaluationQueue::finished, &runner,
                                     [&, pending, conn](const QueuedEvaluation &e) {
                                         if (pending->remove(e.variantId) && pending->isEmpty()) {
                                             QObject::disconnect(*conn);
                                             if (interrupted)
                                                 loop.quit();
                                             else
                                                 QMetaObject::invokeMethod(&runner, next, Qt::QueuedConnection);
                                         }
                                     });
            for (qint64 id : unmeasured)
                if (!queue.reevaluate(id)) {
                    err << queue.errorString() << '\n';
                    pending->remove(id);
                }
            if (pending->isEmpty()) {
                QObject::disconnect(*conn);
                QMetaObject::invokeMethod(&runner, next, Qt::QueuedConnection);
            }
        }
    }
    loop.exec();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);

    // The session's best correct variant, for the record, with its review state: a result held for review is
    // still the fastest one measured, and the user has to know it waits for them.
    const Variant *best = nullptr;
    for (const Variant &v : store.population().variants())
        if (v.isCorrect() && v.eval.speedup && (!best || *v.eval.speedup > *best->eval.speedup))
            best = &v;
    if (best) {
        QString state = toString(best->origin);
        if (best->suspicious && !best->accepted)
            state += QStringLiteral(", ")
                     + tr("held for review: %1")
                           .arg(best->suspiciousReason.isEmpty() ? tr("not yet accepted") : best->suspiciousReason);
        else if (best->suspicious)
            state += QStringLiteral(", ") + tr("accepted after review");
        QTextStream(stdout) << tr("Best: %1 #%2, %3 (%4)").arg(best->label).arg(best->id).arg(speedupText(*best), state)
                            << '\n';
        // What the next round's prompts can show until the user accepts it.
        if (const Variant *usable = store.population().bestCorrect(); usable && usable != best && !best->accepted)
            QTextStream(stdout) << tr("Best reviewed: %1 #%2, %3 (%4)")
                                       .arg(usable->label)
                                       .arg(usable->id)
                                       .arg(speedupText(*usable), toString(usable->origin))
                                << '\n';
    }
    QTextStream(stdout) << tr("Session: %1").arg(store.path()) << '\n';
    return status;
}

} // namespace

KFORGE_REGISTER_COMMAND(optimize, QStringLiteral("optimize"),
                        QCoreApplication::translate("kforge-cli",
                                                    "Run contrastive optimization rounds headless and keep a session"),
                        run)

} // namespace kforge::cli
