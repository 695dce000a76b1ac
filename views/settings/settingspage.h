#pragma once
// One page of the settings dialog: shows a part of Settings and writes it back when the dialog applies.
#include <QIcon>
#include <QWidget>

namespace kforge {

class Settings;

class SettingsPage : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;

    virtual QString title() const = 0;
    virtual QIcon icon() const = 0;
    virtual void load(const Settings &settings) = 0;
    virtual void apply(Settings &settings) = 0;
    // Shows the defaults (written only on apply).
    virtual void restoreDefaults() = 0;
};

} // namespace kforge
