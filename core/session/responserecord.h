#pragma once
// One model answer as received (raw and reasoning text, usage, how it ended) and how parsing went.
#include <QDateTime>
#include <QMetaType>
#include <QString>

namespace kforge {

struct ResponseRecord {
    qint64 id = 0;
    qint64 promptId = 0;
    QString rawText;
    QString reasoningText;
    QString parseStatus = QStringLiteral("pending"); // pending, ok, partial, failed
    QString parseMessage;
    qint64 promptTokens = 0;
    qint64 completionTokens = 0;
    qint64 reasoningTokens = 0;
    double cost = 0.0;
    QString endpoint; // base URL or preset name; never a key
    QString model;
    QString finishStatus; // streaming, stop, length, error, cancelled, interrupted
    QString error;
    QDateTime created;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::ResponseRecord)
