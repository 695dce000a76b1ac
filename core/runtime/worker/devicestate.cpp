#include "core/runtime/worker/devicestate.h"

#include <dlfcn.h>

namespace kforge::runtime {

namespace {

using Json = nlohmann::ordered_json;

// NVML's C ABI, as much of it as is read here (nvml.h is not part of every toolkit install).
using NvmlReturn = int;
using NvmlDevice = void *;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr int kClockSm = 1, kClockMem = 2; // nvmlClockType_t

template <typename T>
void put(Json &j, const char *key, const std::optional<T> &v)
{
    if (v)
        j[key] = *v;
}

template <typename T>
void get(const nlohmann::json &j, const char *key, std::optional<T> &v)
{
    if (j.contains(key) && j[key].is_number())
        v = j[key].get<T>();
}

} // namespace

struct DeviceStateReader::Api {
    struct NvmlMemory { // nvmlMemory_t
        unsigned long long total, free, used;
    };
    void *lib = nullptr;
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*shutdown)() = nullptr;
    NvmlReturn (*byPciBusId)(const char *, NvmlDevice *) = nullptr;
    NvmlReturn (*clockInfo)(NvmlDevice, int, unsigned *) = nullptr;
    NvmlReturn (*appClock)(NvmlDevice, int, unsigned *) = nullptr;
    NvmlReturn (*computeMode)(NvmlDevice, int *) = nullptr;
    NvmlReturn (*powerLimit)(NvmlDevice, unsigned *) = nullptr;
    NvmlReturn (*memoryInfo)(NvmlDevice, NvmlMemory *) = nullptr;
    NvmlReturn (*eventReasons)(NvmlDevice, unsigned long long *) = nullptr;
};

DeviceStateReader::DeviceStateReader(std::string pciBusId)
{
    void *lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = ::dlerror();
        m_why = std::string("NVML not found (libnvidia-ml.so.1: ") + (e ? e : "?") + ")";
        return;
    }
    auto *api = new Api;
    api->lib = lib;
    const auto sym = [&](auto &fn, const char *name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
        return fn != nullptr;
    };
    const bool core = sym(api->init, "nvmlInit_v2") && sym(api->shutdown, "nvmlShutdown")
                      && sym(api->byPciBusId, "nvmlDeviceGetHandleByPciBusId_v2");
    sym(api->clockInfo, "nvmlDeviceGetClockInfo");
    sym(api->appClock, "nvmlDeviceGetApplicationsClock");
    sym(api->computeMode, "nvmlDeviceGetComputeMode");
    sym(api->powerLimit, "nvmlDeviceGetEnforcedPowerLimit");
    sym(api->memoryInfo, "nvmlDeviceGetMemoryInfo");
    if (!sym(api->eventReasons, "nvmlDeviceGetCurrentClocksEventReasons"))
        sym(api->eventReasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!core) {
        m_why = "NVML lacks nvmlInit_v2 or nvmlDeviceGetHandleByPciBusId_v2";
    } else if (const NvmlReturn rc = api->init(); rc != kNvmlSuccess) {
        m_why = "nvmlInit_v2 returned " + std::to_string(rc);
    } else if (const NvmlReturn rc2 = api->byPciBusId(pciBusId.c_str(), &m_device); rc2 != kNvmlSuccess) {
        m_why = "NVML has no device at PCI bus id " + pciBusId + " (" + std::to_string(rc2) + ")";
        api->shutdown();
        m_device = nullptr;
    }
    if (!m_device) {
        ::dlclose(lib);
        delete api;
        return;
    }
    m_api = api;
}

DeviceStateReader::~DeviceStateReader()
{
    if (m_api) {
        m_api->shutdown();
        ::dlclose(m_api->lib);
        delete m_api;
    }
}

DeviceState DeviceStateReader::read() const
{
    DeviceState s;
    if (!m_api) {
        s.why = m_why;
        return s;
    }
    s.nvml = true;
    const auto reading = [&](auto fn, auto &out, auto... args) {
        std::remove_reference_t<decltype(*out)> v{};
        if (fn && fn(m_device, args..., &v) == kNvmlSuccess)
            out = v;
    };
    reading(m_api->appClock, s.appSmClockMhz, kClockSm);
    reading(m_api->appClock, s.appMemClockMhz, kClockMem);
    reading(m_api->clockInfo, s.smClockMhz, kClockSm);
    reading(m_api->clockInfo, s.memClockMhz, kClockMem);
    reading(m_api->computeMode, s.computeMode);
    reading(m_api->powerLimit, s.powerLimitMw);
    reading(m_api->eventReasons, s.clockEventReasons);
    Api::NvmlMemory mem{};
    if (m_api->memoryInfo && m_api->memoryInfo(m_device, &mem) == kNvmlSuccess)
        s.memoryUsedBytes = mem.used;
    return s;
}

Json DeviceState::toJson() const
{
    Json j;
    j["nvml"] = nvml;
    if (!why.empty())
        j["why"] = why;
    put(j, "app_sm_clock_mhz", appSmClockMhz);
    put(j, "app_mem_clock_mhz", appMemClockMhz);
    put(j, "compute_mode", computeMode);
    put(j, "power_limit_mw", powerLimitMw);
    put(j, "persisting_l2_bytes", persistingL2Bytes);
    put(j, "sm_clock_mhz", smClockMhz);
    put(j, "mem_clock_mhz", memClockMhz);
    put(j, "memory_used_bytes", memoryUsedBytes);
    put(j, "clock_event_reasons", clockEventReasons);
    return j;
}

DeviceState DeviceState::fromJson(const nlohmann::json &j)
{
    DeviceState s;
    if (!j.is_object())
        return s;
    s.nvml = j.value("nvml", false);
    s.why = j.value("why", "");
    get(j, "app_sm_clock_mhz", s.appSmClockMhz);
    get(j, "app_mem_clock_mhz", s.appMemClockMhz);
    get(j, "compute_mode", s.computeMode);
    get(j, "power_limit_mw", s.powerLimitMw);
    get(j, "persisting_l2_bytes", s.persistingL2Bytes);
    get(j, "sm_clock_mhz", s.smClockMhz);
    get(j, "mem_clock_mhz", s.memClockMhz);
    get(j, "memory_used_bytes", s.memoryUsedBytes);
    get(j, "clock_event_reasons", s.clockEventReasons);
    return s;
}

std::vector<std::string> settingsChanged(const DeviceState &before, const DeviceState &after)
{
    std::vector<std::string> out;
    const auto compare = [&](const char *what, const auto &a, const auto &b, const char *unit) {
        if (a && b && *a != *b)
            out.push_back(std::string(what) + " " + std::to_string(*a) + " -> " + std::to_string(*b) + unit);
    };
    compare("application SM clock", before.appSmClockMhz, after.appSmClockMhz, " MHz");
    compare("application memory clock", before.appMemClockMhz, after.appMemClockMhz, " MHz");
    compare("compute mode", before.computeMode, after.computeMode, "");
    compare("enforced power limit", before.powerLimitMw, after.powerLimitMw, " mW");
    compare("persisting-L2 set-aside", before.persistingL2Bytes, after.persistingL2Bytes, " bytes");
    return out;
}

} // namespace kforge::runtime
