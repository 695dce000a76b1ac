#pragma once
// A rendered prompt exactly as it was sent, with what it was made from.
#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>

namespace kforge {

struct PromptRecord {
    qint64 id = 0;
    qint64 roundId = 0;
    QString kind;         // contrastive, repair, compare
    QString templateName; // e.g. "contrastive"
    QString rendered;
    QList<qint64> exemplarIds;
    QString hint;
    QDateTime created;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::PromptRecord)
