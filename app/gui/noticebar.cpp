#include "app/gui/noticebar.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QStyle>
#include <QToolButton>

namespace kforge {

NoticeBar::NoticeBar(QWidget *parent)
    : QWidget(parent)
{
    m_icon = new QLabel(this);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_fix = new QToolButton(this);
    m_fix->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *close = new QToolButton(this);
    close->setAutoRaise(true);
    close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setToolTip(tr("Dismiss"));
    close->setObjectName(QStringLiteral("dismiss"));
    connect(close, &QToolButton::clicked, this, [this] {
        m_dismissed = m_text->text();
        hide();
    });

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_icon);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_fix);
    layout->addWidget(close);
    hide();
}

void NoticeBar::showNotice(const QString &text, QAction *fix)
{
    m_text->setText(text);
    m_fix->setVisible(fix != nullptr);
    if (fix)
        m_fix->setDefaultAction(fix);
    // Readiness is worked out again on many occasions (a session opened, the settings applied): the same words
    // after the user closed them would come back on every one.
    setVisible(text != m_dismissed);
}

QString NoticeBar::text() const
{
    return m_text->text();
}

void NoticeBar::paintEvent(QPaintEvent *)
{
    // A warm background that reads as "attention" on light and dark palettes alike.
    QPainter p(this);
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    p.fillRect(rect(), dark ? QColor(0x5c, 0x4a, 0x1a) : QColor(0xff, 0xf4, 0xce));
    p.setPen(dark ? QColor(0x8a, 0x70, 0x2a) : QColor(0xe6, 0xc2, 0x5a));
    p.drawLine(rect().bottomLeft(), rect().bottomRight());
}

} // namespace kforge
