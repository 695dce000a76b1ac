#pragma once
// Settings → Timing: how hard each evaluation measures (verification trials, timed runs, warm-up), and when a
// round's candidates get the hardware-metrics pass.
#include "core/settings/settings.h"
#include "views/settings/settingspage.h"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace kforge {

class TimingPage : public SettingsPage
{
    Q_OBJECT
public:
    explicit TimingPage(QWidget *parent = nullptr);

    QString title() const override;
    QIcon icon() const override;
    void load(const Settings &settings) override;
    void apply(Settings &settings) override;
    void restoreDefaults() override;

    TimingSetting timing() const;
    void setTiming(const TimingSetting &timing);
    QComboBox *metricsBox() const { return m_metrics; } // data: int(MetricsPolicy::Mode)
    MetricsPolicy::Mode metricsPolicy() const;
    void setMetricsPolicy(MetricsPolicy::Mode mode);

private:
    QSpinBox *m_trials = nullptr;
    QSpinBox *m_minRuns = nullptr;
    QSpinBox *m_minTime = nullptr;
    QSpinBox *m_maxRuns = nullptr;
    QSpinBox *m_warmup = nullptr;
    QDoubleSpinBox *m_ciTarget = nullptr;
    QComboBox *m_metrics = nullptr;
};

} // namespace kforge
