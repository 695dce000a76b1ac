#pragma once
// The answer to one worker request: the worker's response, or what the client observed instead (the
// watchdog fired, the worker died, it could not be started).
#include "core/eval/evalresult.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <optional>

namespace kforge {

struct WorkerReply {
    Q_DECLARE_TR_FUNCTIONS(kforge::WorkerReply)

public:
    // Error codes the client adds to the protocol's (bad_request, no_device, load_failed, ...).
    static constexpr auto Timeout = QLatin1String("timeout");                // watchdog killed the worker
    static constexpr auto Crashed = QLatin1String("crashed");                // the worker died mid-request
    static constexpr auto Unavailable = QLatin1String("worker_unavailable"); // could not start / handshake
    static constexpr auto Cancelled = QLatin1String("cancelled");
    static constexpr auto Malformed = QLatin1String("worker_protocol"); // an answer that breaks the result schema

    int id = 0;
    QString op;
    bool ok = false;
    QJsonObject body; // the full response object
    QString errorCode;
    QString errorMessage; // human text (the worker's, or a translated one from the client)
    int exitCode = -1;    // Crashed: how the worker ended
    int exitSignal = 0;
    double elapsedMs = 0;

    // An evaluate reply as a result: the worker's EvalResult, or a Timeout/Crashed/LoadError/Error one. A result
    // that breaks the schema (docs/worker-protocol.md, "EvalResult") becomes an Error with code Malformed.
    EvalResult toEvalResult() const;
    // Why an evaluate result object breaks the schema (required fields and their types), or empty.
    static QString schemaProblem(const QJsonObject &result);
    // An evaluate result object (a response's, or a "measured" event's) as an EvalResult; none, with the reason in
    // *problem, when it breaks the schema.
    static std::optional<EvalResult> parseResult(const QJsonObject &result, QString *problem = nullptr);
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::WorkerReply)
