#pragma once
// Plain copies of the CUPTI activity records KForge uses, independent of CUPTI's versioned structs, so
// aggregation and tests work on values and the record buffers can be given back to CUPTI at once.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace kforge::runtime::profiler {

struct KernelRecord {
    uint32_t nameIndex = 0; // into TraceRecords::names (mangled)
    uint64_t start = 0;     // ns, CUPTI timestamp (0 if CUPTI lost it)
    uint64_t end = 0;
    uint32_t deviceId = 0;
    uint32_t contextId = 0;
    uint32_t streamId = 0;
    uint32_t correlationId = 0;
    std::array<int32_t, 3> grid{};
    std::array<int32_t, 3> block{};
    int32_t staticSmem = 0;  // bytes per block
    int32_t dynamicSmem = 0; // bytes per block
    uint32_t localMemPerThread = 0;
    uint16_t registers = 0; // per thread
    uint32_t graphId = 0;   // 0 unless launched from a CUDA graph
    bool deviceLaunched = false;

    int threadsPerBlock() const { return block[0] * block[1] * block[2]; }
};

enum class MemoryOpKind : uint8_t { Memcpy, Memset };

struct MemoryRecord {
    MemoryOpKind op = MemoryOpKind::Memcpy;
    uint8_t copyKind = 0; // CUpti_ActivityMemcpyKind for memcpy (1 HtoD, 2 DtoH, 8 DtoD, ...)
    uint64_t bytes = 0;
    uint64_t start = 0;
    uint64_t end = 0;
    uint32_t deviceId = 0;
    uint32_t streamId = 0;
    uint32_t correlationId = 0;
};

struct TraceRecords {
    std::vector<std::string> names; // distinct mangled kernel names
    std::unordered_map<std::string, uint32_t> nameIndex;
    std::vector<KernelRecord> kernels;
    std::vector<MemoryRecord> memoryOps;
    // correlationId -> external id, for KForge's external-correlation kind only.
    std::unordered_map<uint32_t, uint64_t> externalIds;
    // correlationId -> start of the runtime/driver API call that launched the work.
    std::unordered_map<uint32_t, uint64_t> apiStart;

    size_t buffers = 0;
    size_t records = 0; // every record read
    size_t apiRecords = 0;
    size_t otherRecords = 0;  // kinds KForge does not use
    size_t dropped = 0;       // cuptiActivityGetNumDroppedRecords
    size_t zeroTimestamp = 0; // kernel/memory records whose start or end CUPTI could not fill
    std::string parseError;   // first error from cuptiActivityGetNextRecord, if any

    uint32_t internName(const char *mangled);
    const std::string &name(const KernelRecord &k) const { return names.at(k.nameIndex); }
    void clear();
    void append(TraceRecords &&other); // merges another batch (name indices are remapped)
};

} // namespace kforge::runtime::profiler
