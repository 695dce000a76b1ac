// Translations: the zh_CN catalogue is built into the binaries and switches with the language setting.
#include "core/log/loghub.h"
#include "core/settings/translations.h"

#include <QStandardPaths>
#include <QTest>

using namespace kforge;

class TestTranslations : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void catalogueIsBuiltIn() { QVERIFY(QFile::exists(QStringLiteral(":/i18n/kforge_zh_CN.qm"))); }

    void switchLanguage()
    {
        Translations::install(QStringLiteral("zh_CN"));
        QCOMPARE(LogHub::sourceName(LogSource::Compiler), QStringLiteral("编译器"));
        QCOMPARE(QLocale().language(), QLocale::Chinese);
        Translations::install(QStringLiteral("en"));
        QCOMPARE(LogHub::sourceName(LogSource::Compiler), QStringLiteral("Compiler"));
        Translations::install(QStringLiteral("zh_CN"));
        QCOMPARE(LogHub::levelName(LogLevel::Warning), QStringLiteral("警告"));
    }

    void qtOwnCatalogue()
    {
        // Standard buttons and dialogs come from Qt's qtbase catalogue, installed alongside.
        Translations::install(QStringLiteral("zh_CN"));
        const QString cancel = QCoreApplication::translate("QPlatformTheme", "Cancel");
        if (cancel == QLatin1String("Cancel"))
            QSKIP("Qt's own zh_CN catalogue (qt6-translations-l10n) is not installed");
        QCOMPARE(cancel, QStringLiteral("取消"));
    }

    void cleanupTestCase() { Translations::install(QStringLiteral("en")); }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
