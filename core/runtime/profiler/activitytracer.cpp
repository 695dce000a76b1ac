#include "core/runtime/profiler/activitytracer.h"

#include "core/runtime/profiler/activityparser.h"

#include <cupti.h>

#include <atomic>
#include <cstdlib>

namespace kforge::runtime::profiler {

namespace {

std::atomic<ActivityTracer *> g_current{nullptr};
std::atomic<size_t> g_bufferBytes{8u << 20};

} // namespace

// CUPTI's buffer callbacks carry no user pointer: they reach the active tracer through g_current.
struct TracerCallbacks {
    static void CUPTIAPI requested(uint8_t **buffer, size_t *size, size_t *maxNumRecords)
    {
        const size_t bytes = g_bufferBytes.load();
        void *p = nullptr;
        if (posix_memalign(&p, 8, bytes) != 0) // CUPTI requires 8-byte alignment
            p = nullptr;
        *buffer = static_cast<uint8_t *>(p);
        *size = p ? bytes : 0;
        *maxNumRecords = 0;
    }

    static void CUPTIAPI completed(CUcontext ctx, uint32_t streamId, uint8_t *buffer, size_t, size_t validSize)
    {
        if (ActivityTracer *t = g_current.load())
            t->consume(buffer, validSize, ctx, streamId);
        std::free(buffer);
    }
};

ActivityTracer::ActivityTracer(TracerOptions options)
    : m_options(options)
{
}

ActivityTracer::~ActivityTracer()
{
    stop();
}

ActivityTracer *ActivityTracer::current()
{
    return g_current.load();
}

CuptiDiagnosis ActivityTracer::start()
{
    if (m_active)
        return {};
    ActivityTracer *expected = nullptr;
    if (!g_current.compare_exchange_strong(expected, this))
        return makeDiagnosis("tracer_busy", "ActivityTracer::start",
                             "Another ActivityTracer is already active in this process.");

    uint32_t version = 0;
    if (CUptiResult r = cuptiGetVersion(&version); r != CUPTI_SUCCESS) {
        g_current.store(nullptr);
        return explainCuptiError(r, "cuptiGetVersion");
    }
    if (version != CUPTI_API_VERSION) {
        g_current.store(nullptr);
        return makeDiagnosis("version_mismatch", "cuptiGetVersion",
                             "The loaded libcupti has API version " + std::to_string(version) + ", KForge was built against "
                                 + std::to_string(CUPTI_API_VERSION) + "; record layouts differ.",
                             "Make the worker load the CUPTI of the CUDA toolkit it was built with (check LD_LIBRARY_PATH).");
    }
    // Another tool (Nsight, compute-sanitizer) owning CUPTI shows up here, before we change anything.
    if (CuptiDiagnosis d = probeSubscriberSlotOnce(); !d.ok()) {
        g_current.store(nullptr);
        if (d.holder.empty() && !nvidiaDriverPresent())
            return noDriverDiagnosis("cuptiSubscribe_v2");
        return d;
    }

    g_bufferBytes.store(m_options.bufferBytes < (64u << 10) ? (64u << 10) : m_options.bufferBytes);
    // The callbacks are the same functions for every tracer: register them once per process.
    static std::atomic<bool> registered{false};
    if (!registered.load()) {
        if (CUptiResult r = cuptiActivityRegisterCallbacks(TracerCallbacks::requested, TracerCallbacks::completed);
            r != CUPTI_SUCCESS) {
            g_current.store(nullptr);
            return explainCuptiError(r, "cuptiActivityRegisterCallbacks");
        }
        registered.store(true);
    }

    std::vector<CUpti_ActivityKind> kinds{CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL};
    if (m_options.memcpy)
        kinds.push_back(CUPTI_ACTIVITY_KIND_MEMCPY);
    if (m_options.memset)
        kinds.push_back(CUPTI_ACTIVITY_KIND_MEMSET);
    if (m_options.apiRecords) {
        kinds.push_back(CUPTI_ACTIVITY_KIND_RUNTIME);
        kinds.push_back(CUPTI_ACTIVITY_KIND_DRIVER);
        kinds.push_back(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
    }
    for (CUpti_ActivityKind k : kinds) {
        CUptiResult r = cuptiActivityEnable(k);
        if (r != CUPTI_SUCCESS) {
            for (int done : m_enabled)
                cuptiActivityDisable(static_cast<CUpti_ActivityKind>(done));
            m_enabled.clear();
            g_current.store(nullptr);
            std::string holder;
            if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
                holder = probeSubscriberSlot().holder;
            return explainCuptiError(r, "cuptiActivityEnable", holder);
        }
        m_enabled.push_back(static_cast<int>(k));
    }
    m_active = true;
    return {};
}

void ActivityTracer::stop()
{
    if (!m_active)
        return;
    if (m_openRegion)
        endRegion();
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    for (auto it = m_enabled.rbegin(); it != m_enabled.rend(); ++it)
        cuptiActivityDisable(static_cast<CUpti_ActivityKind>(*it));
    m_enabled.clear();
    // Buffers CUPTI still holds are delivered by this flush while we are registered as current.
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    m_active = false;
    ActivityTracer *self = this;
    g_current.compare_exchange_strong(self, nullptr);
}

std::optional<uint32_t> ActivityTracer::streamId(CUstream stream)
{
    uint32_t id = 0;
    if (cuptiGetStreamIdEx(nullptr, stream, 0, &id) != CUPTI_SUCCESS)
        return std::nullopt;
    return id;
}

uint64_t ActivityTracer::timestamp()
{
    uint64_t ts = 0;
    cuptiGetTimestamp(&ts);
    return ts;
}

uint32_t ActivityTracer::beginRegion(RegionKind kind, uint32_t run, std::optional<uint32_t> launchStreamId)
{
    if (!m_active)
        return kNoRegion;
    if (m_openRegion)
        endRegion();
    Region r;
    r.kind = kind;
    r.run = run;
    r.launchStreamId = launchStreamId;
    {
        std::lock_guard<std::mutex> lock(m_regionMutex);
        r.id = m_regionBase + static_cast<uint32_t>(m_regions.size());
        r.beginNs = timestamp();
        m_regions.push_back(r);
    }
    m_openRegion = r.id;
    if (m_options.apiRecords)
        cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, encodeRegionId(r.id));
    return r.id;
}

void ActivityTracer::endRegion(double eventMs)
{
    if (!m_openRegion)
        return;
    if (m_options.apiRecords) {
        uint64_t last = 0;
        cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
    }
    std::lock_guard<std::mutex> lock(m_regionMutex);
    Region &r = m_regions.at(*m_openRegion - m_regionBase);
    r.endNs = timestamp();
    r.eventMs = eventMs;
    m_openRegion.reset();
}

CuptiDiagnosis ActivityTracer::flush()
{
    if (!m_active)
        return {};
    CUptiResult r = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    return r == CUPTI_SUCCESS ? CuptiDiagnosis{} : explainCuptiError(r, "cuptiActivityFlushAll");
}

void ActivityTracer::consume(uint8_t *buffer, size_t validSize, CUcontext ctx, uint32_t streamId)
{
    TraceRecords batch;
    parseActivityBuffer(buffer, validSize, batch);
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, streamId, &dropped) == CUPTI_SUCCESS)
        batch.dropped += dropped;
    batch.buffers = 1;
    std::lock_guard<std::mutex> lock(m_mutex);
    m_records.append(std::move(batch));
}

TraceRecords ActivityTracer::takeRecords()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    TraceRecords out = std::move(m_records);
    m_records.clear();
    return out;
}

std::vector<Region> ActivityTracer::takeRegions()
{
    endRegion();
    std::lock_guard<std::mutex> lock(m_regionMutex);
    std::vector<Region> out = std::move(m_regions);
    m_regions.clear();
    // Ids are never reused, so a record delivered late can never land in a newer region.
    m_regionBase += static_cast<uint32_t>(out.size());
    return out;
}

std::vector<Region> ActivityTracer::regions() const
{
    std::lock_guard<std::mutex> lock(m_regionMutex);
    return m_regions;
}

size_t ActivityTracer::kernelCount() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_records.kernels.size();
}

std::vector<std::pair<KernelRecord, std::string>> ActivityTracer::kernelsInRegion(uint32_t regionId) const
{
    std::optional<Region> region;
    {
        std::lock_guard<std::mutex> lock(m_regionMutex);
        if (regionId >= m_regionBase && regionId - m_regionBase < m_regions.size())
            region = m_regions[regionId - m_regionBase];
    }
    std::vector<std::pair<KernelRecord, std::string>> out;
    if (!region)
        return out;
    const uint64_t tag = encodeRegionId(regionId);
    std::lock_guard<std::mutex> lock(m_mutex);
    for (const KernelRecord &k : m_records.kernels) {
        bool mine = false;
        if (auto it = m_records.externalIds.find(k.correlationId); it != m_records.externalIds.end())
            mine = it->second == tag;
        else
            mine = k.start >= region->beginNs && (region->endNs == 0 || k.start <= region->endNs);
        if (mine)
            out.emplace_back(k, m_records.name(k));
    }
    return out;
}

} // namespace kforge::runtime::profiler
