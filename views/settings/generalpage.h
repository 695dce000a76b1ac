#pragma once
// Settings → General: language and theme.
#include "views/settings/settingspage.h"

class QComboBox;
class QLabel;

namespace kforge {

class GeneralPage : public SettingsPage
{
    Q_OBJECT
public:
    explicit GeneralPage(QWidget *parent = nullptr);

    QString title() const override;
    QIcon icon() const override;
    void load(const Settings &settings) override;
    void apply(Settings &settings) override;
    void restoreDefaults() override;

    QComboBox *languageBox() const { return m_language; }
    QComboBox *themeBox() const { return m_theme; }

private:
    void selectLanguage(const QString &language);
    void selectTheme(int theme);

    QComboBox *m_language = nullptr;
    QComboBox *m_theme = nullptr;
    QLabel *m_restartNote = nullptr;
    QString m_loadedLanguage;
};

} // namespace kforge
