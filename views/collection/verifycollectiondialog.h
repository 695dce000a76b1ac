#pragma once
// File → Verify Collection…: what to verify (a folder of problems and candidates, a released-kernels JSON with its
// field names, a KernelBench run folder with its problems), where the task folders, results and report go, and on
// which workers (the workbench's pool, Settings → Workers). An output folder that holds a verification already
// (its collection.json) fills the rest in and continues it: the pairs measured there are kept.
#include "core/collection/collectionverifier.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace kforge {

class VerifyCollectionDialog : public QDialog
{
    Q_OBJECT
public:
    explicit VerifyCollectionDialog(QWidget *parent = nullptr);

    // What the workers are, as the workbench says it ("2 workers: …").
    void setWorkersText(const QString &text);

    void setCollectionPath(const QString &path);
    void setProblemsFolder(const QString &path);
    void setFieldMap(const QString &text); // "custom_code=kernel, score=speedup"
    void setOutDir(const QString &path);

    // What to verify and how (valid after accept()).
    VerifyManifest manifest() const;
    QString outDir() const;
    // Why the fields cannot be verified as they are; empty when they can.
    QString problem() const;
    QString continueText() const; // what the output folder already holds, as shown
    QPushButton *verifyButton() const { return m_verify; }

    void accept() override;

Q_SIGNALS:
    void workersRequested();

private:
    void chooseCollectionFolder();
    void chooseCollectionFile();
    void chooseProblems();
    void chooseOutDir();
    void outDirChanged();
    void update();
    std::optional<QMap<QString, QString>> parsedMap(QString *why) const;

    QLineEdit *m_collection = nullptr;
    QComboBox *m_format = nullptr;
    QLineEdit *m_problems = nullptr;
    QLineEdit *m_map = nullptr;
    QLineEdit *m_outDir = nullptr;
    QLabel *m_continue = nullptr;
    QLabel *m_workers = nullptr;
    QCheckBox *m_heldOut = nullptr;
    QCheckBox *m_tolerances = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_verify = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace kforge
