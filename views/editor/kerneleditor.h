#pragma once
// The kernel editor panel: the reference and variants of the open task, one tab each (QScintilla with a
// read-only bar and an info strip), with compile diagnostics in the margin and under their lines,
// per-kernel resources, a find/replace bar and an empty state that offers what to open.
#include "core/eval/diagnostic.h"
#include "core/eval/kernelresources.h"

#include <QList>
#include <QWidget>

class QAction;
class QLabel;
class QStackedWidget;
class QTabWidget;
class QsciScintilla;

namespace kforge {

class FindBar;
class KernelTab;

class KernelEditor : public QWidget
{
    Q_OBJECT
public:
    explicit KernelEditor(QWidget *parent = nullptr);

    // Adds a tab; returns its index. filePath is shown as the tab's tool tip and kept for saving. A
    // read-only tab shows a bar with "Fork to Edit" above its text.
    int addSource(const QString &title, const QString &text, const QString &filePath = {}, bool readOnly = false);
    void clear();
    // Closes a tab at once (its variant stays in the session; the Variants panel opens it again).
    void closeTab(int index);
    // The tab's × and Ctrl+W: an edited text that is in no session yet is only closed after the user agrees
    // to discard it (asked without blocking); anything else closes at once.
    void requestCloseTab(int index);
    int count() const;
    int currentIndex() const;
    void setCurrentIndex(int index);
    QsciScintilla *editor(int index) const;
    QsciScintilla *currentEditor() const;
    KernelTab *tab(int index) const;
    QString title(int index) const;
    void setTitle(int index, const QString &title);
    QString filePath(int index) const;
    QString source(int index) const;
    FindBar *findBar() const { return m_findBar; }

    // The session variant a tab shows (0: none, e.g. a task folder's file or an unsaved fork).
    void setVariantId(int index, qint64 id);
    qint64 variantId(int index) const;
    int indexOfVariant(qint64 id) const; // -1 when no tab shows it
    // Marks the tab that holds the task's reference (one at most; -1 unmarks). The reference is never
    // evaluated and its read-only bar says why it is read-only; it can be forked like a variant.
    void setReference(int index);
    int referenceIndex() const;
    // Only a finished evaluation makes a variant read-only (a compile error leaves it editable); a fork and a
    // never-evaluated variant start editable.
    void setReadOnly(int index, bool readOnly);
    bool isReadOnly(int index) const;

    // The name the compile service gives nvcc for this tab (CompileRequest::fileName, e.g. "candidate.cu");
    // diagnostics naming another file are listed in the strip instead of marked. Empty (the default): any
    // located diagnostic of a .cu file is this tab's.
    void setCompileFileName(int index, const QString &fileName);
    QString compileFileName(int index) const;

    // A compile's diagnostics: errors, warnings and notes of this text get a marker in the symbol margin,
    // a squiggle at their column and the message under the line (several on one line are stacked); the
    // others (link, ptxas, headers, no line) are listed in the tab's strip. Replaces earlier diagnostics.
    // Editing a line removes its annotation (the text changed under it); markers move with their lines and
    // stay until the next setDiagnostics() or clearDiagnostics().
    void setDiagnostics(int index, const QList<Diagnostic> &diagnostics);
    void clearDiagnostics(int index);
    QList<Diagnostic> diagnostics(int index) const;
    // Per kernel: short name (full name in the tool tip), registers, static shared memory, spill stores and
    // loads (highlighted when there are any) and stack, in the strip under the tab.
    void setResources(int index, const QList<KernelResources> &resources);
    // One line in the tab's strip: "compiling…", "correct 63.9x", "compile failed: 2 errors".
    void setStatus(int index, const QString &text);
    QString status(int index) const;

    void setDarkTheme(bool dark);
    bool isDarkTheme() const { return m_dark; }

    // For the main window's menus; owned by the editor, their shortcuts work while focus is in it.
    // Compile && Evaluate (Ctrl+Return, Ctrl+Enter): enabled on editable tabs and on variants (evaluating an
    // evaluated variant again re-measures it), never on the reference.
    QAction *evaluateAction() const { return m_evaluateAction; }
    QAction *nextDiagnosticAction() const { return m_nextAction; }         // F8
    QAction *previousDiagnosticAction() const { return m_previousAction; } // Shift+F8
    QAction *forkAction() const { return m_forkAction; }                   // on read-only tabs
    QAction *closeTabAction() const { return m_closeAction; }              // Ctrl+W

    // What the empty state offers (e.g. "Open Task Folder…"), shown as buttons.
    void setEmptyStateActions(const QList<QAction *> &actions);
    void setEmptyStateText(const QString &text);

public Q_SLOTS:
    void showFind();
    void showReplace();
    void findNext();
    void findPrevious();
    void undo();
    void redo();
    // Moves the cursor of the current tab to the next (previous) error or warning, wrapping around, and
    // shows its message in the tab's strip.
    void nextDiagnostic();
    void previousDiagnostic();
    // Emits evaluateRequested() for the current tab when it can be evaluated.
    void evaluateCurrent();

Q_SIGNALS:
    void currentChanged(int index);
    // For the Edit menu: the state of the current tab.
    void undoAvailable(bool available);
    void redoAvailable(bool available);
    // The text of a tab changed (typing, undo, replace).
    void textEdited(int index);
    // "Fork to Edit" on a read-only tab: the owner adds an editable tab with its text.
    void forkRequested(int index);
    // Ctrl+Enter: compile and evaluate this tab's text.
    void evaluateRequested(int index);
    // Just before a tab goes (closeTab(), clear()): index, its variant (0: none) and its editor.
    void tabClosing(int index, qint64 variantId, QsciScintilla *editor);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateCurrent();
    void updateUndoRedo();
    void updateActions();
    void updateTabIcon(KernelTab *tab);

    QStackedWidget *m_stack = nullptr;
    QWidget *m_emptyPage = nullptr;
    QLabel *m_emptyText = nullptr;
    QWidget *m_emptyButtons = nullptr;
    QWidget *m_editorPage = nullptr;
    QTabWidget *m_tabs = nullptr;
    FindBar *m_findBar = nullptr;
    QAction *m_evaluateAction = nullptr;
    QAction *m_nextAction = nullptr;
    QAction *m_previousAction = nullptr;
    QAction *m_forkAction = nullptr;
    QAction *m_closeAction = nullptr;
    bool m_dark = false;
};

} // namespace kforge
