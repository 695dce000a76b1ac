#pragma once
// Every action of the main window's menus and tool bar, with its text, icon and standard shortcut, made in
// one place so menus, tool bar, empty states and tests share the same objects.
#include <QList>
#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QWidget;

namespace kforge {

class MainActions : public QObject
{
    Q_OBJECT
public:
    // The actions are added to `owner`, so their shortcuts work anywhere in its window.
    explicit MainActions(QWidget *owner);

    // The window's menu bar and main tool bar: these actions, the editor's (next and previous diagnostic,
    // evaluate) and a toggle for each dock. Makes recentMenu, which its owner fills.
    void buildMenus(QMainWindow *window, const QList<QAction *> &diagnosticActions, QAction *evaluate, QAction *profile,
                    const QList<QDockWidget *> &docks);
    QMenu *recentMenu = nullptr;

    QAction *openTaskFolder = nullptr;
    QAction *openFile = nullptr; // task.json, a PyTorch problem (*.py) or a session
    QAction *openSession = nullptr;
    QAction *saveSessionAs = nullptr;
    QAction *exportVariant = nullptr;
    QAction *saveReport = nullptr;
    QAction *exportTrainingData = nullptr;
    QAction *verifyCollection = nullptr;
    QAction *clearRecent = nullptr;
    QAction *quit = nullptr;

    QAction *undo = nullptr;
    QAction *redo = nullptr;
    QAction *find = nullptr;
    QAction *findNext = nullptr;
    QAction *findPrevious = nullptr;
    QAction *replace = nullptr;
    QAction *compareWithReference = nullptr;

    QAction *settings = nullptr;
    QAction *configureWorkers = nullptr;
    QAction *gettingStarted = nullptr;
    QAction *about = nullptr;
    QAction *aboutQt = nullptr;
};

} // namespace kforge
