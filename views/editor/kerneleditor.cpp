#include "views/editor/kerneleditor.h"

#include "views/editor/editorsetup.h"
#include "views/editor/findbar.h"
#include "views/editor/kernelinfostrip.h"
#include "views/editor/kerneltab.h"

#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QStackedWidget>
#include <QStyle>
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
    m_tabs->setTabsClosable(true);
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

    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &KernelEditor::requestCloseTab);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        updateCurrent();
        Q_EMIT currentChanged(index);
    });

    // Shortcuts while focus is in the editor; the main window may also put the actions in its menus.
    auto makeAction = [this](const QString &text, const QList<QKeySequence> &keys, const QIcon &icon) {
        auto *action = new QAction(icon, text, this);
        action->setShortcuts(keys);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(action);
        return action;
    };
    m_evaluateAction = makeAction(
        tr("Compile && Evaluate"), {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)},
        QIcon::fromTheme(QStringLiteral("media-playback-start"), style()->standardIcon(QStyle::SP_MediaPlay)));
    m_nextAction = makeAction(tr("Next &Problem"), {QKeySequence(Qt::Key_F8)},
                              QIcon::fromTheme(QStringLiteral("go-down-search")));
    m_previousAction = makeAction(tr("Previous Pro&blem"), {QKeySequence(Qt::SHIFT | Qt::Key_F8)},
                                  QIcon::fromTheme(QStringLiteral("go-up-search")));
    m_forkAction = makeAction(tr("F&ork to Edit"), {}, QIcon::fromTheme(QStringLiteral("edit-copy")));
    m_closeAction = makeAction(tr("&Close Tab"), {QKeySequence(Qt::CTRL | Qt::Key_W), QKeySequence(Qt::CTRL | Qt::Key_F4)},
                               QIcon::fromTheme(QStringLiteral("tab-close")));
    connect(m_closeAction, &QAction::triggered, this, [this] { requestCloseTab(currentIndex()); });
    // One action, one behaviour: Ctrl+Enter evaluates the current tab wherever focus is in the window (a tab
    // opened from the Variants panel leaves focus there), exactly as the toolbar button does.
    m_evaluateAction->setShortcutContext(Qt::WindowShortcut);
    connect(m_evaluateAction, &QAction::triggered, this, &KernelEditor::evaluateCurrent);
    connect(m_nextAction, &QAction::triggered, this, &KernelEditor::nextDiagnostic);
    connect(m_previousAction, &QAction::triggered, this, &KernelEditor::previousDiagnostic);
    connect(m_forkAction, &QAction::triggered, this, [this] {
        if (tab(currentIndex()) && tab(currentIndex())->isReadOnly())
            Q_EMIT forkRequested(currentIndex());
    });
    updateCurrent();
}

int KernelEditor::addSource(const QString &title, const QString &text, const QString &filePath, bool readOnly)
{
    auto *page = new KernelTab(m_dark, m_tabs);
    QsciScintilla *editor = page->editor();
    // Python for a .py file (a torch task's reference, a ModelNew candidate), before the text is styled.
    EditorSetup::setLanguageFor(editor, filePath, m_dark);
    editor->setText(text);
    editor->setModified(false);
    // Loading the text is not an edit the user can undo.
    editor->SendScintilla(QsciScintilla::SCI_EMPTYUNDOBUFFER);
    page->setReadOnly(readOnly);
    page->setProperty(filePathProperty, filePath);
    editor->installEventFilter(this);
    connect(editor, &QsciScintilla::textChanged, this, [this, page] {
        updateUndoRedo();
        Q_EMIT textEdited(m_tabs->indexOf(page));
    });
    connect(page, &KernelTab::forkClicked, this, [this, page] { Q_EMIT forkRequested(m_tabs->indexOf(page)); });
    connect(page, &KernelTab::diagnosticsChanged, this, [this, page] {
        updateTabIcon(page);
        updateActions();
    });
    const int index = m_tabs->addTab(page, title);
    m_tabs->setTabToolTip(index, filePath.isEmpty() ? title : filePath);
    updateCurrent();
    return index;
}

void KernelEditor::clear()
{
    m_findBar->setEditor(nullptr);
    while (m_tabs->count() > 0) {
        Q_EMIT tabClosing(0, variantId(0), editor(0));
        QWidget *w = m_tabs->widget(0);
        m_tabs->removeTab(0);
        delete w;
    }
    updateCurrent();
}

void KernelEditor::closeTab(int index)
{
    KernelTab *t = tab(index);
    if (!t)
        return;
    Q_EMIT tabClosing(index, t->variantId(), t->editor());
    if (m_findBar->editor() == t->editor())
        m_findBar->setEditor(nullptr);
    m_tabs->removeTab(m_tabs->indexOf(t));
    delete t;
    updateCurrent();
}

void KernelEditor::requestCloseTab(int index)
{
    KernelTab *t = tab(index);
    if (!t)
        return;
    // A session variant's text is in the session; an edited fork or draft exists only here.
    if (t->variantId() != 0 || t->isReadOnly() || !t->editor()->isModified()) {
        closeTab(index);
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Close Tab"),
                                tr("“%1” has edits that were never evaluated, so they are in no session. Close it and "
                                   "discard them?")
                                    .arg(m_tabs->tabText(index)),
                                QMessageBox::Discard | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("kforgeCloseTabQuestion"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, page = QPointer<KernelTab>(t), box] {
        if (page && box->clickedButton() == box->button(QMessageBox::Discard))
            closeTab(m_tabs->indexOf(page));
    });
    box->open();
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

KernelTab *KernelEditor::tab(int index) const
{
    return qobject_cast<KernelTab *>(m_tabs->widget(index));
}

QsciScintilla *KernelEditor::editor(int index) const
{
    const KernelTab *t = tab(index);
    return t ? t->editor() : nullptr;
}

QsciScintilla *KernelEditor::currentEditor() const
{
    return editor(m_tabs->currentIndex());
}

QString KernelEditor::title(int index) const
{
    return m_tabs->tabText(index);
}

void KernelEditor::setTitle(int index, const QString &title)
{
    if (!tab(index))
        return;
    if (filePath(index).isEmpty())
        m_tabs->setTabToolTip(index, title);
    m_tabs->setTabText(index, title);
}

QString KernelEditor::filePath(int index) const
{
    const KernelTab *t = tab(index);
    return t ? t->property(filePathProperty).toString() : QString();
}

QString KernelEditor::source(int index) const
{
    const QsciScintilla *e = editor(index);
    return e ? e->text() : QString();
}

void KernelEditor::setVariantId(int index, qint64 id)
{
    if (KernelTab *t = tab(index)) {
        t->setVariantId(id);
        updateActions();
    }
}

qint64 KernelEditor::variantId(int index) const
{
    const KernelTab *t = tab(index);
    return t ? t->variantId() : 0;
}

int KernelEditor::indexOfVariant(qint64 id) const
{
    if (id == 0)
        return -1;
    for (int i = 0; i < m_tabs->count(); ++i)
        if (tab(i)->variantId() == id)
            return i;
    return -1;
}

void KernelEditor::setReference(int index)
{
    for (int i = 0; i < m_tabs->count(); ++i)
        tab(i)->setReference(i == index);
    updateActions();
}

int KernelEditor::referenceIndex() const
{
    for (int i = 0; i < m_tabs->count(); ++i)
        if (tab(i)->isReference())
            return i;
    return -1;
}

void KernelEditor::setReadOnly(int index, bool readOnly)
{
    if (KernelTab *t = tab(index)) {
        t->setReadOnly(readOnly);
        updateActions();
    }
}

bool KernelEditor::isReadOnly(int index) const
{
    const KernelTab *t = tab(index);
    return t && t->isReadOnly();
}

void KernelEditor::setCompileFileName(int index, const QString &fileName)
{
    if (KernelTab *t = tab(index))
        t->setCompileFileName(fileName);
}

QString KernelEditor::compileFileName(int index) const
{
    const KernelTab *t = tab(index);
    return t ? t->compileFileName() : QString();
}

void KernelEditor::setDiagnostics(int index, const QList<Diagnostic> &diagnostics)
{
    if (KernelTab *t = tab(index))
        t->setDiagnostics(diagnostics);
}

void KernelEditor::clearDiagnostics(int index)
{
    if (KernelTab *t = tab(index))
        t->clearDiagnostics();
}

QList<Diagnostic> KernelEditor::diagnostics(int index) const
{
    const KernelTab *t = tab(index);
    return t ? t->diagnostics() : QList<Diagnostic>();
}

void KernelEditor::setResources(int index, const QList<KernelResources> &resources)
{
    if (KernelTab *t = tab(index))
        t->infoStrip()->setResources(resources);
}

void KernelEditor::setStatus(int index, const QString &text)
{
    if (KernelTab *t = tab(index))
        t->infoStrip()->setStatus(text);
}

QString KernelEditor::status(int index) const
{
    const KernelTab *t = tab(index);
    return t ? t->infoStrip()->statusText() : QString();
}

void KernelEditor::setDarkTheme(bool dark)
{
    m_dark = dark;
    for (int i = 0; i < m_tabs->count(); ++i) {
        tab(i)->setDarkTheme(dark);
        updateTabIcon(tab(i));
    }
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

void KernelEditor::nextDiagnostic()
{
    if (KernelTab *t = tab(currentIndex()))
        t->goToDiagnostic(true);
}

void KernelEditor::previousDiagnostic()
{
    if (KernelTab *t = tab(currentIndex()))
        t->goToDiagnostic(false);
}

void KernelEditor::evaluateCurrent()
{
    const int index = currentIndex();
    if (const KernelTab *t = tab(index); t && t->canEvaluate())
        Q_EMIT evaluateRequested(index);
}

bool KernelEditor::eventFilter(QObject *watched, QEvent *event)
{
    // Ctrl+Enter reaches the editor itself when the shortcut did not fire (no active window, or Scintilla
    // claimed the key); it must never become a line break.
    if (event->type() == QEvent::KeyPress && qobject_cast<QsciScintilla *>(watched)) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)
            && (key->modifiers() & ~Qt::KeypadModifier) == Qt::ControlModifier) {
            if (m_evaluateAction->isEnabled())
                m_evaluateAction->trigger();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void KernelEditor::updateCurrent()
{
    m_stack->setCurrentWidget(m_tabs->count() > 0 ? m_editorPage : m_emptyPage);
    m_findBar->setEditor(currentEditor());
    if (!currentEditor())
        m_findBar->hide();
    updateUndoRedo();
    updateActions();
}

void KernelEditor::updateActions()
{
    if (!m_evaluateAction)
        return; // still constructing
    const KernelTab *t = tab(currentIndex());
    m_evaluateAction->setEnabled(t && t->canEvaluate());
    m_nextAction->setEnabled(t && t->hasStops());
    m_previousAction->setEnabled(t && t->hasStops());
    m_forkAction->setEnabled(t && t->isReadOnly());
    m_closeAction->setEnabled(t != nullptr);
}

void KernelEditor::updateTabIcon(KernelTab *page)
{
    const int index = m_tabs->indexOf(page);
    if (index >= 0)
        m_tabs->setTabIcon(index, page->statusIcon());
}

void KernelEditor::updateUndoRedo()
{
    QsciScintilla *e = currentEditor();
    Q_EMIT undoAvailable(e && e->isUndoAvailable());
    Q_EMIT redoAvailable(e && e->isRedoAvailable());
}

} // namespace kforge
