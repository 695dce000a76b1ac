#pragma once
// Hardware metrics per kernel with CUPTI's Range Profiler (auto ranges, kernel replay) and Profiler Host
// API, in a separate pass after timing: every kernel the launch function enqueues becomes one range,
// re-run once per pass with device memory saved and restored by CUPTI. Never use it while timing.

#include "core/runtime/profiler/cuptidiagnosis.h"
#include "core/runtime/profiler/occupancy.h"
#include "core/runtime/profiler/tracerecords.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kforge::runtime::profiler {

// Metric names used by the derived fields (all valid for GH100 with CUPTI 13.0).
namespace metric {
inline constexpr const char *kTime = "gpu__time_duration.sum";
inline constexpr const char *kDramRead = "dram__bytes_read.sum";
inline constexpr const char *kDramWrite = "dram__bytes_write.sum";
inline constexpr const char *kDramThroughput = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char *kSmThroughput = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char *kComputeMemoryThroughput = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char *kWarpsActive = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char *kL2HitRate = "lts__t_sector_hit_rate.pct";
inline constexpr const char *kSmClock = "sm__cycles_elapsed.avg.per_second";
inline constexpr const char *kFfma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
inline constexpr const char *kFadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
inline constexpr const char *kFmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
} // namespace metric

struct KernelMetrics {
    size_t index = 0;      // launch order within the profiled call
    std::string rangeName; // CUPTI's auto-range name ("0", "1", ...)
    std::string name;      // demangled kernel name, when the replay was traced (else empty)
    std::string mangled;
    std::optional<KernelRecord> launch;                 // grid, block, registers, shared memory of the launch
    std::vector<std::pair<std::string, double>> values; // every requested metric (NaN: not evaluated)

    // Derived; NaN where the metrics needed are not in the set.
    double timeNs = NAN;
    double dramReadBytes = NAN;
    double dramWriteBytes = NAN;
    double dramBytes = NAN;
    double achievedGbps = NAN; // (read + write) / time
    double flopsFp32 = NAN;    // 2*FFMA + FADD + FMUL, thread instructions with predicate on
    double achievedGflops = NAN;
    double dramThroughputPct = NAN;
    double smThroughputPct = NAN;
    double computeMemoryThroughputPct = NAN;
    double achievedOccupancyPct = NAN;
    double l2HitRatePct = NAN;
    double smClockMhz = NAN;
    std::optional<Occupancy> theoreticalOccupancy;

    double value(const std::string &metricName) const;
};

struct MetricsResult {
    bool available = false;
    CuptiDiagnosis problem; // why not, when !available
    std::string chip;
    size_t passes = 0;
    double sessionMs = 0;                    // range profiler enable .. disable (includes the replays)
    double totalMs = 0;                      // the whole collect() call
    double initMs = 0;                       // of which: the profiler's set-up in this process (first call only)
    double configMs = 0;                     // and the metrics' configuration image (first call per metric set)
    std::vector<std::pair<std::string, double>> sessionParts; // ms: the replays' tracer start, then the session's steps
    std::vector<std::string> metrics;        // collected
    std::vector<std::string> invalidMetrics; // requested but unknown for this chip (dropped)
    size_t rangesDropped = 0;
    bool kernelsNamed = false;
    std::string kernelNamesFrom; // how ranges were matched to traced replays ("" when they were not)
    size_t replayRecords = 0;    // kernel records the traced replays produced
    bool cached = false;         // reused from an earlier evaluation of the same reference and shapes
    std::vector<KernelMetrics> kernels;
    // Sums over the kernels (NaN when a kernel lacks the value).
    double totalTimeNs = NAN;
    double totalDramBytes = NAN;
    double totalFlopsFp32 = NAN;

    static MetricsResult unavailable(CuptiDiagnosis why);
};

// The Profiler Host API's view of a metric list for a chip: which names are valid and how many replay
// passes they need. Works without a GPU (offline), given the chip name.
struct MetricConfig {
    CuptiDiagnosis problem;
    std::vector<std::string> metrics; // valid, in request order
    std::vector<std::string> invalid;
    std::map<std::string, std::string> dimUnits; // "nsecond", "byte", "%", ...
    size_t passes = 0;
    std::vector<uint8_t> image; // config image for cuptiRangeProfilerSetConfig
};

struct MetricsOptions {
    std::vector<std::string> metrics;   // empty: defaultMetrics()
    size_t maxKernels = 64;             // ranges per call; more launches are dropped and counted
    bool nameKernels = true;            // trace the replay to learn each range's kernel
    std::optional<DeviceLimits> limits; // for theoretical occupancy; queried from the device if unset
};

class MetricsCollector
{
public:
    explicit MetricsCollector(MetricsOptions options = {});
    ~MetricsCollector();
    MetricsCollector(const MetricsCollector &) = delete;
    MetricsCollector &operator=(const MetricsCollector &) = delete;

    // Profiles every kernel `launch` enqueues (on the current device). `launch` runs once per call
    // (kernel replay re-runs each kernel internally); it must not synchronize on other streams' work in
    // ways that need two kernels to run at once. On any CUPTI failure the result is !available with the
    // reason; nothing throws. (User replay, `launch` once per pass, was measured on the H200 and not kept:
    // 10 passes of a 40 us kernel took 0.45-0.94 s of replays under either mode, the passes' own cost.)
    MetricsResult collect(const std::function<void()> &launch);
    MetricsResult collect(const std::function<void()> &launch, const std::vector<std::string> &metrics);

    static std::vector<std::string> defaultMetrics();
    static MetricConfig buildConfig(const std::string &chip, const std::vector<std::string> &metrics,
                                    const std::vector<uint8_t> &counterAvailability = {});
    static std::vector<std::string> supportedChips();

private:
    struct State;
    CuptiDiagnosis ensureReady();
    const MetricConfig &configFor(const std::vector<std::string> &metrics);

    MetricsOptions m_options;
    std::unique_ptr<State> m_state;
};

} // namespace kforge::runtime::profiler
