#include "app/gui/readinessindicators.h"

#include "app/gui/noticebar.h"
#include "core/log/loghub.h"
#include "core/settings/settings.h"
#include "core/workbench/readinesswatch.h"
#include "core/workbench/workbench.h"

#include <QLabel>
#include <QStatusBar>

namespace kforge {

ReadinessIndicators::ReadinessIndicators(QStatusBar *statusBar, NoticeBar *notice, QAction *configureWorkers,
                                         Workbench *workbench, ReadinessWatch *readiness, Settings &settings,
                                         LogHub &log, QObject *parent)
    : QObject(parent)
    , m_notice(notice)
    , m_configureWorkers(configureWorkers)
    , m_workbench(workbench)
    , m_readiness(readiness)
    , m_settings(settings)
    , m_log(log)
{
    m_probe = new ToolchainProbe(this);
    m_toolchainLabel = new QLabel(statusBar);
    m_workersLabel = new QLabel(statusBar);
    statusBar->addPermanentWidget(m_toolchainLabel);
    statusBar->addPermanentWidget(m_workersLabel);

    connect(m_probe, &ToolchainProbe::finished, this, &ReadinessIndicators::onToolchainChecked);
    connect(&m_settings, &Settings::compilerChanged, this, &ReadinessIndicators::checkToolchain);
    connect(&m_settings, &Settings::workersChanged, this, &ReadinessIndicators::updateWorkerStatus);
    connect(m_workbench, &Workbench::statusChanged, this, &ReadinessIndicators::updateWorkerStatus);
    connect(m_readiness, &ReadinessWatch::changed, this, [this](const WorkerReadiness &now) {
        // No GPU on the machine is said calmly (the notice bar explains it); a worker that fails is a warning.
        if (now.isUnusable())
            m_log.post(LogSource::Worker, now.state() == WorkerReadiness::State::NoGpu ? LogLevel::Info : LogLevel::Warning,
                       now.explanation());
        updateNotice();
    });
}

void ReadinessIndicators::checkToolchain()
{
    m_toolchainLabel->setText(tr("Looking for nvcc…"));
    m_probe->start(m_settings.nvccPath());
}

void ReadinessIndicators::onToolchainChecked(const ToolchainInfo &info)
{
    m_toolchain = info;
    if (info.found) {
        m_toolchainLabel->setText(tr("nvcc %1").arg(info.version));
        m_toolchainLabel->setToolTip(info.nvccPath);
        m_log.post(LogSource::Compiler, LogLevel::Info, tr("CUDA compiler: %1 (%2)").arg(info.nvccPath, info.version));
    } else {
        m_toolchainLabel->setText(tr("No CUDA compiler"));
        m_toolchainLabel->setToolTip(info.error);
        m_log.post(LogSource::Compiler, LogLevel::Warning, info.error);
    }
    updateNotice();
    Q_EMIT toolchainChecked(info);
}

void ReadinessIndicators::updateWorkerStatus()
{
    m_workersLabel->setText(m_workbench->statusText());
    m_workersLabel->setToolTip(m_workbench->statusToolTip());
    updateNotice();
}

void ReadinessIndicators::updateNotice()
{
    if (!m_toolchain)
        return; // wait for the probe: no flash of a wrong message
    const WorkerReadiness readiness = m_readiness->readiness();
    // A torch task's ModelNew needs no nvcc: what it lacks is a worker with a GPU and torch, in readiness's torch
    // wording.
    const bool torch = readiness.taskKind() == TaskKind::Torch;
    if (!m_toolchain->found && !torch) {
        m_notice->showNotice(tr("Compiling and evaluating need a CUDA toolkit (nvcc) or a configured GPU worker — "
                                "Settings → Workers."),
                             m_configureWorkers);
    } else if (readiness.isUnusable()) {
        m_notice->showNotice(readiness.explanation(), m_configureWorkers);
        m_notice->setToolTip(readiness.details().join(u'\n'));
    } else {
        m_notice->hide();
    }
}

} // namespace kforge
