#pragma once
// What the trace says about one evaluation: per side (reference / candidate), the launches per timed run,
// kernels grouped by name with their launch configuration, GPU time per run beside the event time, and
// the flags for side-stream and late work. Built by summarizeTrace() from plain records, so it is
// testable without a GPU.

#include "core/runtime/profiler/cuptidiagnosis.h"
#include "core/runtime/profiler/occupancy.h"
#include "core/runtime/profiler/region.h"
#include "core/runtime/profiler/tracerecords.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kforge::runtime::profiler {

struct Stats {
    size_t n = 0;
    double median = NAN;
    double mean = NAN;
    double min = NAN;
    double max = NAN;

    static Stats of(std::vector<double> values); // NaN entries are skipped
};

struct KernelGroup {
    std::string name; // demangled
    std::string mangled;
    size_t count = 0;
    double perRun = 0; // count / runs of the side
    double totalUs = 0;
    Stats durationUs;
    // Launch configuration of the first launch; launchConfigs counts the distinct ones seen.
    std::array<int32_t, 3> grid{};
    std::array<int32_t, 3> block{};
    int registers = 0;
    int staticSmem = 0;
    int dynamicSmem = 0;
    uint32_t localMemPerThread = 0;
    size_t launchConfigs = 0;
    std::vector<uint32_t> streams;      // distinct CUPTI stream ids
    std::optional<Occupancy> occupancy; // theoretical, when device limits were given
};

struct MemoryGroup {
    std::string kind; // "memset", "memcpy_htod", "memcpy_dtoh", "memcpy_dtod", "memcpy_other"
    size_t count = 0;
    uint64_t bytes = 0;
    double totalUs = 0;
};

struct SideSummary {
    size_t runs = 0;
    Stats launchesPerRun;             // kernels per timed run
    Stats kernelTimeMs;               // per run: sum of kernel durations
    Stats gpuTimeMs;                  // per run: sum of kernel + memcpy + memset durations
    Stats busyTimeMs;                 // per run: union of those intervals (overlap counted once)
    Stats eventTimeMs;                // per run: the worker's event time
    double gpuOverEvent = NAN;        // median gpuTime / median eventTime
    std::vector<KernelGroup> kernels; // by total time, largest first
    std::vector<MemoryGroup> memory;
    bool sideStreamWork = false;
    size_t sideStreamItems = 0;
    std::vector<uint32_t> sideStreams;
    bool lateWork = false;
    size_t lateItems = 0;
    double maxLateUs = 0;     // how far the latest item ended after its region's end
    size_t untaggedItems = 0; // attributed by launch time (launched from another thread / no API record)
    size_t zeroTimestampItems = 0;
};

struct TraceSummary {
    bool available = false;
    CuptiDiagnosis problem; // why not, when !available
    size_t records = 0;
    size_t dropped = 0;
    size_t apiRecords = 0;
    size_t kernelsSeen = 0;
    size_t replayExcluded = 0; // kernel/memory records of the metrics pass (replays), not counted
    size_t untimedIgnored = 0; // records in Untimed regions
    size_t outsideRegions = 0; // records launched outside every region (warm-up, L2 flush, ...)
    SideSummary reference;
    SideSummary candidate;
    std::string parseError;

    // The candidate's flags for EvalResult.flags: "side_stream_work", "late_work".
    std::vector<std::string> candidateFlags() const;

    static TraceSummary unavailable(CuptiDiagnosis why);
};

struct SummaryOptions {
    const DeviceLimits *limits = nullptr; // adds theoretical occupancy per kernel group
    // Work ending up to this long after its region's end timestamp is not called late (clock skew
    // between CUPTI's GPU and CPU timestamps).
    uint64_t lateToleranceNs = 0;
};

// Attribution, for every kernel / memcpy / memset record:
//  1. its correlation id has a KForge external id -> that region;
//  2. else the API call that launched it (same correlation id) started inside a region's
//     [begin, end] -> that region (counted as untagged: launched from another thread);
//  3. else, when there is no API record, the record's start lies inside a region's [begin, end];
//  4. else it is outside every region and ignored.
// MetricsPass regions are excluded (replayExcluded), Untimed ones ignored (untimedIgnored).
TraceSummary summarizeTrace(const TraceRecords &records, const std::vector<Region> &regions,
                            const SummaryOptions &options = {});

} // namespace kforge::runtime::profiler
