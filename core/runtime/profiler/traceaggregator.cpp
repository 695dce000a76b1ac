#include "core/runtime/profiler/activityparser.h"
#include "core/runtime/profiler/tracesummary.h"

#include <cupti_activity.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace kforge::runtime::profiler {

Stats Stats::of(std::vector<double> values)
{
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }), values.end());
    Stats s;
    s.n = values.size();
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    s.median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
    double sum = 0;
    for (double v : values)
        sum += v;
    s.mean = sum / static_cast<double>(n);
    s.min = values.front();
    s.max = values.back();
    return s;
}

std::vector<std::string> TraceSummary::candidateFlags() const
{
    std::vector<std::string> flags;
    if (!available)
        return flags;
    if (candidate.sideStreamWork)
        flags.emplace_back("side_stream_work");
    if (candidate.lateWork)
        flags.emplace_back("late_work");
    return flags;
}

TraceSummary TraceSummary::unavailable(CuptiDiagnosis why)
{
    TraceSummary s;
    s.available = false;
    s.problem = std::move(why);
    return s;
}

namespace {

const char *memoryKindName(const MemoryRecord &m)
{
    if (m.op == MemoryOpKind::Memset)
        return "memset";
    switch (m.copyKind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "memcpy_htod";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "memcpy_dtoh";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "memcpy_dtod";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "memcpy_htoh";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "memcpy_ptop";
    default: return "memcpy_other";
    }
}

bool hasTimes(uint64_t start, uint64_t end)
{
    return start != 0 && end != 0 && end >= start;
}

// Regions sorted by begin time, for time-based attribution.
class RegionWindows
{
public:
    explicit RegionWindows(const std::vector<Region> &regions)
        : m_regions(regions)
    {
        for (size_t i = 0; i < regions.size(); ++i)
            m_order.push_back(i);
        std::sort(m_order.begin(), m_order.end(),
                  [&](size_t a, size_t b) { return regions[a].beginNs < regions[b].beginNs; });
    }

    std::optional<size_t> containing(uint64_t t) const
    {
        // Last region that began at or before t; regions do not overlap.
        auto it = std::upper_bound(m_order.begin(), m_order.end(), t,
                                   [&](uint64_t v, size_t idx) { return v < m_regions[idx].beginNs; });
        if (it == m_order.begin())
            return std::nullopt;
        const Region &r = m_regions[*(it - 1)];
        if (r.endNs != 0 && t > r.endNs)
            return std::nullopt;
        return *(it - 1);
    }

private:
    const std::vector<Region> &m_regions;
    std::vector<size_t> m_order;
};

struct RunAcc {
    size_t kernels = 0;
    uint64_t kernelNs = 0;
    uint64_t gpuNs = 0;
    std::vector<std::pair<uint64_t, uint64_t>> intervals;
};

using ConfigKey = std::tuple<std::array<int32_t, 3>, std::array<int32_t, 3>, int, int, int>;

struct GroupAcc {
    const KernelRecord *first = nullptr;
    size_t count = 0;
    uint64_t totalNs = 0;
    std::vector<double> durationsUs;
    std::set<ConfigKey> configs;
    std::set<uint32_t> streams;
};

struct SideAcc {
    std::vector<size_t> regionIdx;
    std::map<uint32_t, GroupAcc> groups; // by name index
    std::map<std::string, MemoryGroup> memory;
    std::set<uint32_t> sideStreams;
    SideSummary out;
};

uint64_t unionNs(std::vector<std::pair<uint64_t, uint64_t>> iv)
{
    std::sort(iv.begin(), iv.end());
    uint64_t total = 0, curStart = 0, curEnd = 0;
    bool open = false;
    for (auto [s, e] : iv) {
        if (!open || s > curEnd) {
            if (open)
                total += curEnd - curStart;
            curStart = s;
            curEnd = e;
            open = true;
        } else {
            curEnd = std::max(curEnd, e);
        }
    }
    if (open)
        total += curEnd - curStart;
    return total;
}

} // namespace

TraceSummary summarizeTrace(const TraceRecords &records, const std::vector<Region> &regions, const SummaryOptions &options)
{
    TraceSummary s;
    s.available = true;
    s.records = records.records;
    s.dropped = records.dropped;
    s.apiRecords = records.apiRecords;
    s.kernelsSeen = records.kernels.size();
    s.parseError = records.parseError;

    std::unordered_map<uint32_t, size_t> byId;
    for (size_t i = 0; i < regions.size(); ++i)
        byId[regions[i].id] = i;
    RegionWindows windows(regions);
    std::vector<RunAcc> runs(regions.size());

    SideAcc sides[2];
    auto sideOf = [&](const Region &r) -> SideAcc * {
        if (r.kind == RegionKind::Reference)
            return &sides[0];
        if (r.kind == RegionKind::Candidate)
            return &sides[1];
        return nullptr;
    };
    for (size_t i = 0; i < regions.size(); ++i)
        if (SideAcc *side = sideOf(regions[i]))
            side->regionIdx.push_back(i);

    struct Attribution {
        std::optional<size_t> region;
        bool untagged = false;
    };
    auto attribute = [&](uint32_t correlationId, uint64_t start) -> Attribution {
        if (auto ext = records.externalIds.find(correlationId); ext != records.externalIds.end()) {
            if (auto id = decodeRegionId(ext->second)) {
                if (auto it = byId.find(*id); it != byId.end())
                    return {it->second, false};
            }
        }
        if (auto api = records.apiStart.find(correlationId); api != records.apiStart.end())
            return {windows.containing(api->second), true};
        if (start != 0)
            return {windows.containing(start), true};
        return {};
    };

    // Common bookkeeping for kernels and memory operations; returns the side it counted for, if any.
    auto place = [&](uint32_t correlationId, uint64_t start, uint64_t end, uint32_t stream) -> std::pair<SideAcc *, size_t> {
        Attribution a = attribute(correlationId, start);
        if (!a.region) {
            ++s.outsideRegions;
            return {nullptr, 0};
        }
        const Region &r = regions[*a.region];
        if (r.kind == RegionKind::MetricsPass) {
            ++s.replayExcluded;
            return {nullptr, 0};
        }
        if (r.kind == RegionKind::Untimed) {
            ++s.untimedIgnored;
            return {nullptr, 0};
        }
        SideAcc *side = sideOf(r);
        SideSummary &o = side->out;
        if (a.untagged)
            ++o.untaggedItems;
        if (r.launchStreamId && stream != *r.launchStreamId) {
            ++o.sideStreamItems;
            side->sideStreams.insert(stream);
        }
        if (!hasTimes(start, end)) {
            ++o.zeroTimestampItems;
        } else {
            if (r.endNs != 0 && end > r.endNs + options.lateToleranceNs) {
                ++o.lateItems;
                o.maxLateUs = std::max(o.maxLateUs, static_cast<double>(end - r.endNs) / 1e3);
            }
            RunAcc &run = runs[*a.region];
            run.gpuNs += end - start;
            run.intervals.emplace_back(start, end);
        }
        return {side, *a.region};
    };

    for (const KernelRecord &k : records.kernels) {
        auto [side, regionIdx] = place(k.correlationId, k.start, k.end, k.streamId);
        if (!side)
            continue;
        RunAcc &run = runs[regionIdx];
        ++run.kernels;
        GroupAcc &g = side->groups[k.nameIndex];
        if (!g.first)
            g.first = &k;
        ++g.count;
        g.configs.insert(ConfigKey{k.grid, k.block, k.registers, k.staticSmem, k.dynamicSmem});
        g.streams.insert(k.streamId);
        if (hasTimes(k.start, k.end)) {
            run.kernelNs += k.end - k.start;
            g.totalNs += k.end - k.start;
            g.durationsUs.push_back(static_cast<double>(k.end - k.start) / 1e3);
        }
    }
    for (const MemoryRecord &m : records.memoryOps) {
        auto [side, regionIdx] = place(m.correlationId, m.start, m.end, m.streamId);
        (void)regionIdx;
        if (!side)
            continue;
        MemoryGroup &g = side->memory[memoryKindName(m)];
        g.kind = memoryKindName(m);
        ++g.count;
        g.bytes += m.bytes;
        if (hasTimes(m.start, m.end))
            g.totalUs += static_cast<double>(m.end - m.start) / 1e3;
    }

    for (int i = 0; i < 2; ++i) {
        SideAcc &side = sides[i];
        SideSummary &o = side.out;
        o.runs = side.regionIdx.size();
        std::vector<double> launches, kernelMs, gpuMs, busyMs, eventMs;
        for (size_t idx : side.regionIdx) {
            const RunAcc &run = runs[idx];
            launches.push_back(static_cast<double>(run.kernels));
            kernelMs.push_back(static_cast<double>(run.kernelNs) / 1e6);
            gpuMs.push_back(static_cast<double>(run.gpuNs) / 1e6);
            busyMs.push_back(static_cast<double>(unionNs(run.intervals)) / 1e6);
            eventMs.push_back(regions[idx].eventMs);
        }
        o.launchesPerRun = Stats::of(launches);
        o.kernelTimeMs = Stats::of(kernelMs);
        o.gpuTimeMs = Stats::of(gpuMs);
        o.busyTimeMs = Stats::of(busyMs);
        o.eventTimeMs = Stats::of(eventMs);
        if (o.eventTimeMs.n > 0 && o.eventTimeMs.median > 0)
            o.gpuOverEvent = o.gpuTimeMs.median / o.eventTimeMs.median;
        o.sideStreamWork = o.sideStreamItems > 0;
        o.sideStreams.assign(side.sideStreams.begin(), side.sideStreams.end());
        o.lateWork = o.lateItems > 0;

        for (auto &[nameIndex, g] : side.groups) {
            KernelGroup kg;
            kg.mangled = records.names.at(nameIndex);
            kg.name = demangle(kg.mangled);
            kg.count = g.count;
            kg.perRun = o.runs ? static_cast<double>(g.count) / static_cast<double>(o.runs) : 0.0;
            kg.totalUs = static_cast<double>(g.totalNs) / 1e3;
            kg.durationUs = Stats::of(std::move(g.durationsUs));
            kg.grid = g.first->grid;
            kg.block = g.first->block;
            kg.registers = g.first->registers;
            kg.staticSmem = g.first->staticSmem;
            kg.dynamicSmem = g.first->dynamicSmem;
            kg.localMemPerThread = g.first->localMemPerThread;
            kg.launchConfigs = g.configs.size();
            kg.streams.assign(g.streams.begin(), g.streams.end());
            if (options.limits)
                kg.occupancy = theoreticalOccupancy(*options.limits, g.first->threadsPerBlock(), g.first->registers,
                                                    static_cast<size_t>(std::max(0, g.first->staticSmem)),
                                                    static_cast<size_t>(std::max(0, g.first->dynamicSmem)));
            o.kernels.push_back(std::move(kg));
        }
        std::sort(o.kernels.begin(), o.kernels.end(),
                  [](const KernelGroup &a, const KernelGroup &b) { return a.totalUs > b.totalUs; });
        for (auto &[kind, g] : side.memory)
            o.memory.push_back(g);
    }
    s.reference = std::move(sides[0].out);
    s.candidate = std::move(sides[1].out);
    return s;
}

} // namespace kforge::runtime::profiler
