#pragma once
// The find/replace strip under the kernel editor: incremental search, next/previous, replace one or all,
// with case, whole-word and regular-expression options. Works on whichever editor it is pointed at.
#include <Qsci/qsciscintilla.h>

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace kforge {

class FindBar : public QWidget
{
    Q_OBJECT
public:
    explicit FindBar(QWidget *parent = nullptr);

    void setEditor(QsciScintilla *editor);
    QsciScintilla *editor() const { return m_editor; }

    // Shows the bar with the editor's selection (if any) as the search text and focuses the find field.
    void activate(bool withReplace);

    QString findText() const;
    void setFindText(const QString &text);
    QString replaceText() const;
    void setReplaceText(const QString &text);
    void setOptions(bool caseSensitive, bool wholeWords, bool regularExpression);

    bool findNext();
    bool findPrevious();
    // Replaces the current match (if the selection is one) and moves to the next; false when none is left.
    bool replaceOne();
    int replaceAll(); // returns the number of replacements, as one undo step

Q_SIGNALS:
    void closed();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool find(bool forward, bool fromSelectionStart);
    void showStatus(const QString &text, bool problem);

    QPointer<QsciScintilla> m_editor;
    QLineEdit *m_find = nullptr;
    QLineEdit *m_replace = nullptr;
    QWidget *m_replaceRow = nullptr;
    QCheckBox *m_case = nullptr;
    QCheckBox *m_words = nullptr;
    QCheckBox *m_regex = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace kforge
