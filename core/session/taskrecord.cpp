#include "core/session/taskrecord.h"

#include "core/task/task.h"

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

void TaskRecord::setTaskJson(const QString &text)
{
    taskJson = text;
    const QJsonObject o = json();
    kind = taskKindOf(o);
    degenerate = o.value(QLatin1String("degenerate")).toBool();
    referenceFile = Task::referenceFileOf(o);
}

} // namespace kforge
