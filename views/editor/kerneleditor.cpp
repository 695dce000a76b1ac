#include "views/editor/kerneleditor.h"

#include "views/editor/editorsetup.h"
#include "views/editor/findbar.h"

#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace kforge {

namespace {
const char *const filePathProperty = "kforgeFilePath";
}

KernelEditor::KernelEditor(QWidget *parent)
    : QWidget(parent)
{
    m_stack = new QStackedWidget(this);

    m_emptyPage = new QWidget(m_stack);
    m_emptyText = new QLabel(m_emptyPage);
    m_emptyText->setAlignment(Qt::AlignCenter);
    m_emptyText->setWordWrap(true);
    m_emptyText->setTextFormat(Qt::PlainText);
    QFont big = m_emptyText->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    m_emptyText->setFont(big);
    m_emptyButtons = new QWidget(m_emptyPage);
    auto *buttons = new QHBoxLayout(m_emptyButtons);
    buttons->setContentsMargins(0, 0, 0, 0);
    auto *emptyLayout = new QVBoxLayout(m_emptyPage);
    emptyLayout->addStretch(2);
    emptyLayout->addWidget(m_emptyText);
    emptyLayout->addSpacing(12);
    emptyLayout->addWidget(m_emptyButtons, 0, Qt::AlignHCenter);
    emptyLayout->addStretch(3);
    setEmptyStateText(tr("No task is open.\nOpen a task folder (task.json and reference.cu) or a session to see "
                         "its kernels here."));

    m_editorPage = new QWidget(m_stack);
    m_tabs = new QTabWidget(m_editorPage);
    m_tabs->setDocumentMode(true);
    m_tabs->setMovable(true);
    m_tabs->setUsesScrollButtons(true);
    m_findBar = new FindBar(m_editorPage);
    m_findBar->hide();
    auto *editorLayout = new QVBoxLayout(m_editorPage);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    editorLayout->addWidget(m_tabs, 1);
    editorLayout->addWidget(m_findBar);

    m_stack->addWidget(m_emptyPage);
    m_stack->addWidget(m_editorPage);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        updateCurrent();
        Q_EMIT currentChanged(index);
    });
    updateCurrent();
}

int KernelEditor::addSource(const QString &title, const QString &text, const QString &filePath, bool readOnly)
{
    auto *editor = new QsciScintilla(m_tabs);
    EditorSetup::configure(editor, m_dark);
    editor->setText(text);
    editor->setModified(false);
    // Loading the text is not an edit the user can undo.
    editor->SendScintilla(QsciScintilla::SCI_EMPTYUNDOBUFFER);
    editor->setReadOnly(readOnly);
    editor->setProperty(filePathProperty, filePath);
    connect(editor, &QsciScintilla::textChanged, this, &KernelEditor::updateUndoRedo);
    const int index = m_tabs->addTab(editor, title);
    m_tabs->setTabToolTip(index, filePath.isEmpty() ? title : filePath);
    updateCurrent();
    return index;
}

void KernelEditor::clear()
{
    m_findBar->setEditor(nullptr);
    while (m_tabs->count() > 0) {
        QWidget *w = m_tabs->widget(0);
        m_tabs->removeTab(0);
        delete w;
    }
    updateCurrent();
}

int KernelEditor::count() const
{
    return m_tabs->count();
}

int KernelEditor::currentIndex() const
{
    return m_tabs->currentIndex();
}

void KernelEditor::setCurrentIndex(int index)
{
    m_tabs->setCurrentIndex(index);
}

QsciScintilla *KernelEditor::editor(int index) const
{
    return qobject_cast<QsciScintilla *>(m_tabs->widget(index));
}

QsciScintilla *KernelEditor::currentEditor() const
{
    return qobject_cast<QsciScintilla *>(m_tabs->currentWidget());
}

QString KernelEditor::title(int index) const
{
    return m_tabs->tabText(index);
}

QString KernelEditor::filePath(int index) const
{
    const QsciScintilla *e = editor(index);
    return e ? e->property(filePathProperty).toString() : QString();
}

void KernelEditor::setDarkTheme(bool dark)
{
    m_dark = dark;
    for (int i = 0; i < m_tabs->count(); ++i)
        EditorSetup::applyColors(editor(i), dark);
}

void KernelEditor::setEmptyStateActions(const QList<QAction *> &actions)
{
    auto *layout = static_cast<QHBoxLayout *>(m_emptyButtons->layout());
    while (QLayoutItem *item = layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (QAction *action : actions) {
        auto *button = new QToolButton(m_emptyButtons);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setIconSize(QSize(22, 22));
        layout->addWidget(button);
    }
}

void KernelEditor::setEmptyStateText(const QString &text)
{
    m_emptyText->setText(text);
}

void KernelEditor::showFind()
{
    if (currentEditor())
        m_findBar->activate(false);
}

void KernelEditor::showReplace()
{
    if (currentEditor())
        m_findBar->activate(true);
}

void KernelEditor::findNext()
{
    if (m_findBar->findText().isEmpty())
        showFind();
    else
        m_findBar->findNext();
}

void KernelEditor::findPrevious()
{
    if (m_findBar->findText().isEmpty())
        showFind();
    else
        m_findBar->findPrevious();
}

void KernelEditor::undo()
{
    if (QsciScintilla *e = currentEditor())
        e->undo();
    updateUndoRedo();
}

void KernelEditor::redo()
{
    if (QsciScintilla *e = currentEditor())
        e->redo();
    updateUndoRedo();
}

void KernelEditor::updateCurrent()
{
    m_stack->setCurrentWidget(m_tabs->count() > 0 ? m_editorPage : m_emptyPage);
    m_findBar->setEditor(currentEditor());
    if (!currentEditor())
        m_findBar->hide();
    updateUndoRedo();
}

void KernelEditor::updateUndoRedo()
{
    QsciScintilla *e = currentEditor();
    Q_EMIT undoAvailable(e && e->isUndoAvailable());
    Q_EMIT redoAvailable(e && e->isRedoAvailable());
}

} // namespace kforge
