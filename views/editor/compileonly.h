#pragma once
// Ctrl+Enter while no GPU worker is usable: the tab's source is compiled alone (the same nvcc, flags and file
// name an evaluation uses), its errors shown as markers and its status line says why it was not measured.
// Nothing is added to the session: a variant that cannot be evaluated would only be a failure in it.
#include <QHash>
#include <QObject>
#include <QPointer>

namespace kforge {

class Compiler;
class KernelEditor;
struct CompileResult;
struct TaskRecord;

class CompileOnly : public QObject
{
    Q_OBJECT
public:
    CompileOnly(Compiler *compiler, KernelEditor *editor, QObject *parent = nullptr);

    // Compiles tab `index` against `task`'s nvcc flags; `why` (the readiness summary) goes into its status.
    void compile(int index, const TaskRecord &task, const QString &why);

Q_SIGNALS:
    void compiled(int index, bool ok);

private:
    void onFinished(int job, const CompileResult &result);

    QPointer<Compiler> m_compiler;
    KernelEditor *m_editor = nullptr;
    struct Pending {
        QPointer<QObject> tab; // the tab's editor widget: tabs may close or move meanwhile
        QString why;
    };
    QHash<int, Pending> m_jobs;
};

} // namespace kforge
