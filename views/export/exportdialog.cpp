#include "views/export/exportdialog.h"

#include "core/export/cmakeexporter.h"
#include "core/export/exportcontext.h"
#include "core/export/exporter.h"
#include "core/export/exportreadme.h"
#include "core/export/sessionexportsource.h"
#include "core/export/unifieddiff.h"
#include "core/task/sourcelanguage.h"
#include "views/export/exportplanmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStandardPaths>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

struct PlanJob {
    ExportBundle bundle;
    ExportPlan plan;
    QStringList cmakeLines;
    QString error;
};

PlanJob makePlan(const ExportInput &input, const ExportOptions &options, const QString &folder)
{
    PlanJob job;
    if (folder.trimmed().isEmpty()) {
        job.error = ExportDialog::tr("Choose the folder to export to.");
        return job;
    }
    QString host;
    if (options.format == ExportFormat::Into) {
        QFile f(QDir(folder).filePath(u"CMakeLists.txt"_s));
        if (!f.open(QIODevice::ReadOnly)) {
            job.error = ExportDialog::tr("%1 has no CMakeLists.txt: 'into' adds the kernel to an existing CMake project.")
                            .arg(QDir::toNativeSeparators(folder));
            return job;
        }
        host = QString::fromUtf8(f.readAll());
    }
    job.bundle = Exporter::generate(input, options);
    if (!job.bundle.ok()) {
        job.error = job.bundle.error;
        return job;
    }
    job.plan = ExportPlan::make(folder, job.bundle);
    if (options.format == ExportFormat::Into)
        job.cmakeLines = CMakeExporter::intoLinesFor(ExportContext(input), QDir::cleanPath(options.intoSubdir), host);
    return job;
}

} // namespace

ExportDialog *ExportDialog::create(const SessionStore &store, qint64 variantId, QWidget *parent)
{
    QString error;
    const auto input = SessionExportSource::build(store, variantId, &error);
    if (!input) {
        QMessageBox::warning(parent, tr("Export"), tr("Variant %1 cannot be exported: %2").arg(variantId).arg(error));
        return nullptr;
    }
    return new ExportDialog(*input, parent);
}

ExportDialog::ExportDialog(const ExportInput &input, QWidget *parent)
    : QDialog(parent)
    , m_input(input)
{
    setWindowTitle(tr("Export variant #%1").arg(input.variantId));
    resize(1000, 680);
    const ExportContext ctx(input);

    auto *form = new QFormLayout;
    QString what = tr("#%1 of %2").arg(input.variantId).arg(QString::fromStdString(input.task.name));
    if (!input.variantLabel.isEmpty())
        what += u" ("_s + input.variantLabel + u')';
    if (input.provenance.speedup)
        what += tr(", %1 on %2").arg(ExportReadme::formatSpeedup(input.provenance.speedup), input.provenance.gpuName);
    form->addRow(tr("Variant:"), new QLabel(what, this));

    // A torch task's variant (a ModelNew module, or a .cu kernel that one calls as an extension) has one export of its
    // own; the others build a CUDA task's kernel.
    const bool modelNew = sourceLanguage(input.variantSource) == SourceLanguage::Python;
    const bool torchTask = input.taskKind == TaskKind::Torch;
    m_format = new QComboBox(this);
    if (modelNew) {
        m_format->addItem(tr("PyTorch ModelNew module, with the reference, a test and a benchmark"),
                          int(ExportFormat::Torch));
    } else if (torchTask) {
        m_format->addItem(tr("PyTorch extension of the kernel, called by a ModelNew module, with the reference, a test "
                             "and a benchmark"),
                          int(ExportFormat::Torch));
    } else {
        m_format->addItem(tr("CMake CUDA library project, with test and benchmark"), int(ExportFormat::CMake));
        m_format->addItem(tr("PyTorch C++/CUDA extension, with Python test"), int(ExportFormat::Torch));
        m_format->addItem(tr("Into an existing CMake project"), int(ExportFormat::Into));
    }
    form->addRow(tr("&Format:"), m_format);

    m_folder = new QLineEdit(this);
    m_folder->setText(QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                          .filePath(u"%1_variant_%2"_s.arg(ctx.ns).arg(input.variantId)));
    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);
    // A row of a layout gets no buddy from addRow(): without one the mnemonic shows as a literal "&".
    auto *folderLabel = new QLabel(tr("F&older:"), this);
    folderLabel->setBuddy(m_folder);
    form->addRow(folderLabel, folderRow);

    m_subdir = new QLineEdit(u"kernels/"_s + ctx.ns, this);
    m_subdirLabel = new QLabel(tr("&Subfolder:"), this);
    m_subdirLabel->setBuddy(m_subdir);
    form->addRow(m_subdirLabel, m_subdir);

    m_license = new QPlainTextEdit(this);
    m_license->setPlaceholderText(tr("License header for every generated source file (optional)"));
    m_license->setMaximumHeight(64);
    auto *loadLicense = new QPushButton(tr("Load…"), this);
    auto *licenseRow = new QHBoxLayout;
    licenseRow->addWidget(m_license, 1);
    licenseRow->addWidget(loadLicense, 0, Qt::AlignTop);
    auto *licenseLabel = new QLabel(tr("&License:"), this);
    licenseLabel->setBuddy(m_license);
    form->addRow(licenseLabel, licenseRow);

    m_model = new ExportPlanModel(this);
    m_files = new QTreeView(this);
    m_files->setModel(m_model);
    m_files->setRootIsDecorated(false);
    m_files->setUniformRowHeights(true);
    m_files->header()->setSectionResizeMode(ExportPlanModel::PathColumn, QHeaderView::Stretch);
    m_files->header()->setStretchLastSection(false);
    m_preview = new QPlainTextEdit(this);
    m_preview->setReadOnly(true);
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *split = new QSplitter(this);
    split->addWidget(m_files);
    split->addWidget(m_preview);
    split->setStretchFactor(1, 2);

    m_linesLabel = new QLabel(tr("Add these lines to the project's CMakeLists.txt (those marked \"already there\" are):"),
                              this);
    m_cmakeLines = new QPlainTextEdit(this);
    m_cmakeLines->setReadOnly(true);
    m_cmakeLines->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_cmakeLines->setMaximumHeight(90);

    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_overwrite = new QCheckBox(tr("&Overwrite files that differ"), this);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_export = buttons->addButton(tr("&Export"), QDialogButtonBox::ActionRole);
    m_export->setDefault(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(split, 1);
    layout->addWidget(m_linesLabel);
    layout->addWidget(m_cmakeLines);
    layout->addWidget(m_status);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_overwrite);
    bottom->addStretch(1);
    bottom->addWidget(buttons);
    layout->addLayout(bottom);

    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(200); // typing a folder name should not plan every keystroke
    connect(m_refreshTimer, &QTimer::timeout, this, &ExportDialog::refresh);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::scheduleRefresh);
    connect(m_folder, &QLineEdit::textChanged, this, &ExportDialog::scheduleRefresh);
    connect(m_subdir, &QLineEdit::textChanged, this, &ExportDialog::scheduleRefresh);
    connect(m_license, &QPlainTextEdit::textChanged, this, &ExportDialog::scheduleRefresh);
    connect(m_overwrite, &QCheckBox::toggled, this, &ExportDialog::updateButtons);
    connect(m_export, &QPushButton::clicked, this, &ExportDialog::exportNow);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_files->selectionModel(), &QItemSelectionModel::currentChanged, this, &ExportDialog::showEntry);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        if (m_model->rowCount() > 0)
            m_files->setCurrentIndex(m_model->index(0, 0));
        else
            m_preview->clear();
    });
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export to"), m_folder->text());
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
    connect(loadLicense, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("License header"));
        if (file.isEmpty())
            return;
        QFile f(file);
        if (f.open(QIODevice::ReadOnly) && f.size() < 64 * 1024)
            m_license->setPlainText(QString::fromUtf8(f.readAll()));
        else
            QMessageBox::warning(this, tr("License header"), tr("Cannot read %1: %2").arg(file, f.errorString()));
    });

    setFormat(modelNew || torchTask ? ExportFormat::Torch : ExportFormat::CMake);
    refresh();
}

void ExportDialog::setFormat(ExportFormat format)
{
    // A format this variant does not export as (cmake for a ModelNew module) leaves the choice as it is.
    if (const int i = m_format->findData(int(format)); i >= 0)
        m_format->setCurrentIndex(i);
    const bool into = ExportFormat(m_format->currentData().toInt()) == ExportFormat::Into;
    m_subdir->setVisible(into);
    m_subdirLabel->setVisible(into);
    m_linesLabel->setVisible(into);
    m_cmakeLines->setVisible(into);
}

void ExportDialog::setOutputFolder(const QString &dir)
{
    m_folder->setText(dir);
}

void ExportDialog::setIntoSubdir(const QString &subdir)
{
    m_subdir->setText(subdir);
}

void ExportDialog::setLicenseText(const QString &text)
{
    m_license->setPlainText(text);
}

QString ExportDialog::outputFolder() const
{
    return m_folder->text().trimmed();
}

ExportOptions ExportDialog::options() const
{
    ExportOptions o;
    o.format = ExportFormat(m_format->currentData().toInt());
    o.licenseText = m_license->toPlainText();
    o.intoSubdir = m_subdir->text().trimmed();
    return o;
}

QString ExportDialog::statusText() const
{
    return m_status->text();
}

void ExportDialog::scheduleRefresh()
{
    setFormat(ExportFormat(m_format->currentData().toInt())); // keeps the into-only rows in step
    m_refreshTimer->start();
}

void ExportDialog::refresh()
{
    m_refreshTimer->stop();
    m_status->setText(tr("Comparing with the files on disk…"));
    m_export->setEnabled(false);
    // A newer request replaces this one; the dialog may be closed while a plan is being made.
    m_plans.deliver(this, QtConcurrent::run(makePlan, m_input, options(), outputFolder()), [this](const PlanJob &result) {
        if (!result.error.isEmpty()) {
            m_bundle = {};
            m_model->setPlan({});
            m_cmakeLines->clear();
            m_status->setText(result.error);
            updateButtons();
            Q_EMIT planReady();
            return;
        }
        showPlan(result.bundle, result.plan, result.cmakeLines);
    });
}

void ExportDialog::showPlan(const ExportBundle &bundle, const ExportPlan &plan, const QStringList &cmakeLines)
{
    m_bundle = bundle;
    m_model->setPlan(plan);
    m_cmakeLines->setPlainText(cmakeLines.join(u'\n'));
    const int conflicts = plan.count(ExportPlan::State::Conflict);
    QString status =
        tr("%n file(s) in %1: ", nullptr, int(plan.entries().size())).arg(QDir::toNativeSeparators(plan.outDir()))
        + tr("%1 new, %2 unchanged, %3 in conflict.")
              .arg(plan.count(ExportPlan::State::New))
              .arg(plan.count(ExportPlan::State::Identical))
              .arg(conflicts);
    if (conflicts > 0)
        status += u' '
                  + tr("Files in conflict differ from what is on disk: they are written only with \"Overwrite files that differ\".");
    if (!m_exportedTo.isEmpty())
        status = tr("Exported to %1.").arg(QDir::toNativeSeparators(std::exchange(m_exportedTo, QString()))) + u' ' + status;
    m_status->setText(status);
    updateButtons();
    Q_EMIT planReady();
}

void ExportDialog::showEntry()
{
    const ExportPlan::Entry *e = m_model->entry(m_files->currentIndex());
    if (!e) {
        m_preview->clear();
        return;
    }
    const QString generated = QString::fromUtf8(e->file.content);
    if (e->state != ExportPlan::State::Conflict) {
        m_preview->setPlainText(generated);
        return;
    }
    QFile f(e->absolutePath);
    if (!f.open(QIODevice::ReadOnly)) {
        m_preview->setPlainText(tr("Conflict: %1").arg(e->reason) + u"\n\n"_s + generated);
        return;
    }
    const QString onDisk = QString::fromUtf8(f.readAll());
    const auto diff = UnifiedDiff::compute(onDisk, generated, tr("on disk: %1").arg(e->path), tr("export: %1").arg(e->path));
    m_preview->setPlainText(tr("Conflict: %1. What the export would change:").arg(e->reason) + u"\n\n"_s
                            + UnifiedDiff::toText(diff));
}

void ExportDialog::updateButtons()
{
    const ExportPlan &plan = m_model->plan();
    const bool nothing = plan.entries().isEmpty();
    m_overwrite->setEnabled(plan.hasConflicts());
    m_export->setEnabled(!m_busy && !nothing && (!plan.hasConflicts() || m_overwrite->isChecked()));
}

void ExportDialog::exportNow()
{
    if (m_busy || !m_export->isEnabled())
        return;
    m_busy = true;
    updateButtons();
    const ExportPlan plan = m_model->plan();
    const bool force = m_overwrite->isChecked();
    m_status->setText(tr("Writing…"));
    const QFuture<QString> written = QtConcurrent::run([plan, force] {
        QString error;
        return plan.write(force, &error) ? QString() : error;
    });
    whenFinished(this, written, [this, dir = plan.outDir()](const QString &error) {
        m_busy = false;
        if (!error.isEmpty()) {
            m_status->setText(tr("Export failed: %1").arg(error));
            updateButtons();
            Q_EMIT exportFailed(error);
            return;
        }
        m_overwrite->setChecked(false);
        m_exportedTo = dir; // showPlan() says so above the new plan
        refresh();
        Q_EMIT exported(dir);
    });
}

} // namespace kforge
