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

int run(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        tr("Streams one answer from a language model endpoint: the answer to stdout as it arrives, reasoning to "
           "stderr, then a usage line to stderr.\n"
           "Exit status: 0 complete, 1 failed, 2 bad usage or no key, 3 cut off at the token limit, 4 broken off "
           "(partial answer), 5 cancelled."));
    p.addHelpOption();
    const QCommandLineOption endpointOpt(
        {QStringLiteral("e"), QStringLiteral("endpoint")},
        tr("A preset (openai, deepseek, openrouter, anthropic, vllm, ollama, llamacpp), a saved endpoint, or a base "
           "URL such as http://localhost:8000/v1."),
        tr("endpoint"));
    const QCommandLineOption modelOpt({QStringLiteral("m"), QStringLiteral("model")},
                                      tr("Model name (default: the endpoint's)."), tr("name"));
    const QCommandLineOption protocolOpt(QStringLiteral("protocol"),
                                         tr("openai or anthropic (default: the endpoint's; openai for a URL)."),
                                         tr("protocol"));
    const QCommandLineOption keyEnvOpt(QStringLiteral("api-key-env"),
                                       tr("Read the API key from this environment variable."), tr("VAR"));
    const QCommandLineOption systemOpt(QStringLiteral("system-file"), tr("System prompt file."), tr("file"));
    const QCommandLineOption promptOpt({QStringLiteral("p"), QStringLiteral("prompt-file")},
                                       tr("User prompt file ('-' for stdin)."), tr("file"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"),
                                     tr("Print one JSON object with the whole result at the end instead of streaming."));
    const QCommandLineOption maxTokensOpt(QStringLiteral("max-tokens"), tr("Limit on generated tokens."), tr("N"));
    const QCommandLineOption temperatureOpt(QStringLiteral("temperature"), tr("Sampling temperature."), tr("T"));
    const QCommandLineOption effortOpt(QStringLiteral("reasoning-effort"),
                                       tr("low, medium or high, for models that reason."), tr("effort"));
    const QCommandLineOption caOpt(QStringLiteral("ca-bundle"), tr("PEM file with extra CA certificates."), tr("file"));
    const QCommandLineOption headerOpt(QStringLiteral("header"), tr("Extra request header 'Name: value' (repeatable)."),
                                       tr("header"));
    const QCommandLineOption timeoutOpt(QStringLiteral("timeout"), tr("Total time limit in seconds."), tr("s"));
    const QCommandLineOption idleOpt(QStringLiteral("idle-timeout"),
                                     tr("Give up when the server sends nothing for this many seconds."), tr("s"));
    const QCommandLineOption connectOpt(QStringLiteral("connect-timeout"), tr("Connection time limit in seconds."), tr("s"));
    const QCommandLineOption retriesOpt(QStringLiteral("retries"),
                                        tr("Retries on 429, 5xx and connection errors (default 3)."), tr("N"));
    const QCommandLineOption dumpOpt(QStringLiteral("dump-request"),
                                     tr("Print the request (credentials redacted) to stderr first."));
    p.addOptions({endpointOpt, modelOpt, protocolOpt, keyEnvOpt, systemOpt, promptOpt, jsonOpt, maxTokensOpt,
                  temperatureOpt, effortOpt, caOpt, headerOpt, timeoutOpt, idleOpt, connectOpt, retriesOpt, dumpOpt});
    if (!p.parse(args))
        return fail(ExitUsage, p.errorText());
    if (p.isSet(QStringLiteral("help")))
        p.showHelp(0);
    if (!p.positionalArguments().isEmpty())
        return fail(ExitUsage, tr("unexpected argument '%1'").arg(p.positionalArguments().constFirst()));
    if (!p.isSet(endpointOpt))
        return fail(ExitUsage, tr("--endpoint is required"));
    if (!p.isSet(promptOpt))
        return fail(ExitUsage, tr("--prompt-file is required"));

    std::optional<LlmProtocol> protocol;
    if (p.isSet(protocolOpt)) {
        protocol = protocolFromString(p.value(protocolOpt));
        if (!protocol)
            return fail(ExitUsage, tr("unknown protocol '%1': use openai or anthropic").arg(p.value(protocolOpt)));
    }
    Settings settings;
    LogHub log;
    Workbench workbench(settings, log);
    const std::optional<EndpointConfig> endpoint = workbench.findEndpoint(p.value(endpointOpt), protocol);
    if (!endpoint)
        return fail(ExitUsage, tr("unknown endpoint '%1': give a preset (openai, deepseek, openrouter, anthropic, vllm, "
                                  "ollama, llamacpp), a saved endpoint or a URL")
                                   .arg(p.value(endpointOpt)));

    LlmRequest request;
    request.endpoint = *endpoint;
    request.model = p.value(modelOpt);
    QString error;
    const auto prompt = readText(p.value(promptOpt), &error);
    if (!prompt)
        return fail(ExitUsage, error);
    request.messages = {{QStringLiteral("user"), *prompt}};
    if (p.isSet(systemOpt)) {
        const auto system = readText(p.value(systemOpt), &error);
        if (!system)
            return fail(ExitUsage, error);
        request.system = *system;
    }
    const auto number = [&](const QCommandLineOption &o, double min, double max) -> std::optional<double> {
        bool ok = false;
        const double v = p.value(o).toDouble(&ok);
        if (!ok || v < min || v > max) {
            error = tr("--%1 needs a number from %2 to %3").arg(o.names().constLast()).arg(min).arg(max);
            return std::nullopt;
        }
        return v;
    };
    LlmLimits &limits = request.endpoint.limits;
    struct IntOption {
        const QCommandLineOption &option;
        double min, max;
        std::function<void(double)> apply;
    };
    const IntOption intOptions[] = {
        {maxTokensOpt, 1, 10'000'000, [&](double v) { request.maxTokens = int(v); }},
        {temperatureOpt, 0, 2, [&](double v) { request.temperature = v; }},
        {timeoutOpt, 0.1, 86'400, [&](double v) { limits.totalTimeoutMs = int(v * 1000); }},
        {idleOpt, 0.1, 86'400, [&](double v) { limits.idleTimeoutMs = int(v * 1000); }},
        {connectOpt, 0.1, 3'600, [&](double v) { limits.connectTimeoutMs = int(v * 1000); }},
        {retriesOpt, 0, 20, [&](double v) { limits.maxAttempts = int(v) + 1; }},
    };
    for (const IntOption &o : intOptions) {
        if (!p.isSet(o.option))
            continue;
        const auto v = number(o.option, o.min, o.max);
        if (!v)
            return fail(ExitUsage, error);
        o.apply(*v);
    }
    request.reasoningEffort = p.value(effortOpt);
    if (p.isSet(caOpt))
        request.endpoint.caBundle = p.value(caOpt);
    for (const QString &h : p.values(headerOpt)) {
        const qsizetype colon = h.indexOf(QLatin1Char(':'));
        if (colon <= 0)
            return fail(ExitUsage, tr("--header needs 'Name: value', not '%1'").arg(h));
        request.endpoint.extraHeaders.append({h.left(colon).trimmed(), h.mid(colon + 1).trimmed()});
    }

    // The key: a named variable only, when one was named; else the endpoint's variable, then the keychain.
    const ApiKeyLookup key = waitForKey(workbench, request.endpoint, p.value(keyEnvOpt));
    if (!key.error.isEmpty())
        return fail(ExitUsage, key.error);
    request.apiKey = key.key;
    if (const QString problem = RequestBuilder::validate(request); !problem.isEmpty())
        return fail(ExitUsage, problem);
    if (p.isSet(dumpOpt))
        put(stderr, RequestBuilder::dump(request) + QStringLiteral("\n\n"));

    const bool json = p.isSet(jsonOpt);
    workbench.useModel();
    LlmClient &client = *workbench.llm();
    QEventLoop loop;
    LlmResult result;
    bool inReasoning = false;
    QObject::connect(&client, &LlmClient::reasoningDelta, &loop, [&](quint64, const QString &t) {
        if (!json) {
            put(stderr, t);
            inReasoning = true;
        }
    });
    QObject::connect(&client, &LlmClient::textDelta, &loop, [&](quint64, const QString &t) {
        if (json)
            return;
        if (inReasoning) { // keep the reasoning's last line apart from what follows on the terminal
            put(stderr, QStringLiteral("\n"));
            inReasoning = false;
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

    const PriceTable prices = workbench.prices();
    // The reported name may carry a date suffix the table does not know: then the name asked for.
    std::optional<double> price = prices.cost(result.model, result.usage);
    if (!price)
        price = prices.cost(request.effectiveModel(), result.usage);

    int status = ExitOk;
    QString message;
    switch (result.status) {
    case LlmStatus::Complete: break;
    case LlmStatus::Truncated:
        status = ExitTruncated;
        message = tr("the answer was cut off at the token limit (stop reason '%1'); raise --max-tokens").arg(result.stopReason);
        break;
    case LlmStatus::Partial:
        status = ExitPartial;
        message = result.errorMessage;
        break;
    case LlmStatus::Cancelled:
        status = ExitCancelled;
        message = result.errorMessage;
        break;
    case LlmStatus::Failed:
        status = ExitFailed;
        message = result.errorMessage;
        break;
    }

    if (json) {
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
    } else {
        if (inReasoning)
            put(stderr, QStringLiteral("\n"));
        if (!result.text.isEmpty() && !result.text.endsWith(QLatin1Char('\n')))
            put(stdout, QStringLiteral("\n"));
        if (result.hasContent() || result.usage.reported) {
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
    }
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
