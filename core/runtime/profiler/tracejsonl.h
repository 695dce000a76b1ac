#pragma once
// The JSON-lines trace format libkforge_inject.so writes (one object per line: a header, one line per
// kernel / memcpy / memset, a summary). Documented in docs/profiling.md.

#include "core/runtime/profiler/tracerecords.h"

#include <ostream>
#include <string>

namespace kforge::runtime::profiler {

struct JsonLinesHeader {
    int pid = 0;
    unsigned cuptiVersion = 0;
    std::string command;
};

void writeTraceJsonLines(std::ostream &out, const JsonLinesHeader &header, const TraceRecords &records);

} // namespace kforge::runtime::profiler
