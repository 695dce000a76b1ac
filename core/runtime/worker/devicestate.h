#pragma once
// The device settings the judge relies on, read around every evaluation (issue 35: device-wide state). Read only:
// nothing here sets a clock, a power limit or a mode, on any GPU. NVML is opened at run time
// (libnvidia-ml.so.1, the driver's), so the worker builds and runs where it is missing; the reading then says why.
//  - settings (a change between the reading before and after an evaluation is flagged `device_state_changed`:
//    the judge changes none of them, so a host or another process did): application clocks, compute mode,
//    the enforced power limit, the persisting-L2 set-aside of the judge's context;
//  - readings (reported, never flagged: they move by themselves): current SM and memory clocks, memory in use,
//    the clock event (throttle) reasons.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kforge::runtime {

struct DeviceState {
    bool nvml = false;
    std::string why; // NVML's absence or failure, when nvml is false
    std::optional<unsigned> appSmClockMhz, appMemClockMhz, powerLimitMw;
    std::optional<int> computeMode; // NVML: 0 default, 1 exclusive thread, 2 prohibited, 3 exclusive process
    std::optional<unsigned long long> persistingL2Bytes;
    std::optional<unsigned> smClockMhz, memClockMhz;
    std::optional<unsigned long long> memoryUsedBytes, clockEventReasons;
    nlohmann::ordered_json toJson() const;
    static DeviceState fromJson(const nlohmann::json &j);
};

// Each setting that differs between the two readings, in words ("application SM clock 1980 -> 1410 MHz"); a
// setting missing from either reading is not compared.
std::vector<std::string> settingsChanged(const DeviceState &before, const DeviceState &after);

// NVML's handle of one device, found by its PCI bus id (the CUDA ordinal and NVML's index may differ).
class DeviceStateReader
{
public:
    explicit DeviceStateReader(std::string pciBusId);
    ~DeviceStateReader();
    DeviceStateReader(const DeviceStateReader &) = delete;
    DeviceStateReader &operator=(const DeviceStateReader &) = delete;
    // NVML's part; the caller adds persistingL2Bytes from its CUDA context.
    DeviceState read() const;

private:
    struct Api;
    Api *m_api = nullptr;
    void *m_device = nullptr;
    std::string m_why;
};

} // namespace kforge::runtime
