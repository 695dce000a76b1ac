#include "app/gui/windowgeometry.h"

#include <QDataStream>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLayout>
#include <QMainWindow>
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

QSize savedSize(const QByteArray &saved)
{
    // QWidget::saveGeometry()'s format: magic, version, frame and normal geometry, screen, maximized, full screen,
    // then (2.0) the screen's width and (3.0) the geometry itself.
    QDataStream stream(saved);
    stream.setVersion(QDataStream::Qt_4_0);
    quint32 magic = 0;
    quint16 major = 0;
    quint16 minor = 0;
    QRect frame;
    QRect normal;
    qint32 screen = 0;
    quint8 maximized = 0;
    quint8 fullScreen = 0;
    qint32 screenWidth = 0;
    QRect geometry;
    stream >> magic >> major >> minor >> frame >> normal >> screen >> maximized >> fullScreen;
    if (magic != 0x1D9D0CB || major < 1 || stream.status() != QDataStream::Ok)
        return {};
    if (major >= 3)
        stream >> screenWidth >> geometry;
    const QRect window = major >= 3 && stream.status() == QDataStream::Ok ? geometry : normal;
    return window.isValid() ? window.size() : QSize();
}

void scaleDocks(QMainWindow *window, QSize savedSize)
{
    if (!savedSize.isValid() || savedSize.isEmpty())
        return;
    // A maximized window may still have its normal size here (a window manager maximizes it after it is shown):
    // it will be as large as the screen allows.
    QSize now = window->size();
    if (const QScreen *screen = window->screen(); screen && (window->isMaximized() || window->isFullScreen()))
        now = (window->isFullScreen() ? screen->geometry() : screen->availableGeometry()).size();
    // Smaller by more than a frame or a panel's rounding: a window of about the saved size keeps its layout exactly.
    const double across = double(now.width()) / savedSize.width();
    const double along = double(now.height()) / savedSize.height();
    QList<QDockWidget *> sides;
    QList<int> widths;
    QList<QDockWidget *> strips;
    QList<int> heights;
    for (QDockWidget *dock : window->findChildren<QDockWidget *>()) {
        // A dock behind another's tab is laid out outside the window, with its size from before.
        if (dock->isFloating() || !dock->isVisible() || dock->parentWidget() != window
            || !window->rect().intersects(dock->geometry()))
            continue;
        switch (window->dockWidgetArea(dock)) {
        case Qt::LeftDockWidgetArea:
        case Qt::RightDockWidgetArea:
            if (across < 0.95) {
                sides << dock;
                widths << std::max(1, int(dock->width() * across));
            }
            break;
        case Qt::TopDockWidgetArea:
        case Qt::BottomDockWidgetArea:
            if (along < 0.95) {
                strips << dock;
                heights << std::max(1, int(dock->height() * along));
            }
            break;
        default: break;
        }
    }
    if (sides.isEmpty() && strips.isEmpty())
        return;
    // resizeDocks() sizes a group of tabbed docks tab bar included, so the panel itself gets that much less: asked
    // once more with the difference.
    for (int pass = 0; pass < 2; ++pass) {
        window->resizeDocks(sides, widths, Qt::Horizontal);
        window->resizeDocks(strips, heights, Qt::Vertical);
        window->layout()->activate();
        for (qsizetype i = 0; i < sides.size(); ++i)
            widths[i] += widths[i] - sides[i]->width();
        for (qsizetype i = 0; i < strips.size(); ++i)
            heights[i] += heights[i] - strips[i]->height();
    }
}

} // namespace kforge::WindowGeometry
