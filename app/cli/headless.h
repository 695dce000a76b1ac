#pragma once
// What every kforge-cli command does with its headless Workbench (core/workbench) besides using its parts: wait
// for the API key, and show the workers' own lines on stderr when KFORGE_VERBOSE is set. And the first step of a
// command's flow: its command line parsed.
#include "core/llm/credentials.h"

#include <QString>
#include <QStringList>

class QCommandLineParser;
class QTextStream;

namespace kforge {
class LogHub;
class Workbench;
struct EndpointConfig;
} // namespace kforge

namespace kforge::cli {

// Workbench::lookupKey, waited for (the keychain answers asynchronously).
ApiKeyLookup waitForKey(Workbench &workbench, EndpointConfig &endpoint, const QString &keyVariable);

// KFORGE_VERBOSE set: every line a worker writes goes to `err` as "worker: ...", as it arrives.
void echoWorkerLines(LogHub &log, QTextStream &err);

// QCommandLineParser::parse: --help prints the help and exits the process; false with `error` set when the
// arguments do not parse.
bool parseArguments(QCommandLineParser &parser, const QStringList &args, QString *error);

} // namespace kforge::cli
