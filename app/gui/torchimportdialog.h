#pragma once
// Offered when a PyTorch problem file (*.py, KernelBench's format) is opened or dropped: says what the import does
// and where the task folder goes (beside the file in <name>/ by default, or under a chosen folder), runs it off the
// GUI thread (TorchImporter: the discovery kforge-cli import runs) with its steps shown, and on success hands the
// new task folder on; on failure it shows the file, the step and the cause and stays open, nothing written.
#include "core/task/torchimport.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace kforge {

class TorchImportDialog : public QDialog
{
    Q_OBJECT
public:
    // `pythons`: where to look for torch (empty: torchimport::defaultPythons()).
    explicit TorchImportDialog(const QString &problemFile, QWidget *parent = nullptr, const QStringList &pythons = {});

    QString problemFile() const { return m_file; }
    // The folder the task folder goes under (the problem's folder unless the user chose another).
    QString outDir() const;
    void setOutDir(const QString &dir);
    // outDir()/<name>: the task folder the import writes.
    QString taskFolder() const;
    // The message shown after a failed import; empty otherwise.
    QString errorText() const;
    bool isImporting() const { return m_importer->isRunning(); }
    QPushButton *importButton() const { return m_import; }

    // Starts the import (what the Import button does).
    void startImport();
    // Cancel: stops a running discovery (its process is killed), then closes.
    void reject() override;

Q_SIGNALS:
    // The task folder was written; the dialog closes itself.
    void imported(const QString &taskFolder);
    void importFailed(const kforge::TorchImportError &error);

private:
    void chooseFolder();
    void updateTarget();
    void setBusy(bool busy);

    QString m_file;
    QStringList m_pythons;
    TorchImporter *m_importer = nullptr;
    QLineEdit *m_outDir = nullptr;
    QLabel *m_target = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_error = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_browse = nullptr;
    QPushButton *m_import = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace kforge
