#pragma once
// Binds the source-level views to the editor and the session: the current tab's PTX and SASS fetched into
// the assembly panel (after a pause in typing, off the GUI thread), the editor's cursor line and the panel's
// selected instruction followed both ways, the heat gutter and per-instruction samples from the latest
// evaluation of the tab's variant, "Profile source lines" (a re-evaluation with the PC-sampling pass), and
// the task reference's listing when the panel shows it beside the variant's.
#include <QObject>
#include <QPointer>

class QAction;
class QTimer;

namespace kforge {

class AssemblyFetcher;
class AssemblyPanel;
class Compiler;
class KernelEditor;
class EvaluationQueue;
class SessionStore;
class WorkerPool;

class SourceLevelView : public QObject
{
    Q_OBJECT
public:
    SourceLevelView(KernelEditor *editor, AssemblyPanel *panel, SessionStore *store, Compiler *compiler,
                    WorkerPool *pool, EvaluationQueue *queue, QObject *parent = nullptr);

    // "Profile Source Lines": enabled while the current tab shows a session variant.
    QAction *profileAction() const { return m_profile; }
    // Re-evaluates `variantId` with the source-level pass; false with the reason logged/shown when it cannot.
    bool profileVariant(qint64 variantId);
    // Whether the panel's dock is on top (QDockWidget::visibilityChanged): only then are listings compiled.
    void setPanelVisible(bool visible);

Q_SIGNALS:
    void errorOccurred(const QString &message);

private:
    void onCurrentChanged();
    void refetch();
    void fetchReference();
    void showProfile(int index);
    void onCursorLine(int line);
    void onPanelLine(int line);
    void connectTab(int index);

    QPointer<KernelEditor> m_editor;
    QPointer<AssemblyPanel> m_panel;
    QPointer<SessionStore> m_store;
    QPointer<EvaluationQueue> m_queue;
    AssemblyFetcher *m_fetcher = nullptr;
    QAction *m_profile = nullptr;
    QTimer *m_refetch = nullptr;
    int m_job = 0;
    int m_refJob = 0; // the reference's listing for the panel's side-by-side SASS
    int m_lastLine = 0;
    bool m_panelVisible = false;
    bool m_stale = false; // the tab changed while the panel was hidden: fetch when it shows
};

} // namespace kforge
