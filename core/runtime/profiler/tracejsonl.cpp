#include "core/runtime/profiler/tracejsonl.h"

#include "core/runtime/profiler/activityparser.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <vector>

namespace kforge::runtime::profiler {

using nlohmann::json;

void writeTraceJsonLines(std::ostream &out, const JsonLinesHeader &header, const TraceRecords &records)
{
    out << json{{"type", "header"},
                {"format", "kforge-trace"},
                {"version", 1},
                {"pid", header.pid},
                {"cupti_version", header.cuptiVersion},
                {"command", header.command}}
               .dump()
        << '\n';

    std::vector<std::string> demangled(records.names.size());
    for (size_t i = 0; i < records.names.size(); ++i)
        demangled[i] = demangle(records.names[i]);

    struct Total {
        size_t count = 0;
        uint64_t ns = 0;
    };
    std::map<uint32_t, Total> byName;
    for (const KernelRecord &k : records.kernels) {
        out << json{{"type", "kernel"},
                    {"name", demangled.at(k.nameIndex)},
                    {"mangled", records.names.at(k.nameIndex)},
                    {"start_ns", k.start},
                    {"end_ns", k.end},
                    {"duration_ns", k.end >= k.start ? k.end - k.start : 0},
                    {"device", k.deviceId},
                    {"context", k.contextId},
                    {"stream", k.streamId},
                    {"correlation", k.correlationId},
                    {"grid", k.grid},
                    {"block", k.block},
                    {"registers", k.registers},
                    {"static_smem", k.staticSmem},
                    {"dynamic_smem", k.dynamicSmem},
                    {"graph", k.graphId}}
                   .dump()
            << '\n';
        Total &t = byName[k.nameIndex];
        ++t.count;
        if (k.end >= k.start && k.start != 0)
            t.ns += k.end - k.start;
    }
    for (const MemoryRecord &m : records.memoryOps) {
        out << json{{"type", m.op == MemoryOpKind::Memset ? "memset" : "memcpy"},
                    {"copy_kind", m.copyKind},
                    {"bytes", m.bytes},
                    {"start_ns", m.start},
                    {"end_ns", m.end},
                    {"device", m.deviceId},
                    {"stream", m.streamId},
                    {"correlation", m.correlationId}}
                   .dump()
            << '\n';
    }

    std::vector<std::pair<uint32_t, Total>> sorted(byName.begin(), byName.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) { return a.second.ns > b.second.ns; });
    json kernels = json::array();
    for (const auto &[idx, t] : sorted)
        kernels.push_back(json{{"name", demangled.at(idx)}, {"count", t.count}, {"total_ns", t.ns}});
    out << json{{"type", "summary"},
                {"kernels", records.kernels.size()},
                {"memory_ops", records.memoryOps.size()},
                {"records", records.records},
                {"dropped", records.dropped},
                {"zero_timestamp", records.zeroTimestamp},
                {"by_name", kernels}}
               .dump()
        << '\n';
}

} // namespace kforge::runtime::profiler
