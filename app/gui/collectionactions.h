#pragma once
// File → Verify Collection… and the Collection page's pairs, for the main window: the dialog, then a
// CollectionVerifier (core/collection, the code `kforge-cli verify` runs) reading the collection and finding a
// python with torch off the GUI thread, importing, and running on the workbench's one evaluation queue and worker
// pool; the page shows it. A pair double-clicked on the page becomes a session of its own (PairSession, made off
// the GUI thread), which the SessionController opens.
#include "core/async/lateresultguard.h"
#include "core/collection/collectionverifier.h"

#include <QObject>
#include <QPointer>
#include <QString>

class QDockWidget;
class QWidget;

namespace kforge {

class CollectionPanel;
class LogHub;
class MainActions;
class SessionController;
class VerifyCollectionDialog;
class Workbench;

class CollectionActions : public QObject
{
    Q_OBJECT
public:
    CollectionActions(MainActions *actions, Workbench *workbench, SessionController *sessions, CollectionPanel *panel,
                      QDockWidget *dock, LogHub &log, QWidget *window);
    ~CollectionActions() override;

    // Shows the dialog (window-modal); its Verify starts the verification.
    VerifyCollectionDialog *showDialog();
    // Verifies `manifest`'s collection into `outDir` (continuing what is there); the page shows it at once.
    void start(const VerifyManifest &manifest, const QString &outDir);
    // Opens a pair of the shown verification as a session (made the first time); pairSessionReady() or a message on
    // the page follows.
    void openPair(const QString &pairId);
    CollectionVerifier *verifier() const { return m_verifier; }

Q_SIGNALS:
    void dialogShown(kforge::VerifyCollectionDialog *dialog);
    void workersRequested();
    // A pair's session file exists and is being opened.
    void pairSessionReady(const QString &file);

private:
    void report(const QString &message, bool error);

    MainActions *m_actions = nullptr;
    Workbench *m_workbench = nullptr;
    SessionController *m_sessions = nullptr;
    CollectionPanel *m_panel = nullptr;
    QDockWidget *m_dock = nullptr;
    LogHub &m_log;
    QWidget *m_window = nullptr;
    QPointer<CollectionVerifier> m_verifier;
    LateResultGuard m_reads; // the collection read of the latest start
};

} // namespace kforge
