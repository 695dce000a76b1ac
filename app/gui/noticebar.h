#pragma once
// A strip above the editor for what the user must know before relying on KForge (no CUDA compiler, no
// worker), with one action to fix it and a button to dismiss it.
#include <QWidget>

class QAction;
class QLabel;
class QToolButton;

namespace kforge {

class NoticeBar : public QWidget
{
    Q_OBJECT
public:
    explicit NoticeBar(QWidget *parent = nullptr);

    // Shows `text`, unless the user dismissed this very text: it comes back only when it says something new.
    void showNotice(const QString &text, QAction *fix = nullptr);
    QString text() const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QLabel *m_icon = nullptr;
    QLabel *m_text = nullptr;
    QToolButton *m_fix = nullptr;
    QString m_dismissed; // the text the user closed
};

} // namespace kforge
