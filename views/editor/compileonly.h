#pragma once
// Ctrl+Enter while no GPU worker is usable: the tab's source is compiled alone (the same nvcc, flags and file
// name an evaluation uses), its errors shown as markers and its status line says why it was not measured. A torch
// task's ModelNew module (a .py tab) is not C++: python3 checks its syntax instead (PythonSyntaxCheck).
// Nothing is added to the session: a variant that cannot be evaluated would only be a failure in it.
#include <QHash>
#include <QObject>
#include <QPointer>

namespace kforge {

class Compiler;
class KernelEditor;
class PythonSyntaxCheck;
struct CompileResult;
struct PythonSyntaxResult;
struct TaskRecord;

class CompileOnly : public QObject
{
    Q_OBJECT
public:
    CompileOnly(Compiler *compiler, KernelEditor *editor, QObject *parent = nullptr);

    // Compiles tab `index` against `task`'s nvcc flags, or checks a .py tab's Python syntax; `why` (the readiness
    // summary) goes into its status.
    void compile(int index, const TaskRecord &task, const QString &why);

Q_SIGNALS:
    void compiled(int index, bool ok);

private:
    void onFinished(int job, const CompileResult &result);
    void onPythonChecked(int job, const PythonSyntaxResult &result);
    struct Pending {
        QPointer<QObject> tab; // the tab's editor widget: tabs may close or move meanwhile
        QString why;
    };
    // The tab a pending job was for (-1: closed meanwhile, or no such job); the job is forgotten.
    int takeTab(QHash<int, Pending> &jobs, int job, Pending *pending) const;

    QPointer<Compiler> m_compiler;
    PythonSyntaxCheck *m_python = nullptr;
    KernelEditor *m_editor = nullptr;
    QHash<int, Pending> m_jobs;
    QHash<int, Pending> m_pythonJobs;
};

} // namespace kforge
