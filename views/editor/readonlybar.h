#pragma once
// The bar above a read-only kernel tab: why it is read-only (the reference, or an evaluated variant whose
// text must stay what was measured) and a "Fork to Edit" button that asks for an editable copy.
#include <QFrame>

class QLabel;
class QPushButton;

namespace kforge {

class ReadOnlyBar : public QFrame
{
    Q_OBJECT
public:
    explicit ReadOnlyBar(QWidget *parent = nullptr);

    // The reference and an evaluated variant say different things; both can be forked (a fork of the
    // reference is a manual variant).
    void setReference(bool reference);
    bool isReference() const { return m_reference; }
    QString text() const;
    QPushButton *forkButton() const { return m_fork; }
    void setDarkTheme(bool dark);

Q_SIGNALS:
    void forkClicked();

private:
    QLabel *m_icon = nullptr;
    QLabel *m_text = nullptr;
    QPushButton *m_fork = nullptr;
    bool m_reference = false;
};

} // namespace kforge
