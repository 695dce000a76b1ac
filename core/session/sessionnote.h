#pragma once
// A free-form note of the user, on the session, a round or a variant.
#include <QDateTime>
#include <QMetaType>
#include <QString>

namespace kforge {

struct SessionNote {
    qint64 id = 0;
    qint64 variantId = 0; // 0: not about one variant
    qint64 roundId = 0;   // 0: not about one round
    QString text;
    QDateTime created;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::SessionNote)
