#pragma once
// What the session store tests share: the built-in task folder, a worker-shaped result and a model variant.
#include "core/session/variant.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace kforge::sessiontest {

inline QString taskFolder(const QString &name = QStringLiteral("diag_matmul"))
{
    return QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/") + name;
}

// An EvalResult as the worker sends it (protocol v1), small but with every summary field.
inline QJsonObject resultJson(const QString &verdict, double speedup, double candMs, const QStringList &flags = {})
{
    QJsonObject ref{{QStringLiteral("median_ms"), candMs * speedup},
                    {QStringLiteral("cv"), 0.01},
                    {QStringLiteral("runs"), 200}};
    QJsonObject cand{{QStringLiteral("median_ms"), candMs}, {QStringLiteral("cv"), 0.02}, {QStringLiteral("runs"), 200}};
    QJsonObject timing{{QStringLiteral("reference"), ref},
                       {QStringLiteral("candidate"), cand},
                       {QStringLiteral("speedup"), speedup}};
    QJsonObject r{{QStringLiteral("verdict"), verdict},
                  {QStringLiteral("message"), QString()},
                  {QStringLiteral("flags"), QJsonArray::fromStringList(flags)}};
    if (verdict == QLatin1String("correct"))
        r.insert(QStringLiteral("timing"), timing);
    r.insert(QStringLiteral("trace"),
             QJsonObject{{QStringLiteral("kernels"),
                          QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("scale_rows")},
                                                 {QStringLiteral("registers"), 32}}}}});
    return r;
}

inline Variant modelVariant(qint64 parent, qint64 round = 0)
{
    Variant v;
    v.origin = VariantOrigin::Model;
    v.parentIds = {parent};
    v.roundId = round;
    return v;
}

} // namespace kforge::sessiontest
