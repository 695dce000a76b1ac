#include "views/editor/findbar.h"

#include <Qsci/qsciscintilla.h>

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace kforge {

FindBar::FindBar(QWidget *parent)
    : QWidget(parent)
{
    m_find = new QLineEdit(this);
    m_find->setPlaceholderText(tr("Find"));
    m_find->setClearButtonEnabled(true);
    m_replace = new QLineEdit(this);
    m_replace->setPlaceholderText(tr("Replace with"));
    m_case = new QCheckBox(tr("Match case"), this);
    m_words = new QCheckBox(tr("Whole words"), this);
    m_regex = new QCheckBox(tr("Regular expression"), this);
    m_status = new QLabel(this);

    auto *previous = new QPushButton(tr("Previous"), this);
    auto *next = new QPushButton(tr("Next"), this);
    auto *replace = new QPushButton(tr("Replace"), this);
    auto *replaceAll = new QPushButton(tr("Replace All"), this);
    auto *close = new QToolButton(this);
    close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setAutoRaise(true);
    close->setToolTip(tr("Close the find bar (Esc)"));

    auto *findRow = new QHBoxLayout;
    findRow->addWidget(m_find, 1);
    findRow->addWidget(previous);
    findRow->addWidget(next);
    findRow->addWidget(m_case);
    findRow->addWidget(m_words);
    findRow->addWidget(m_regex);
    findRow->addWidget(m_status);
    findRow->addWidget(close);

    m_replaceRow = new QWidget(this);
    auto *replaceRow = new QHBoxLayout(m_replaceRow);
    replaceRow->setContentsMargins(0, 0, 0, 0);
    replaceRow->addWidget(m_replace, 1);
    replaceRow->addWidget(replace);
    replaceRow->addWidget(replaceAll);
    replaceRow->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addLayout(findRow);
    layout->addWidget(m_replaceRow);

    connect(m_find, &QLineEdit::textEdited, this, [this] { find(true, true); });
    connect(m_find, &QLineEdit::returnPressed, this, &FindBar::findNext);
    connect(m_replace, &QLineEdit::returnPressed, this, &FindBar::replaceOne);
    connect(next, &QPushButton::clicked, this, &FindBar::findNext);
    connect(previous, &QPushButton::clicked, this, &FindBar::findPrevious);
    connect(replace, &QPushButton::clicked, this, &FindBar::replaceOne);
    connect(replaceAll, &QPushButton::clicked, this, &FindBar::replaceAll);
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        if (m_editor)
            m_editor->setFocus();
        Q_EMIT closed();
    });
    m_find->installEventFilter(this);
    m_replace->installEventFilter(this);
}

void FindBar::setEditor(QsciScintilla *editor)
{
    m_editor = editor;
    m_status->clear();
}

void FindBar::activate(bool withReplace)
{
    m_replaceRow->setVisible(withReplace);
    if (m_editor && m_editor->hasSelectedText() && !m_editor->selectedText().contains(u'\n'))
        m_find->setText(m_editor->selectedText());
    show();
    m_find->setFocus();
    m_find->selectAll();
}

QString FindBar::findText() const
{
    return m_find->text();
}

void FindBar::setFindText(const QString &text)
{
    m_find->setText(text);
}

QString FindBar::replaceText() const
{
    return m_replace->text();
}

void FindBar::setReplaceText(const QString &text)
{
    m_replace->setText(text);
}

void FindBar::setOptions(bool caseSensitive, bool wholeWords, bool regularExpression)
{
    m_case->setChecked(caseSensitive);
    m_words->setChecked(wholeWords);
    m_regex->setChecked(regularExpression);
}

bool FindBar::findNext()
{
    return find(true, false);
}

bool FindBar::findPrevious()
{
    return find(false, true);
}

bool FindBar::find(bool forward, bool fromSelectionStart)
{
    if (!m_editor || m_find->text().isEmpty()) {
        m_status->clear();
        return false;
    }
    int line = -1;
    int index = -1;
    if (fromSelectionStart && m_editor->hasSelectedText()) {
        int lineTo = 0;
        int indexTo = 0;
        m_editor->getSelection(&line, &index, &lineTo, &indexTo);
    }
    const bool found = m_editor->findFirst(m_find->text(), m_regex->isChecked(), m_case->isChecked(),
                                           m_words->isChecked(), /*wrap*/ true, forward, line, index,
                                           /*show*/ true, /*posix*/ false, /*cxx11*/ true);
    showStatus(found ? QString() : tr("Not found"), !found);
    return found;
}

bool FindBar::replaceOne()
{
    if (!m_editor || m_editor->isReadOnly() || m_find->text().isEmpty())
        return false;
    // Re-run the search from the selection's start: replace() acts on the last match Scintilla found,
    // and the user may have moved the caret since.
    if (!m_editor->hasSelectedText() || !find(true, true))
        return find(true, false);
    m_editor->replace(m_replace->text());
    return find(true, false);
}

int FindBar::replaceAll()
{
    if (!m_editor || m_editor->isReadOnly() || m_find->text().isEmpty())
        return 0;
    int count = 0;
    m_editor->beginUndoAction();
    bool found = m_editor->findFirst(m_find->text(), m_regex->isChecked(), m_case->isChecked(), m_words->isChecked(),
                                     /*wrap*/ false, /*forward*/ true, 0, 0, /*show*/ false, false, true);
    int lastLine = -1;
    int lastIndex = -1;
    while (found) {
        int line = 0;
        int index = 0;
        int lineTo = 0;
        int indexTo = 0;
        m_editor->getSelection(&line, &index, &lineTo, &indexTo);
        // An empty match at the same place again (e.g. "^" or "x*") would loop for ever.
        if (line == lastLine && index == lastIndex && line == lineTo && index == indexTo)
            break;
        m_editor->replace(m_replace->text());
        ++count;
        int caretLine = 0;
        int caretIndex = 0;
        m_editor->getCursorPosition(&caretLine, &caretIndex);
        lastLine = caretLine;
        lastIndex = caretIndex;
        found = m_editor->findNext();
    }
    m_editor->endUndoAction();
    showStatus(count == 0 ? tr("Not found") : tr("%n replaced", nullptr, count), count == 0);
    return count;
}

void FindBar::showStatus(const QString &text, bool problem)
{
    m_status->setText(text);
    QPalette pal = palette();
    if (problem)
        pal.setColor(QPalette::WindowText, QColor(0xc0, 0x39, 0x2b));
    m_status->setPalette(pal);
}

bool FindBar::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Escape) {
            hide();
            if (m_editor)
                m_editor->setFocus();
            Q_EMIT closed();
            return true;
        }
        if (watched == m_find && (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)
            && (key->modifiers() & Qt::ShiftModifier)) {
            findPrevious();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace kforge
