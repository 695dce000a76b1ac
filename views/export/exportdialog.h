#pragma once
// Exports one variant: pick the format and the folder, preview every file (conflicts with what is on
// disk marked, with a diff of what would change), then write. Generating, comparing with the disk and
// writing run off the GUI thread.
#include "core/async/lateresultguard.h"
#include "core/export/exportbundle.h"
#include "core/export/exportinput.h"
#include "core/export/exportplan.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTimer;
class QTreeView;

namespace kforge {

class ExportPlanModel;
class SessionStore;

class ExportDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ExportDialog(const ExportInput &input, QWidget *parent = nullptr);

    // The dialog for a variant of an open session, or nullptr after telling the user why it cannot be
    // exported (not evaluated, not correct...).
    static ExportDialog *create(const SessionStore &store, qint64 variantId, QWidget *parent);

    void setFormat(ExportFormat format);
    void setOutputFolder(const QString &dir);
    void setIntoSubdir(const QString &subdir);
    void setLicenseText(const QString &text);
    ExportOptions options() const;
    QString outputFolder() const;

    // For tests and callers that wait on the preview.
    ExportPlanModel *planModel() const { return m_model; }
    QTreeView *fileView() const { return m_files; }
    QPlainTextEdit *preview() const { return m_preview; }
    QPlainTextEdit *cmakeLinesView() const { return m_cmakeLines; }
    QCheckBox *overwriteBox() const { return m_overwrite; }
    QPushButton *exportButton() const { return m_export; }
    QString statusText() const;

public Q_SLOTS:
    // Generates the files and compares them with the disk again (after the user changed files there).
    void refresh();
    // Writes the plan shown; reports through exported() / exportFailed().
    void exportNow();

Q_SIGNALS:
    void planReady();
    void exported(const QString &dir);
    void exportFailed(const QString &message);

private:
    void scheduleRefresh();
    void showPlan(const ExportBundle &bundle, const ExportPlan &plan, const QStringList &cmakeLines);
    void showEntry();
    void updateButtons();

    ExportInput m_input;
    ExportBundle m_bundle;
    LateResultGuard m_plans; // the latest plan request; older answers are dropped
    bool m_busy = false;     // writing
    QString m_exportedTo;

    QComboBox *m_format = nullptr;
    QLineEdit *m_folder = nullptr;
    QLabel *m_subdirLabel = nullptr;
    QLineEdit *m_subdir = nullptr;
    QPlainTextEdit *m_license = nullptr;
    ExportPlanModel *m_model = nullptr;
    QTreeView *m_files = nullptr;
    QPlainTextEdit *m_preview = nullptr;
    QLabel *m_linesLabel = nullptr;
    QPlainTextEdit *m_cmakeLines = nullptr;
    QLabel *m_status = nullptr;
    QCheckBox *m_overwrite = nullptr;
    QPushButton *m_export = nullptr;
    QTimer *m_refreshTimer = nullptr;
};

} // namespace kforge
