#include "core/runtime/profiler/profilerjson.h"

#include <cmath>

namespace kforge::runtime::profiler {

using nlohmann::json;

json jsonNumber(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

void to_json(json &j, const CuptiDiagnosis &d)
{
    j = json{{"error", d.error}, {"call", d.call}, {"reason", d.reason}, {"hint", d.hint}};
    if (!d.holder.empty())
        j["holder"] = d.holder;
}

void to_json(json &j, const Stats &s)
{
    j = json{{"n", s.n},
             {"median", jsonNumber(s.median)},
             {"mean", jsonNumber(s.mean)},
             {"min", jsonNumber(s.min)},
             {"max", jsonNumber(s.max)}};
}

void to_json(json &j, const Occupancy &o)
{
    j = json{{"active_blocks_per_sm", o.activeBlocksPerSm},
             {"active_warps_per_sm", o.activeWarpsPerSm},
             {"max_warps_per_sm", o.maxWarpsPerSm},
             {"pct", jsonNumber(o.percent)},
             {"limiter", o.limiter}};
}

namespace {

json launchJson(const std::array<int32_t, 3> &grid, const std::array<int32_t, 3> &block, int registers, int staticSmem,
                int dynamicSmem, uint32_t localMem)
{
    return json{{"grid", grid},
                {"block", block},
                {"registers", registers},
                {"static_smem", staticSmem},
                {"dynamic_smem", dynamicSmem},
                {"local_mem_per_thread", localMem}};
}

} // namespace

void to_json(json &j, const KernelGroup &g)
{
    j = json{{"name", g.name},
             {"mangled", g.mangled},
             {"count", g.count},
             {"per_run", jsonNumber(g.perRun)},
             {"total_us", jsonNumber(g.totalUs)},
             {"duration_us", g.durationUs},
             {"launch", launchJson(g.grid, g.block, g.registers, g.staticSmem, g.dynamicSmem, g.localMemPerThread)},
             {"launch_configs", g.launchConfigs},
             {"streams", g.streams},
             {"theoretical_occupancy", g.occupancy ? json(*g.occupancy) : json(nullptr)}};
}

void to_json(json &j, const MemoryGroup &g)
{
    j = json{{"kind", g.kind}, {"count", g.count}, {"bytes", g.bytes}, {"total_us", jsonNumber(g.totalUs)}};
}

void to_json(json &j, const SideSummary &s)
{
    j = json{{"runs", s.runs},
             {"launches_per_run", s.launchesPerRun},
             {"kernel_time_ms", s.kernelTimeMs},
             {"gpu_time_ms", s.gpuTimeMs},
             {"busy_time_ms", s.busyTimeMs},
             {"event_time_ms", s.eventTimeMs},
             {"gpu_over_event", jsonNumber(s.gpuOverEvent)},
             {"kernels", s.kernels},
             {"memory", s.memory},
             {"side_stream_work", s.sideStreamWork},
             {"side_stream_items", s.sideStreamItems},
             {"side_streams", s.sideStreams},
             {"late_work", s.lateWork},
             {"late_items", s.lateItems},
             {"max_late_us", jsonNumber(s.maxLateUs)},
             {"untagged_items", s.untaggedItems},
             {"zero_timestamp_items", s.zeroTimestampItems}};
}

void to_json(json &j, const TraceSummary &s)
{
    if (!s.available) {
        j = json{{"available", false}, {"problem", s.problem}};
        return;
    }
    j = json{{"available", true},
             {"records", s.records},
             {"dropped", s.dropped},
             {"api_records", s.apiRecords},
             {"kernels_seen", s.kernelsSeen},
             {"replay_excluded", s.replayExcluded},
             {"untimed_ignored", s.untimedIgnored},
             {"outside_regions", s.outsideRegions},
             {"reference", s.reference},
             {"candidate", s.candidate},
             {"flags", s.candidateFlags()}};
    if (!s.parseError.empty())
        j["parse_error"] = s.parseError;
}

void to_json(json &j, const KernelMetrics &k)
{
    json values = json::object();
    for (const auto &[name, v] : k.values)
        values[name] = jsonNumber(v);
    j = json{{"index", k.index},
             {"range", k.rangeName},
             {"name", k.name.empty() ? json(nullptr) : json(k.name)},
             {"mangled", k.mangled.empty() ? json(nullptr) : json(k.mangled)},
             {"launch", k.launch ? launchJson(k.launch->grid, k.launch->block, k.launch->registers,
                                              k.launch->staticSmem, k.launch->dynamicSmem, k.launch->localMemPerThread)
                                 : json(nullptr)},
             {"time_ns", jsonNumber(k.timeNs)},
             {"dram_bytes_read", jsonNumber(k.dramReadBytes)},
             {"dram_bytes_write", jsonNumber(k.dramWriteBytes)},
             {"dram_bytes", jsonNumber(k.dramBytes)},
             {"achieved_gbps", jsonNumber(k.achievedGbps)},
             {"flops_fp32", jsonNumber(k.flopsFp32)},
             {"achieved_gflops", jsonNumber(k.achievedGflops)},
             {"dram_throughput_pct", jsonNumber(k.dramThroughputPct)},
             {"sm_throughput_pct", jsonNumber(k.smThroughputPct)},
             {"compute_memory_throughput_pct", jsonNumber(k.computeMemoryThroughputPct)},
             {"achieved_occupancy_pct", jsonNumber(k.achievedOccupancyPct)},
             {"theoretical_occupancy", k.theoreticalOccupancy ? json(*k.theoreticalOccupancy) : json(nullptr)},
             {"l2_hit_rate_pct", jsonNumber(k.l2HitRatePct)},
             {"sm_clock_mhz", jsonNumber(k.smClockMhz)},
             {"values", values}};
}

void to_json(json &j, const MetricsResult &m)
{
    if (!m.available) {
        j = json{{"available", false}, {"problem", m.problem}};
        if (!m.chip.empty())
            j["chip"] = m.chip;
        return;
    }
    json sessionParts = json::object();
    for (const auto &[name, ms] : m.sessionParts)
        sessionParts[name] = jsonNumber(ms);
    j = json{{"available", true},
             {"chip", m.chip},
             {"passes", m.passes},
             {"session_ms", jsonNumber(m.sessionMs)},
             {"total_ms", jsonNumber(m.totalMs)},
             {"init_ms", jsonNumber(m.initMs)},
             {"config_ms", jsonNumber(m.configMs)},
             {"session_parts_ms", sessionParts},
             {"metrics", m.metrics},
             {"invalid_metrics", m.invalidMetrics},
             {"ranges_dropped", m.rangesDropped},
             {"kernels_named", m.kernelsNamed},
             {"kernel_names_from", m.kernelNamesFrom},
             {"replay_records", m.replayRecords},
             {"cached", m.cached},
             {"kernels", m.kernels},
             {"total_time_ns", jsonNumber(m.totalTimeNs)},
             {"total_dram_bytes", jsonNumber(m.totalDramBytes)},
             {"total_flops_fp32", jsonNumber(m.totalFlopsFp32)}};
}

void to_json(json &j, const DevicePeaks &p)
{
    j = json{{"copy_gbps", jsonNumber(p.copyGbps)},
             {"fma_gflops", jsonNumber(p.fmaGflops)},
             {"ridge_flop_per_byte", jsonNumber(p.ridge())}};
}

void to_json(json &j, const RooflinePoint &p)
{
    j = json{{"flops", jsonNumber(p.flops)},
             {"bytes", jsonNumber(p.bytes)},
             {"time_ns", jsonNumber(p.timeNs)},
             {"arithmetic_intensity", jsonNumber(p.intensity)},
             {"attainable_gflops", jsonNumber(p.attainableGflops)},
             {"achieved_gflops", jsonNumber(p.achievedGflops)},
             {"achieved_gbps", jsonNumber(p.achievedGbps)},
             {"pct_of_attainable", jsonNumber(p.pctOfAttainable)},
             {"pct_of_peak_flops", jsonNumber(p.pctOfPeakFlops)},
             {"pct_of_peak_bandwidth", jsonNumber(p.pctOfPeakBandwidth)},
             {"bound", boundName(p.bound)},
             {"why", p.why}};
}

void to_json(json &j, const SpeedOfLight &s)
{
    j = json{{"flops", jsonNumber(s.flops)},
             {"bytes", jsonNumber(s.bytes)},
             {"time_ms", jsonNumber(s.timeMs)},
             {"floor_ms", jsonNumber(s.floorMs)},
             {"compute_floor_ms", jsonNumber(s.computeFloorMs)},
             {"memory_floor_ms", jsonNumber(s.memoryFloorMs)},
             {"time_over_floor", jsonNumber(s.timeOverFloor)},
             {"tolerance", jsonNumber(s.tolerance)},
             {"below_speed_of_light", s.belowSpeedOfLight},
             {"beats_flop_floor", s.beatsFlopFloor},
             {"limit", s.limit}};
}

void to_json(json &j, const RooflineReport &r)
{
    json kernels = json::array();
    for (const KernelRoofline &k : r.kernels) {
        json e = k.point;
        e["index"] = k.index;
        e["name"] = k.name.empty() ? json(nullptr) : json(k.name);
        kernels.push_back(std::move(e));
    }
    j = json{{"peaks", r.peaks},
             {"task", r.task ? json(*r.task) : json(nullptr)},
             {"kernels", kernels},
             {"total", r.total ? json(*r.total) : json(nullptr)}};
}

} // namespace kforge::runtime::profiler
