#pragma once
// The kernel editor panel: the reference and variants of the open task, one QScintilla tab each, with a
// find/replace bar and an empty state that offers what to open.
#include <QList>
#include <QWidget>

class QAction;
class QLabel;
class QStackedWidget;
class QTabWidget;
class QsciScintilla;

namespace kforge {

class FindBar;

class KernelEditor : public QWidget
{
    Q_OBJECT
public:
    explicit KernelEditor(QWidget *parent = nullptr);

    // Adds a tab; returns its index. filePath is shown as the tab's tool tip and kept for saving.
    int addSource(const QString &title, const QString &text, const QString &filePath = {}, bool readOnly = false);
    void clear();
    int count() const;
    int currentIndex() const;
    void setCurrentIndex(int index);
    QsciScintilla *editor(int index) const;
    QsciScintilla *currentEditor() const;
    QString title(int index) const;
    QString filePath(int index) const;
    FindBar *findBar() const { return m_findBar; }

    void setDarkTheme(bool dark);
    bool isDarkTheme() const { return m_dark; }

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

Q_SIGNALS:
    void currentChanged(int index);
    // For the Edit menu: the state of the current tab.
    void undoAvailable(bool available);
    void redoAvailable(bool available);

private:
    void updateCurrent();
    void updateUndoRedo();

    QStackedWidget *m_stack = nullptr;
    QWidget *m_emptyPage = nullptr;
    QLabel *m_emptyText = nullptr;
    QWidget *m_emptyButtons = nullptr;
    QWidget *m_editorPage = nullptr;
    QTabWidget *m_tabs = nullptr;
    FindBar *m_findBar = nullptr;
    bool m_dark = false;
};

} // namespace kforge
