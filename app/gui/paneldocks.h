#pragma once
// The main window's docks and their layout. Each panel sits in a dock that scrolls rather than widen the window
// (issue 14). Without a saved layout the code comes first: one column on the right for the panels that steer a
// round, list the population, explain a pair, chart the session and show the model's words, and a strip under the
// editor for the diff, the log, the assembly and a verified collection; each gets its share of the window at the
// first show. A saved geometry and layout (Settings) replace it, fitted into the screen, and are saved on close.
#include <QList>
#include <QObject>
#include <QRect>
#include <QSize>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace kforge {

class Settings;

class PanelDocks : public QObject
{
    Q_OBJECT
public:
    // The panels to dock; the window's central widget is the editor's.
    struct Panels {
        QWidget *rounds, *task, *variants, *compare, *charts, *reasoning; // the right column, tabbed
        QWidget *diff, *log, *assembly, *collection;                      // the strip under the editor, tabbed
    };
    PanelDocks(QMainWindow *window, const Panels &panels);

    // The dock that holds `panel`, or null.
    QDockWidget *dockOf(QWidget *panel) const;
    const QList<QDockWidget *> &docks() const { return m_docks; }

    // The saved geometry and layout, or the default size; call once every dock and tool bar exists.
    void restore(const Settings &settings);
    // From the window's showEvent(): the first show fits the chosen size into the screen (again once a window
    // manager has framed it) and sizes the docks.
    void shown();
    void save(Settings &settings) const;

private:
    QDockWidget *add(QWidget *panel, const QString &title, const QString &objectName, Qt::DockWidgetArea area);
    void fitWhenFramed(); // the frame's margins come after the show

    QMainWindow *m_window = nullptr;
    QList<QDockWidget *> m_docks;
    QDockWidget *m_roundDock = nullptr;
    QDockWidget *m_logDock = nullptr;
    bool m_defaultDockSizes = false; // no saved layout: size the docks at the first show
    bool m_shownOnce = false;
    QSize m_restoredFrom;   // the size of the window the restored layout was saved in, until the first show
    QRect m_chosenGeometry; // restored or default, fitted into the screen
};

} // namespace kforge
