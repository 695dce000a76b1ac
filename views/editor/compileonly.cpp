#include "views/editor/compileonly.h"

#include "core/compile/compiler.h"
#include "core/compile/pythonsyntaxcheck.h"
#include "core/session/taskrecord.h"
#include "views/editor/editorsetup.h"
#include "views/editor/kerneleditor.h"

#include <Qsci/qsciscintilla.h>

#include <QJsonArray>

namespace kforge {

CompileOnly::CompileOnly(Compiler *compiler, KernelEditor *editor, QObject *parent)
    : QObject(parent)
    , m_compiler(compiler)
    , m_python(new PythonSyntaxCheck({}, this))
    , m_editor(editor)
{
    connect(compiler, &Compiler::finished, this, &CompileOnly::onFinished);
    connect(m_python, &PythonSyntaxCheck::finished, this, &CompileOnly::onPythonChecked);
}

void CompileOnly::compile(int index, const TaskRecord &task, const QString &why)
{
    QsciScintilla *tab = m_editor->editor(index);
    if (!tab || !m_compiler)
        return;
    CompileRequest request;
    request.source = tab->text();
    request.fileName = m_editor->compileFileName(index).isEmpty() ? QStringLiteral("candidate.cu")
                                                                  : m_editor->compileFileName(index);
    if (EditorSetup::isPythonFile(request.fileName)) {
        m_pythonJobs.insert(m_python->check(request.source, request.fileName), Pending{tab, why});
        m_editor->clearDiagnostics(index);
        m_editor->setStatus(index, tr("Checking the module's Python syntax only (%1)…").arg(why));
        return;
    }
    for (const QJsonValue &flag : task.json().value(QStringLiteral("nvcc_flags")).toArray())
        request.flags << flag.toString();
    const int job = m_compiler->compile(request);
    m_jobs.insert(job, Pending{tab, why});
    m_editor->clearDiagnostics(index);
    m_editor->setStatus(index, tr("Compiling only (%1)…").arg(why));
}

int CompileOnly::takeTab(QHash<int, Pending> &jobs, int job, Pending *pending) const
{
    const auto it = jobs.constFind(job);
    if (it == jobs.cend())
        return -1;
    *pending = *it;
    jobs.erase(it);
    for (int i = 0; i < m_editor->count(); ++i)
        if (static_cast<QObject *>(m_editor->editor(i)) == pending->tab.data())
            return i;
    return -1;
}

void CompileOnly::onPythonChecked(int job, const PythonSyntaxResult &result)
{
    Pending pending;
    const int index = takeTab(m_pythonJobs, job, &pending);
    if (index < 0)
        return;
    m_editor->setDiagnostics(index, result.diagnostics);
    if (!result.checked) {
        m_editor->setStatus(index, tr("Not checked (%1); not evaluated and not added to the session: %2.")
                                       .arg(result.message, pending.why));
    } else if (result.ok()) {
        m_editor->setStatus(
            index, tr("Python syntax checked: no errors; not evaluated and not added to the session: %1.").arg(pending.why));
    } else {
        const Diagnostic &d = result.diagnostics.constFirst();
        m_editor->setStatus(index, tr("Python syntax error on line %1: %2; not added to the session: %3.")
                                       .arg(d.line)
                                       .arg(d.message, pending.why));
    }
    Q_EMIT compiled(index, result.ok());
}

void CompileOnly::onFinished(int job, const CompileResult &result)
{
    Pending pending;
    const int index = takeTab(m_jobs, job, &pending);
    if (index < 0 || result.cancelled)
        return;
    m_editor->setDiagnostics(index, result.diagnostics);
    m_editor->setResources(index, result.resources);
    if (result.ok)
        m_editor->setStatus(index,
                            tr("Compiles without errors; not measured and not added to the session: %1.").arg(pending.why));
    else
        m_editor->setStatus(index, tr("Does not compile (%n error(s)); not added to the session: %1.", nullptr,
                                      qMax(1, result.errorCount()))
                                       .arg(pending.why));
    Q_EMIT compiled(index, result.ok);
}

} // namespace kforge
