#pragma once
// The candidate host's profiler (host::HostProfiler on top of kforge_profiler), in the host's own process: a
// CUPTI activity trace of a few runs of one call (every kernel and copy of the process, on any stream or
// thread, checked against the host's own markers around each call), the range-profiler metrics of one call
// with its roofline points, and the source-level pass (PC sampling mapped to source lines). CUPTI problems
// become "available": false with the reason, never errors.
#include "core/runtime/host/candidatehost.h"
#include "core/runtime/profiler/profiler.h"

#include <optional>

namespace kforge::runtime {

class CuptiHostProfiler : public host::HostProfiler
{
public:
    nlohmann::ordered_json trace(const host::HostRunner &runner, int runs) override;
    nlohmann::ordered_json metrics(const host::HostRunner &runner, const nlohmann::ordered_json &request) override;
    nlohmann::ordered_json sourceProfile(const host::HostRunner &runner, const nlohmann::ordered_json &request) override;

    // Work of the traced calls that started before the call's window or ended after it: the window of run i
    // is [end of the host's delay kernel, start of its marker kernel after kf_entry returned], on its stream.
    // Every kernel, copy and memset of the process that is not the host's own must lie inside one.
    struct Outside {
        std::size_t items = 0;
        double maxBeforeUs = 0; // how long before its window the earliest such item started
        double maxAfterUs = 0;  // how long after its window the latest one ended
        nlohmann::ordered_json toJson() const;
    };
    // Removes the host's own kernels (delay, marker, flush) from `records` and checks the rest against the
    // windows they give. Public for tests.
    static Outside checkWindows(profiler::TraceRecords &records);

private:
    profiler::ActivityTracer m_tracer;
    profiler::MetricsCollector m_metrics;
    std::optional<profiler::DeviceLimits> m_limits;
    bool m_limitsQueried = false;
};

} // namespace kforge::runtime
