#pragma once
// Side-by-side diff of two kernel sources: aligned lines, CUDA highlighting, changed words marked inside
// changed lines, unchanged runs folded (click to open), next/previous change, both sides scrolling together.
#include "views/diff/diffmodel.h"

#include <QWidget>

class QLabel;
class QToolButton;
class QsciScintilla;

namespace kforge {

class DiffView : public QWidget
{
    Q_OBJECT
public:
    explicit DiffView(QWidget *parent = nullptr);

    void setSources(const QString &leftTitle, const QString &left, const QString &rightTitle, const QString &right);
    const DiffModel &model() const { return m_model; }
    QsciScintilla *leftEditor() const { return m_left; }
    QsciScintilla *rightEditor() const { return m_right; }
    // The row the last navigation went to (-1 before any).
    int currentRow() const { return m_currentRow; }
    QString summary() const;
    QString leftTitle() const;
    QString rightTitle() const;

    void setDarkTheme(bool dark);

public Q_SLOTS:
    void nextChange();
    void previousChange();
    void setFolding(bool enabled);
    // Opens the fold shown on `row` (a row of kind Fold); other rows are ignored.
    void expandFoldAt(int row);

Q_SIGNALS:
    void currentRowChanged(int row);

private:
    void rebuild();
    void decorate(QsciScintilla *editor, bool leftSide);
    void goToRow(int row);
    void defineStyles(QsciScintilla *editor);

    DiffModel m_model;
    QsciScintilla *m_left = nullptr;
    QsciScintilla *m_right = nullptr;
    QLabel *m_leftTitle = nullptr;
    QLabel *m_rightTitle = nullptr;
    QLabel *m_summary = nullptr;
    QToolButton *m_previous = nullptr;
    QToolButton *m_next = nullptr;
    QToolButton *m_fold = nullptr;
    int m_currentRow = -1;
    bool m_dark = false;
    bool m_syncing = false;
};

} // namespace kforge
