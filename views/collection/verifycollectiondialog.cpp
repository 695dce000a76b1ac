#include "views/collection/verifycollectiondialog.h"

#include "core/collection/releasedjsonreader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QWidget *withButtons(QWidget *parent, QLineEdit *edit, const QList<QPushButton *> &buttons)
{
    auto *row = new QWidget(parent);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    for (QPushButton *b : buttons)
        layout->addWidget(b);
    return row;
}

} // namespace

VerifyCollectionDialog::VerifyCollectionDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(u"VerifyCollectionDialog"_s);
    setWindowTitle(tr("Verify Collection"));
    auto *intro = new QLabel(tr("Every (problem, candidate) pair of the collection is re-measured by KForge's judge "
                                "through the workers, with every claim marked as holding or not and why. The problems "
                                "are imported as PyTorch tasks (a python3 with torch on this machine, a CPU is "
                                "enough)."),
                             this);
    intro->setWordWrap(true);

    m_collection = new QLineEdit(this);
    m_collection->setObjectName(u"collectionPath"_s);
    m_collection->setPlaceholderText(tr("a folder with problems/ and candidates/, a .json file or a run folder"));
    auto *folder = new QPushButton(tr("Folder…"), this);
    auto *file = new QPushButton(tr("JSON File…"), this);
    m_format = new QComboBox(this);
    m_format->addItem(tr("Detect"), QString());
    m_format->addItem(tr("Folder of problems and candidates"), formatName(CollectionFormat::ProblemFolder));
    m_format->addItem(tr("Released-kernels JSON"), formatName(CollectionFormat::ReleasedJson));
    m_format->addItem(tr("KernelBench run folder"), formatName(CollectionFormat::KernelBenchRun));
    m_problems = new QLineEdit(this);
    m_problems->setObjectName(u"problemsPath"_s);
    m_problems->setPlaceholderText(tr("a run folder's problems (a KernelBench checkout), or a candidates folder's"));
    auto *problems = new QPushButton(tr("Browse…"), this);
    m_map = new QLineEdit(this);
    m_map->setObjectName(u"fieldMap"_s);
    m_map->setPlaceholderText(tr("e.g. custom_code=CUDA_Code, score=CUDA_Speedup_Native"));
    m_map->setToolTip(tr("A released JSON's field names when they are not task_id, ref_code, custom_code, score "
                         "and level: field=name, separated by commas"));
    m_outDir = new QLineEdit(this);
    m_outDir->setObjectName(u"outDir"_s);
    m_outDir->setPlaceholderText(tr("where the task folders, results.jsonl, results.csv and report.html go"));
    auto *out = new QPushButton(tr("Browse…"), this);
    m_continue = new QLabel(this);
    m_continue->setWordWrap(true);
    m_workers = new QLabel(this);
    m_workers->setWordWrap(true);
    auto *workers = new QPushButton(tr("Settings → Workers…"), this);
    auto *workersRow = new QWidget(this);
    auto *workersLayout = new QHBoxLayout(workersRow);
    workersLayout->setContentsMargins(0, 0, 0, 0);
    workersLayout->addWidget(m_workers, 1);
    workersLayout->addWidget(workers);
    m_heldOut = new QCheckBox(tr("Verify correct pairs again at two held-out sizes"), this);
    m_heldOut->setChecked(true);
    m_tolerances = new QCheckBox(tr("Verify failing pairs again at 1e-3 and 1e-2"), this);
    m_tolerances->setChecked(true);

    auto *form = new QFormLayout;
    form->addRow(tr("Collection:"), withButtons(this, m_collection, {folder, file}));
    form->addRow(tr("Layout:"), m_format);
    form->addRow(tr("Problems:"), withButtons(this, m_problems, {problems}));
    form->addRow(tr("Field names:"), m_map);
    form->addRow(tr("Output folder:"), withButtons(this, m_outDir, {out}));
    form->addRow(QString(), m_continue);
    form->addRow(tr("Workers:"), workersRow);
    form->addRow(QString(), m_heldOut);
    form->addRow(QString(), m_tolerances);

    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(u"color: #c62828"_s);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_verify = m_buttons->addButton(tr("Verify"), QDialogButtonBox::AcceptRole);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &VerifyCollectionDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    connect(folder, &QPushButton::clicked, this, &VerifyCollectionDialog::chooseCollectionFolder);
    connect(file, &QPushButton::clicked, this, &VerifyCollectionDialog::chooseCollectionFile);
    connect(problems, &QPushButton::clicked, this, &VerifyCollectionDialog::chooseProblems);
    connect(out, &QPushButton::clicked, this, &VerifyCollectionDialog::chooseOutDir);
    connect(workers, &QPushButton::clicked, this, &VerifyCollectionDialog::workersRequested);
    connect(m_outDir, &QLineEdit::textChanged, this, &VerifyCollectionDialog::outDirChanged);
    for (QLineEdit *e : {m_collection, m_problems, m_map})
        connect(e, &QLineEdit::textChanged, this, &VerifyCollectionDialog::update);
    connect(m_format, &QComboBox::currentIndexChanged, this, &VerifyCollectionDialog::update);
    resize(720, sizeHint().height());
    update();
}

void VerifyCollectionDialog::setWorkersText(const QString &text)
{
    m_workers->setText(text);
}

void VerifyCollectionDialog::setCollectionPath(const QString &path)
{
    m_collection->setText(path);
}

void VerifyCollectionDialog::setProblemsFolder(const QString &path)
{
    m_problems->setText(path);
}

void VerifyCollectionDialog::setFieldMap(const QString &text)
{
    m_map->setText(text);
}

void VerifyCollectionDialog::setOutDir(const QString &path)
{
    m_outDir->setText(path);
}

QString VerifyCollectionDialog::outDir() const
{
    const QString dir = m_outDir->text().trimmed();
    return dir.isEmpty() ? QString() : QDir(dir).absolutePath();
}

QString VerifyCollectionDialog::continueText() const
{
    return m_continue->text();
}

std::optional<QMap<QString, QString>> VerifyCollectionDialog::parsedMap(QString *why) const
{
    QMap<QString, QString> map;
    for (const QString &part : m_map->text().split(u',', Qt::SkipEmptyParts)) {
        const QString field = part.section(u'=', 0, 0).trimmed(), name = part.section(u'=', 1).trimmed();
        if (!part.contains(u'=') || name.isEmpty() || !ReleasedJsonReader::fields().contains(field)) {
            *why = tr("Field names take field=name with field one of %1, not '%2'.")
                       .arg(ReleasedJsonReader::fields().join(u", "_s), part.trimmed());
            return std::nullopt;
        }
        map.insert(field, name);
    }
    return map;
}

VerifyManifest VerifyCollectionDialog::manifest() const
{
    VerifyManifest m;
    m.collection = QFileInfo(m_collection->text().trimmed()).absoluteFilePath();
    if (const QString f = m_format->currentData().toString(); !f.isEmpty())
        m.read.format = CollectionReader::formatFromName(f);
    if (const QString p = m_problems->text().trimmed(); !p.isEmpty())
        m.read.problems = QFileInfo(p).absoluteFilePath();
    QString why;
    m.read.fieldMap = parsedMap(&why).value_or(QMap<QString, QString>());
    m.heldOut = m_heldOut->isChecked();
    m.tolerances = m_tolerances->isChecked();
    return m;
}

QString VerifyCollectionDialog::problem() const
{
    const QString collection = m_collection->text().trimmed();
    if (collection.isEmpty())
        return tr("Choose the collection.");
    if (!QFileInfo::exists(collection))
        return tr("%1 does not exist.").arg(collection);
    if (const QString p = m_problems->text().trimmed(); !p.isEmpty() && !QFileInfo(p).isDir())
        return tr("The problems folder %1 does not exist.").arg(p);
    QString why;
    if (!parsedMap(&why))
        return why;
    if (m_outDir->text().trimmed().isEmpty())
        return tr("Choose the output folder.");
    return {};
}

void VerifyCollectionDialog::accept()
{
    const QString why = problem();
    m_error->setText(why);
    if (why.isEmpty())
        QDialog::accept();
}

void VerifyCollectionDialog::update()
{
    const bool json = m_format->currentData().toString() == formatName(CollectionFormat::ReleasedJson)
                      || (m_format->currentData().toString().isEmpty()
                          && m_collection->text().trimmed().endsWith(u".json"_s, Qt::CaseInsensitive));
    m_map->setEnabled(json);
    m_problems->setEnabled(!json);
    m_error->clear();
}

void VerifyCollectionDialog::outDirChanged()
{
    const QString dir = outDir();
    const std::optional<VerifyManifest> earlier = dir.isEmpty() ? std::nullopt : VerifyManifest::load(dir);
    const QFileInfo log(QDir(dir).filePath(u"results.jsonl"_s));
    if (!earlier) {
        m_continue->setText(log.exists() ? tr("This folder has results.jsonl: the pairs measured there are kept.")
                                         : QString());
        return;
    }
    // A verification is there: it continues, with what it was started with.
    m_collection->setText(earlier->collection);
    m_problems->setText(earlier->read.problems);
    QStringList map;
    for (auto it = earlier->read.fieldMap.cbegin(); it != earlier->read.fieldMap.cend(); ++it)
        map << it.key() + u'=' + it.value();
    m_map->setText(map.join(u", "_s));
    m_format->setCurrentIndex(earlier->read.format ? std::max(0, m_format->findData(formatName(*earlier->read.format))) : 0);
    m_heldOut->setChecked(earlier->heldOut);
    m_tolerances->setChecked(earlier->tolerances);
    m_continue->setText(tr("This folder holds a verification of %1 (results.jsonl, %2 KiB): it continues, the pairs "
                           "measured there are kept.")
                            .arg(QDir::toNativeSeparators(earlier->collection))
                            .arg((log.size() + 1023) / 1024));
}

void VerifyCollectionDialog::chooseCollectionFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Collection Folder"), m_collection->text());
    if (!dir.isEmpty())
        m_collection->setText(dir);
}

void VerifyCollectionDialog::chooseCollectionFile()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Released Kernels"), m_collection->text(),
                                                      tr("JSON files (*.json);;All files (*)"));
    if (!file.isEmpty())
        m_collection->setText(file);
}

void VerifyCollectionDialog::chooseProblems()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Problems Folder"), m_problems->text());
    if (!dir.isEmpty())
        m_problems->setText(dir);
}

void VerifyCollectionDialog::chooseOutDir()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Output Folder"), m_outDir->text());
    if (!dir.isEmpty())
        m_outDir->setText(dir);
}

} // namespace kforge
