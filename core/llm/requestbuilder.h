#pragma once
// Turns an LlmRequest into the URL, headers and JSON body of one streaming HTTP POST, per protocol.
#include "core/llm/llmrequest.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace kforge {

class RequestBuilder
{
public:
    static QByteArray url(const LlmRequest &request);
    // "Name: value" lines, the key included: hand them only to the transport.
    static QList<QByteArray> headers(const LlmRequest &request);
    static QByteArray body(const LlmRequest &request);
    // The whole request as text for logs and bug reports, with every credential header redacted.
    static QString dump(const LlmRequest &request);
    // Empty when the request can be sent, else why not (translated).
    static QString validate(const LlmRequest &request);
};

} // namespace kforge
