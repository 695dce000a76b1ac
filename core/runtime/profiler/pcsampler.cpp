#include "core/runtime/profiler/pcsampler.h"

#include "core/runtime/profiler/cuptidiagnosis.h"
#include "core/runtime/profiler/driverapi.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_pcsampling.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <tuple>

namespace kforge::runtime::profiler {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// "RmProfilingAdminOnly: 1" from the driver's parameters, for the reason text; empty when unreadable.
std::string adminOnlySetting()
{
    std::ifstream in("/proc/driver/nvidia/params");
    // One string returned on every path: gcc 12 at -O2 reports a false -Warray-bounds when `line` is returned from
    // inside the loop and then concatenated by reasonFor().
    std::string line;
    while (std::getline(in, line))
        if (line.starts_with("RmProfilingAdminOnly"))
            break;
    if (!line.starts_with("RmProfilingAdminOnly"))
        line.clear();
    return line;
}

std::string reasonFor(int result, const char *call)
{
    const CuptiDiagnosis d = explainCuptiError(result, call);
    std::string text = std::string(call) + " failed: " + d.error;
    if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES) {
        // ERR_NVGPUCTRPERM is what NVIDIA's tools print for the same condition.
        const std::string setting = adminOnlySetting();
        text = "ERR_NVGPUCTRPERM: PC sampling needs the GPU performance counters, which are admin-only on this host";
        if (!setting.empty())
            text.append(" (").append(setting).append(")");
        text.append("; ").append(call).append(" returned ").append(d.error).append(".");
    } else if (!d.reason.empty()) {
        text += ". " + d.reason;
    }
    if (!d.hint.empty())
        text += " " + d.hint;
    return text;
}

struct PcKey {
    std::string function;
    uint64_t offset;
    uint64_t crc;
    bool operator<(const PcKey &o) const
    {
        return std::tie(function, offset, crc) < std::tie(o.function, o.offset, o.crc);
    }
};

// One GetData buffer: the PC records and, per record, room for every stall reason.
class DataBuffer
{
public:
    DataBuffer(std::size_t pcs, std::size_t reasons)
        : m_pcs(pcs)
        , m_reasons(pcs * std::max<std::size_t>(reasons, 1))
    {
        m_data.size = sizeof(CUpti_PCSamplingData);
        m_data.collectNumPcs = pcs;
        m_data.pPcData = m_pcs.data();
        const std::size_t per = std::max<std::size_t>(reasons, 1);
        for (std::size_t i = 0; i < pcs; ++i) {
            m_pcs[i].size = sizeof(CUpti_PCSamplingPCData);
            m_pcs[i].stallReason = m_reasons.data() + i * per;
        }
    }
    CUpti_PCSamplingData *get() { return &m_data; }

private:
    std::vector<CUpti_PCSamplingPCData> m_pcs;
    std::vector<CUpti_PCSamplingStallReason> m_reasons;
    CUpti_PCSamplingData m_data{};
};

// The source line of `pc` of `function` from the first of `tries` that has the function; false when none has it.
bool correlateOne(const std::vector<const CubinImage *> &tries, const std::string &function, SourcePc &pc)
{
    for (const CubinImage *c : tries) {
        CUpti_GetSassToSourceCorrelationParams sc{};
        sc.size = CUpti_GetSassToSourceCorrelationParamsSize;
        sc.cubin = c->bytes.data();
        sc.cubinSize = c->bytes.size();
        sc.functionName = function.c_str();
        sc.pcOffset = pc.offset;
        if (cuptiGetSassToSourceCorrelation(&sc) != CUPTI_SUCCESS)
            continue;
        std::string file = sc.fileName ? sc.fileName : "";
        const std::string dir = sc.dirName ? sc.dirName : "";
        std::free(sc.fileName);
        std::free(sc.dirName);
        if (sc.lineNumber == 0 || file.empty())
            return true; // the function is in this cubin, without a line
        if (file.front() != '/' && !dir.empty())
            file = dir + (dir.back() == '/' ? "" : "/") + file;
        pc.file = file;
        pc.line = sc.lineNumber;
        return true;
    }
    return false;
}

} // namespace

void correlateUnmappedPcs(SourceProfile &profile, const std::string &side, const std::vector<CubinImage> &cubins)
{
    std::vector<const CubinImage *> tries;
    for (const CubinImage &c : cubins)
        tries.push_back(&c);
    for (SourceKernel &k : profile.kernels)
        if (k.side == side)
            for (SourcePc &pc : k.pcs)
                if (pc.line == 0 && pc.samples == 0)
                    correlateOne(tries, k.name, pc);
}

std::string missingForCuptiResult(int cuptiResult)
{
    switch (cuptiResult) {
    case 35: // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
    case 40: // CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES
        return "counters_permission";
    case 2:  // CUPTI_ERROR_INVALID_DEVICE
    case 14: // CUPTI_ERROR_NOT_COMPATIBLE
    case 27: // CUPTI_ERROR_NOT_SUPPORTED
    case 33: // CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED
    case 41:
    case 42:
    case 43:
    case 44:
    case 45: // confidential computing, CMP, MIG, SLI, WSL
        return "pc_sampling_unsupported";
    case 26: // CUPTI_ERROR_HARDWARE_BUSY
    case 39: // CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
        return "cupti_busy";
    case 15: // CUPTI_ERROR_NOT_INITIALIZED: no driver, or one older than this CUPTI
        return "no_device";
    default: return "cupti_error";
    }
}

int periodForLaunch(int defaultPeriod, double launchMs, double budgetMs)
{
    if (defaultPeriod <= 0 || budgetMs <= 0 || launchMs <= budgetMs)
        return defaultPeriod;
    const int raise = static_cast<int>(std::ceil(std::log2(launchMs / budgetMs)));
    return std::min(31, defaultPeriod + std::max(raise, 0));
}

SourceProfile PcSampler::sample(const std::vector<SampleTarget> &targets, const PcSamplingOptions &options)
{
    const auto t0 = Clock::now();
    SourceProfile p;
    auto stepStart = t0;
    const auto step = [&](const char *name) {
        const auto now = Clock::now();
        p.addCost(name, std::chrono::duration<double, std::milli>(now - stepStart).count());
        stepStart = now;
    };
    const auto done = [&]() {
        p.costMs = msSince(t0);
        return p;
    };
    const auto unavailable = [&](int result, const char *call) {
        p.status = "unavailable";
        p.addMissing(missingForCuptiResult(result), reasonFor(result, call));
        return done();
    };
    if (!nvidiaDriverPresent()) {
        p.addMissing("no_device", "No NVIDIA driver in this process (libcuda.so.1 cannot be loaded).");
        return done();
    }
    if (cudaFree(nullptr) != cudaSuccess) {
        p.addMissing("no_device", "No usable CUDA context (cudaFree(0) failed).");
        return done();
    }
    CUcontext ctx = nullptr;
    if (currentContext(&ctx) != CUDA_SUCCESS || !ctx) {
        p.addMissing("no_device", "No current CUDA context (cuCtxGetCurrent).");
        return done();
    }

    CUpti_PCSamplingEnableParams enable{};
    enable.size = CUpti_PCSamplingEnableParamsSize;
    enable.ctx = ctx;
    if (const CUptiResult r = cuptiPCSamplingEnable(&enable); r != CUPTI_SUCCESS)
        return unavailable(r, "cuptiPCSamplingEnable");
    // From here on every path disables PC sampling again, also when a launch throws.
    struct Disable {
        CUcontext ctx;
        bool on = true;
        CUptiResult now()
        {
            if (!on)
                return CUPTI_SUCCESS;
            on = false;
            CUpti_PCSamplingDisableParams d{};
            d.size = CUpti_PCSamplingDisableParamsSize;
            d.ctx = ctx;
            return cuptiPCSamplingDisable(&d);
        }
        ~Disable() { now(); }
    } disable{ctx};

    // Stall reasons (only valid after Enable).
    size_t numReasons = 0;
    CUpti_PCSamplingGetNumStallReasonsParams nr{};
    nr.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
    nr.ctx = ctx;
    nr.numStallReasons = &numReasons;
    if (const CUptiResult r = cuptiPCSamplingGetNumStallReasons(&nr); r != CUPTI_SUCCESS)
        return unavailable(r, "cuptiPCSamplingGetNumStallReasons");
    std::vector<std::vector<char>> nameStore(numReasons, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE, '\0'));
    std::vector<char *> names(numReasons);
    for (size_t i = 0; i < numReasons; ++i)
        names[i] = nameStore[i].data();
    std::vector<uint32_t> indexes(numReasons);
    CUpti_PCSamplingGetStallReasonsParams sr{};
    sr.size = CUpti_PCSamplingGetStallReasonsParamsSize;
    sr.ctx = ctx;
    sr.numStallReasons = numReasons;
    sr.stallReasonIndex = indexes.data();
    sr.stallReasons = names.data();
    if (numReasons > 0)
        if (const CUptiResult r = cuptiPCSamplingGetStallReasons(&sr); r != CUPTI_SUCCESS)
            return unavailable(r, "cuptiPCSamplingGetStallReasons");
    std::map<uint32_t, std::string> reasonByIndex; // base reasons only (see isNotIssuedVariant)
    for (size_t i = 0; i < numReasons; ++i) {
        const std::string full(names[i]);
        if (isNotIssuedVariant(full))
            continue;
        const std::string s = shortStallReason(full);
        reasonByIndex[indexes[i]] = s;
        p.stallReasons.push_back(s);
        p.cuptiNames[s] = full;
    }

    constexpr std::size_t kPcsPerCall = 2048;
    DataBuffer configBuffer(kPcsPerCall, numReasons); // filled by CUPTI on Disable
    DataBuffer getBuffer(kPcsPerCall, numReasons);
    std::vector<CUpti_PCSamplingConfigurationInfo> config;
    const auto attribute = [&config](CUpti_PCSamplingConfigurationAttributeType type) -> CUpti_PCSamplingConfigurationInfo & {
        CUpti_PCSamplingConfigurationInfo info{};
        info.attributeType = type;
        config.push_back(info);
        return config.back();
    };
    attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE).attributeData.collectionModeData.collectionMode =
        CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
    attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL)
        .attributeData.enableStartStopControlData.enableStartStopControl = 1;
    attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER)
        .attributeData.samplingDataBufferData.samplingDataBuffer = configBuffer.get();
    // Hardware (512 MB) and scratch (1 MB, about 5500 PCs with all reasons) buffers: CUPTI's defaults.
    if (options.period > 0)
        attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD).attributeData.samplingPeriodData.samplingPeriod =
            static_cast<uint32_t>(options.period);
    CUpti_PCSamplingConfigurationInfoParams cp{};
    cp.size = CUpti_PCSamplingConfigurationInfoParamsSize;
    cp.ctx = ctx;
    cp.numAttributes = config.size();
    cp.pPCSamplingConfigurationInfo = config.data();
    if (const CUptiResult r = cuptiPCSamplingSetConfigurationAttribute(&cp); r != CUPTI_SUCCESS) {
        std::string which;
        for (const CUpti_PCSamplingConfigurationInfo &c : config)
            if (c.attributeStatus != CUPTI_SUCCESS)
                which += (which.empty() ? "" : ", ") + std::to_string(static_cast<int>(c.attributeType));
        p.status = "failed";
        p.addMissing(missingForCuptiResult(r), reasonFor(r, "cuptiPCSamplingSetConfigurationAttribute")
                                                   + (which.empty() ? "" : " (rejected attribute types: " + which + ")"));
        return done();
    }
    {
        CUpti_PCSamplingConfigurationInfo period{};
        period.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
        CUpti_PCSamplingConfigurationInfoParams gp{};
        gp.size = CUpti_PCSamplingConfigurationInfoParamsSize;
        gp.ctx = ctx;
        gp.numAttributes = 1;
        gp.pPCSamplingConfigurationInfo = &period;
        if (cuptiPCSamplingGetConfigurationAttribute(&gp) == CUPTI_SUCCESS)
            p.period = static_cast<int>(period.attributeData.samplingPeriodData.samplingPeriod);
        if (p.period == 0)
            p.period = options.period;
        // A launch longer than the budget: fewer samples per launch instead of millions to decode.
        const int raised = options.period > 0 ? options.period
                                              : periodForLaunch(p.period, options.launchMs, options.budgetMs);
        if (raised != p.period) {
            period.attributeData.samplingPeriodData.samplingPeriod = static_cast<uint32_t>(raised);
            gp.numAttributes = 1;
            if (cuptiPCSamplingSetConfigurationAttribute(&gp) == CUPTI_SUCCESS)
                p.period = raised;
        }
    }
    step("enable");

    // Samples per PC of each target: (target, function, offset, crc) -> reason index -> samples.
    std::map<std::pair<std::size_t, PcKey>, std::map<uint32_t, uint64_t>> samples;
    std::vector<uint64_t> dropped(targets.size(), 0);
    bool bufferFull = false;
    const auto drain = [&](CUpti_PCSamplingData &data, std::size_t target) {
        for (size_t i = 0; i < data.totalNumPcs && i < data.collectNumPcs; ++i) {
            const CUpti_PCSamplingPCData &pc = data.pPcData[i];
            // The function name strings belong to CUPTI and may be shared with its other records; they
            // are copied here and not freed (a few bytes per sampled kernel).
            auto &counts = samples[{target, PcKey{pc.functionName ? pc.functionName : "", pc.pcOffset, pc.cubinCrc}}];
            for (size_t s = 0; s < pc.stallReasonCount && s < std::max<size_t>(numReasons, 1); ++s)
                counts[pc.stallReason[s].pcSamplingStallReasonIndex] += pc.stallReason[s].samples;
        }
        dropped[target] += data.droppedSamples;
        bufferFull = bufferFull || data.hardwareBufferFull;
        data.totalNumPcs = 0;
    };

    CUpti_PCSamplingStartParams start{};
    start.size = CUpti_PCSamplingStartParamsSize;
    start.ctx = ctx;
    CUpti_PCSamplingStopParams stop{};
    stop.size = CUpti_PCSamplingStopParamsSize;
    stop.ctx = ctx;
    for (std::size_t t = 0; t < targets.size(); ++t) {
        if (const CUptiResult r = cuptiPCSamplingStart(&start); r != CUPTI_SUCCESS) {
            p.status = "failed";
            p.addMissing(missingForCuptiResult(r), reasonFor(r, "cuptiPCSamplingStart"));
            return done();
        }
        step("decode");
        int runs = 0;
        const auto launches = Clock::now();
        try {
            while (runs < options.maxRuns && (runs < options.minRuns || msSince(launches) < options.budgetMs)) {
                targets[t].launch();
                ++runs;
            }
        } catch (...) {
            cuptiPCSamplingStop(&stop);
            throw; // `disable` switches PC sampling off on the way out
        }
        p.runs = std::max(p.runs, runs);
        step("launches");
        if (const CUptiResult r = cuptiPCSamplingStop(&stop); r != CUPTI_SUCCESS) {
            p.status = "failed";
            p.addMissing(missingForCuptiResult(r), reasonFor(r, "cuptiPCSamplingStop"));
            return done();
        }
        for (int call = 0; call < 10000; ++call) {
            CUpti_PCSamplingGetDataParams gd{};
            gd.size = CUpti_PCSamplingGetDataParamsSize;
            gd.ctx = ctx;
            gd.pcSamplingData = getBuffer.get();
            const CUptiResult r = cuptiPCSamplingGetData(&gd);
            if (r != CUPTI_SUCCESS) {
                if (r == CUPTI_ERROR_OUT_OF_MEMORY) {
                    bufferFull = true;
                    break;
                }
                p.status = "failed";
                p.addMissing(missingForCuptiResult(r), reasonFor(r, "cuptiPCSamplingGetData"));
                return done();
            }
            CUpti_PCSamplingData &data = *getBuffer.get();
            const bool more = data.remainingNumPcs > 0 && data.totalNumPcs > 0;
            drain(data, t);
            if (!more)
                break;
        }
    }
    step("decode");
    disable.now();
    drain(*configBuffer.get(), targets.empty() ? 0 : targets.size() - 1);
    step("disable");
    if (options.awaitCubins) {
        options.awaitCubins();
        step("tools_wait");
    }

    // PC -> source line, once per PC, on the cubin whose CRC the record carries (or any of the target's).
    std::map<uint64_t, const CubinImage *> byCrc;
    for (const SampleTarget &target : targets)
        for (const CubinImage &c : target.cubins) {
            CUpti_GetCubinCrcParams crc{};
            crc.size = CUpti_GetCubinCrcParamsSize;
            crc.cubin = c.bytes.data();
            crc.cubinSize = c.bytes.size();
            if (cuptiGetCubinCrc(&crc) == CUPTI_SUCCESS)
                byCrc[crc.cubinCrc] = &c;
        }
    const auto correlate = [&](const SampleTarget &target, const PcKey &key, SourcePc &pc) {
        std::vector<const CubinImage *> tries;
        if (const auto it = byCrc.find(key.crc); it != byCrc.end())
            tries.push_back(it->second);
        for (const CubinImage &c : target.cubins)
            if (tries.empty() || tries.front() != &c)
                tries.push_back(&c);
        return correlateOne(tries, key.function, pc);
    };

    std::map<std::pair<std::size_t, std::string>, SourceKernel> kernels;
    uint64_t total = 0, withLine = 0, pcsTotal = 0;
    bool anyCubinFound = false;
    for (const auto &[where, counts] : samples) {
        const auto &[t, key] = where;
        SourceKernel &k = kernels[{t, key.function}];
        k.name = key.function;
        k.side = targets[t].side;
        k.dropped = dropped[t];
        SourcePc pc;
        pc.offset = key.offset;
        for (const auto &[index, n] : counts) {
            const auto name = reasonByIndex.find(index);
            if (name == reasonByIndex.end())
                continue; // a "_not_issued" subset, counted under its base reason already
            pc.stalls[name->second] += n;
            pc.samples += n;
        }
        if (pc.samples == 0)
            continue;
        anyCubinFound = correlate(targets[t], key, pc) || anyCubinFound;
        ++pcsTotal;
        if (pc.line > 0)
            ++withLine;
        total += pc.samples;
        k.samples += pc.samples;
        k.pcs.push_back(std::move(pc));
    }
    for (auto &[key, k] : kernels)
        if (k.samples > 0)
            p.kernels.push_back(std::move(k));

    step("correlate");
    p.status = "ok";
    if (total == 0) {
        p.status = "failed";
        p.addMissing("no_samples",
                     "PC sampling ran " + std::to_string(p.runs) + " launch(es) but CUPTI delivered no samples"
                         + (p.period > 0 ? " (period 2^" + std::to_string(p.period) + " cycles)" : std::string())
                         + ": the kernel may be shorter than the sampling period.");
    } else if (withLine == 0) {
        std::string problem;
        bool anyCubin = false;
        for (const SampleTarget &target : targets) {
            anyCubin = anyCubin || !target.cubins.empty();
            if (!target.cubinProblem.empty())
                problem = target.cubinProblem;
        }
        if (!anyCubin)
            p.addMissing(problem.find("not found") != std::string::npos ? "no_disassembler" : "cubin",
                         "No source lines: the cubins could not be extracted from the library ("
                             + (problem.empty() ? std::string("none found") : problem) + ").");
        else if (anyCubinFound)
            p.addMissing("line_info", "No sampled PC has a source line: the kernel was built without line info "
                                      "(nvcc -lineinfo).");
        else // CUPTI cannot tell a cubin without line info from one that lacks the function
            p.addMissing("line_info", "No sampled PC has a source line: the kernel was built without line info "
                                      "(nvcc -lineinfo), or the sampled kernels are not in the library's cubins "
                                      "(library kernels such as cuBLAS).");
    } else if (withLine < pcsTotal) {
        // Normal for a few PCs (prologue, compiler-generated code); not a missing part.
    }
    if (bufferFull || std::any_of(dropped.begin(), dropped.end(), [](uint64_t d) { return d > 0; }))
        p.addMissing("samples_dropped", "CUPTI dropped samples (hardware buffer full); a larger period "
                                        "(source_profile_period) keeps them.");
    return done();
}

} // namespace kforge::runtime::profiler
