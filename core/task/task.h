#pragma once
// A task (task.json + reference.cu + variants) as the Qt side sees it: a cheap-to-copy value over the
// Qt-free TaskSpec (core/runtime/task), with loading errors turned into translated messages and a way to
// find the built-in tasks, wherever KForge runs from. A task of kind "torch" (kforge-cli import: task.json +
// reference.py, docs/torch-tasks.md) is read here too: its TaskSpec holds the common fields (name, params,
// timeout, degenerate, variants) and toJson() is task.json as written, for kforge-worker to judge.
#include "core/runtime/task/taskspec.h"
#include "core/task/taskkind.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

namespace kforge {

struct TaskVariant {
    QString label; // "naive", "good"
    QString file;  // relative to the task folder
    QString source;
    QStringList nvccFlags;   // the variant's own flags (the task's come first, see Task::flagsFor)
    QString expectedVerdict; // "correct", ...; empty when the task states no expectation
    std::optional<double> minSpeedup;
};

struct TaskLoadError {
    QString file;  // "diag_matmul/task.json"
    QString field; // "inputs[1].dtype"; empty for whole-file problems
    QString problem;
    QString message() const; // translated "file: field 'x': problem"
};

struct TaskLoadResult;

class Task
{
public:
    Task() = default;
    explicit Task(runtime::TaskSpec spec);

    // Reads folder/task.json, reference.cu and every listed variant.
    static TaskLoadResult load(const QString &folder);
    // The same from files already in memory (a session's copy of its task: relative path -> content, task.json
    // and reference.cu among them), with no folder behind it. `label` names the files in messages.
    static TaskLoadResult fromFiles(const QString &label, const QMap<QString, QByteArray> &files);

    // The folder holding the built-in tasks: share/kforge/tasks next to the executable, then the
    // standard data locations (kforge/tasks), then the source tree. Empty when none exists.
    static QString builtinTasksDir();
    // The built-in CUDA task folders (the ones load() reads), sorted by name.
    static QStringList builtinTaskFolders();
    // The built-in PyTorch task folders ("kind": "torch", reference.py), sorted by name.
    static QStringList builtinTorchTaskFolders();
    // Whether the folder's task.json says "kind": "torch" (false when it cannot be read).
    static bool isTorchTaskFolder(const QString &folder);

    bool isValid() const { return bool(m_spec); }
    TaskKind kind() const { return m_kind; }
    bool isTorch() const { return m_kind == TaskKind::Torch; }
    // "reference.cu", or "reference.py" for a torch task.
    QString referenceFileName() const;
    const runtime::TaskSpec &spec() const { return *m_spec; }

    QString name() const;
    QString title() const;
    QString description() const;
    QString folder() const;
    QString referenceSource() const;
    QStringList nvccFlags() const;
    // Task flags followed by the variant's (or only the task's for a candidate of no variant).
    QStringList flagsFor(const TaskVariant *variant = nullptr) const;
    QList<TaskVariant> variants() const;
    std::optional<TaskVariant> variant(const QString &label) const;
    double timeoutS() const;
    bool isDegenerate() const;
    QStringList warnings() const; // unknown keys the loader ignored

    // task.json as a JSON object, what the worker's evaluate request carries (made once, when the task is made).
    QJsonObject toJson() const;

    // The reference file task.json names: reference.cu for a CUDA task, a PyTorch task's "reference" (reference.py).
    static QString referenceFileOf(const QJsonObject &taskJson);
    // task.json's numeric "params" in file order (QJsonObject sorts its keys; the order is the kernels' kf_param
    // order and the one the task panel lists).
    static QList<QPair<QString, double>> paramsInFileOrder(const QByteArray &taskJson);

private:
    // task.json of kind torch with its reference.py (and variants' sources, by relative path).
    static TaskLoadResult torchTask(const QString &label, const QString &folder, const QByteArray &json,
                                    const std::function<std::optional<QByteArray>(const QString &)> &file);

    std::shared_ptr<const runtime::TaskSpec> m_spec;
    TaskKind m_kind = TaskKind::Cuda;
    // task.json as the worker takes it, made once (a task is constant; every evaluation sends it): a torch task's
    // as written, a CUDA task's written from its spec.
    QJsonObject m_json;
};

struct TaskLoadResult {
    std::optional<Task> task;
    TaskLoadError error;
    bool ok() const { return task.has_value(); }
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::Task)
