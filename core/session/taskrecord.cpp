#include "core/session/taskrecord.h"

#include <QJsonDocument>

namespace kforge {

QJsonObject TaskRecord::json() const
{
    return QJsonDocument::fromJson(taskJson.toUtf8()).object();
}

QString TaskRecord::description() const
{
    return json().value(QLatin1String("description")).toString();
}

bool TaskRecord::isDegenerate() const
{
    return json().value(QLatin1String("degenerate")).toBool();
}

} // namespace kforge
