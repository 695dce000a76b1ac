#include "app/gui/sourcelevelview.h"

#include "core/compile/compiler.h"
#include "core/eval/sourceprofile.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/sourcelevel/assemblyfetcher.h"
#include "core/sourcelevel/sourceheat.h"
#include "views/assembly/assemblypanel.h"
#include "views/editor/heatgutter.h"
#include "views/editor/kerneleditor.h"

#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QJsonArray>
#include <QTimer>

namespace kforge {

SourceLevelView::SourceLevelView(KernelEditor *editor, AssemblyPanel *panel, SessionStore *store, Compiler *compiler,
                                 WorkerPool *pool, EvaluationQueue *queue, QObject *parent)
    : QObject(parent)
    , m_editor(editor)
    , m_panel(panel)
    , m_store(store)
    , m_queue(queue)
    , m_fetcher(new AssemblyFetcher(compiler, pool, this))
{
    m_profile = new QAction(tr("Profile Source &Lines"), this);
    m_profile->setObjectName(QStringLiteral("profileSourceLines"));
    m_profile->setToolTip(tr("Evaluate the current tab's variant again with CUPTI PC sampling: stall reasons per "
                             "source line in the editor's heat gutter, the assembly panel and Compare"));
    m_profile->setEnabled(false);
    connect(m_profile, &QAction::triggered, this, [this] {
        if (m_editor && m_editor->currentIndex() >= 0)
            profileVariant(m_editor->variantId(m_editor->currentIndex()));
    });

    // A compile per keystroke would be wasteful: fetch once typing pauses.
    m_refetch = new QTimer(this);
    m_refetch->setSingleShot(true);
    m_refetch->setInterval(800);
    connect(m_refetch, &QTimer::timeout, this, &SourceLevelView::refetch);

    connect(m_fetcher, &AssemblyFetcher::updated, this, [this](int id, const Assembly &a) {
        if (id == m_job && m_panel)
            m_panel->setAssembly(a);
        if (id == m_refJob && m_panel)
            m_panel->setReferenceAssembly(a);
    });
    connect(m_panel, &AssemblyPanel::referenceRequested, this, &SourceLevelView::fetchReference);
    connect(m_store, &SessionStore::opened, this, [this] {
        if (m_panel)
            m_panel->resetReference();
    });
    connect(m_editor, &KernelEditor::currentChanged, this, &SourceLevelView::onCurrentChanged);
    connect(m_editor, &KernelEditor::textEdited, this, [this](int index) {
        if (index == m_editor->currentIndex())
            m_refetch->start();
    });
    connect(m_panel, &AssemblyPanel::sourceLineSelected, this, &SourceLevelView::onPanelLine);

    connect(m_store, &SessionStore::evaluationAdded, this, [this](qint64 variantId, qint64) {
        for (int i = 0; m_editor && i < m_editor->count(); ++i)
            if (m_editor->variantId(i) == variantId)
                showProfile(i);
    });
    onCurrentChanged();
}

bool SourceLevelView::profileVariant(qint64 variantId)
{
    if (!m_queue || !m_store || !m_store->population().contains(variantId)) {
        Q_EMIT errorOccurred(tr("Profiling source lines needs a variant of the open session: save the tab's text as a "
                                "variant first (evaluate it with Ctrl+Enter)."));
        return false;
    }
    if (!m_queue->reevaluate(variantId, true)) {
        Q_EMIT errorOccurred(m_queue->errorString());
        return false;
    }
    if (m_panel)
        m_panel->setPending(tr("Variant %1 is being evaluated with the PC-sampling pass…").arg(variantId));
    return true;
}

void SourceLevelView::setPanelVisible(bool visible)
{
    m_panelVisible = visible;
    if (visible && m_stale)
        refetch();
}

void SourceLevelView::onCurrentChanged()
{
    const int index = m_editor ? m_editor->currentIndex() : -1;
    m_profile->setEnabled(index >= 0 && m_store && m_store->population().contains(m_editor->variantId(index)));
    if (index < 0)
        return;
    connectTab(index);
    showProfile(index);
    refetch();
}

void SourceLevelView::connectTab(int index)
{
    QsciScintilla *e = m_editor->editor(index);
    if (!e || e->property("kforgeSourceLevel").toBool())
        return;
    e->setProperty("kforgeSourceLevel", true);
    connect(e, &QsciScintilla::cursorPositionChanged, this, [this, e](int line, int) {
        if (m_editor && m_editor->editor(m_editor->currentIndex()) == e)
            onCursorLine(line + 1);
    });
}

void SourceLevelView::refetch()
{
    const int index = m_editor ? m_editor->currentIndex() : -1;
    QsciScintilla *e = index >= 0 ? m_editor->editor(index) : nullptr;
    if (!e || !m_panel)
        return;
    // Compiles only for a panel someone looks at (a hidden dock tab costs nothing).
    m_stale = !m_panelVisible;
    if (m_stale)
        return;
    if (m_job)
        m_fetcher->cancel(m_job);
    CompileRequest request;
    request.source = e->text();
    request.fileName = m_editor->compileFileName(index).isEmpty() ? QStringLiteral("candidate.cu")
                                                                  : m_editor->compileFileName(index);
    if (m_store && m_store->hasTask())
        for (const QJsonValue &flag : m_store->task().json().value(QStringLiteral("nvcc_flags")).toArray())
            request.flags << flag.toString();
    if (const qint64 id = m_editor->variantId(index); m_store && id)
        if (const Variant *v = m_store->population().find(id))
            request.flags << v->nvccFlags;
    m_job = m_fetcher->fetch(request);
    m_panel->setPending(tr("Compiling PTX and SASS of %1…").arg(m_editor->title(index)));
}

void SourceLevelView::fetchReference()
{
    if (!m_panel)
        return;
    if (!m_store || !m_store->hasTask() || m_store->task().referenceSource.trimmed().isEmpty()) {
        m_panel->setReferencePending(tr("No reference to show: open a session, its task's reference is shown here."));
        return;
    }
    if (m_refJob)
        m_fetcher->cancel(m_refJob);
    CompileRequest request;
    request.source = m_store->task().referenceSource;
    request.fileName = QStringLiteral("reference.cu");
    for (const QJsonValue &flag : m_store->task().json().value(QStringLiteral("nvcc_flags")).toArray())
        request.flags << flag.toString();
    m_refJob = m_fetcher->fetch(request);
}

void SourceLevelView::showProfile(int index)
{
    QsciScintilla *e = m_editor->editor(index);
    if (!e || !m_store)
        return;
    SourceProfile profile;
    if (const qint64 id = m_editor->variantId(index); id && m_store->isOpen())
        if (const auto eval = m_store->evaluations().latest(id))
            profile = eval->measurement().sourceProfile;
    const QString file = SourceHeat::mainFile(profile);
    HeatGutter::of(e)->setHeat(profile.isOk() && !file.isEmpty() ? SourceHeat::of(profile, file) : SourceHeat{});
    if (index == m_editor->currentIndex() && m_panel)
        m_panel->setSourceProfile(profile);
}

void SourceLevelView::onCursorLine(int line)
{
    if (line == m_lastLine || !m_panel)
        return;
    m_lastLine = line;
    m_panel->highlightSourceLine(line);
}

void SourceLevelView::onPanelLine(int line)
{
    QsciScintilla *e = m_editor ? m_editor->editor(m_editor->currentIndex()) : nullptr;
    if (!e || line <= 0)
        return;
    m_lastLine = line; // the cursor move below must not echo back
    e->setCursorPosition(line - 1, 0);
    e->ensureLineVisible(line - 1);
}

} // namespace kforge
