#include "core/runtime/profiler/cuptidiagnosis.h"

#include <cupti.h>
#include <dlfcn.h>

#include <atomic>
#include <cstring>

namespace kforge::runtime::profiler {

namespace {

struct Entry {
    int code;
    const char *name;
};

// Names as spelled in cupti_result.h (CUDA 13.0).
constexpr Entry kNames[] = {
    {0, "CUPTI_SUCCESS"},
    {1, "CUPTI_ERROR_INVALID_PARAMETER"},
    {2, "CUPTI_ERROR_INVALID_DEVICE"},
    {3, "CUPTI_ERROR_INVALID_CONTEXT"},
    {7, "CUPTI_ERROR_INVALID_OPERATION"},
    {8, "CUPTI_ERROR_OUT_OF_MEMORY"},
    {9, "CUPTI_ERROR_HARDWARE"},
    {11, "CUPTI_ERROR_API_NOT_IMPLEMENTED"},
    {12, "CUPTI_ERROR_MAX_LIMIT_REACHED"},
    {13, "CUPTI_ERROR_NOT_READY"},
    {14, "CUPTI_ERROR_NOT_COMPATIBLE"},
    {15, "CUPTI_ERROR_NOT_INITIALIZED"},
    {17, "CUPTI_ERROR_INVALID_METRIC_NAME"},
    {23, "CUPTI_ERROR_DISABLED"},
    {26, "CUPTI_ERROR_HARDWARE_BUSY"},
    {27, "CUPTI_ERROR_NOT_SUPPORTED"},
    {33, "CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED"},
    {34, "CUPTI_ERROR_CUDA_COMPILER_NOT_COMPATIBLE"},
    {35, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"},
    {36, "CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED"},
    {38, "CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED"},
    {39, "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"},
    {40, "CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES"},
    {41, "CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED"},
    {42, "CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED"},
    {43, "CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED"},
    {44, "CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED"},
    {45, "CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED"},
    {46, "CUPTI_ERROR_INVALID_CHIP_NAME"},
    {999, "CUPTI_ERROR_UNKNOWN"},
};

constexpr const char *kPrivilegeHint =
    "GPU performance counters are restricted to administrators on this machine. Either run the worker as "
    "root or with CAP_SYS_ADMIN (CAP_PERFMON from driver R565), or allow all users: put "
    "`options nvidia NVreg_RestrictProfilingToAdminUsers=0` into a file in /etc/modprobe.d/, then reload the "
    "nvidia module or reboot (check: `grep RmProfilingAdminOnly /proc/driver/nvidia/params` shows 0). In a "
    "container, enable it on the host or start the container with --cap-add=SYS_ADMIN.";

} // namespace

std::string cuptiResultName(int result)
{
    for (const Entry &e : kNames)
        if (e.code == result)
            return e.name;
    return "CUPTI_ERROR_" + std::to_string(result);
}

CuptiDiagnosis makeDiagnosis(std::string error, std::string call, std::string reason, std::string hint)
{
    return CuptiDiagnosis{std::move(error), std::move(call), std::move(reason), std::move(hint), {}};
}

CuptiDiagnosis explainCuptiError(int result, std::string_view call, std::string_view holder)
{
    CuptiDiagnosis d;
    d.error = cuptiResultName(result);
    d.call = std::string(call);
    switch (result) {
    case CUPTI_SUCCESS: d.error.clear(); break;
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        d.reason = "Hardware counters are not permitted for this user (" + d.error + ").";
        d.hint = kPrivilegeHint;
        break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: {
        // compute-sanitizer and cuda-gdb subscribe without a name; CUPTI then reports "<not provided>".
        if (holder != "<not provided>")
            d.holder = std::string(holder);
        std::string who = d.holder.empty()
                              ? std::string("another CUPTI client (compute-sanitizer and cuda-gdb do not give a name)")
                              : "\"" + d.holder + "\"";
        d.reason = "Another profiling tool already holds CUPTI in this process: " + who
                   + ". Only one CUPTI client can be active at a time.";
        d.hint = "Do not run the worker under Nsight Systems, Nsight Compute, compute-sanitizer or cuda-gdb, and "
                 "do not use torch.profiler in the same process; start the worker on its own to get the trace "
                 "and metrics.";
        break;
    }
    case CUPTI_ERROR_NOT_INITIALIZED:
        d.reason = "CUPTI could not initialise: there is no usable NVIDIA driver, or the driver is older than "
                   "the CUPTI the worker was built with.";
        d.hint = "Install an NVIDIA driver that supports this CUDA toolkit (CUDA 13 needs r580 or newer) and run "
                 "the worker on the machine that has the GPU.";
        break;
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_INVALID_DEVICE:
        d.reason = "This GPU or driver does not support the requested CUPTI feature (" + d.error + ").";
        d.hint = "Range profiling needs a Turing or newer GPU (compute capability 7.5+) with a matching driver.";
        break;
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
        d.reason = "Profiling is not supported in this GPU configuration (" + d.error + ").";
        d.hint = "Hardware counters are unavailable on vGPU without profiling enabled, MIG slices, SLI, WSL and "
                 "confidential-computing mode; use a whole, bare-metal or passthrough GPU for metrics.";
        break;
    case CUPTI_ERROR_HARDWARE_BUSY:
        d.reason = "The GPU's performance monitor is in use by another process (" + d.error + ").";
        d.hint = "Another profiler (ncu, DCGM profiling metrics) is using the counters; stop it and retry.";
        break;
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
        d.reason = "A removed CUPTI profiling API was used in this process (" + d.error + ").";
        d.hint = "The Event/Metric API cannot be mixed with the range profiler; this is a bug in the worker.";
        break;
    case CUPTI_ERROR_INVALID_METRIC_NAME:
        d.reason = "A metric name is not known for this GPU (" + d.error + ").";
        d.hint = "Check the metric names (Nsight-Compute-only names such as launch__* are not available).";
        break;
    case CUPTI_ERROR_OUT_OF_MEMORY:
        d.reason = "CUPTI ran out of memory (" + d.error + ").";
        d.hint = "Kernel replay saves and restores the device memory in use; free memory or profile fewer kernels.";
        break;
    default: d.reason = "The CUPTI call " + d.call + " failed with " + d.error + "."; break;
    }
    return d;
}

bool nvidiaDriverPresent()
{
    if (dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD))
        return true;
    return dlopen("libcuda.so.1", RTLD_LAZY | RTLD_GLOBAL) != nullptr; // stays loaded: CUDA would load it anyway
}

CuptiDiagnosis noDriverDiagnosis(std::string call)
{
    return makeDiagnosis("no_device", std::move(call), "No NVIDIA driver is installed (libcuda.so.1 not found).",
                         "Run the worker on a machine with an NVIDIA GPU and driver.");
}

namespace {

void CUPTIAPI ignoreCallback(void *, CUpti_CallbackDomain, CUpti_CallbackId, const void *)
{
}

} // namespace

namespace {
std::atomic<bool> g_slotVerified{false};
} // namespace

void markSubscriberSlotVerified()
{
    g_slotVerified.store(true);
}

CuptiDiagnosis probeSubscriberSlotOnce()
{
    if (g_slotVerified.load())
        return {};
    CuptiDiagnosis d = probeSubscriberSlot();
    if (d.ok())
        markSubscriberSlotVerified();
    return d;
}

CuptiDiagnosis probeSubscriberSlot()
{
    char old[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 64] = {};
    CUpti_SubscriberParams params{};
    params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    params.subscriberName = "KForge";
    params.oldSubscriberName = old;
    params.oldSubscriberSize = sizeof old;
    CUpti_SubscriberHandle handle = nullptr;
    CUptiResult r = cuptiSubscribe_v2(&handle, reinterpret_cast<CUpti_CallbackFunc>(ignoreCallback), nullptr, &params);
    if (r == CUPTI_SUCCESS) {
        cuptiUnsubscribe(handle);
        return {};
    }
    old[sizeof old - 1] = '\0';
    return explainCuptiError(r, "cuptiSubscribe_v2", old);
}

} // namespace kforge::runtime::profiler
