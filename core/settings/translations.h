#pragma once
// Installs KForge's catalogue (built into the binaries) and Qt's own for the configured language, before
// any widget is created. Shared by kforge and kforge-cli.
#include <QLocale>
#include <QString>

namespace kforge {

class Translations
{
public:
    // language: "system", "en" or "zh_CN" (see Settings::availableLanguages()). Replaces translators that
    // an earlier call installed. Returns the locale the catalogues were chosen for.
    static QLocale install(const QString &language);

    static QLocale localeFor(const QString &language);

    // Whether the last install() found Qt's own catalogue (qtbase_<lang>.qm: the texts of Qt's dialogs and
    // standard buttons; Debian ships it in qt6-translations-l10n). True where none is needed (English).
    static bool qtCatalogueLoaded();
    // Where Qt's catalogues are looked for.
    static QString qtCatalogueFolder();
};

} // namespace kforge
