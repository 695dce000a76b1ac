#pragma once
// Settings → Compiler: which nvcc, the flags every kernel is built with, and the target architecture.
#include "core/settings/toolchainprobe.h"
#include "views/settings/settingspage.h"

class QComboBox;
class QLabel;
class QLineEdit;

namespace kforge {

class CompilerPage : public SettingsPage
{
    Q_OBJECT
public:
    explicit CompilerPage(QWidget *parent = nullptr);

    QString title() const override;
    QIcon icon() const override;
    void load(const Settings &settings) override;
    void apply(Settings &settings) override;
    void restoreDefaults() override;

    QLineEdit *nvccEdit() const { return m_nvcc; }
    QLineEdit *flagsEdit() const { return m_flags; }
    QComboBox *archBox() const { return m_arch; }
    QLabel *detectionLabel() const { return m_detected; }

Q_SIGNALS:
    void detectionFinished(const kforge::ToolchainInfo &info);

private:
    void detect();
    void setArch(const QString &arch);
    QString arch() const;

    QLineEdit *m_nvcc = nullptr;
    QLineEdit *m_flags = nullptr;
    QComboBox *m_arch = nullptr;
    QLabel *m_detected = nullptr;
    ToolchainProbe *m_probe = nullptr;
};

} // namespace kforge
