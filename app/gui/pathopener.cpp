#include "app/gui/pathopener.h"

#include "app/gui/torchimportdialog.h"
#include "core/log/loghub.h"
#include "core/workbench/sessioncontroller.h"
#include "views/editor/varianttabbinding.h"

#include <QFileInfo>

#include <algorithm>

namespace kforge {

namespace {
bool isKernelFile(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == u"cu" || suffix == u"cuh";
}

// A PyTorch problem in KernelBench's format: opened through the import (TorchImportDialog).
bool isProblemFile(const QString &path)
{
    return QFileInfo(path).suffix().compare(QLatin1String("py"), Qt::CaseInsensitive) == 0;
}
} // namespace

PathOpener::PathOpener(SessionController *sessions, VariantTabBinding *tabs, LogHub &log, QWidget *window)
    : QObject(window)
    , m_sessions(sessions)
    , m_tabs(tabs)
    , m_log(log)
    , m_window(window)
{
}

void PathOpener::open(const QString &path)
{
    const QFileInfo info(path);
    if (info.isDir())
        m_sessions->openTaskFolder(path);
    else if (info.isFile() && info.fileName() == QLatin1String("task.json"))
        m_sessions->openTaskFolder(info.absolutePath());
    else if (info.isFile() && isProblemFile(path))
        offerTorchImport(path);
    else if (info.isFile() && isKernelFile(path))
        m_tabs->addFile(path);
    else if (info.isFile())
        m_sessions->openSessionAsync(path);
    else
        Q_EMIT failed(tr("%1 does not exist.").arg(path));
}

TorchImportDialog *PathOpener::offerTorchImport(const QString &problemFile)
{
    auto *dialog = new TorchImportDialog(problemFile, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &TorchImportDialog::imported, this, [this](const QString &folder) {
        m_log.post(LogSource::App, LogLevel::Info, tr("Imported the PyTorch problem as %1").arg(folder));
        m_sessions->openTaskFolder(folder);
    });
    connect(dialog, &TorchImportDialog::importFailed, this, [this](const TorchImportError &e) {
        m_log.post(LogSource::App, LogLevel::Error, tr("Could not import %1").arg(e.message()));
    });
    Q_EMIT torchImportOffered(dialog);
    dialog->open();
    return dialog;
}

bool PathOpener::canOpen(const QList<QUrl> &urls)
{
    return !urls.isEmpty() && std::all_of(urls.begin(), urls.end(), [](const QUrl &u) {
        const QFileInfo info(u.toLocalFile());
        return u.isLocalFile()
               && (isKernelFile(info.filePath()) || isProblemFile(info.filePath())
                   || SessionController::isSessionFile(info.filePath())
                   || (info.isDir() && QFileInfo::exists(info.filePath() + QStringLiteral("/task.json"))));
    });
}

} // namespace kforge
