#include "core/settings/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QPointer>
#include <QTranslator>

#include <vector>

// Q_INIT_RESOURCE must not be used inside a namespace.
static void initTranslationResource()
{
    Q_INIT_RESOURCE(kforge_translations_translations);
}

namespace kforge {

namespace {
std::vector<QPointer<QTranslator>> &installed()
{
    static std::vector<QPointer<QTranslator>> translators;
    return translators;
}

bool &qtLoaded()
{
    static bool loaded = true;
    return loaded;
}

bool installOne(const QLocale &locale, const QString &name, const QString &directory)
{
    auto *translator = new QTranslator(QCoreApplication::instance());
    if (translator->load(locale, name, QStringLiteral("_"), directory) && QCoreApplication::installTranslator(translator)) {
        installed().emplace_back(translator);
        return true;
    }
    delete translator;
    return false;
}
} // namespace

QLocale Translations::localeFor(const QString &language)
{
    if (language == QLatin1String("en"))
        return QLocale(QLocale::English, QLocale::UnitedStates);
    if (language == QLatin1String("zh_CN"))
        return QLocale(QLocale::Chinese, QLocale::SimplifiedChineseScript, QLocale::China);
    return QLocale::system();
}

QLocale Translations::install(const QString &language)
{
    // The catalogue lives in the static library kforge_translations; make sure its resource is linked.
    initTranslationResource();

    for (const QPointer<QTranslator> &t : installed()) {
        if (t) {
            QCoreApplication::removeTranslator(t);
            delete t.data();
        }
    }
    installed().clear();

    const QLocale locale = localeFor(language);
    QLocale::setDefault(locale);
    qtLoaded() = true;
    // English is the source language: no catalogue needed.
    if (locale.language() == QLocale::English || locale.language() == QLocale::C)
        return locale;
    qtLoaded() = installOne(locale, QStringLiteral("qtbase"), qtCatalogueFolder());
    installOne(locale, QStringLiteral("kforge"), QStringLiteral(":/i18n"));
    return locale;
}

bool Translations::qtCatalogueLoaded()
{
    return qtLoaded();
}

QString Translations::qtCatalogueFolder()
{
    return QLibraryInfo::path(QLibraryInfo::TranslationsPath);
}

} // namespace kforge
