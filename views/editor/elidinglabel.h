#pragma once
// A one-line label that never asks for more width than a few characters: text that does not fit is elided
// where it is painted, and the whole text is the tool tip. For messages of unbounded length (a failed
// variant's status, a templated kernel name) that must not widen the window.
#include <QLabel>

namespace kforge {

class ElidingLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidingLabel(QWidget *parent = nullptr, Qt::TextElideMode mode = Qt::ElideRight);

    // text() stays the whole text; this is what is painted at the current width.
    QString shownText() const;
    bool isElided() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString oneLine() const;
    int lineHeight() const;

    Qt::TextElideMode m_mode;
};

} // namespace kforge
