#include "app/gui/torchimportdialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace kforge {

TorchImportDialog::TorchImportDialog(const QString &problemFile, QWidget *parent, const QStringList &pythons)
    : QDialog(parent)
    , m_file(QFileInfo(problemFile).absoluteFilePath())
    , m_pythons(pythons)
{
    setObjectName(QStringLiteral("TorchImportDialog"));
    setWindowTitle(tr("Import a PyTorch Problem"));
    m_importer = new TorchImporter(this);

    auto *intro = new QLabel(
        tr("<p><b>%1</b> is a Python file. KForge opens a PyTorch problem in KernelBench's format (<tt>class "
           "Model</tt>, size constants, <tt>get_inputs()</tt>, <tt>get_init_inputs()</tt>) as a task.</p>"
           "<p>The import runs the module once where python3 has torch (a CPU is enough; big tensors stay on the "
           "meta device), finds the forward's inputs, the module's parameters and buffers, the outputs with their "
           "dtypes and shapes, and writes a task folder: <tt>reference.py</tt> (the file as it is) and "
           "<tt>task.json</tt>. The task then opens in a working session. The problem file itself is not "
           "changed.</p>")
            .arg(QFileInfo(m_file).fileName().toHtmlEscaped()),
        this);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::RichText);

    m_outDir = new QLineEdit(QFileInfo(m_file).absolutePath(), this);
    m_outDir->setObjectName(QStringLiteral("outDir"));
    m_browse = new QPushButton(tr("Choose…"), this);
    auto *dirRow = new QHBoxLayout;
    dirRow->addWidget(m_outDir, 1);
    dirRow->addWidget(m_browse);
    m_target = new QLabel(this);
    m_target->setObjectName(QStringLiteral("target"));
    m_target->setWordWrap(true);
    m_target->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *form = new QFormLayout;
    form->addRow(tr("Problem:"), new QLabel(QDir::toNativeSeparators(m_file), this));
    form->addRow(tr("Task folder under:"), dirRow);
    form->addRow(tr("Writes:"), m_target);

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 0); // busy: discovery reports no fraction
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->hide();

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_import = m_buttons->addButton(tr("Import and Open"), QDialogButtonBox::AcceptRole);
    m_import->setDefault(true);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_error);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
    resize(620, sizeHint().height());

    connect(m_outDir, &QLineEdit::textChanged, this, &TorchImportDialog::updateTarget);
    connect(m_browse, &QPushButton::clicked, this, &TorchImportDialog::chooseFolder);
    connect(m_import, &QPushButton::clicked, this, &TorchImportDialog::startImport);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &TorchImportDialog::reject);
    connect(m_importer, &TorchImporter::progress, m_status, &QLabel::setText);
    connect(m_importer, &TorchImporter::imported, this, [this](const QString &folder) {
        setBusy(false);
        m_status->setText(tr("Imported into %1.").arg(QDir::toNativeSeparators(folder)));
        Q_EMIT imported(folder);
        accept();
    });
    connect(m_importer, &TorchImporter::failed, this, [this](const TorchImportError &e) {
        setBusy(false);
        if (e.step == u"cancelled")
            return;
        m_status->clear();
        m_error->setText(tr("Could not import %1.\nStep: %2\nCause: %3\nNothing was written; fix the file and "
                            "import again.")
                             .arg(QDir::toNativeSeparators(e.file), e.step, e.cause));
        m_error->show();
        m_import->setText(tr("Try Again"));
        Q_EMIT importFailed(e);
    });
    updateTarget();
}

QString TorchImportDialog::outDir() const
{
    return m_outDir->text().trimmed();
}

void TorchImportDialog::setOutDir(const QString &dir)
{
    m_outDir->setText(dir);
}

QString TorchImportDialog::taskFolder() const
{
    return QDir(outDir()).filePath(torchimport::taskNameFor(m_file));
}

QString TorchImportDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void TorchImportDialog::updateTarget()
{
    const QString folder = taskFolder();
    QString text = QDir::toNativeSeparators(folder + QStringLiteral("/reference.py")) + u'\n'
                   + QDir::toNativeSeparators(folder + QStringLiteral("/task.json"));
    if (QFileInfo::exists(folder + QStringLiteral("/task.json")))
        text += u'\n' + tr("The folder holds a task already: its reference.py and task.json are replaced.");
    m_target->setText(text);
    m_import->setEnabled(!outDir().isEmpty() && !isImporting());
}

void TorchImportDialog::chooseFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Task Folder Under"), outDir());
    if (!dir.isEmpty())
        m_outDir->setText(dir);
}

void TorchImportDialog::setBusy(bool busy)
{
    m_progress->setVisible(busy);
    m_outDir->setEnabled(!busy);
    m_browse->setEnabled(!busy);
    m_import->setEnabled(!busy && !outDir().isEmpty());
}

void TorchImportDialog::startImport()
{
    if (isImporting() || outDir().isEmpty())
        return;
    m_error->clear();
    m_error->hide();
    setBusy(true);
    m_importer->start(m_file, outDir(), m_pythons);
}

void TorchImportDialog::reject()
{
    // Cancel while discovery runs stops it (the process is killed); nothing is written until it has finished.
    m_importer->cancel();
    QDialog::reject();
}

} // namespace kforge
