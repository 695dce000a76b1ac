// kforge: the KForge workbench. `kforge [task-folder | session.kforge]`
#include "app/gui/appicon.h"
#include "app/gui/mainwindow.h"
#include "core/log/loghub.h"
#include "core/settings/settings.h"
#include "core/settings/translations.h"
#include "core/version.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("KForge"));
    QApplication::setApplicationName(QStringLiteral("KForge"));
    QApplication::setApplicationDisplayName(QStringLiteral("KForge"));
    QApplication::setApplicationVersion(QStringLiteral(KFORGE_VERSION_STRING));
    QGuiApplication::setDesktopFileName(QStringLiteral("kforge"));
    QApplication::setWindowIcon(kforge::AppIcon::icon());

    kforge::Settings settings;
    // Before any widget or translated text exists.
    kforge::Translations::install(settings.language());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "KForge: make CUDA kernels faster with a language model in the loop."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("path"),
                                 QCoreApplication::translate("main", "A task folder or a session file (*.kforge) to open."),
                                 QStringLiteral("[path]"));
    parser.process(app);

    kforge::LogHub log;
    if (!kforge::Translations::qtCatalogueLoaded())
        log.post(kforge::LogSource::App, kforge::LogLevel::Warning,
                 QCoreApplication::translate("main", "Qt's own translations (qtbase_%1.qm) were not found in %2, so Qt's "
                                                     "dialogs and standard buttons stay in English: install the "
                                                     "qt6-translations-l10n package.")
                     .arg(QLocale().name(), kforge::Translations::qtCatalogueFolder()));
    kforge::MainWindow window(settings, log);
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openPath(parser.positionalArguments().constFirst());
    else
        window.reopenLastSession(); // where the user left off
    return app.exec();
}
