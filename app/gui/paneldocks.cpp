#include "app/gui/paneldocks.h"

#include "app/gui/windowgeometry.h"
#include "core/settings/settings.h"

#include <QDeadlineTimer>
#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace kforge {

namespace {
// The least a dock shrinks to; below what its panel needs, the panel scrolls.
constexpr int minimumDockSize = 120;
} // namespace

PanelDocks::PanelDocks(QMainWindow *window, const Panels &panels)
    : QObject(window)
    , m_window(window)
{
    window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    window->setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    m_roundDock = add(panels.rounds, tr("Round Control"), QStringLiteral("roundDock"), Qt::RightDockWidgetArea);
    auto right = [this](QWidget *panel, const QString &title, const QString &name) {
        QDockWidget *dock = add(panel, title, name, Qt::RightDockWidgetArea);
        m_window->tabifyDockWidget(m_roundDock, dock);
        return dock;
    };
    right(panels.variants, tr("Variants"), QStringLiteral("variantsDock"));
    right(panels.compare, tr("Compare"), QStringLiteral("compareDock"));
    right(panels.charts, tr("Charts"), QStringLiteral("chartsDock"));
    right(panels.reasoning, tr("Reasoning"), QStringLiteral("reasoningDock"));
    QDockWidget *diffDock = add(panels.diff, tr("Diff"), QStringLiteral("diffDock"), Qt::BottomDockWidgetArea);
    auto bottom = [this, diffDock](QWidget *panel, const QString &title, const QString &name) {
        QDockWidget *dock = add(panel, title, name, Qt::BottomDockWidgetArea);
        m_window->tabifyDockWidget(diffDock, dock);
        return dock;
    };
    m_logDock = bottom(panels.log, tr("Log"), QStringLiteral("logDock"));
    bottom(panels.assembly, tr("Assembly"), QStringLiteral("assemblyDock")); // PTX and SASS of the current tab
    // What the task asks for, a tab beside Round Control: read once, then looked up.
    right(panels.task, tr("Task"), QStringLiteral("taskDock"));
    // A verified collection's table is wide: a page of the strip under the editor, shown when a verification starts
    // (View → Collection shows its empty state with the way to start one).
    bottom(panels.collection, tr("Collection"), QStringLiteral("collectionDock"))->hide();
    m_roundDock->raise();
    m_logDock->raise();
}

QDockWidget *PanelDocks::add(QWidget *panel, const QString &title, const QString &objectName, Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(title, m_window);
    dock->setObjectName(objectName); // saveState() keys the layout by it
    // No panel may raise the window's minimum size (issue 14): a dock narrower than its panel needs scrolls
    // sideways instead of pushing the window past the screen. Only sideways: panels have word-wrapped labels,
    // whose height depends on the width, and a vertical scroll bar that comes and goes with that height
    // would change the width again without end.
    auto *scroll = new QScrollArea(dock);
    scroll->setObjectName(objectName + QStringLiteral("Scroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(panel);
    scroll->setMinimumSize(minimumDockSize, minimumDockSize);
    dock->setWidget(scroll);
    m_window->addDockWidget(area, dock);
    m_docks << dock;
    return dock;
}

QDockWidget *PanelDocks::dockOf(QWidget *panel) const
{
    for (QDockWidget *d : m_docks)
        if (const auto *scroll = qobject_cast<QScrollArea *>(d->widget()); scroll && scroll->widget() == panel)
            return d;
    return nullptr;
}

void PanelDocks::restore(const Settings &settings)
{
    if (!m_window->restoreGeometry(settings.windowGeometry()))
        m_window->resize(WindowGeometry::defaultSize(m_window));
    // A saved layout replaces the default one; without one, the docks get their share of the window when it
    // first shows at its real size.
    m_defaultDockSizes = !m_window->restoreState(settings.windowState());
    if (!m_defaultDockSizes)
        m_restoredFrom = WindowGeometry::savedSize(settings.windowGeometry());
    WindowGeometry::fitIntoScreen(m_window);
    m_chosenGeometry = m_window->geometry();
}

void PanelDocks::shown()
{
    // The size the window chose (saved or default) fits again, now with the frame's margins; one its owner set
    // before showing it is theirs.
    if (!std::exchange(m_shownOnce, true) && m_window->geometry() == m_chosenGeometry) {
        WindowGeometry::fitIntoScreen(m_window);
        fitWhenFramed();
    }
    if (std::exchange(m_defaultDockSizes, false)) {
        // Shares of the window the default layout gives: the right column two fifths of the width (the Variants
        // table's columns up to Time, Compare's four), the strip under the editor a fifth of the height (lines
        // of the log), the rest to the code.
        m_window->resizeDocks({m_roundDock}, {std::clamp(m_window->width() * 2 / 5, 420, 760)}, Qt::Horizontal);
        m_window->resizeDocks({m_logDock}, {std::clamp(m_window->height() / 5, 150, 300)}, Qt::Vertical);
    } else if (const QSize saved = std::exchange(m_restoredFrom, QSize()); saved.isValid()) {
        WindowGeometry::scaleDocks(m_window, saved); // a layout saved on a larger screen
    }
}

void PanelDocks::fitWhenFramed()
{
    // A window manager frames the window after it is shown, some tens of milliseconds later and with no event that
    // says so: until then the frame's margins are unknown and the window as large as the screen had its title bar
    // and borders past it (the status bar off the bottom under openbox at 1280×800). Looked at for two seconds, and
    // fitted once framed unless its size has changed meanwhile (the window manager maximized it, the user dragged).
    auto *poll = new QTimer(this);
    poll->setInterval(40);
    connect(poll, &QTimer::timeout, this, [this, poll, size = m_window->size(), deadline = QDeadlineTimer(2000)] {
        const bool framed = m_window->frameGeometry() != m_window->geometry();
        if (framed && m_window->size() == size)
            WindowGeometry::fitIntoScreen(m_window);
        if (framed || deadline.hasExpired())
            poll->deleteLater();
    });
    poll->start();
}

void PanelDocks::save(Settings &settings) const
{
    settings.setWindowGeometry(m_window->saveGeometry());
    settings.setWindowState(m_window->saveState());
}

} // namespace kforge
