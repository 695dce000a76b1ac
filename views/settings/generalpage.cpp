#include "views/settings/generalpage.h"

#include "core/settings/settings.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QStyle>

namespace kforge {

GeneralPage::GeneralPage(QWidget *parent)
    : SettingsPage(parent)
{
    m_language = new QComboBox(this);
    m_language->addItem(tr("Follow the system"), QStringLiteral("system"));
    // Each language in its own name, so a user lost in the wrong one can still find theirs.
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    m_theme = new QComboBox(this);
    m_theme->addItem(tr("Follow the system"), int(Theme::System));
    m_theme->addItem(tr("Light"), int(Theme::Light));
    m_theme->addItem(tr("Dark"), int(Theme::Dark));
    m_restartNote = new QLabel(tr("The new language is used from the next start of KForge."), this);
    m_restartNote->setWordWrap(true);
    m_restartNote->hide();
    connect(m_language, &QComboBox::currentIndexChanged, this,
            [this] { m_restartNote->setVisible(m_language->currentData().toString() != m_loadedLanguage); });

    auto *form = new QFormLayout(this);
    form->addRow(tr("&Language:"), m_language);
    form->addRow(QString(), m_restartNote);
    form->addRow(tr("&Theme:"), m_theme);
}

QString GeneralPage::title() const
{
    return tr("General");
}

QIcon GeneralPage::icon() const
{
    return QIcon::fromTheme(QStringLiteral("preferences-desktop-locale"), style()->standardIcon(QStyle::SP_ComputerIcon));
}

void GeneralPage::load(const Settings &settings)
{
    m_loadedLanguage = settings.language();
    selectLanguage(m_loadedLanguage);
    selectTheme(int(settings.theme()));
}

void GeneralPage::apply(Settings &settings)
{
    settings.setLanguage(m_language->currentData().toString());
    settings.setTheme(Theme(m_theme->currentData().toInt()));
}

void GeneralPage::restoreDefaults()
{
    selectLanguage(Settings::Defaults::language());
    selectTheme(int(Settings::Defaults::theme()));
}

void GeneralPage::selectLanguage(const QString &language)
{
    m_language->setCurrentIndex(std::max(0, m_language->findData(language)));
}

void GeneralPage::selectTheme(int theme)
{
    m_theme->setCurrentIndex(std::max(0, m_theme->findData(theme)));
}

} // namespace kforge
