#pragma once
// The Diff dock under the editor: the current tab against the reference, re-diffed shortly after typing stops and
// whenever the dock shows, or the pair Compare explains (A left, B right) until the user asks for a tab again.
#include <QObject>

class QDockWidget;
class QMainWindow;
class QTimer;

namespace kforge {

class DiffView;
class KernelEditor;
class SessionStore;

class DiffDock : public QObject
{
    Q_OBJECT
public:
    DiffDock(QMainWindow *window, QDockWidget *dock, DiffView *diff, KernelEditor *editor, SessionStore *store);

    // View → Compare with Reference: the current tab against the reference, in front.
    void showTab();
    // The compared pair, in front.
    void showPair(qint64 a, qint64 b);
    // The pair's diff without bringing the dock forward (the selection's pair changed).
    void setPair(qint64 a, qint64 b);

private:
    void raise();
    void updateTab();

    QMainWindow *m_window = nullptr;
    QDockWidget *m_dock = nullptr;
    DiffView *m_diff = nullptr;
    KernelEditor *m_editor = nullptr;
    SessionStore *m_store = nullptr;
    QTimer *m_timer = nullptr;
    bool m_showsPair = false; // the dock shows the compared pair, not a tab against the reference
};

} // namespace kforge
