#include "views/editor/compileonly.h"

#include "core/compile/compiler.h"
#include "core/session/taskrecord.h"
#include "views/editor/kerneleditor.h"

#include <Qsci/qsciscintilla.h>

#include <QJsonArray>

namespace kforge {

CompileOnly::CompileOnly(Compiler *compiler, KernelEditor *editor, QObject *parent)
    : QObject(parent)
    , m_compiler(compiler)
    , m_editor(editor)
{
    connect(compiler, &Compiler::finished, this, &CompileOnly::onFinished);
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
    for (const QJsonValue &flag : task.json().value(QStringLiteral("nvcc_flags")).toArray())
        request.flags << flag.toString();
    const int job = m_compiler->compile(request);
    m_jobs.insert(job, Pending{tab, why});
    m_editor->clearDiagnostics(index);
    m_editor->setStatus(index, tr("Compiling only (%1)…").arg(why));
}

void CompileOnly::onFinished(int job, const CompileResult &result)
{
    const auto it = m_jobs.constFind(job);
    if (it == m_jobs.cend())
        return;
    const Pending pending = *it;
    m_jobs.erase(it);
    int index = -1;
    for (int i = 0; i < m_editor->count(); ++i)
        if (static_cast<QObject *>(m_editor->editor(i)) == pending.tab.data())
            index = i;
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
