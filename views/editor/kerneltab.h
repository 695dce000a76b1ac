#pragma once
// One tab of the kernel editor: the read-only bar, the QScintilla editor and the info strip, with what
// links the tab to the session (variant id, reference) and the diagnostics of its last compile as margin
// markers, squiggles and inline annotations.
#include "core/eval/diagnostic.h"
#include "core/eval/kernelresources.h"

#include <QIcon>
#include <QList>
#include <QWidget>

class QsciScintilla;

namespace kforge {

class KernelInfoStrip;
class ReadOnlyBar;

class KernelTab : public QWidget
{
    Q_OBJECT
public:
    explicit KernelTab(bool dark, QWidget *parent = nullptr);

    QsciScintilla *editor() const { return m_editor; }
    ReadOnlyBar *readOnlyBar() const { return m_bar; }
    KernelInfoStrip *infoStrip() const { return m_strip; }

    void setReadOnly(bool readOnly);
    bool isReadOnly() const;
    void setReference(bool reference);
    bool isReference() const { return m_reference; }
    void setVariantId(qint64 id);
    qint64 variantId() const { return m_variantId; }
    // The name the compile service hands nvcc for this tab's text (CompileRequest::fileName); empty: any
    // located diagnostic of a .cu file is taken as this text's.
    // Also picks the lexer: Python for a *.py name, CUDA otherwise.
    void setCompileFileName(const QString &fileName);
    QString compileFileName() const { return m_compileFileName; }
    // The reference is not evaluated against itself; an editable text or a variant (again) is.
    bool canEvaluate() const;

    // Marks the diagnostics located in this text at their lines; lists the rest in the strip. Replaces
    // what an earlier call marked.
    void setDiagnostics(const QList<Diagnostic> &diagnostics);
    void clearDiagnostics();
    QList<Diagnostic> diagnostics() const { return m_all; }
    // The diagnostics marked in the text and the lines (0-based) they are on now, after edits.
    QList<Diagnostic> markedDiagnostics() const;
    QList<int> markedLines() const;
    // Errors and warnings to go to (notes are shown, not visited).
    bool hasStops() const;
    // Moves the cursor to the next (previous) error or warning after (before) it, wrapping around, and
    // shows its message in the strip. False when there is none.
    bool goToDiagnostic(bool forward);
    // An error or warning icon for the tab, or none.
    QIcon statusIcon() const;

    void setDarkTheme(bool dark);

Q_SIGNALS:
    void forkClicked();
    void diagnosticsChanged();

private:
    struct Mark {
        Diagnostic diagnostic;
        int handle = -1;
        bool stale = false; // its line was edited: the marker stays, the annotation goes
    };

    int lineOf(const Mark &mark) const;
    Diagnostic inThisText(const Mark &mark) const;
    void removeMarks();
    void renderAnnotations();
    void markEdited(int position);
    void showLineMessage(int line);
    void updateBar();

    QsciScintilla *m_editor = nullptr;
    ReadOnlyBar *m_bar = nullptr;
    KernelInfoStrip *m_strip = nullptr;
    QList<Diagnostic> m_all;
    QList<Mark> m_marks;
    QString m_compileFileName;
    qint64 m_variantId = 0;
    int m_navMark = -1;
    bool m_reference = false;
    bool m_dark = false;
    bool m_renderPending = false;
};

} // namespace kforge
