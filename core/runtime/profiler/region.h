#pragma once
// A tagged stretch of the worker's timeline (one timed run of the reference or the candidate, or the
// metrics pass). Kernels are attributed to regions through CUPTI external correlation ids.

#include <cmath>
#include <cstdint>
#include <optional>

namespace kforge::runtime::profiler {

enum class RegionKind : uint8_t {
    Reference,   // a timed run of the reference kernel
    Candidate,   // a timed run of the candidate kernel
    Untimed,     // worker's own work that should be traced but not counted (e.g. verification)
    MetricsPass, // the range profiler's replays: never counted as launches
};

constexpr const char *regionKindName(RegionKind kind)
{
    switch (kind) {
    case RegionKind::Reference: return "reference";
    case RegionKind::Candidate: return "candidate";
    case RegionKind::Untimed: return "untimed";
    case RegionKind::MetricsPass: return "metrics_pass";
    }
    return "unknown";
}

struct Region {
    uint32_t id = 0; // index in the tracer's region table; encoded into the external correlation id
    RegionKind kind = RegionKind::Candidate;
    uint32_t run = 0;                       // run number within its kind
    std::optional<uint32_t> launchStreamId; // CUPTI stream id of the stream handed to the kernel entry
    uint64_t beginNs = 0;                   // cuptiGetTimestamp() at beginRegion
    uint64_t endNs = 0;   // cuptiGetTimestamp() at endRegion (after the end event completed); 0 = open
    double eventMs = NAN; // the worker's cudaEvent time for this run, if it gave one

    bool timed() const { return kind == RegionKind::Reference || kind == RegionKind::Candidate; }
};

// External correlation ids KForge pushes: a fixed tag in the top 16 bits so that ids pushed by other code
// (frameworks use the same CUSTOM kinds) are never mistaken for ours.
constexpr uint64_t kExternalIdTag = 0x4B46ull << 48; // "KF"

constexpr uint64_t encodeRegionId(uint32_t regionId)
{
    return kExternalIdTag | regionId;
}

constexpr std::optional<uint32_t> decodeRegionId(uint64_t externalId)
{
    if ((externalId & (0xFFFFull << 48)) != kExternalIdTag)
        return std::nullopt;
    return static_cast<uint32_t>(externalId & 0xFFFFFFFFull);
}

} // namespace kforge::runtime::profiler
