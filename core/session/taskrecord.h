#pragma once
// The task copied into a session: task.json, the reference and every other file of the task folder, so a
// session file alone is enough to evaluate, resume or export.
#include "core/task/taskkind.h"

#include <QByteArray>
#include <QJsonObject>
#include <QMap>
#include <QMetaType>
#include <QString>

namespace kforge {

struct TaskRecord {
    QString name;
    QString taskJson; // the text as it was in the folder; set it with setTaskJson() so that the fields below follow
    QString referenceSource;
    QString originPath;              // the folder it was imported from (informational)
    QMap<QString, QByteArray> files; // relative path -> content, task.json and reference.cu included
    // Read from task.json once, where the task is loaded (setTaskJson()).
    TaskKind kind = TaskKind::Cuda; // "kind"
    bool degenerate = false;        // "degenerate": true
    QString referenceFile;          // the file referenceSource came from: reference.cu, a PyTorch task's reference.py

    void setTaskJson(const QString &text);
    bool isValid() const { return !taskJson.isEmpty(); }
    bool isTorch() const { return kind == TaskKind::Torch; }
    bool isDegenerate() const { return degenerate; }
    QJsonObject json() const;    // task.json parsed; empty on a parse error
    QString description() const; // "description" of task.json
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::TaskRecord)
