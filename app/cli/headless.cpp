#include "headless.h"

#include "core/log/loghub.h"
#include "core/workbench/workbench.h"

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

} // namespace kforge::cli
