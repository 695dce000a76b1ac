#include "views/settings/timingpage.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStyle>

namespace kforge {

TimingPage::TimingPage(QWidget *parent)
    : SettingsPage(parent)
{
    auto spin = [this](int min, int max, const QString &suffix, const QString &tip) {
        auto *box = new QSpinBox(this);
        box->setRange(min, max);
        box->setSuffix(suffix);
        box->setToolTip(tip);
        box->setGroupSeparatorShown(true);
        return box;
    };
    m_trials = spin(1, 100, QString(), tr("Each trial verifies the kernel on freshly generated inputs with a new seed."));
    m_minRuns = spin(1, 1000000, QString(), tr("Timed runs of each kernel at least."));
    m_minTime = spin(0, 600000, tr(" ms"), tr("Keep timing until at least this much time was measured."));
    m_maxRuns = spin(1, 10000000, QString(), tr("Stop after this many timed runs even if the minimum time is not reached."));
    m_warmup = spin(0, 10000, QString(), tr("Untimed runs before timing starts."));
    m_ciTarget = new QDoubleSpinBox(this);
    m_ciTarget->setRange(0, 50);
    m_ciTarget->setDecimals(1);
    m_ciTarget->setSingleStep(0.5);
    m_ciTarget->setSuffix(tr(" %"));
    m_ciTarget->setSpecialValueText(tr("Off (minimum time)"));
    m_ciTarget->setToolTip(tr("Timing stops once the 95% confidence interval of the reference's and of the "
                              "candidate's median is within this many percent of it, after the minimum runs and "
                              "time, at the latest at the maximum runs. 0 turns it off: timing runs until the "
                              "minimum runs and the minimum time. A task can set its own target in task.json."));
    m_metrics = new QComboBox(this);
    m_metrics->addItem(tr("Only for the best variants (when they pay)"), int(MetricsPolicy::Mode::WhenTheyPay));
    m_metrics->addItem(tr("For every candidate"), int(MetricsPolicy::Mode::Always));
    m_metrics->addItem(tr("Never"), int(MetricsPolicy::Mode::Never));
    m_metrics->setToolTip(tr("The hardware-metrics pass replays each kernel and takes a second or more per "
                             "candidate. \"When they pay\" runs it only for a correct candidate that lands among "
                             "the session's three fastest variants."));
    auto *metricsNote = new QLabel(tr("Skipped metrics show as \"not measured\", never as zeros; Profile and "
                                      "re-runs always measure."),
                                   this);
    metricsNote->setWordWrap(true);
    connect(m_minRuns, &QSpinBox::valueChanged, m_maxRuns, [this](int v) { m_maxRuns->setMinimum(v); });

    auto *intro = new QLabel(tr("The reference and the candidate are timed interleaved, in the same process, on the "
                                "same inputs, with the L2 cache flushed between runs."),
                             this);
    intro->setWordWrap(true);
    auto *form = new QFormLayout(this);
    form->addRow(intro);
    form->addRow(tr("Verification &trials:"), m_trials);
    form->addRow(tr("Minimum &runs:"), m_minRuns);
    form->addRow(tr("Minimum &time:"), m_minTime);
    form->addRow(tr("Ma&ximum runs:"), m_maxRuns);
    form->addRow(tr("&Warm-up runs:"), m_warmup);
    form->addRow(tr("Median &confidence target (±%):"), m_ciTarget);
    form->addRow(tr("Hardware &metrics for round candidates:"), m_metrics);
    form->addRow(metricsNote);
}

QString TimingPage::title() const
{
    return tr("Timing");
}

QIcon TimingPage::icon() const
{
    return QIcon::fromTheme(QStringLiteral("chronometer"), style()->standardIcon(QStyle::SP_BrowserReload));
}

void TimingPage::load(const Settings &settings)
{
    setTiming(settings.timing());
    setMetricsPolicy(settings.metricsPolicy());
}

void TimingPage::apply(Settings &settings)
{
    settings.setTiming(timing());
    settings.setMetricsPolicy(metricsPolicy());
}

void TimingPage::restoreDefaults()
{
    setTiming(Settings::Defaults::timing());
    setMetricsPolicy(Settings::Defaults::metricsPolicy());
}

TimingSetting TimingPage::timing() const
{
    TimingSetting t;
    t.trials = m_trials->value();
    t.minRuns = m_minRuns->value();
    t.minTimeMs = m_minTime->value();
    t.maxRuns = m_maxRuns->value();
    t.warmup = m_warmup->value();
    t.ciTargetPercent = m_ciTarget->value();
    return t;
}

void TimingPage::setTiming(const TimingSetting &t)
{
    m_trials->setValue(t.trials);
    m_minRuns->setValue(t.minRuns);
    m_minTime->setValue(t.minTimeMs);
    m_maxRuns->setValue(t.maxRuns);
    m_warmup->setValue(t.warmup);
    m_ciTarget->setValue(t.ciTargetPercent);
}

MetricsPolicy::Mode TimingPage::metricsPolicy() const
{
    return MetricsPolicy::Mode(m_metrics->currentData().toInt());
}

void TimingPage::setMetricsPolicy(MetricsPolicy::Mode mode)
{
    m_metrics->setCurrentIndex(m_metrics->findData(int(mode)));
}

} // namespace kforge
