#pragma once
// File → Export Variant…, Save Report… and Export Training Data…, and the Variants panel's "Export Variant…":
// what each writes is gathered from the open session on its thread, rendering and writing run off the GUI
// thread, and the result is shown with a button that opens the file or its folder; a failure says what failed.
#include "core/export/trainingdata.h"

#include <QObject>
#include <QPointer>
#include <QString>

class QMessageBox;
class QProgressDialog;
class QWidget;

namespace kforge {

class ExportDialog;
class MainActions;
class SessionStore;
class VariantSelection;

class ExportActions : public QObject
{
    Q_OBJECT
public:
    // Wires the three File actions of `actions`; `window` parents the dialogs.
    ExportActions(MainActions *actions, SessionStore *store, VariantSelection *selection, QWidget *window);

    // What File → Export Variant… exports: the current variant when it is a correct candidate, else the fastest
    // correct one; 0 when the session has none.
    qint64 exportTarget() const;
    // The export dialog for a variant, or null after saying why it cannot be exported.
    ExportDialog *exportVariant(qint64 variantId);
    // Write the session's report (HTML) or its training data (JSON lines) to `file`; finished() follows.
    // False (and nothing started) while another one is being written or when no session is open.
    bool saveReport(const QString &file);
    bool exportTrainingData(const QString &file, const DatasetFilter &filter = {});

    bool isBusy() const { return m_busy; }
    // The message that shows the last result or failure (tests, screenshots).
    QMessageBox *resultBox() const;

Q_SIGNALS:
    // `error` is empty when `file` was written; `summary` says what it holds.
    void finished(const QString &file, const QString &summary, const QString &error);

private:
    void updateActions();
    void chooseReportFile();
    void chooseTrainingDataFile();
    void startBusy(const QString &text);
    void done(const QString &file, const QString &summary, const QString &error);

    QPointer<MainActions> m_actions; // the window's, which may go before the session does
    QPointer<SessionStore> m_store;
    QPointer<VariantSelection> m_selection;
    QWidget *m_window = nullptr;
    bool m_busy = false;
    QPointer<QProgressDialog> m_progress;
    QPointer<QMessageBox> m_result;
};

} // namespace kforge
