#pragma once
// A stored answer to "why is variant A faster than variant B".
#include <QDateTime>
#include <QMetaType>
#include <QString>

namespace kforge {

struct PairAnalysis {
    qint64 id = 0;
    qint64 variantA = 0;
    qint64 variantB = 0;
    QString question;
    QString answer;
    qint64 responseId = 0;
    QDateTime created;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::PairAnalysis)
