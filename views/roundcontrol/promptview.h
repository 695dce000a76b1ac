#pragma once
// Round Control's prompt page: the prompt(s) a round would send (preview), holds for review (editable, with Send
// and Discard) or sent; with a prompt per candidate, a chooser picks which one is read, and an edit survives looking
// at another. "Open in Window" shows the prompt at any size the user likes.
#include "core/optimizer/candidateprompts.h"

#include <QStringList>
#include <QWidget>

class QComboBox;
class QDialog;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace kforge {

class PromptView : public QWidget
{
    Q_OBJECT
public:
    explicit PromptView(QWidget *parent = nullptr);

    // Shows `prompts` (the chooser offers `choices`, one per prompt, when there are several) under `label`.
    void showPrompts(const QList<CandidatePrompts::Prompt> &prompts, const QStringList &choices, bool editable,
                     const QString &label);
    // Back to the empty page: no prompt, no chooser, no review.
    void clear();
    bool isEmpty() const;
    void setLabel(const QString &label);
    QString label() const;
    // Review: Send and Discard shown, the prompt editable (or neither).
    void setAwaitingApproval(bool on);
    bool isAwaitingApproval() const;
    // Every prompt the chooser offers, the shown one as edited now.
    QStringList texts();
    // A window of its own with the shown prompt (non-modal; it deletes itself when closed); null when empty.
    QDialog *openInWindow();

    QPlainTextEdit *edit() const { return m_edit; }
    QComboBox *choiceBox() const { return m_choice; }
    QPushButton *openButton() const { return m_open; }

Q_SIGNALS:
    void sendRequested();
    void discardRequested();

private:
    void onChosen(int index);

    QLabel *m_label = nullptr;
    QPushButton *m_open = nullptr;
    QComboBox *m_choice = nullptr;
    QPlainTextEdit *m_edit = nullptr;
    QWidget *m_approval = nullptr;
    QStringList m_texts; // the prompts the chooser offers, edits included
    int m_shown = -1;
    bool m_editable = false;
};

} // namespace kforge
