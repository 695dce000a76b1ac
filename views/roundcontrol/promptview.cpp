#include "views/roundcontrol/promptview.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace kforge {

PromptView::PromptView(QWidget *parent)
    : QWidget(parent)
{
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    m_label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // wraps to the dock, never widens it
    m_open = new QPushButton(tr("Open in Window"), this);
    m_open->setToolTip(tr("Read the prompt in a window of its own, as large as you like"));
    m_open->setEnabled(false);
    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_label, 1);
    top->addWidget(m_open, 0, Qt::AlignTop);
    m_choice = new QComboBox(this);
    m_choice->setToolTip(tr("Each candidate has its own prompt: choose which one to read"));
    m_choice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_choice->setMinimumContentsLength(20);
    m_choice->hide();
    m_edit = new QPlainTextEdit(this);
    m_edit->setReadOnly(true);
    m_edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_edit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_edit->setPlaceholderText(tr("Preview the prompt, or turn on review to edit it before a round sends it."));
    // A prompt is read here: at least a dozen lines, whatever the dock's height asks of the rest.
    m_edit->setMinimumHeight(m_edit->fontMetrics().lineSpacing() * 12);
    m_approval = new QWidget(this);
    auto *send = new QPushButton(tr("Send"), m_approval);
    send->setObjectName(QStringLiteral("send"));
    auto *discard = new QPushButton(tr("Discard"), m_approval);
    auto *approvalLayout = new QHBoxLayout(m_approval);
    approvalLayout->setContentsMargins(0, 0, 0, 0);
    approvalLayout->addStretch(1);
    approvalLayout->addWidget(discard);
    approvalLayout->addWidget(send);
    m_approval->hide();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(top);
    layout->addWidget(m_choice);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_approval);
    clear();

    connect(send, &QPushButton::clicked, this, &PromptView::sendRequested);
    connect(discard, &QPushButton::clicked, this, &PromptView::discardRequested);
    connect(m_open, &QPushButton::clicked, this, &PromptView::openInWindow);
    connect(m_choice, &QComboBox::currentIndexChanged, this, &PromptView::onChosen);
}

void PromptView::showPrompts(const QList<CandidatePrompts::Prompt> &prompts, const QStringList &choices, bool editable,
                             const QString &label)
{
    m_texts.clear();
    m_shown = -1;
    m_editable = editable;
    {
        const QSignalBlocker block(m_choice);
        m_choice->clear();
        for (int i = 0; i < prompts.size(); ++i) {
            m_texts << prompts[i].text;
            m_choice->addItem(choices.value(i));
        }
    }
    m_choice->setVisible(prompts.size() > 1);
    m_edit->setReadOnly(!editable);
    if (!prompts.isEmpty()) {
        m_shown = 0;
        m_edit->setPlainText(prompts.constFirst().text);
    } else {
        m_edit->clear();
    }
    m_open->setEnabled(!prompts.isEmpty());
    setLabel(label);
}

void PromptView::clear()
{
    showPrompts({}, {}, false, tr("No prompt shown. Preview Prompt renders the one a round would send; choosing a "
                                  "candidate in Rounds shows the one it received."));
    setAwaitingApproval(false);
}

bool PromptView::isEmpty() const
{
    return m_texts.isEmpty();
}

void PromptView::setLabel(const QString &label)
{
    m_label->setText(label);
}

QString PromptView::label() const
{
    return m_label->text();
}

void PromptView::setAwaitingApproval(bool on)
{
    m_approval->setVisible(on);
    m_editable = on && !m_texts.isEmpty();
    m_edit->setReadOnly(!m_editable);
}

bool PromptView::isAwaitingApproval() const
{
    return !m_approval->isHidden();
}

QStringList PromptView::texts()
{
    if (m_editable && m_shown >= 0 && m_shown < m_texts.size())
        m_texts[m_shown] = m_edit->toPlainText();
    return m_texts;
}

void PromptView::onChosen(int index)
{
    if (index < 0 || index >= m_texts.size() || index == m_shown)
        return;
    if (m_editable && m_shown >= 0)
        m_texts[m_shown] = m_edit->toPlainText(); // an edit survives looking at another prompt
    m_shown = index;
    m_edit->setPlainText(m_texts[index]);
}

QDialog *PromptView::openInWindow()
{
    const QString text = m_edit->toPlainText();
    if (text.isEmpty())
        return nullptr;
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(m_choice->isVisible() ? tr("Prompt — %1").arg(m_choice->currentText()) : tr("Prompt"));
    auto *note = new QLabel(m_label->text(), dialog);
    note->setWordWrap(true);
    auto *edit = new QPlainTextEdit(dialog);
    edit->setReadOnly(true);
    edit->setFont(m_edit->font());
    edit->setPlainText(text);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QPushButton *copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, dialog, [text] { QApplication::clipboard()->setText(text); });
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(note);
    layout->addWidget(edit, 1);
    layout->addWidget(buttons);
    dialog->resize(800, 680);
    dialog->show();
    return dialog;
}

} // namespace kforge
