#include "core/runtime/profiler/metricscollector.h"

#include "core/runtime/profiler/activityparser.h"
#include "core/runtime/profiler/activitytracer.h"
#include "core/runtime/profiler/driverapi.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <map>

namespace kforge::runtime::profiler {

namespace {

double nowMs()
{
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// libcupti dlopen()s libnvperf_host.so by bare name and has no rpath of its own; loading it first
// (RTLD_GLOBAL) makes that lookup succeed however the executable was linked.
void preloadNvperf()
{
    static const bool done = [] {
        if (dlopen("libnvperf_host.so", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD))
            return true;
        if (dlopen("libnvperf_host.so", RTLD_NOW | RTLD_GLOBAL))
            return true;
#ifdef KFORGE_NVPERF_HOST_PATH
        if (dlopen(KFORGE_NVPERF_HOST_PATH, RTLD_NOW | RTLD_GLOBAL))
            return true;
#endif
        return false;
    }();
    (void)done;
}

struct HostObject {
    CUpti_Profiler_Host_Object *handle = nullptr;
    CUptiResult status = CUPTI_SUCCESS;

    HostObject(const std::string &chip, const std::vector<uint8_t> &availability)
    {
        CUpti_Profiler_Host_Initialize_Params p{};
        p.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
        p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        p.pChipName = chip.c_str();
        p.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
        status = cuptiProfilerHostInitialize(&p);
        if (status == CUPTI_SUCCESS)
            handle = p.pHostObject;
    }
    ~HostObject()
    {
        if (!handle)
            return;
        CUpti_Profiler_Host_Deinitialize_Params p{};
        p.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
        p.pHostObject = handle;
        cuptiProfilerHostDeinitialize(&p);
    }
    HostObject(const HostObject &) = delete;
    HostObject &operator=(const HostObject &) = delete;
};

CUptiResult addMetrics(CUpti_Profiler_Host_Object *host, std::vector<const char *> names)
{
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{};
    add.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
    add.pHostObject = host;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    return cuptiProfilerHostConfigAddMetrics(&add);
}

double toNs(double v, const std::string &dimUnit)
{
    if (dimUnit.find("usecond") != std::string::npos || dimUnit.find("microsecond") != std::string::npos)
        return v * 1e3;
    if (dimUnit.find("msecond") != std::string::npos || dimUnit.find("millisecond") != std::string::npos)
        return v * 1e6;
    if (dimUnit == "second" || dimUnit == "s")
        return v * 1e9;
    return v; // "nsecond": what CUPTI 13.0 reports for gpu__time_duration on GH100
}

const char *supportName(CUpti_Profiler_Support_Level l)
{
    switch (l) {
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED: return "supported";
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED: return "unsupported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED: return "disabled";
    default: return "unknown";
    }
}

CuptiDiagnosis cudaDiagnosis(cudaError_t e, const char *call)
{
    std::string name = cudaGetErrorName(e);
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver)
        return makeDiagnosis("no_device", call, std::string("No usable CUDA device: ") + cudaGetErrorString(e) + ".",
                             "Run the worker on a machine with an NVIDIA GPU and driver.");
    return makeDiagnosis(name, call, std::string(call) + " failed: " + cudaGetErrorString(e) + ".");
}

} // namespace

double KernelMetrics::value(const std::string &metricName) const
{
    for (const auto &[n, v] : values)
        if (n == metricName)
            return v;
    return NAN;
}

MetricsResult MetricsResult::unavailable(CuptiDiagnosis why)
{
    MetricsResult r;
    r.available = false;
    r.problem = std::move(why);
    return r;
}

struct MetricsCollector::State {
    bool profilerInitialized = false;
    CuptiDiagnosis initProblem;
    bool ready = false;
    CUcontext ctx = nullptr;
    CUdevice device = 0;
    std::string chip;
    std::vector<uint8_t> availability;
    std::optional<DeviceLimits> limits;
    std::map<std::string, MetricConfig> configs; // by joined metric list
};

MetricsCollector::MetricsCollector(MetricsOptions options)
    : m_options(std::move(options))
    , m_state(std::make_unique<State>())
{
    if (m_options.metrics.empty())
        m_options.metrics = defaultMetrics();
}

MetricsCollector::~MetricsCollector()
{
    if (m_state->profilerInitialized) {
        CUpti_Profiler_DeInitialize_Params p{};
        p.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE;
        cuptiProfilerDeInitialize(&p);
    }
}

std::vector<std::string> MetricsCollector::defaultMetrics()
{
    return {metric::kTime,           metric::kDramRead,     metric::kDramWrite,
            metric::kDramThroughput, metric::kSmThroughput, metric::kComputeMemoryThroughput,
            metric::kWarpsActive,    metric::kL2HitRate,    metric::kSmClock,
            metric::kFfma,           metric::kFadd,         metric::kFmul};
}

std::vector<std::string> MetricsCollector::supportedChips()
{
    preloadNvperf();
    CUpti_Profiler_Host_GetSupportedChips_Params p{};
    p.structSize = CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE;
    std::vector<std::string> chips;
    if (cuptiProfilerHostGetSupportedChips(&p) == CUPTI_SUCCESS)
        for (size_t i = 0; i < p.numChips; ++i)
            chips.emplace_back(p.ppChipNames[i]);
    return chips;
}

MetricConfig MetricsCollector::buildConfig(const std::string &chip, const std::vector<std::string> &metrics,
                                           const std::vector<uint8_t> &counterAvailability)
{
    preloadNvperf();
    MetricConfig cfg;
    {
        // Validate one by one so one bad name drops only itself; keep the dimension units.
        HostObject host(chip, counterAvailability);
        if (host.status != CUPTI_SUCCESS) {
            cfg.problem = explainCuptiError(host.status, "cuptiProfilerHostInitialize");
            if (host.status == CUPTI_ERROR_INVALID_CHIP_NAME || host.status == CUPTI_ERROR_INVALID_PARAMETER)
                cfg.problem.reason = "The Profiler Host API does not know the chip \"" + chip + "\".";
            return cfg;
        }
        for (const std::string &m : metrics) {
            CUpti_Profiler_Host_GetMetricProperties_Params pp{};
            pp.structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE;
            pp.pHostObject = host.handle;
            pp.pMetricName = m.c_str();
            if (cuptiProfilerHostGetMetricProperties(&pp) == CUPTI_SUCCESS) {
                cfg.metrics.push_back(m);
                cfg.dimUnits[m] = pp.pDimUnit ? pp.pDimUnit : "";
            } else {
                cfg.invalid.push_back(m);
            }
        }
    }
    if (cfg.metrics.empty()) {
        cfg.problem = makeDiagnosis("no_valid_metrics", "cuptiProfilerHostGetMetricProperties",
                                    "None of the requested metrics is known for chip " + chip + ".");
        return cfg;
    }
    HostObject host(chip, counterAvailability);
    std::vector<const char *> names;
    for (const std::string &m : cfg.metrics)
        names.push_back(m.c_str());
    CUptiResult r = host.status;
    if (r == CUPTI_SUCCESS)
        r = addMetrics(host.handle, names);
    if (r != CUPTI_SUCCESS) {
        // A name that has properties can still be rejected for the range profiler (Nsight-only metrics).
        std::vector<std::string> keep;
        for (const std::string &m : cfg.metrics) {
            HostObject single(chip, counterAvailability);
            if (single.status == CUPTI_SUCCESS && addMetrics(single.handle, {m.c_str()}) == CUPTI_SUCCESS)
                keep.push_back(m);
            else
                cfg.invalid.push_back(m);
        }
        cfg.metrics = keep;
        names.clear();
        for (const std::string &m : cfg.metrics)
            names.push_back(m.c_str());
        HostObject retry(chip, counterAvailability);
        r = retry.status == CUPTI_SUCCESS && !names.empty() ? addMetrics(retry.handle, names)
                                                            : CUPTI_ERROR_INVALID_METRIC_NAME;
        if (r != CUPTI_SUCCESS) {
            cfg.problem = explainCuptiError(r, "cuptiProfilerHostConfigAddMetrics");
            return cfg;
        }
        return buildConfig(chip, cfg.metrics, counterAvailability); // every name now valid: one clean pass
    }
    CUpti_Profiler_Host_GetConfigImageSize_Params sz{};
    sz.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
    sz.pHostObject = host.handle;
    if ((r = cuptiProfilerHostGetConfigImageSize(&sz)) != CUPTI_SUCCESS) {
        cfg.problem = explainCuptiError(r, "cuptiProfilerHostGetConfigImageSize");
        return cfg;
    }
    cfg.image.assign(sz.configImageSize, 0);
    CUpti_Profiler_Host_GetConfigImage_Params img{};
    img.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
    img.pHostObject = host.handle;
    img.configImageSize = cfg.image.size();
    img.pConfigImage = cfg.image.data();
    if ((r = cuptiProfilerHostGetConfigImage(&img)) != CUPTI_SUCCESS) {
        cfg.problem = explainCuptiError(r, "cuptiProfilerHostGetConfigImage");
        return cfg;
    }
    CUpti_Profiler_Host_GetNumOfPasses_Params np{};
    np.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
    np.configImageSize = cfg.image.size();
    np.pConfigImage = cfg.image.data();
    if ((r = cuptiProfilerHostGetNumOfPasses(&np)) != CUPTI_SUCCESS) {
        cfg.problem = explainCuptiError(r, "cuptiProfilerHostGetNumOfPasses");
        return cfg;
    }
    cfg.passes = np.numOfPasses;
    return cfg;
}

CuptiDiagnosis MetricsCollector::ensureReady()
{
    State &s = *m_state;
    if (s.ready)
        return {};
    if (!s.initProblem.ok())
        return s.initProblem; // permanent for this process (no device, not permitted, ...)
    auto fail = [&](CuptiDiagnosis d) {
        s.initProblem = d;
        return d;
    };
    preloadNvperf();
    if (cudaError_t e = cudaFree(nullptr); e != cudaSuccess)
        return fail(cudaDiagnosis(e, "cudaFree"));
    int device = 0;
    if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
        return fail(cudaDiagnosis(e, "cudaGetDevice"));
    s.device = static_cast<CUdevice>(device); // a CUdevice is the device ordinal
    if (currentContext(&s.ctx) != CUDA_SUCCESS || !s.ctx)
        return fail(makeDiagnosis("no_context", "cuCtxGetCurrent", "No current CUDA context after cudaFree(0)."));

    if (!s.profilerInitialized) {
        CUpti_Profiler_Initialize_Params ip{};
        ip.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
        CUptiResult r = cuptiProfilerInitialize(&ip);
        if (r != CUPTI_SUCCESS) {
            std::string holder;
            if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
                holder = probeSubscriberSlot().holder;
            return fail(explainCuptiError(r, "cuptiProfilerInitialize", holder));
        }
        s.profilerInitialized = true;
        markSubscriberSlotVerified();
    }

    CUpti_Profiler_DeviceSupported_Params ds{};
    ds.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
    ds.cuDevice = s.device;
    ds.api = CUPTI_PROFILER_RANGE_PROFILING;
    if (CUptiResult r = cuptiProfilerDeviceSupported(&ds); r != CUPTI_SUCCESS)
        return fail(explainCuptiError(r, "cuptiProfilerDeviceSupported"));
    if (ds.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        std::string detail = std::string("architecture ") + supportName(ds.architecture) + ", vGPU "
                             + supportName(ds.vGpu) + ", SLI " + supportName(ds.sli) + ", confidential computing "
                             + supportName(ds.confidentialCompute) + ", CMP " + supportName(ds.cmp) + ", WSL "
                             + supportName(ds.wsl);
        return fail(makeDiagnosis("CUPTI_ERROR_NOT_SUPPORTED", "cuptiProfilerDeviceSupported",
                                  "Range profiling is not supported on this device (" + detail + ").",
                                  "Metrics need a compute capability 7.5+ GPU without MIG/SLI/CMP; on vGPU the "
                                  "hypervisor must enable profiling."));
    }

    CUpti_Device_GetChipName_Params cn{};
    cn.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
    cn.deviceIndex = static_cast<size_t>(s.device);
    if (CUptiResult r = cuptiDeviceGetChipName(&cn); r != CUPTI_SUCCESS)
        return fail(explainCuptiError(r, "cuptiDeviceGetChipName"));
    s.chip = cn.pChipName ? cn.pChipName : "";

    CUpti_Profiler_GetCounterAvailability_Params ca{};
    ca.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
    ca.ctx = s.ctx;
    if (CUptiResult r = cuptiProfilerGetCounterAvailability(&ca); r != CUPTI_SUCCESS)
        return fail(explainCuptiError(r, "cuptiProfilerGetCounterAvailability"));
    s.availability.assign(ca.counterAvailabilityImageSize, 0);
    ca.pCounterAvailabilityImage = s.availability.data();
    if (CUptiResult r = cuptiProfilerGetCounterAvailability(&ca); r != CUPTI_SUCCESS)
        return fail(explainCuptiError(r, "cuptiProfilerGetCounterAvailability"));

    s.limits = m_options.limits;
    if (!s.limits)
        s.limits = queryDeviceLimits(static_cast<int>(s.device));
    s.ready = true;
    return {};
}

const MetricConfig &MetricsCollector::configFor(const std::vector<std::string> &metrics)
{
    std::string key;
    for (const std::string &m : metrics)
        key += m + ';';
    auto it = m_state->configs.find(key);
    if (it == m_state->configs.end())
        it = m_state->configs.emplace(key, buildConfig(m_state->chip, metrics, m_state->availability)).first;
    return it->second;
}

MetricsResult MetricsCollector::collect(const std::function<void()> &launch)
{
    return collect(launch, m_options.metrics);
}

MetricsResult MetricsCollector::collect(const std::function<void()> &launch, const std::vector<std::string> &metrics)
{
    const double t0 = nowMs();
    if (CuptiDiagnosis d = ensureReady(); !d.ok())
        return MetricsResult::unavailable(d);
    const double t1 = nowMs();
    State &s = *m_state;
    const MetricConfig &cfg = configFor(metrics.empty() ? m_options.metrics : metrics);
    if (!cfg.problem.ok())
        return MetricsResult::unavailable(cfg.problem);

    MetricsResult out;
    out.initMs = t1 - t0;
    out.configMs = nowMs() - t1;
    out.chip = s.chip;
    out.passes = cfg.passes;
    out.metrics = cfg.metrics;
    out.invalidMetrics = cfg.invalid;

    // Trace the replays (tagged as the metrics pass, so a running worker trace does not count them) to
    // learn which kernel each auto range was.
    ActivityTracer *tracer = m_options.nameKernels ? ActivityTracer::current() : nullptr;
    std::unique_ptr<ActivityTracer> ownTracer;
    if (m_options.nameKernels && !tracer) {
        ownTracer = std::make_unique<ActivityTracer>(
            TracerOptions{.memcpy = false, .memset = false, .apiRecords = true, .bufferBytes = 1u << 20});
        if (ownTracer->start().ok())
            tracer = ownTracer.get();
        else
            ownTracer.reset();
    }
    const uint32_t region = tracer ? tracer->beginRegion(RegionKind::MetricsPass, 0) : kNoRegion;

    std::vector<const char *> names;
    for (const std::string &m : cfg.metrics)
        names.push_back(m.c_str());
    std::vector<uint8_t> config = cfg.image; // SetConfig takes a non-const pointer
    std::vector<uint8_t> counterData;
    const size_t maxRanges = std::max<size_t>(1, m_options.maxKernels);
    std::vector<std::vector<double>> rangeValues;
    std::vector<std::string> rangeNames;

    const double s0 = nowMs();
    double mark = s0;
    const auto part = [&](const char *name) {
        const double now = nowMs();
        out.sessionParts.emplace_back(name, now - mark);
        mark = now;
    };
    out.sessionParts.emplace_back("tracer", s0 - t1 - out.configMs);
    CUpti_RangeProfiler_Enable_Params en{};
    en.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
    en.ctx = s.ctx;
    CUptiResult r = cuptiRangeProfilerEnable(&en);
    CuptiDiagnosis problem;
    if (r != CUPTI_SUCCESS) {
        std::string holder;
        if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
            holder = probeSubscriberSlot().holder;
        problem = explainCuptiError(r, "cuptiRangeProfilerEnable", holder);
    } else {
        CUpti_RangeProfiler_Object *obj = en.pRangeProfilerObject;
        part("enable");
        problem = [&]() -> CuptiDiagnosis {
#define KF_CUPTI(call, name)                          \
    if (CUptiResult rr = (call); rr != CUPTI_SUCCESS) \
        return explainCuptiError(rr, name);
            CUpti_RangeProfiler_GetCounterDataSize_Params cs{};
            cs.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
            cs.pRangeProfilerObject = obj;
            cs.pMetricNames = names.data();
            cs.numMetrics = names.size();
            cs.maxNumOfRanges = maxRanges;
            cs.maxNumRangeTreeNodes = static_cast<uint32_t>(maxRanges);
            KF_CUPTI(cuptiRangeProfilerGetCounterDataSize(&cs), "cuptiRangeProfilerGetCounterDataSize")
            counterData.assign(cs.counterDataSize, 0);
            CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci{};
            ci.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
            ci.pRangeProfilerObject = obj;
            ci.counterDataSize = counterData.size();
            ci.pCounterData = counterData.data();
            KF_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&ci), "cuptiRangeProfilerCounterDataImageInitialize")

            CUpti_RangeProfiler_SetConfig_Params sc{};
            sc.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
            sc.pRangeProfilerObject = obj;
            sc.configSize = config.size();
            sc.pConfig = config.data();
            sc.counterDataImageSize = counterData.size();
            sc.pCounterDataImage = counterData.data();
            sc.range = CUPTI_AutoRange;
            sc.replayMode = CUPTI_KernelReplay;
            sc.maxRangesPerPass = maxRanges;
            sc.numNestingLevels = 1;
            sc.minNestingLevel = 1;
            sc.passIndex = 0;
            sc.targetNestingLevel = 1; // as NVIDIA's range_profiling sample; measured working on H200
            KF_CUPTI(cuptiRangeProfilerSetConfig(&sc), "cuptiRangeProfilerSetConfig")
            part("set_config");

            // With kernel replay every pass is replayed inside the launch: one iteration submits all.
            bool allSubmitted = false;
            for (int it = 0; it < 64 && !allSubmitted; ++it) {
                CUpti_RangeProfiler_Start_Params st{};
                st.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
                st.pRangeProfilerObject = obj;
                KF_CUPTI(cuptiRangeProfilerStart(&st), "cuptiRangeProfilerStart")
                launch();
                CUpti_RangeProfiler_Stop_Params sp{};
                sp.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
                sp.pRangeProfilerObject = obj;
                KF_CUPTI(cuptiRangeProfilerStop(&sp), "cuptiRangeProfilerStop")
                allSubmitted = sp.isAllPassSubmitted != 0;
            }
            if (!allSubmitted)
                return makeDiagnosis("replay_incomplete", "cuptiRangeProfilerStop",
                                     "The range profiler still wanted passes after 64 iterations.");

            part("replay");
            CUpti_RangeProfiler_DecodeData_Params dd{};
            dd.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
            dd.pRangeProfilerObject = obj;
            KF_CUPTI(cuptiRangeProfilerDecodeData(&dd), "cuptiRangeProfilerDecodeData")
            out.rangesDropped = dd.numOfRangeDropped;

            CUpti_RangeProfiler_GetCounterDataInfo_Params gi{};
            gi.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
            gi.pCounterDataImage = counterData.data();
            gi.counterDataImageSize = counterData.size();
            KF_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&gi), "cuptiRangeProfilerGetCounterDataInfo")

            part("decode");
            HostObject host(s.chip, s.availability);
            if (host.status != CUPTI_SUCCESS)
                return explainCuptiError(host.status, "cuptiProfilerHostInitialize");
            for (size_t ri = 0; ri < gi.numTotalRanges; ++ri) {
                CUpti_RangeProfiler_CounterData_GetRangeInfo_Params rn{};
                rn.structSize = CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE;
                rn.pCounterDataImage = counterData.data();
                rn.counterDataImageSize = counterData.size();
                rn.rangeIndex = ri;
                rn.rangeDelimiter = "/";
                KF_CUPTI(cuptiRangeProfilerCounterDataGetRangeInfo(&rn), "cuptiRangeProfilerCounterDataGetRangeInfo")
                rangeNames.emplace_back(rn.rangeName ? rn.rangeName : "");

                std::vector<double> vals(names.size(), NAN);
                CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{};
                ev.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
                ev.pHostObject = host.handle;
                ev.pCounterDataImage = counterData.data();
                ev.counterDataImageSize = counterData.size();
                ev.rangeIndex = ri;
                ev.ppMetricNames = names.data();
                ev.numMetrics = names.size();
                ev.pMetricValues = vals.data();
                if (cuptiProfilerHostEvaluateToGpuValues(&ev) != CUPTI_SUCCESS) {
                    // Keep what can be evaluated: one metric at a time.
                    for (size_t mi = 0; mi < names.size(); ++mi) {
                        double v = NAN;
                        ev.ppMetricNames = &names[mi];
                        ev.numMetrics = 1;
                        ev.pMetricValues = &v;
                        if (cuptiProfilerHostEvaluateToGpuValues(&ev) == CUPTI_SUCCESS)
                            vals[mi] = v;
                    }
                }
                rangeValues.push_back(std::move(vals));
            }
            part("evaluate");
            return {};
#undef KF_CUPTI
        }();
        CUpti_RangeProfiler_Disable_Params di{};
        di.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
        di.pRangeProfilerObject = obj;
        CUptiResult dr = cuptiRangeProfilerDisable(&di);
        if (problem.ok() && dr != CUPTI_SUCCESS)
            problem = explainCuptiError(dr, "cuptiRangeProfilerDisable");
    }
    part("disable");
    out.sessionMs = nowMs() - s0;

    // Kernel records of the replays: one correlation id per launch, several records (one per pass).
    std::vector<std::pair<KernelRecord, std::string>> replayed;
    if (tracer) {
        cudaDeviceSynchronize();
        tracer->endRegion();
        tracer->flush();
        replayed = tracer->kernelsInRegion(region);
        if (ownTracer)
            ownTracer->stop();
    }
    if (cudaError_t e = cudaPeekAtLastError(); e != cudaSuccess && problem.ok())
        problem = cudaDiagnosis(e, "launch");
    if (!problem.ok()) {
        MetricsResult failed = MetricsResult::unavailable(problem);
        failed.chip = s.chip;
        failed.passes = cfg.passes;
        failed.metrics = cfg.metrics;
        failed.invalidMetrics = cfg.invalid;
        failed.totalMs = nowMs() - t0;
        return failed;
    }

    // Which record is which range: CUPTI 13 gives no kernel name per auto range, so match the traced
    // replays to the ranges (launch order). Tried in turn: one correlation id per launch; blocks of
    // `passes` records; runs of consecutive records with the same name.
    std::vector<std::pair<KernelRecord, std::string>> launches;
    {
        std::sort(replayed.begin(), replayed.end(),
                  [](const auto &a, const auto &b) { return a.first.start < b.first.start; });
        const size_t ranges = rangeValues.size();
        std::map<uint32_t, size_t> seen;
        for (const auto &rec : replayed) {
            if (rec.first.correlationId != 0 && seen.count(rec.first.correlationId))
                continue;
            seen[rec.first.correlationId] = launches.size();
            launches.push_back(rec);
        }
        out.kernelNamesFrom = "correlation";
        if (launches.size() != ranges && cfg.passes > 0 && replayed.size() == ranges * cfg.passes) {
            launches.clear();
            for (size_t i = 0; i < ranges; ++i)
                launches.push_back(replayed[i * cfg.passes]);
            out.kernelNamesFrom = "pass_blocks";
        }
        if (launches.size() != ranges) {
            launches.clear();
            for (const auto &rec : replayed)
                if (launches.empty() || launches.back().second != rec.second)
                    launches.push_back(rec);
            out.kernelNamesFrom = "name_runs";
        }
        if (launches.size() != ranges)
            out.kernelNamesFrom.clear();
        out.replayRecords = replayed.size();
    }
    out.kernelsNamed = !rangeValues.empty() && launches.size() == rangeValues.size();

    auto unit = [&](const char *m) {
        auto it = cfg.dimUnits.find(m);
        return it == cfg.dimUnits.end() ? std::string() : it->second;
    };
    out.totalTimeNs = out.totalDramBytes = out.totalFlopsFp32 = 0;
    for (size_t i = 0; i < rangeValues.size(); ++i) {
        KernelMetrics k;
        k.index = i;
        k.rangeName = i < rangeNames.size() ? rangeNames[i] : std::string();
        for (size_t m = 0; m < cfg.metrics.size(); ++m)
            k.values.emplace_back(cfg.metrics[m], rangeValues[i][m]);
        if (out.kernelsNamed) {
            k.launch = launches[i].first;
            k.mangled = launches[i].second;
            k.name = demangle(k.mangled);
        }
        k.timeNs = toNs(k.value(metric::kTime), unit(metric::kTime));
        k.dramReadBytes = k.value(metric::kDramRead);
        k.dramWriteBytes = k.value(metric::kDramWrite);
        k.dramBytes = k.dramReadBytes + k.dramWriteBytes;
        k.achievedGbps = k.timeNs > 0 ? k.dramBytes / k.timeNs : NAN;
        const double ffma = k.value(metric::kFfma), fadd = k.value(metric::kFadd), fmul = k.value(metric::kFmul);
        if (!std::isnan(ffma) || !std::isnan(fadd) || !std::isnan(fmul))
            k.flopsFp32 = 2.0 * (std::isnan(ffma) ? 0 : ffma) + (std::isnan(fadd) ? 0 : fadd)
                          + (std::isnan(fmul) ? 0 : fmul);
        k.achievedGflops = k.timeNs > 0 ? k.flopsFp32 / k.timeNs : NAN;
        k.dramThroughputPct = k.value(metric::kDramThroughput);
        k.smThroughputPct = k.value(metric::kSmThroughput);
        k.computeMemoryThroughputPct = k.value(metric::kComputeMemoryThroughput);
        k.achievedOccupancyPct = k.value(metric::kWarpsActive);
        k.l2HitRatePct = k.value(metric::kL2HitRate);
        k.smClockMhz = k.value(metric::kSmClock) / 1e6;
        if (k.launch && s.limits)
            k.theoreticalOccupancy = theoreticalOccupancy(*s.limits, k.launch->threadsPerBlock(), k.launch->registers,
                                                          static_cast<size_t>(std::max(0, k.launch->staticSmem)),
                                                          static_cast<size_t>(std::max(0, k.launch->dynamicSmem)));
        out.totalTimeNs += k.timeNs;
        out.totalDramBytes += k.dramBytes;
        out.totalFlopsFp32 += k.flopsFp32;
        out.kernels.push_back(std::move(k));
    }
    out.available = true;
    out.totalMs = nowMs() - t0;
    return out;
}

} // namespace kforge::runtime::profiler
