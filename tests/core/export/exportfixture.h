#pragma once
// Sessions and export inputs for the export tests: a real session file made from a built-in task, with
// evaluations recorded the way the round runner records them (worker result JSON, device, flags, nvcc).
#include "core/export/exportinput.h"
#include "core/session/sessionstore.h"

#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>
#include <QVariantMap>
#include <optional>

namespace kforge::test {

// resources/tasks/<name>, else tests/fixtures/tasks/<name>.
QString builtinTaskFolder(const QString &name);

// An EvalResult JSON as the worker sends it for a correct candidate.
QJsonObject correctResult(double referenceMs, double candidateMs, const QStringList &flags = {});
QJsonObject h200Device();

// A session at `path` on `task` with the task's hand-written variants imported and evaluated: the reference
// and each variant get a correct evaluation whose speedup is speedups[label] (labels absent: not evaluated).
// The variants' parent is the reference. False with *error set on failure.
bool makeSession(SessionStore &store, const QString &path, const QString &task, const QHash<QString, double> &speedups,
                 QString *error);
qint64 variantByLabel(const SessionStore &store, const QString &label);

// An ExportInput built straight from a built-in task folder (no session): the variant `label`'s source,
// measured on an H200 with `speedup`.
std::optional<ExportInput> inputFromTask(const QString &task, const QString &label, double speedup, QString *error);

// A KernelBench problem at other sizes: its module-level size constants ("batch_size = 8192") replaced by `sizes`
// (name -> integer), as tests/resources/tasks/torch_tasks_check.py's scaled_copy does.
QString scaledReference(QString source, const QVariantMap &sizes);

// A finished tool run (CMake, nm, an exported binary): its exit code, -1 where it crashed or timed out, and its
// stdout and stderr merged.
struct ProcessRun {
    int exitCode = -1;
    QString output;
    bool ok() const { return exitCode == 0; }
};
ProcessRun runProcess(const QString &program, const QStringList &args, const QString &workDir, int timeoutMs,
                      const QProcessEnvironment &env);

} // namespace kforge::test
