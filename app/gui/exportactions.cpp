#include "app/gui/exportactions.h"

#include "app/gui/mainactions.h"
#include "core/async/lateresultguard.h"
#include "core/export/reportinput.h"
#include "core/export/reportwriter.h"
#include "core/export/sessionexportsource.h"
#include "core/session/sessionstore.h"
#include "views/export/exportdialog.h"
#include "views/variants/variantselection.h"

#include <QAction>
#include <QCheckBox>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

namespace kforge {

namespace {

// How many of the best variants the report shows in full (kforge-cli report's default).
constexpr int kReportTop = 5;

QString native(const QString &path)
{
    return QDir::toNativeSeparators(path);
}

// Runs on a pool thread: a tr() message when the file could not be written, else empty.
QString writeFile(const QString &path, const QByteArray &bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return ExportActions::tr("Cannot write %1: %2").arg(native(path), f.errorString());
    if (f.write(bytes) != bytes.size() || !f.commit())
        return ExportActions::tr("Writing %1 failed: %2").arg(native(path), f.errorString());
    return {};
}

QString suggestedFile(const SessionStore &store, const QString &suffix)
{
    const QString base = QFileInfo(store.path()).completeBaseName();
    return QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).filePath(base + suffix);
}

} // namespace

ExportActions::ExportActions(MainActions *actions, SessionStore *store, VariantSelection *selection, QWidget *window)
    : QObject(window)
    , m_actions(actions)
    , m_store(store)
    , m_selection(selection)
    , m_window(window)
{
    connect(m_actions->exportVariant, &QAction::triggered, this, [this] {
        if (const qint64 id = exportTarget())
            exportVariant(id);
    });
    connect(m_actions->saveReport, &QAction::triggered, this, &ExportActions::chooseReportFile);
    connect(m_actions->exportTrainingData, &QAction::triggered, this, &ExportActions::chooseTrainingDataFile);
    for (auto signal : {&SessionStore::opened, &SessionStore::closed, &SessionStore::taskChanged})
        connect(m_store, signal, this, &ExportActions::updateActions);
    connect(m_store, &SessionStore::variantAdded, this, &ExportActions::updateActions);
    connect(m_store, &SessionStore::variantChanged, this, &ExportActions::updateActions);
    connect(m_selection, &VariantSelection::currentChanged, this, &ExportActions::updateActions);
    updateActions();
}

QMessageBox *ExportActions::resultBox() const
{
    return m_result;
}

qint64 ExportActions::exportTarget() const
{
    if (!m_store || !m_store->isOpen() || !m_store->hasTask())
        return 0;
    if (m_selection)
        if (const Variant *v = m_store->population().find(m_selection->current());
            v && v->origin != VariantOrigin::Reference && v->isCorrect())
            return v->id;
    QString error;
    return SessionExportSource::resolveVariant(*m_store, QStringLiteral("best"), &error);
}

void ExportActions::updateActions()
{
    if (!m_actions)
        return;
    const bool session = m_store && m_store->isOpen() && m_store->hasTask();
    const qint64 target = exportTarget();
    m_actions->exportVariant->setEnabled(target != 0);
    m_actions->exportVariant->setStatusTip(target ? tr("Export variant #%1 as a CMake or PyTorch project").arg(target)
                                                  : tr("No variant of this session is measured correct yet"));
    m_actions->saveReport->setEnabled(session && !m_busy);
    m_actions->exportTrainingData->setEnabled(session && !m_busy);
}

ExportDialog *ExportActions::exportVariant(qint64 variantId)
{
    if (!m_store || !m_store->isOpen())
        return nullptr;
    QString error;
    const auto input = SessionExportSource::build(*m_store, variantId, &error);
    if (!input) {
        done({}, {}, tr("Variant #%1 cannot be exported: %2").arg(variantId).arg(error));
        return nullptr;
    }
    auto *dialog = new ExportDialog(*input, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExportDialog::exported, this, [this, variantId](const QString &dir) {
        done(dir, tr("Variant #%1 is a project of its own there, with its README, test and benchmark.").arg(variantId), {});
    });
    dialog->open();
    return dialog;
}

void ExportActions::chooseReportFile()
{
    if (!m_store || !m_store->isOpen())
        return;
    QString file = QFileDialog::getSaveFileName(m_window, tr("Save Report"),
                                                suggestedFile(*m_store, QStringLiteral("-report.html")),
                                                tr("HTML files (*.html)"));
    if (file.isEmpty())
        return;
    if (QFileInfo(file).suffix().isEmpty())
        file += QStringLiteral(".html");
    saveReport(file);
}

bool ExportActions::saveReport(const QString &file)
{
    if (m_busy || !m_store || !m_store->isOpen())
        return false;
    // Gathering reads the session on its own thread (its database connection lives there); it takes
    // milliseconds. Rendering the HTML, the chart and the diffs, and writing, do not need the session.
    QString error;
    const auto report = ReportSource::build(*m_store, kReportTop, &error);
    if (!report) {
        done({}, {}, tr("No report can be made of this session: %1").arg(error));
        return true;
    }
    const QString summary = tr("%n variant(s); the best %1 in full, with their diffs and the model's analyses.",
                               nullptr, int(report->variants.size()))
                                .arg(report->best.size());
    startBusy(tr("Writing the report…"));
    whenFinished(this, QtConcurrent::run([input = *report, file] { return writeFile(file, ReportWriter::html(input).toUtf8()); }),
                 [this, file, summary](const QString &error) { done(file, summary, error); });
    return true;
}

void ExportActions::chooseTrainingDataFile()
{
    if (!m_store || !m_store->isOpen())
        return;
    QDialog options(m_window);
    options.setWindowTitle(tr("Export Training Data"));
    auto *correct = new QCheckBox(tr("Only answers whose kernel was verified &correct"), &options);
    auto *faster = new QCheckBox(tr("Only answers at &least"), &options);
    auto *speedup = new QDoubleSpinBox(&options);
    speedup->setRange(0.01, 1000);
    speedup->setValue(1.0);
    speedup->setSuffix(tr("× the reference"));
    speedup->setEnabled(false);
    connect(faster, &QCheckBox::toggled, speedup, &QWidget::setEnabled);
    auto *suspicious = new QCheckBox(tr("Also results held for &review and results of degenerate tasks"), &options);
    auto *speedRow = new QHBoxLayout;
    speedRow->addWidget(faster);
    speedRow->addWidget(speedup);
    speedRow->addStretch(1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, &options);
    buttons->addButton(tr("&Choose File…"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::accepted, &options, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &options, &QDialog::reject);
    auto *form = new QFormLayout(&options);
    form->addRow(new QLabel(tr("Every model answer of this session as one JSON object per line: the prompt as chat "
                               "messages, the answer, its parsed parts, the verdict and the measured speedup."),
                            &options));
    form->addRow(correct);
    form->addRow(speedRow);
    form->addRow(suspicious);
    form->addRow(buttons);
    if (options.exec() != QDialog::Accepted)
        return;
    DatasetFilter filter;
    filter.correctOnly = correct->isChecked();
    if (faster->isChecked())
        filter.minSpeedup = speedup->value();
    filter.includeSuspicious = suspicious->isChecked();

    QString file = QFileDialog::getSaveFileName(m_window, tr("Export Training Data"),
                                                suggestedFile(*m_store, QStringLiteral("-training.jsonl")),
                                                tr("JSON lines (*.jsonl)"));
    if (file.isEmpty())
        return;
    if (QFileInfo(file).suffix().isEmpty())
        file += QStringLiteral(".jsonl");
    exportTrainingData(file, filter);
}

bool ExportActions::exportTrainingData(const QString &file, const DatasetFilter &filter)
{
    if (m_busy || !m_store || !m_store->isOpen())
        return false;
    if (!m_store->hasTask()) {
        done({}, {}, tr("This session has no task, so it has no training data."));
        return true;
    }
    DatasetStats stats;
    const QList<QJsonObject> records = TrainingData::records(*m_store, filter, &stats);
    QString summary = tr("%1 of %2 model answers.").arg(stats.written).arg(stats.answers);
    if (const int skipped = stats.notCorrect + stats.belowSpeedup + stats.suspicious + stats.degenerate; skipped > 0)
        summary += u' '
                   + tr("Left out: %1 not correct, %2 below the speedup, %3 held for review, %4 degenerate.")
                         .arg(stats.notCorrect)
                         .arg(stats.belowSpeedup)
                         .arg(stats.suspicious)
                         .arg(stats.degenerate);
    startBusy(tr("Writing the training data…"));
    const QFuture<QString> written = QtConcurrent::run([records, file] {
        QByteArray data;
        for (const QJsonObject &r : records)
            data += QJsonDocument(r).toJson(QJsonDocument::Compact) + '\n';
        return writeFile(file, data);
    });
    whenFinished(this, written, [this, file, summary](const QString &error) { done(file, summary, error); });
    return true;
}

void ExportActions::startBusy(const QString &text)
{
    m_busy = true;
    updateActions();
    // Shown only when the work takes long enough to be noticed.
    m_progress = new QProgressDialog(text, QString(), 0, 0, m_window);
    m_progress->setWindowTitle(tr("KForge"));
    m_progress->setMinimumDuration(400);
    m_progress->setAutoClose(false);
}

void ExportActions::done(const QString &file, const QString &summary, const QString &error)
{
    m_busy = false;
    if (m_progress)
        m_progress->deleteLater();
    updateActions();
    if (m_result)
        m_result->close();
    if (!error.isEmpty()) {
        m_result = new QMessageBox(QMessageBox::Warning, tr("KForge"), error, QMessageBox::Close, m_window);
    } else {
        const QFileInfo info(file);
        const QString text = info.isDir() ? tr("Exported to %1.").arg(native(file)) : tr("Saved %1.").arg(native(file));
        m_result = new QMessageBox(QMessageBox::Information, tr("KForge"), text, QMessageBox::Close, m_window);
        m_result->setInformativeText(summary);
        if (!info.isDir()) {
            QPushButton *open = m_result->addButton(tr("&Open"), QMessageBox::ActionRole);
            open->setObjectName(QStringLiteral("open"));
            connect(open, &QPushButton::clicked, this, [file] { QDesktopServices::openUrl(QUrl::fromLocalFile(file)); });
        }
        QPushButton *folder = m_result->addButton(tr("Show &Folder"), QMessageBox::ActionRole);
        folder->setObjectName(QStringLiteral("folder"));
        const QString dir = info.isDir() ? info.absoluteFilePath() : info.absolutePath();
        connect(folder, &QPushButton::clicked, this, [dir] { QDesktopServices::openUrl(QUrl::fromLocalFile(dir)); });
    }
    m_result->setAttribute(Qt::WA_DeleteOnClose);
    m_result->open();
    Q_EMIT finished(file, summary, error);
}

} // namespace kforge
