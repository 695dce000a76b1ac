#pragma once
// CUPTI Activity API tracing for kforge-worker and libkforge_inject.so: records every kernel (any
// stream), memcpy and memset, and tags the worker's timed runs as regions through external correlation
// ids. CUPTI's activity state is process-wide, so at most one tracer is active at a time.

#include "core/runtime/profiler/cuptidiagnosis.h"
#include "core/runtime/profiler/region.h"
#include "core/runtime/profiler/tracerecords.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kforge::runtime::profiler {

constexpr uint32_t kNoRegion = 0xFFFFFFFFu;

struct TracerOptions {
    bool memcpy = true;
    bool memset = true;
    // RUNTIME + DRIVER + EXTERNAL_CORRELATION records: exact attribution of each launch to its region,
    // also for launches from other threads. Costs about 0.7 us of host time per CUDA call (probe).
    // Without them regions are attributed by time alone.
    bool apiRecords = true;
    size_t bufferBytes = 8u << 20;
};

class ActivityTracer
{
public:
    explicit ActivityTracer(TracerOptions options = {});
    ~ActivityTracer();
    ActivityTracer(const ActivityTracer &) = delete;
    ActivityTracer &operator=(const ActivityTracer &) = delete;

    // Enables the activity kinds. Best called before the process creates its CUDA context; works later
    // for later work. Makes no CUDA runtime call (safe inside InitializeInjection). On failure the
    // tracer stays inactive and the diagnosis says why (another tool holds CUPTI, no driver, ...).
    CuptiDiagnosis start();
    // Flushes, disables the kinds and releases the process-wide slot. Records stay readable.
    void stop();
    bool active() const { return m_active; }
    const TracerOptions &options() const { return m_options; }
    // The tracer currently started in this process, if any (the metrics collector uses it).
    static ActivityTracer *current();

    // The stream id that records carry for `stream` (cuptiGetStreamIdEx); nullopt if CUPTI cannot tell.
    static std::optional<uint32_t> streamId(CUstream stream);
    // CUPTI's clock, the time base of every record (ns).
    static uint64_t timestamp();

    // Tags the CUDA calls this thread makes until endRegion(). Returns the region id (kNoRegion and does
    // nothing while the tracer is inactive, so callers need not check). Regions do not
    // nest. Call endRegion() after the run's end event has completed (cudaEventSynchronize): its
    // timestamp is the deadline for late work. `eventMs` is the worker's event time for the run.
    uint32_t beginRegion(RegionKind kind, uint32_t run, std::optional<uint32_t> launchStreamId = std::nullopt);
    void endRegion(double eventMs = NAN);

    // Delivers every buffered record (cuptiActivityFlushAll, forced). Synchronize the device first:
    // FlushAll does not wait for running work.
    CuptiDiagnosis flush();

    // Moves the records and regions gathered so far out of the tracer (call after flush(); an open
    // region is ended first). Region ids keep counting up, they are never reused.
    TraceRecords takeRecords();
    std::vector<Region> takeRegions();
    std::vector<Region> regions() const;
    size_t kernelCount() const;
    // Copies of the kernel records of one region delivered so far, with their mangled names, without
    // taking them (attributed by external id, or by start time when they carry none).
    std::vector<std::pair<KernelRecord, std::string>> kernelsInRegion(uint32_t regionId) const;

private:
    friend struct TracerCallbacks;
    void consume(uint8_t *buffer, size_t validSize, CUcontext ctx, uint32_t streamId);

    TracerOptions m_options;
    bool m_active = false;
    std::vector<int> m_enabled; // CUpti_ActivityKind values this tracer enabled
    mutable std::mutex m_mutex; // guards m_records (CUPTI delivers buffers on its own thread)
    TraceRecords m_records;
    mutable std::mutex m_regionMutex;
    std::vector<Region> m_regions; // ids m_regionBase, m_regionBase + 1, ...
    uint32_t m_regionBase = 0;
    std::optional<uint32_t> m_openRegion;
};

} // namespace kforge::runtime::profiler
