#include "app/gui/collectionactions.h"

#include "app/gui/mainactions.h"
#include "core/collection/collectionverifier.h"
#include "core/collection/pairsession.h"
#include "core/log/loghub.h"
#include "core/queue/evaluationqueue.h"
#include "core/task/torchimport.h"
#include "core/workbench/sessioncontroller.h"
#include "core/workbench/workbench.h"
#include "views/collection/collectionpanel.h"
#include "views/collection/verifycollectiondialog.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>
#include <QThread>
#include <QtConcurrent>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// What the read off the GUI thread brings back.
struct ReadCollection {
    CollectionReadResult read;
    QString python;
    QString pythonProblem;
};

} // namespace

CollectionActions::CollectionActions(MainActions *actions, Workbench *workbench, SessionController *sessions,
                                     CollectionPanel *panel, QDockWidget *dock, LogHub &log, QWidget *window)
    : QObject(window)
    , m_actions(actions)
    , m_workbench(workbench)
    , m_sessions(sessions)
    , m_panel(panel)
    , m_dock(dock)
    , m_log(log)
    , m_window(window)
{
    connect(actions->verifyCollection, &QAction::triggered, this, &CollectionActions::showDialog);
    connect(panel, &CollectionPanel::pairActivated, this, &CollectionActions::openPair);
    panel->setEmptyAction(actions->verifyCollection);
}

CollectionActions::~CollectionActions()
{
    // The verifier's runner cancels its tickets while the workbench's queue still exists.
    delete m_verifier;
}

VerifyCollectionDialog *CollectionActions::showDialog()
{
    auto *dialog = new VerifyCollectionDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QStringList names;
    for (const WorkerConfig &w : m_workbench->workers())
        names << w.displayName();
    dialog->setWorkersText(names.isEmpty() ? tr("No worker is set up: the pairs would get no verdict.")
                                           : tr("%n worker(s): %1", nullptr, int(names.size())).arg(names.join(u", "_s)));
    if (m_verifier) {
        dialog->setOutDir(m_verifier->options().outDir);
    }
    connect(dialog, &VerifyCollectionDialog::workersRequested, this, &CollectionActions::workersRequested);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { start(dialog->manifest(), dialog->outDir()); });
    Q_EMIT dialogShown(dialog);
    dialog->open();
    return dialog;
}

void CollectionActions::report(const QString &message, bool error)
{
    m_log.post(LogSource::App, error ? LogLevel::Error : LogLevel::Info, message);
    m_panel->showMessage(message);
}

void CollectionActions::start(const VerifyManifest &manifest, const QString &outDir)
{
    if (m_verifier) {
        m_verifier->cancel();
        m_verifier->deleteLater(); // its runner cancels what is still in the queue
    }
    auto *verifier = new CollectionVerifier(this);
    m_verifier = verifier;
    m_dock->show();
    m_dock->raise();
    // The table is the point of it: the strip under the editor grows to about half the window.
    if (auto *main = qobject_cast<QMainWindow *>(m_window))
        main->resizeDocks({m_dock}, {main->height() / 2}, Qt::Vertical);
    m_log.post(LogSource::App, LogLevel::Info, tr("Verifying the collection %1 into %2").arg(manifest.collection, outDir));

    CollectionVerifier::Options options;
    options.outDir = outDir;
    options.read = manifest.read;
    options.heldOut = manifest.heldOut;
    options.tolerances = manifest.tolerances;
    options.import.jobs = std::clamp(QThread::idealThreadCount(), 1, 4);
    options.import.script = torchimport::discoverScript();
    // The collection is read and a python with torch found (it starts python) off the GUI thread.
    // A read that finishes after a newer start is dropped.
    const QFuture<ReadCollection> reading = QtConcurrent::run([manifest] {
        ReadCollection r;
        r.read = CollectionReader::read(manifest.collection, manifest.read);
        QString version;
        r.python = torchimport::findPython(torchimport::defaultPythons(), version, r.pythonProblem);
        return r;
    });
    m_reads.deliver(this, reading, [this, verifier, options](const ReadCollection &r) mutable {
        if (!m_verifier)
            return;
        if (!r.read.collection) {
            report(tr("Cannot verify the collection: %1").arg(r.read.error), true);
            m_panel->setVerifier(nullptr);
            m_panel->showMessage(tr("Cannot verify the collection: %1").arg(r.read.error));
            return;
        }
        options.import.python = r.python;
        verifier->setCollection(*r.read.collection, options);
        m_panel->setVerifier(verifier);
        if (r.python.isEmpty())
            report(tr("No python3 with torch (%1): problems not imported before cannot be imported (install torch, "
                      "Debian: python3-torch).")
                       .arg(r.pythonProblem),
                   true);
        connect(verifier, &CollectionVerifier::failed, this, [this](const QString &m) { report(m, true); });
        connect(verifier, &CollectionVerifier::imported, this, [this, verifier] {
            if (verifier->stage() != CollectionVerifier::Stage::Imported)
                return; // cancelled
            QString error;
            if (!verifier->openLog(&error)) {
                report(tr("Cannot verify the collection: %1").arg(error), true);
                verifier->writeOutputs();
                return;
            }
            if (!verifier->hasWork()) {
                m_log.post(LogSource::App, LogLevel::Info,
                           tr("Every selected pair is in %1 already: nothing to run.").arg(verifier->logPath()));
                verifier->writeOutputs();
                return;
            }
            VerifyRunner::Options run;
            run.eval = m_workbench->evalOptions();
            run.eval.metrics = false; // as the CLI: the metrics pass is for the sessions a pair is opened in
            run.maxInFlight = std::max(2, 2 * int(m_workbench->workers().size()) + QThread::idealThreadCount());
            run.prepareAhead = QThread::idealThreadCount();
            verifier->startRun(m_workbench->queue(), run);
        });
        connect(verifier, &CollectionVerifier::finished, this, [this, verifier] {
            if (verifier == m_verifier)
                m_log.post(LogSource::App, LogLevel::Info,
                           tr("Verified collection: %1 and %2").arg(verifier->csvPath(), verifier->htmlPath()));
        });
        verifier->startImport();
    });
}

void CollectionActions::openPair(const QString &pairId)
{
    if (!m_verifier)
        return;
    const std::optional<CollectionPair> pair = m_verifier->pair(pairId);
    if (!pair)
        return;
    const QString file = PairSession::pathFor(m_verifier->options().outDir, pairId);
    if (QFileInfo::exists(file)) {
        Q_EMIT pairSessionReady(file);
        m_sessions->openSessionAsync(file);
        return;
    }
    const QString taskFolder = m_verifier->taskFolderOf(pairId);
    std::optional<VerifyRecord> main;
    if (const VerifyRecord *r = m_verifier->log().find(pairId, VerifyRun::Main))
        main = *r;
    m_panel->showMessage(tr("Opening %1 as a session…").arg(pairId));
    const QFuture<QString> created = QtConcurrent::run([file, taskFolder, p = *pair, main] {
        QString error;
        return PairSession::create(file, taskFolder, p, main ? &*main : nullptr, &error) ? QString() : error;
    });
    whenFinished(this, created, [this, file](const QString &error) {
        if (!error.isEmpty()) {
            report(error, true);
            return;
        }
        m_panel->showMessage({});
        Q_EMIT pairSessionReady(file);
        m_sessions->openSessionAsync(file);
    });
}

} // namespace kforge
