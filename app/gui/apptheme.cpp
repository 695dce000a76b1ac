#include "app/gui/apptheme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace kforge {

namespace {
struct Original {
    QString styleName;
    QPalette palette;
};

Original &original()
{
    // What the platform gave us, to go back to when the user returns to "follow the system".
    static Original o{QApplication::style()->name(), QApplication::palette()};
    return o;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2e, 0x33);
    const QColor base(0x23, 0x26, 0x2b);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabled(0x7f, 0x84, 0x8e);
    const QColor highlight(0x3d, 0x7a, 0xd6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Link, QColor(0x61, 0xaf, 0xef));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, window.lighter(140));
    p.setColor(QPalette::Midlight, window.lighter(120));
    p.setColor(QPalette::Mid, window.darker(120));
    p.setColor(QPalette::Dark, window.darker(160));
    p.setColor(QPalette::Shadow, Qt::black);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, window.lighter(130));
    return p;
}
} // namespace

void AppTheme::apply(Theme theme)
{
    const Original &o = original();
    switch (theme) {
    case Theme::System:
        if (QApplication::style()->name() != o.styleName)
            QApplication::setStyle(QStyleFactory::create(o.styleName));
        QApplication::setPalette(o.palette);
        break;
    case Theme::Light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Theme::Dark:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        break;
    }
}

} // namespace kforge
