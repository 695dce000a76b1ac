#include "views/settings/compilerpage.h"

#include "core/settings/settings.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QStyle>
#include <QTimer>

namespace kforge {

CompilerPage::CompilerPage(QWidget *parent)
    : SettingsPage(parent)
{
    m_probe = new ToolchainProbe(this);
    m_nvcc = new QLineEdit(this);
    m_nvcc->setPlaceholderText(tr("Automatic: $CUDA_HOME, /usr/local/cuda, then PATH"));
    m_nvcc->setClearButtonEnabled(true);
    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *nvccRow = new QHBoxLayout;
    nvccRow->addWidget(m_nvcc, 1);
    nvccRow->addWidget(browse);
    m_detected = new QLabel(this);
    m_detected->setWordWrap(true);
    m_detected->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_flags = new QLineEdit(this);
    m_flags->setToolTip(tr("Passed to nvcc for every kernel, before the task's own flags. Quote arguments that "
                           "contain spaces."));
    m_arch = new QComboBox(this);
    m_arch->setEditable(true);
    m_arch->addItem(tr("The GPU of the worker"), QString());
    for (const char *sm : {"sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_120"})
        m_arch->addItem(QLatin1String(sm), QLatin1String(sm));

    auto *form = new QFormLayout(this);
    // A row whose field is a layout gets no buddy from QFormLayout, and its "&" would show literally.
    auto *nvccLabel = new QLabel(tr("&nvcc:"), this);
    nvccLabel->setObjectName(QStringLiteral("nvccLabel"));
    nvccLabel->setBuddy(m_nvcc);
    form->addRow(nvccLabel, nvccRow);
    form->addRow(QString(), m_detected);
    form->addRow(tr("&Flags:"), m_flags);
    form->addRow(tr("&Architecture:"), m_arch);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Choose nvcc"), m_nvcc->text());
        if (!file.isEmpty())
            m_nvcc->setText(file);
    });
    // Check the compiler shortly after typing stops, never on every key.
    auto *debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(400);
    connect(debounce, &QTimer::timeout, this, &CompilerPage::detect);
    connect(m_nvcc, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(m_probe, &ToolchainProbe::finished, this, [this](const ToolchainInfo &info) {
        if (info.found)
            m_detected->setText(tr("Found nvcc %1 at %2").arg(info.version, info.nvccPath));
        else
            m_detected->setText(info.error);
        Q_EMIT detectionFinished(info);
    });
}

QString CompilerPage::title() const
{
    return tr("Compiler");
}

QIcon CompilerPage::icon() const
{
    return QIcon::fromTheme(QStringLiteral("run-build"), style()->standardIcon(QStyle::SP_FileDialogDetailedView));
}

void CompilerPage::load(const Settings &settings)
{
    m_nvcc->setText(settings.nvccPath());
    m_flags->setText(settings.compileFlags().join(u' '));
    setArch(settings.defaultArch());
    detect();
}

void CompilerPage::apply(Settings &settings)
{
    settings.setNvccPath(m_nvcc->text().trimmed());
    settings.setCompileFlags(QProcess::splitCommand(m_flags->text()));
    settings.setDefaultArch(arch());
}

void CompilerPage::restoreDefaults()
{
    m_nvcc->setText(Settings::Defaults::nvccPath());
    m_flags->setText(Settings::Defaults::compileFlags().join(u' '));
    setArch(Settings::Defaults::defaultArch());
}

void CompilerPage::detect()
{
    m_detected->setText(tr("Looking for nvcc…"));
    m_probe->start(m_nvcc->text().trimmed());
}

void CompilerPage::setArch(const QString &arch)
{
    const int index = m_arch->findData(arch);
    if (index >= 0)
        m_arch->setCurrentIndex(index);
    else
        m_arch->setEditText(arch);
}

QString CompilerPage::arch() const
{
    const QString text = m_arch->currentText().trimmed();
    const int index = m_arch->findText(text);
    return index >= 0 ? m_arch->itemData(index).toString() : text;
}

} // namespace kforge
