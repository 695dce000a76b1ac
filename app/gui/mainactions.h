#pragma once
// Every action of the main window's menus and tool bar, with its text, icon and standard shortcut, made in
// one place so menus, tool bar, empty states and tests share the same objects.
#include <QObject>

class QAction;
class QMenu;
class QWidget;

namespace kforge {

class MainActions : public QObject
{
    Q_OBJECT
public:
    // The actions are added to `owner`, so their shortcuts work anywhere in its window.
    explicit MainActions(QWidget *owner);

    QAction *openTaskFolder = nullptr;
    QAction *openSession = nullptr;
    QAction *saveSessionAs = nullptr;
    QAction *exportVariant = nullptr;
    QAction *saveReport = nullptr;
    QAction *exportTrainingData = nullptr;
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
