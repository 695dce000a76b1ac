#include "app/gui/gettingstarted.h"

#include "core/version.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace kforge {

namespace {
const QString exampleName = QStringLiteral("h200-diag_matmul-gui.kforge");
} // namespace

QString GettingStarted::exampleSession()
{
    QStringList candidates;
    if (const QString appDir = QCoreApplication::applicationDirPath(); !appDir.isEmpty())
        candidates << appDir + QStringLiteral("/../share/kforge/examples/") + exampleName;
    if (const QString installed = QStandardPaths::locate(QStandardPaths::GenericDataLocation,
                                                         QStringLiteral("kforge/examples/") + exampleName);
        !installed.isEmpty())
        candidates << installed;
    candidates << QStringLiteral(KFORGE_SOURCE_DIR "/docs/") + exampleName; // a build that is not installed
    for (const QString &file : std::as_const(candidates))
        if (QFileInfo(file).isFile())
            return QDir::cleanPath(QFileInfo(file).absoluteFilePath());
    return {};
}

QString GettingStarted::copyExample(QString *error)
{
    const QString example = exampleSession();
    if (example.isEmpty()) {
        *error = tr("The example session is not installed (it belongs in share/kforge/examples/%1).").arg(exampleName);
        return {};
    }
    const QDir dir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/examples"));
    if (!QDir().mkpath(dir.absolutePath())) {
        *error =
            tr("Could not make the folder %1 for a copy of the example.").arg(QDir::toNativeSeparators(dir.absolutePath()));
        return {};
    }
    // A new copy each time: what the user did in an earlier copy (rounds, notes) stays.
    const QString stem = QFileInfo(example).completeBaseName() + u'-'
                         + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QString copy = dir.filePath(stem + QStringLiteral(".kforge"));
    for (int i = 2; QFileInfo::exists(copy); ++i)
        copy = dir.filePath(stem + u'-' + QString::number(i) + QStringLiteral(".kforge"));
    if (!QFile::copy(example, copy)) {
        *error = tr("Could not copy the example session to %1.").arg(QDir::toNativeSeparators(copy));
        return {};
    }
    // The installed file is read-only for the user; the copy is theirs.
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    return copy;
}

GettingStarted::GettingStarted(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("gettingStarted"));
    setWindowTitle(tr("Getting Started with KForge"));
    resize(720, 500);
    m_guide = new QTextBrowser(this);
    m_guide->setOpenLinks(false);
    m_guide->setHtml(
        tr("<h2>Getting started</h2>"
           "<p>KForge makes a CUDA kernel faster with a language model in the loop. Each round the model is shown "
           "earlier variants with their <i>measured</i> speedups and profiles, explains why the faster ones are "
           "faster, and writes new candidates; KForge compiles, verifies and times every one of them on a GPU.</p>"
           "<ol>"
           "<li><b>Open a task</b> (File → Open Task Folder…): a folder with <tt>task.json</tt> and "
           "<tt>reference.cu</tt>. KForge ships examples; the reference opens in the editor and a working session "
           "keeps every result.</li>"
           "<li><b>Add a GPU worker</b> (Settings → Workers, in the Tools menu). Only the worker runs kernels. "
           "Without a GPU here, run it on a machine that has one: <tt>ssh gpu-box kforge-worker</tt>. Without any "
           "worker, kernels are still compiled and their errors shown, but nothing is measured.</li>"
           "<li><b>Add a model</b> (Settings → Models): an OpenAI-compatible or Anthropic endpoint and its "
           "API key.</li>"
           "<li><b>Run a round</b> (Round Control → Start Round) and watch the answers arrive in Reasoning.</li>"
           "<li><b>See why A beats B</b> in Variants, Charts, Compare and Diff; pin exemplars, or fork a variant, edit "
           "it and press Ctrl+Enter to measure your own idea.</li>"
           "<li><b>Take the winner home</b>: File → Export Variant… makes a CMake or PyTorch project with a test and a "
           "benchmark; File → Save Report… writes one HTML file to share.</li>"
           "</ol>"
           "<p><b>No GPU yet?</b> Open the example session: a real session measured on an NVIDIA H200 "
           "(diag_matmul), with its rounds, variants, profiles and the model's analyses. It opens as a copy, so "
           "the example itself stays as installed.</p>"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_openExample = buttons->addButton(tr("Open &Example Session"), QDialogButtonBox::ActionRole);
    m_openExample->setObjectName(QStringLiteral("openExample"));
    m_openExample->setDefault(true);
    const bool haveExample = !exampleSession().isEmpty();
    m_openExample->setEnabled(haveExample);
    m_openExample->setToolTip(haveExample ? exampleSession() : tr("The example session is not installed."));
    QPushButton *task = buttons->addButton(tr("Open &Task Folder…"), QDialogButtonBox::ActionRole);
    QPushButton *workers = buttons->addButton(tr("Settings → &Workers…"), QDialogButtonBox::ActionRole);
    connect(m_openExample, &QPushButton::clicked, this, &GettingStarted::openExample);
    connect(task, &QPushButton::clicked, this, [this] {
        accept();
        Q_EMIT openTaskRequested();
    });
    connect(workers, &QPushButton::clicked, this, [this] {
        accept();
        Q_EMIT workersRequested();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_guide, 1);
    layout->addWidget(buttons);
}

void GettingStarted::openExample()
{
    QString error;
    const QString copy = copyExample(&error);
    if (copy.isEmpty()) {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("KForge"), error, QMessageBox::Close, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return;
    }
    accept();
    Q_EMIT openExampleRequested(copy);
}

} // namespace kforge
