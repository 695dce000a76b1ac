#pragma once
// What every kforge-cli command does with its headless Workbench (core/workbench) besides using its parts: wait
// for the API key, and show the workers' own lines on stderr when KFORGE_VERBOSE is set.
#include "core/llm/credentials.h"

#include <QString>

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

} // namespace kforge::cli
