#include "core/task/taskkind.h"

#include <QJsonDocument>

namespace kforge {

TaskKind taskKindOf(const QByteArray &taskJson)
{
    return taskKindOf(QJsonDocument::fromJson(taskJson).object());
}

TaskKind taskKindOf(const QJsonObject &taskJson)
{
    return taskJson.value(QLatin1String("kind")).toString() == QLatin1String("torch") ? TaskKind::Torch : TaskKind::Cuda;
}

} // namespace kforge
