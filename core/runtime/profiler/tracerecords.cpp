#include "core/runtime/profiler/tracerecords.h"

namespace kforge::runtime::profiler {

uint32_t TraceRecords::internName(const char *mangled)
{
    std::string key = mangled ? mangled : "(unnamed)";
    auto it = nameIndex.find(key);
    if (it != nameIndex.end())
        return it->second;
    auto index = static_cast<uint32_t>(names.size());
    names.push_back(key);
    nameIndex.emplace(std::move(key), index);
    return index;
}

void TraceRecords::clear()
{
    *this = TraceRecords{};
}

void TraceRecords::append(TraceRecords &&other)
{
    std::vector<uint32_t> remap(other.names.size());
    for (size_t i = 0; i < other.names.size(); ++i)
        remap[i] = internName(other.names[i].c_str());
    kernels.reserve(kernels.size() + other.kernels.size());
    for (KernelRecord k : other.kernels) {
        k.nameIndex = remap.at(k.nameIndex);
        kernels.push_back(k);
    }
    memoryOps.insert(memoryOps.end(), other.memoryOps.begin(), other.memoryOps.end());
    externalIds.merge(other.externalIds);
    apiStart.merge(other.apiStart);
    buffers += other.buffers;
    records += other.records;
    apiRecords += other.apiRecords;
    otherRecords += other.otherRecords;
    dropped += other.dropped;
    zeroTimestamp += other.zeroTimestamp;
    if (parseError.empty())
        parseError = std::move(other.parseError);
    other.clear();
}

} // namespace kforge::runtime::profiler
