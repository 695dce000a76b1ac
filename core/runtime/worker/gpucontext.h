#pragma once
// The worker's GPU: created lazily on the first request that needs it (so `hello` works without a
// GPU), with the launch stream, the L2 flush buffer and the peak rates measured once.
#include "core/runtime/worker/devicebuffer.h"
#include "core/runtime/worker/devicestate.h"
#include "core/runtime/worker/floors.h" // DevicePeaks

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace kforge::runtime {

struct DeviceProps {
    int index = 0;
    std::string name;
    int ccMajor = 0;
    int ccMinor = 0;
    int smCount = 0;
    int smClockMhz = 0;
    int memClockMhz = 0;
    std::size_t memoryBytes = 0;
    std::size_t l2Bytes = 0;
    std::string pciBusId; // "0000:19:00.0", NVML's key for this device
    int driverVersion = 0;
    int runtimeVersion = 0;
    std::string arch() const { return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor); }
};

class GpuContext
{
public:
    explicit GpuContext(int deviceIndex)
        : m_index(deviceIndex)
    {
    }
    ~GpuContext();
    GpuContext(const GpuContext &) = delete;
    GpuContext &operator=(const GpuContext &) = delete;

    // Creates the context on the first call. False when there is no usable device; error() says why.
    bool ensure();
    // "no CUDA device: cudaErrorNoDevice: no CUDA-capable device is detected"
    const std::string &error() const { return m_error; }
    int index() const { return m_index; }

    const DeviceProps &props() const { return m_props; }
    // Non-blocking, so work a kernel leaves on the legacy default stream is not silently ordered with it.
    cudaStream_t stream() const { return m_stream; }
    // Evicts the L2 by writing a buffer twice its size on `stream` (outside any timed region).
    void flushL2(cudaStream_t stream);
    const DevicePeaks &peaks();
    nlohmann::ordered_json deviceInfo();
    // The device's settings and readings now (devicestate.h), with this context's persisting-L2 set-aside.
    DeviceState deviceState();
    // Every line marked persisting back to normal (cudaCtxResetPersistingL2Cache), before each batch: lines a
    // host marked persisting would otherwise survive the flush. Devices without the feature: nothing to do.
    void resetPersistingL2();

    // After an error: true when the context is poisoned (illegal address, launch failure, ...), i.e.
    // every later CUDA call would fail and the process must be restarted.
    bool isBroken(cudaError_t observed);

private:
    int m_index;
    bool m_tried = false;
    bool m_ready = false;
    std::string m_error;
    DeviceProps m_props;
    cudaStream_t m_stream = nullptr;
    DeviceBuffer m_flush;
    std::optional<DevicePeaks> m_peaks;
    std::unique_ptr<DeviceStateReader> m_state;
};

} // namespace kforge::runtime
