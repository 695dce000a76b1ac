#include "views/editor/elidinglabel.h"

#include <QPainter>
#include <QStyle>

namespace kforge {

namespace {
// Enough to show that something is there; the layout gives more when it has it.
constexpr int minimumChars = 12;
// A preferred width that a long message does not inflate: docks and splitters start from size hints.
constexpr int preferredChars = 80;
} // namespace

ElidingLabel::ElidingLabel(QWidget *parent, Qt::TextElideMode mode)
    : QLabel(parent)
    , m_mode(mode)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

QString ElidingLabel::oneLine() const
{
    QString t = text();
    t.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return t;
}

QString ElidingLabel::shownText() const
{
    return fontMetrics().elidedText(oneLine(), m_mode, contentsRect().width());
}

bool ElidingLabel::isElided() const
{
    return shownText() != oneLine();
}

int ElidingLabel::lineHeight() const
{
    const QMargins m = contentsMargins();
    return fontMetrics().height() + m.top() + m.bottom() + 2 * margin() + 2 * frameWidth();
}

QSize ElidingLabel::sizeHint() const
{
    const int full = QLabel::sizeHint().width();
    return {std::min(full, fontMetrics().averageCharWidth() * preferredChars), lineHeight()};
}

QSize ElidingLabel::minimumSizeHint() const
{
    const QMargins m = contentsMargins();
    const int few = fontMetrics().averageCharWidth() * minimumChars + m.left() + m.right() + 2 * margin()
                    + 2 * frameWidth();
    return {std::min(QLabel::sizeHint().width(), few), lineHeight()};
}

void ElidingLabel::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QRect r = contentsRect();
    style()->drawItemText(&painter, r, int(QStyle::visualAlignment(layoutDirection(), alignment())), palette(),
                          isEnabled(), shownText(), foregroundRole());
}

} // namespace kforge
