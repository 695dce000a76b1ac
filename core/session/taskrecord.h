#pragma once
// The task copied into a session: task.json, the reference and every other file of the task folder, so a
// session file alone is enough to evaluate, resume or export.
#include <QByteArray>
#include <QJsonObject>
#include <QMap>
#include <QMetaType>
#include <QString>

namespace kforge {

struct TaskRecord {
    QString name;
    QString taskJson; // the text as it was in the folder
    QString referenceSource;
    QString originPath;              // the folder it was imported from (informational)
    QMap<QString, QByteArray> files; // relative path -> content, task.json and reference.cu included

    bool isValid() const { return !taskJson.isEmpty(); }
    QJsonObject json() const;    // task.json parsed; empty on a parse error
    QString description() const; // "description" of task.json
    bool isDegenerate() const;   // "degenerate": true
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::TaskRecord)
