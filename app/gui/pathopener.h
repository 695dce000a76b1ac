#pragma once
// What a path handed to KForge is and who opens it (the command line, a drop on the window, Open Recent): a task
// folder or its task.json and a *.kforge session go to the SessionController, a kernel file becomes a manual
// variant through the editor's tabs (VariantTabBinding), a PyTorch problem (*.py) is offered the import.
#include <QList>
#include <QObject>
#include <QUrl>

class QWidget;

namespace kforge {

class LogHub;
class SessionController;
class TorchImportDialog;
class VariantTabBinding;

class PathOpener : public QObject
{
    Q_OBJECT
public:
    // The import dialog opens over `window`.
    PathOpener(SessionController *sessions, VariantTabBinding *tabs, LogHub &log, QWidget *window);

    void open(const QString &path);
    // Shows the import of a PyTorch problem file (TorchImportDialog, window-modal); its success opens the task.
    TorchImportDialog *offerTorchImport(const QString &problemFile);
    // Whether every one of `urls` (a drag over the window) is a local path open() takes.
    static bool canOpen(const QList<QUrl> &urls);

Q_SIGNALS:
    // A PyTorch problem's import dialog is about to be shown.
    void torchImportOffered(kforge::TorchImportDialog *dialog);
    // The path is nothing that can be opened.
    void failed(const QString &message);

private:
    SessionController *m_sessions = nullptr;
    VariantTabBinding *m_tabs = nullptr;
    LogHub &m_log;
    QWidget *m_window = nullptr;
};

} // namespace kforge
