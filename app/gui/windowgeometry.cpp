#include "app/gui/windowgeometry.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace kforge::WindowGeometry {

QSize defaultSize(const QWidget *window)
{
    const QScreen *screen = window->screen();
    const QSize wanted(1600, 1000);
    return screen ? wanted.boundedTo(screen->availableGeometry().size()) : wanted;
}

void fitIntoScreen(QWidget *window)
{
    // A geometry saved on a larger screen (or, before issue 14, one that content had widened past the screen)
    // must not make the window larger than this screen or put it outside.
    if (window->isMaximized() || window->isFullScreen())
        return;
    const QScreen *screen = QGuiApplication::screenAt(window->geometry().center());
    if (!screen)
        screen = window->screen();
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    // The frame (title bar, borders) must fit too: its margins are known once the window is shown and framed,
    // so this runs again then (before, frame and geometry are the same).
    const QRect client = window->geometry();
    const QRect frame = window->frameGeometry();
    const QMargins margins(client.left() - frame.left(), client.top() - frame.top(), frame.right() - client.right(),
                           frame.bottom() - client.bottom());
    QRect g = frame;
    g.setSize(g.size().boundedTo(available.size()));
    g.moveLeft(std::clamp(g.left(), available.left(), available.right() - g.width() + 1));
    g.moveTop(std::clamp(g.top(), available.top(), available.bottom() - g.height() + 1));
    g = g.marginsRemoved(margins);
    if (g != client)
        window->setGeometry(g);
}

} // namespace kforge::WindowGeometry
