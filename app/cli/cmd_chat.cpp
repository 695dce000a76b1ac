// kforge-cli chat: one streamed answer from an endpoint, to check it before a round or to script with.
#include "command.h"
#include "headless.h"

#include "core/llm/llmclient.h"
#include "core/llm/pricetable.h"
#include "core/llm/requestbuilder.h"
#include "core/log/loghub.h"
#include "core/settings/settings.h"
#include "core/workbench/workbench.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <optional>

namespace kforge::cli {

namespace {

using namespace kforge;

// Exit statuses, also listed in --help.
enum Exit { ExitOk = 0, ExitFailed = 1, ExitUsage = 2, ExitTruncated = 3, ExitPartial = 4, ExitCancelled = 5 };

QString tr(const char *text)
{
    return QCoreApplication::translate("kforge::cli", text);
}

void put(FILE *f, const QString &s)
{
    const QByteArray b = s.toUtf8();
    std::fwrite(b.constData(), 1, size_t(b.size()), f);
    std::fflush(f);
}

int fail(int status, const QString &message)
{
    put(stderr, QStringLiteral("kforge-cli chat: ") + message + QLatin1Char('\n'));
    return status;
}

std::optional<QString> readText(const QString &path, QString *error)
{
    QFile f(path);
    const bool ok = path == QLatin1String("-") ? f.open(stdin, QIODevice::ReadOnly) : f.open(QIODevice::ReadOnly);
    if (!ok) {
        *error = tr("cannot read %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    return QString::fromUtf8(f.readAll());
}

QString seconds(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'f', 2);
}

// What the command line asks for, checked; the request is made of it once the endpoint is known.
struct ChatArgs {
    QString endpoint, model, keyVariable, promptFile, reasoningEffort;
    std::optional<QString> systemFile, caBundle;
    std::optional<LlmProtocol> protocol;
    // --max-tokens, --temperature, --timeout, --idle-timeout, --connect-timeout, --retries, each within its range.
    std::optional<double> maxTokens, temperature, timeout, idleTimeout, connectTimeout, retries;
    QList<std::pair<QString, QString>> headers;
    bool json = false;
    bool dumpRequest = false;
};

struct ChatOptions {
    QCommandLineOption endpoint, model, protocol, keyEnv, system, prompt, json, maxTokens, temperature, effort, ca,
        header, timeout, idle, connect, retries, dump;
};

// kforge-cli chat's options, with their help texts.
ChatOptions chatOptions()
{
    return ChatOptions{
        .endpoint = QCommandLineOption({QStringLiteral("e"), QStringLiteral("endpoint")},
                                       tr("A preset (openai, deepseek, openrouter, anthropic, vllm, ollama, llamacpp), a saved endpoint, or a base "
                                          "URL such as http://localhost:8000/v1."),
                                       tr("endpoint")),
        .model = QCommandLineOption({QStringLiteral("m"), QStringLiteral("model")},
                                    tr("Model name (default: the endpoint's)."), tr("name")),
        .protocol = QCommandLineOption(QStringLiteral("protocol"),
                                       tr("openai or anthropic (default: the endpoint's; openai for a URL)."),
                                       tr("protocol")),
        .keyEnv = QCommandLineOption(QStringLiteral("api-key-env"),
                                     tr("Read the API key from this environment variable."), tr("VAR")),
        .system = QCommandLineOption(QStringLiteral("system-file"), tr("System prompt file."), tr("file")),
        .prompt = QCommandLineOption({QStringLiteral("p"), QStringLiteral("prompt-file")},
                                     tr("User prompt file ('-' for stdin)."), tr("file")),
        .json = QCommandLineOption(QStringLiteral("json"),
                                   tr("Print one JSON object with the whole result at the end instead of streaming.")),
        .maxTokens = QCommandLineOption(QStringLiteral("max-tokens"), tr("Limit on generated tokens."), tr("N")),
        .temperature = QCommandLineOption(QStringLiteral("temperature"), tr("Sampling temperature."), tr("T")),
        .effort = QCommandLineOption(QStringLiteral("reasoning-effort"),
                                     tr("low, medium or high, for models that reason."), tr("effort")),
        .ca = QCommandLineOption(QStringLiteral("ca-bundle"), tr("PEM file with extra CA certificates."), tr("file")),
        .header = QCommandLineOption(QStringLiteral("header"), tr("Extra request header 'Name: value' (repeatable)."),
                                     tr("header")),
        .timeout = QCommandLineOption(QStringLiteral("timeout"), tr("Total time limit in seconds."), tr("s")),
        .idle = QCommandLineOption(QStringLiteral("idle-timeout"),
                                   tr("Give up when the server sends nothing for this many seconds."), tr("s")),
        .connect = QCommandLineOption(QStringLiteral("connect-timeout"), tr("Connection time limit in seconds."), tr("s")),
        .retries = QCommandLineOption(QStringLiteral("retries"),
                                      tr("Retries on 429, 5xx and connection errors (default 3)."), tr("N")),
        .dump = QCommandLineOption(QStringLiteral("dump-request"),
                                   tr("Print the request (credentials redacted) to stderr first.")),
    };
}

// The numbers and headers of the command line into `a`; empty, or what is wrong with one.
QString parseLimits(const QCommandLineParser &p, const ChatOptions &o, ChatArgs &a)
{
    struct NumberOption {
        const QCommandLineOption &option;
        double min, max;
        std::optional<double> &value;
    };
    const NumberOption numbers[] = {
        {o.maxTokens, 1, 10'000'000, a.maxTokens}, {o.temperature, 0, 2, a.temperature},
        {o.timeout, 0.1, 86'400, a.timeout},       {o.idle, 0.1, 86'400, a.idleTimeout},
        {o.connect, 0.1, 3'600, a.connectTimeout}, {o.retries, 0, 20, a.retries},
    };
    for (const NumberOption &n : numbers) {
        if (!p.isSet(n.option))
            continue;
        bool ok = false;
        const double v = p.value(n.option).toDouble(&ok);
        if (!ok || v < n.min || v > n.max)
            return tr("--%1 needs a number from %2 to %3").arg(n.option.names().constLast()).arg(n.min).arg(n.max);
        n.value = v;
    }
    for (const QString &h : p.values(o.header)) {
        const qsizetype colon = h.indexOf(QLatin1Char(':'));
        if (colon <= 0)
            return tr("--header needs 'Name: value', not '%1'").arg(h);
        a.headers.append({h.left(colon).trimmed(), h.mid(colon + 1).trimmed()});
    }
    return {};
}

// The command line, checked; --help prints and exits here. Empty with `error` set when it does not hold up.
std::optional<ChatArgs> parseChatArgs(const QStringList &args, QString *error)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        tr("Streams one answer from a language model endpoint: the answer to stdout as it arrives, reasoning to "
           "stderr, then a usage line to stderr.\n"
           "Exit status: 0 complete, 1 failed, 2 bad usage or no key, 3 cut off at the token limit, 4 broken off "
           "(partial answer), 5 cancelled."));
    p.addHelpOption();
    const ChatOptions o = chatOptions();
    p.addOptions({o.endpoint, o.model, o.protocol, o.keyEnv, o.system, o.prompt, o.json, o.maxTokens, o.temperature,
                  o.effort, o.ca, o.header, o.timeout, o.idle, o.connect, o.retries, o.dump});
    if (!parseArguments(p, args, error))
        return std::nullopt;
    ChatArgs a;
    if (!p.positionalArguments().isEmpty())
        *error = tr("unexpected argument '%1'").arg(p.positionalArguments().constFirst());
    else if (!p.isSet(o.endpoint))
        *error = tr("--endpoint is required");
    else if (!p.isSet(o.prompt))
        *error = tr("--prompt-file is required");
    else if (p.isSet(o.protocol) && !(a.protocol = protocolFromString(p.value(o.protocol))))
        *error = tr("unknown protocol '%1': use openai or anthropic").arg(p.value(o.protocol));
    else
        *error = parseLimits(p, o, a);
    if (!error->isEmpty())
        return std::nullopt;
    a.endpoint = p.value(o.endpoint);
    a.model = p.value(o.model);
    a.keyVariable = p.value(o.keyEnv);
    a.promptFile = p.value(o.prompt);
    if (p.isSet(o.system))
        a.systemFile = p.value(o.system);
    a.reasoningEffort = p.value(o.effort);
    if (p.isSet(o.ca))
        a.caBundle = p.value(o.ca);
    a.json = p.isSet(o.json);
    a.dumpRequest = p.isSet(o.dump);
    return a;
}

// The request: the endpoint as the workbench finds it, the prompt files, the numbers and headers, the key (a named
// variable only, when one was named; else the endpoint's variable, then the keychain), checked.
std::optional<LlmRequest> chatRequest(Workbench &workbench, const ChatArgs &a, QString *error)
{
    const std::optional<EndpointConfig> endpoint = workbench.findEndpoint(a.endpoint, a.protocol);
    if (!endpoint) {
        *error = tr("unknown endpoint '%1': give a preset (openai, deepseek, openrouter, anthropic, vllm, "
                    "ollama, llamacpp), a saved endpoint or a URL")
                     .arg(a.endpoint);
        return std::nullopt;
    }
    LlmRequest request;
    request.endpoint = *endpoint;
    request.model = a.model;
    const auto prompt = readText(a.promptFile, error);
    if (!prompt)
        return std::nullopt;
    request.messages = {{QStringLiteral("user"), *prompt}};
    if (a.systemFile) {
        const auto system = readText(*a.systemFile, error);
        if (!system)
            return std::nullopt;
        request.system = *system;
    }
    LlmLimits &limits = request.endpoint.limits;
    if (a.maxTokens)
        request.maxTokens = int(*a.maxTokens);
    if (a.temperature)
        request.temperature = *a.temperature;
    if (a.timeout)
        limits.totalTimeoutMs = int(*a.timeout * 1000);
    if (a.idleTimeout)
        limits.idleTimeoutMs = int(*a.idleTimeout * 1000);
    if (a.connectTimeout)
        limits.connectTimeoutMs = int(*a.connectTimeout * 1000);
    if (a.retries)
        limits.maxAttempts = int(*a.retries) + 1;
    request.reasoningEffort = a.reasoningEffort;
    if (a.caBundle)
        request.endpoint.caBundle = *a.caBundle;
    request.endpoint.extraHeaders.append(a.headers);
    const ApiKeyLookup key = waitForKey(workbench, request.endpoint, a.keyVariable);
    *error = key.error;
    request.apiKey = key.key;
    if (error->isEmpty())
        *error = RequestBuilder::validate(request);
    return error->isEmpty() ? std::optional<LlmRequest>(request) : std::nullopt;
}

// Sends the request and waits for its end; unless `json`, the answer goes to stdout and the reasoning to stderr as
// they arrive. `inReasoning`: the reasoning was the last thing written (its line is still open).
LlmResult streamAnswer(LlmClient &client, const LlmRequest &request, bool json, bool *inReasoning)
{
    QEventLoop loop;
    LlmResult result;
    QObject::connect(&client, &LlmClient::reasoningDelta, &loop, [&](quint64, const QString &t) {
        if (!json) {
            put(stderr, t);
            *inReasoning = true;
        }
    });
    QObject::connect(&client, &LlmClient::textDelta, &loop, [&](quint64, const QString &t) {
        if (json)
            return;
        if (*inReasoning) { // keep the reasoning's last line apart from what follows on the terminal
            put(stderr, QStringLiteral("\n"));
            *inReasoning = false;
        }
        put(stdout, t);
    });
    QObject::connect(&client, &LlmClient::retrying, &loop, [&](quint64, int attempt, int delayMs, const QString &why) {
        put(stderr, tr("kforge-cli chat: %1 Attempt %2 in %3 s.").arg(why).arg(attempt).arg(seconds(delayMs))
                        + QLatin1Char('\n'));
    });
    QObject::connect(&client, &LlmClient::finished, &loop, [&](quint64, const LlmResult &r) {
        result = r;
        loop.quit();
    });
    client.send(request);
    loop.exec();
    return result;
}

// The exit status of an answer and, unless it is complete, why.
int exitStatus(const LlmResult &result, QString *message)
{
    switch (result.status) {
    case LlmStatus::Complete: return ExitOk;
    case LlmStatus::Truncated:
        *message = tr("the answer was cut off at the token limit (stop reason '%1'); raise --max-tokens").arg(result.stopReason);
        return ExitTruncated;
    case LlmStatus::Partial: *message = result.errorMessage; return ExitPartial;
    case LlmStatus::Cancelled: *message = result.errorMessage; return ExitCancelled;
    case LlmStatus::Failed: *message = result.errorMessage; return ExitFailed;
    }
    return ExitOk;
}

// --json: the whole result as one object on stdout.
void printJson(const LlmRequest &request, const LlmResult &result, std::optional<double> price, const QString &message)
{
    QJsonObject o{{QStringLiteral("status"), llmStatusName(result.status)},
                  {QStringLiteral("text"), result.text},
                  {QStringLiteral("reasoning"), result.reasoning},
                  {QStringLiteral("stop_reason"), result.stopReason},
                  {QStringLiteral("model"), result.model.isEmpty() ? request.effectiveModel() : result.model},
                  {QStringLiteral("endpoint"), request.endpoint.baseUrl},
                  {QStringLiteral("protocol"), protocolName(request.endpoint.protocol)},
                  {QStringLiteral("attempts"), result.attempts},
                  {QStringLiteral("http_status"), result.httpStatus},
                  {QStringLiteral("time_to_first_token_ms"), result.timeToFirstTokenMs},
                  {QStringLiteral("total_ms"), result.totalMs},
                  {QStringLiteral("usage"),
                   QJsonObject{{QStringLiteral("reported"), result.usage.reported},
                               {QStringLiteral("prompt_tokens"), result.usage.promptTokens},
                               {QStringLiteral("completion_tokens"), result.usage.completionTokens},
                               {QStringLiteral("reasoning_tokens"), result.usage.reasoningTokens}}}};
    if (price)
        o.insert(QStringLiteral("cost_usd"), *price);
    if (result.error != LlmErrorKind::None || !message.isEmpty())
        o.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("kind"), llmErrorKindName(result.error)},
                                                      {QStringLiteral("message"), message}});
    put(stdout, QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) + QLatin1Char('\n'));
}

// After a streamed answer: its last line closed, then the usage line on stderr.
void printUsage(const LlmResult &result, std::optional<double> price, bool inReasoning)
{
    if (inReasoning)
        put(stderr, QStringLiteral("\n"));
    if (!result.text.isEmpty() && !result.text.endsWith(QLatin1Char('\n')))
        put(stdout, QStringLiteral("\n"));
    if (!result.hasContent() && !result.usage.reported)
        return;
    QString line = result.usage.reported ? tr("usage: %1 prompt + %2 completion tokens (%3 reasoning)")
                                               .arg(result.usage.promptTokens)
                                               .arg(result.usage.completionTokens)
                                               .arg(result.usage.reasoningTokens)
                                         : tr("usage: not reported by the server");
    if (result.timeToFirstTokenMs >= 0)
        line += tr(", first token after %1 s").arg(seconds(result.timeToFirstTokenMs));
    line += tr(", %1 s in all").arg(seconds(result.totalMs));
    if (result.attempts > 1)
        line += tr(", %1 attempts").arg(result.attempts);
    if (price)
        line += tr(", $%1").arg(*price, 0, 'f', 4);
    put(stderr, line + QLatin1Char('\n'));
}

// Parse → the request, from the workbench's endpoints and keys → stream the answer → print how it ended.
int run(const QStringList &args)
{
    QString error;
    const std::optional<ChatArgs> a = parseChatArgs(args, &error);
    if (!a)
        return fail(ExitUsage, error);
    Settings settings;
    LogHub log;
    Workbench workbench(settings, log);
    const std::optional<LlmRequest> request = chatRequest(workbench, *a, &error);
    if (!request)
        return fail(ExitUsage, error);
    if (a->dumpRequest)
        put(stderr, RequestBuilder::dump(*request) + QStringLiteral("\n\n"));

    workbench.useModel();
    bool inReasoning = false;
    const LlmResult result = streamAnswer(*workbench.llm(), *request, a->json, &inReasoning);

    const PriceTable prices = workbench.prices();
    // The reported name may carry a date suffix the table does not know: then the name asked for.
    std::optional<double> price = prices.cost(result.model, result.usage);
    if (!price)
        price = prices.cost(request->effectiveModel(), result.usage);
    QString message;
    const int status = exitStatus(result, &message);
    if (a->json)
        printJson(*request, result, price, message);
    else
        printUsage(result, price, inReasoning);
    if (!message.isEmpty())
        put(stderr, QStringLiteral("kforge-cli chat: ") + message + QLatin1Char('\n'));
    return status;
}

} // namespace

KFORGE_REGISTER_COMMAND(chat, QStringLiteral("chat"),
                        QCoreApplication::translate("kforge-cli",
                                                    "Stream one answer from an LLM endpoint (checks the endpoint)"),
                        run)

} // namespace kforge::cli
