#include "core/runtime/profiler/sassmetrics.h"

#include "core/runtime/profiler/cuptidiagnosis.h"
#include "core/runtime/profiler/driverapi.h"
#include "core/runtime/profiler/pcsampler.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <tuple>

namespace kforge::runtime::profiler {
namespace {

std::string reasonFor(CUptiResult result, const char *call)
{
    const CuptiDiagnosis d = explainCuptiError(result, call);
    std::string text = "SASS metrics unavailable: " + std::string(call) + " failed: " + d.error + ".";
    if (!d.reason.empty())
        text += " " + d.reason;
    if (!d.hint.empty())
        text += " " + d.hint;
    return text;
}

const char *supportName(CUpti_Profiler_Support_Level level)
{
    switch (level) {
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED: return "supported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED: return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED: return "unsupported";
    default: return "unknown";
    }
}

SassMetricsResult failure(const std::string &missing, const std::string &reason)
{
    SassMetricsResult r;
    r.missing = missing;
    r.reason = reason;
    return r;
}

SassMetricsResult cuptiFailure(CUptiResult result, const char *call)
{
    const std::string m = missingForCuptiResult(static_cast<int>(result));
    // Permission and a busy CUPTI are named as such; everything else is "sass_metrics" itself.
    return failure(m == "counters_permission" || m == "cupti_busy" ? m : "sass_metrics", reasonFor(result, call));
}

} // namespace

std::vector<SassCount> foldSassRecords(const std::vector<SassRecord> &records, uint64_t executedId, uint64_t threadsId)
{
    std::map<std::pair<std::string, uint64_t>, SassCount> byPc;
    for (const SassRecord &r : records) {
        const bool executed = executedId != 0 && r.metricId == executedId;
        const bool threads = threadsId != 0 && r.metricId == threadsId;
        if (!executed && !threads)
            continue;
        SassCount &c = byPc[{r.function, r.offset}];
        c.function = r.function;
        c.offset = r.offset;
        std::optional<uint64_t> &slot = executed ? c.executed : c.threadsExecuted;
        slot = slot.value_or(0) + r.value;
    }
    std::vector<SassCount> out;
    out.reserve(byPc.size());
    for (auto &[key, c] : byPc)
        out.push_back(std::move(c));
    return out;
}

std::size_t mergeSassCounts(SourceProfile &profile, const std::string &side, const std::vector<SassCount> &counts)
{
    std::size_t added = 0;
    for (const SassCount &c : counts) {
        auto k = std::find_if(profile.kernels.begin(), profile.kernels.end(),
                              [&](const SourceKernel &x) { return x.side == side && x.name == c.function; });
        if (k == profile.kernels.end()) {
            SourceKernel fresh;
            fresh.name = c.function;
            fresh.side = side;
            profile.kernels.push_back(std::move(fresh));
            k = profile.kernels.end() - 1;
        }
        auto pc = std::find_if(k->pcs.begin(), k->pcs.end(), [&](const SourcePc &p) { return p.offset == c.offset; });
        if (pc == k->pcs.end()) {
            SourcePc fresh;
            fresh.offset = c.offset;
            k->pcs.push_back(std::move(fresh));
            pc = k->pcs.end() - 1;
            ++added;
        }
        pc->executed = c.executed;
        pc->threadsExecuted = c.threadsExecuted;
    }
    for (SourceKernel &k : profile.kernels)
        if (k.side == side)
            std::stable_sort(k.pcs.begin(), k.pcs.end(),
                             [](const SourcePc &a, const SourcePc &b) { return a.offset < b.offset; });
    return added;
}

void addSassMetricsProblem(SourceProfile &profile, const SassMetricsResult &result)
{
    if (!result.ok) {
        profile.addMissing("sass_metrics", result.reason);
        if (!result.missing.empty() && result.missing != "sass_metrics")
            profile.addMissing(result.missing, "");
        return;
    }
    if (!result.reason.empty()) // measured, with a metric or records missing
        profile.addMissing("sass_metrics_partial", result.reason);
}

SassMetricsResult SassMetrics::collect(const std::function<void()> &launch, const SassMetricsOptions &options)
{
    if (options.budgetMs > 0 && options.launchMs * options.slowdown > options.budgetMs) {
        char text[300];
        std::snprintf(text, sizeof text,
                      "SASS metrics skipped: one launch takes %.1f ms; patched to count instructions it may run up "
                      "to %.0fx slower (%.0f ms), over the %.0f ms left of the source-level pass's budget.",
                      options.launchMs, options.slowdown, options.launchMs * options.slowdown, options.budgetMs);
        return failure("sass_metrics", text);
    }
    if (!nvidiaDriverPresent())
        return failure("no_device", "SASS metrics unavailable: no NVIDIA driver in this process.");
    int device = 0;
    if (cudaFree(nullptr) != cudaSuccess || cudaGetDevice(&device) != cudaSuccess)
        return failure("no_device", "SASS metrics unavailable: no usable CUDA device (cudaFree(0) failed).");
    CUcontext ctx = nullptr;
    if (currentContext(&ctx) != CUDA_SUCCESS || !ctx)
        return failure("no_device", "SASS metrics unavailable: no current CUDA context (cuCtxGetCurrent).");

    CUpti_Profiler_Initialize_Params ip{};
    ip.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
    if (const CUptiResult r = cuptiProfilerInitialize(&ip); r != CUPTI_SUCCESS)
        return cuptiFailure(r, "cuptiProfilerInitialize");
    CUpti_Profiler_DeviceSupported_Params ds{};
    ds.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
    ds.cuDevice = device;
    ds.api = CUPTI_PROFILER_SASS_METRICS;
    if (const CUptiResult r = cuptiProfilerDeviceSupported(&ds); r != CUPTI_SUCCESS)
        return cuptiFailure(r, "cuptiProfilerDeviceSupported");
    if (ds.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return failure("sass_metrics",
                       std::string("SASS metrics unavailable: CUPTI does not support them on this device "
                                   "(architecture ")
                           + supportName(ds.architecture) + ", vGPU " + supportName(ds.vGpu) + ", SLI "
                           + supportName(ds.sli) + ", confidential computing " + supportName(ds.confidentialCompute)
                           + ", CMP " + supportName(ds.cmp) + ", WSL " + supportName(ds.wsl) + ").");

    CUpti_Device_GetChipName_Params cn{};
    cn.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
    cn.deviceIndex = static_cast<size_t>(device);
    if (const CUptiResult r = cuptiDeviceGetChipName(&cn); r != CUPTI_SUCCESS)
        return cuptiFailure(r, "cuptiDeviceGetChipName");

    SassMetricsResult out;
    std::vector<CUpti_SassMetrics_Config> configs;
    uint64_t executedId = 0, threadsId = 0;
    for (const char *name : {kSassInstExecuted, kSassThreadInstExecuted}) {
        CUpti_SassMetrics_GetProperties_Params gp{};
        gp.structSize = CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE;
        gp.pChipName = cn.pChipName;
        gp.pMetricName = name;
        if (const CUptiResult r = cuptiSassMetricsGetProperties(&gp); r != CUPTI_SUCCESS) {
            out.reason += (out.reason.empty() ? "" : " ") + std::string(name) + " is not a SASS metric of chip "
                          + (cn.pChipName ? cn.pChipName : "?") + " (" + cuptiResultName(r) + ").";
            continue;
        }
        (name == kSassInstExecuted ? executedId : threadsId) = gp.metric.metricId;
        configs.push_back({gp.metric.metricId, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
    }
    if (configs.empty())
        return failure("sass_metrics", "SASS metrics unavailable: " + out.reason);

    CUpti_SassMetricsSetConfig_Params sc{};
    sc.structSize = CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE;
    sc.numOfMetricConfig = configs.size();
    sc.pConfigs = configs.data();
    sc.deviceIndex = static_cast<uint32_t>(device);
    if (const CUptiResult r = cuptiSassMetricsSetConfig(&sc); r != CUPTI_SUCCESS)
        return cuptiFailure(r, "cuptiSassMetricsSetConfig");
    // From here on every path disables patching and unsets the configuration, also when `launch` throws.
    struct Guard {
        CUcontext ctx;
        uint32_t device;
        bool enabled = false;
        size_t dropped = 0;
        void disable()
        {
            if (!enabled)
                return;
            enabled = false;
            CUpti_SassMetricsDisable_Params dp{};
            dp.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE;
            dp.ctx = ctx;
            if (cuptiSassMetricsDisable(&dp) == CUPTI_SUCCESS)
                dropped = dp.numOfDroppedRecords;
        }
        ~Guard()
        {
            disable();
            CUpti_SassMetricsUnsetConfig_Params up{};
            up.structSize = CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE;
            up.deviceIndex = device;
            cuptiSassMetricsUnsetConfig(&up);
        }
    } guard{ctx, static_cast<uint32_t>(device)};

    CUpti_SassMetricsEnable_Params ep{};
    ep.structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE;
    ep.ctx = ctx;
    ep.enableLazyPatching = 1; // only the kernels the launch runs are patched, at their first launch
    if (const CUptiResult r = cuptiSassMetricsEnable(&ep); r != CUPTI_SUCCESS)
        return cuptiFailure(r, "cuptiSassMetricsEnable");
    guard.enabled = true;
    launch(); // one run: the counts are those of one launch of the entry
    out.runs = 1;

    CUpti_SassMetricsGetDataProperties_Params dp{};
    dp.structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE;
    dp.ctx = ctx;
    if (const CUptiResult r = cuptiSassMetricsGetDataProperties(&dp); r != CUPTI_SUCCESS)
        return cuptiFailure(r, "cuptiSassMetricsGetDataProperties");
    std::vector<SassRecord> records;
    if (dp.numOfPatchedInstructionRecords > 0 && dp.numOfInstances > 0) {
        // Room for every configured metric per record (CUPTI fills numOfInstances values; a value slot it
        // does not write keeps metric id 0, which is never a configured id).
        const std::size_t slots = dp.numOfInstances * configs.size();
        std::vector<CUpti_SassMetrics_InstanceValue> values(dp.numOfPatchedInstructionRecords * slots,
                                                            CUpti_SassMetrics_InstanceValue{0, 0});
        std::vector<CUpti_SassMetrics_Data> data(dp.numOfPatchedInstructionRecords);
        for (std::size_t i = 0; i < data.size(); ++i) {
            data[i].structSize = sizeof(CUpti_SassMetrics_Data);
            data[i].pInstanceValues = values.data() + i * slots;
        }
        CUpti_SassMetricsFlushData_Params fp{};
        fp.structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE;
        fp.ctx = ctx;
        fp.numOfPatchedInstructionRecords = dp.numOfPatchedInstructionRecords;
        fp.numOfInstances = dp.numOfInstances;
        fp.pMetricsData = data.data();
        const CUptiResult r = cuptiSassMetricsFlushData(&fp);
        records.reserve(data.size() * slots);
        for (std::size_t i = 0; i < data.size(); ++i) {
            const std::string function = data[i].functionName ? data[i].functionName : "";
            // The name strings are the caller's to free (NVIDIA's sass_metrics sample does).
            std::free(const_cast<char *>(data[i].functionName));
            if (r != CUPTI_SUCCESS)
                continue;
            for (std::size_t v = 0; v < slots; ++v)
                if (data[i].pInstanceValues[v].metricId != 0)
                    records.push_back({function, data[i].pcOffset, data[i].pInstanceValues[v].metricId,
                                       data[i].pInstanceValues[v].value});
        }
        if (r != CUPTI_SUCCESS)
            return cuptiFailure(r, "cuptiSassMetricsFlushData");
    }
    guard.disable();
    out.droppedRecords = guard.dropped;
    out.counts = foldSassRecords(records, executedId, threadsId);
    if (out.counts.empty())
        return failure("sass_metrics", "SASS metrics unavailable: CUPTI patched the kernel but delivered no "
                                       "instruction records for the launch.");
    if (out.droppedRecords > 0)
        out.reason += (out.reason.empty() ? "" : " ") + std::string("CUPTI dropped ")
                      + std::to_string(out.droppedRecords) + " SASS metric records.";
    out.ok = true;
    return out;
}

} // namespace kforge::runtime::profiler
