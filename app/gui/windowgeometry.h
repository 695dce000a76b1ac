#pragma once
// The main window's size on the screen it is on: a default that leaves room for code and docks, and a saved or
// chosen geometry kept inside the screen (issue 14).
#include <QSize>

class QWidget;

namespace kforge::WindowGeometry {

// Room for code and the docks beside it, but never more than the screen offers.
QSize defaultSize(const QWidget *window);
// Moves and shrinks `window`, frame included, into the available part of the screen it is on.
void fitIntoScreen(QWidget *window);

} // namespace kforge::WindowGeometry
