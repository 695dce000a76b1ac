#include "headless.h"

#include "core/log/loghub.h"
#include "core/workbench/workbench.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QTextStream>

namespace kforge::cli {

ApiKeyLookup waitForKey(Workbench &workbench, EndpointConfig &endpoint, const QString &keyVariable)
{
    QEventLoop wait;
    ApiKeyLookup found;
    workbench.lookupKey(endpoint, keyVariable, &wait, [&](const ApiKeyLookup &r) {
        found = r;
        wait.quit();
    });
    wait.exec();
    return found;
}

void echoWorkerLines(LogHub &log, QTextStream &err)
{
    if (!qEnvironmentVariableIsSet("KFORGE_VERBOSE"))
        return;
    QObject::connect(&log, &LogHub::entriesAdded, &log, [&err](const QList<LogEntry> &entries) {
        for (const LogEntry &e : entries)
            if (e.source == LogSource::Worker && e.level == LogLevel::Debug)
                err << QStringLiteral("worker: ") << e.message << '\n' << Qt::flush;
    });
}

bool parseArguments(QCommandLineParser &parser, const QStringList &args, QString *error)
{
    if (!parser.parse(args)) {
        *error = parser.errorText();
        return false;
    }
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    return true;
}

} // namespace kforge::cli
