#pragma once
// Why CUPTI tracing or metrics are unavailable, as a value the worker can put into its result: the
// evaluation carries on without the trace/metrics and tells the user what happened and how to fix it.

#include <string>
#include <string_view>

namespace kforge::runtime::profiler {

struct CuptiDiagnosis {
    std::string error;  // "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", "no_device", ... (empty = no problem)
    std::string call;   // the call that failed, e.g. "cuptiRangeProfilerEnable"
    std::string reason; // one sentence for the user
    std::string hint;   // how to enable it (may be empty)
    std::string holder; // the CUPTI client that owns the subscriber slot, when that is the problem

    bool ok() const { return error.empty(); }
};

// Symbolic name of a CUptiResult ("CUPTI_ERROR_NOT_INITIALIZED"); independent of libcupti so that the
// mapping below stays a pure function.
std::string cuptiResultName(int result);

// Maps a failed CUPTI call to a reason and a remedy. `holder` names the CUPTI client that owns the
// subscriber slot (only meaningful for CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED).
CuptiDiagnosis explainCuptiError(int result, std::string_view call, std::string_view holder = {});

// A problem that is not a CUPTI error code (no device, version mismatch, ...).
CuptiDiagnosis makeDiagnosis(std::string error, std::string call, std::string reason, std::string hint = {});

// Whether an NVIDIA driver (libcuda.so.1) can be loaded in this process. Used to turn CUPTI's vague
// errors on machines without one into a plain "no device".
bool nvidiaDriverPresent();
CuptiDiagnosis noDriverDiagnosis(std::string call);

// Tries to take CUPTI's single subscriber slot and gives it back at once. Returns ok() when it is free;
// otherwise the diagnosis (for MULTIPLE_SUBSCRIBERS it names the tool holding it, e.g. Nsight Systems).
// Call it before enabling any activity kind.
CuptiDiagnosis probeSubscriberSlot();

// The first probe is enough: foreign tools (Nsight, compute-sanitizer, cuda-gdb) attach when the process
// starts, so once the slot was seen free, or KForge's own range profiler initialised, later tracer starts
// skip the probe (and never mistake CUPTI's own profiler for a foreign client).
CuptiDiagnosis probeSubscriberSlotOnce();
void markSubscriberSlotVerified();

} // namespace kforge::runtime::profiler
