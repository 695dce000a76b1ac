#pragma once
// The main window's size on the screen it is on: a default that leaves room for code and docks, and a saved or
// chosen geometry kept inside the screen (issue 14).
#include <QByteArray>
#include <QSize>

class QMainWindow;
class QWidget;

namespace kforge::WindowGeometry {

// Room for code and the docks beside it, but never more than the screen offers.
QSize defaultSize(const QWidget *window);
// Moves and shrinks `window`, frame included, into the available part of the screen it is on.
void fitIntoScreen(QWidget *window);
// The size of the window that QWidget::saveGeometry() wrote `saved` for; invalid when it cannot be read.
QSize savedSize(const QByteArray &saved);
// A layout restored into a smaller window than it was saved in: the docks kept their sizes and the code got what
// was left (7 lines at 1280×800 of a layout saved at 1920×1080). Gives every docked panel its share of the window
// it was saved in again; nothing changes when the window is not smaller.
void scaleDocks(QMainWindow *window, QSize savedSize);

} // namespace kforge::WindowGeometry
