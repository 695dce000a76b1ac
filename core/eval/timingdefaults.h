#pragma once
// How often and how long KForge measures, and how long it waits for the processes that measure: every such
// default is written here once. Settings → Timing starts from these, the evaluate options the GUI, kforge-cli and
// the benchmarks send are built from them, and the worker and compiler watchdogs use them.
// (The Qt-free kforge-worker keeps the protocol's own defaults for requests that omit an option;
// tst_timingdefaults checks they agree with these.)

namespace kforge {

struct TimingDefaults {
    // Measurement: the protocol's evaluate options (docs/worker-protocol.md).
    static constexpr int trials = 5; // verification trials, each on fresh inputs from a new seed
    // Timing stops once both medians' 95% confidence intervals are within ±ciTarget of them (the adaptive
    // rule; 0: the fixed rule, until minRuns and minTimeMs), after minRuns calls and minTimeMs...
    static constexpr double ciTarget = 0.01;
    static constexpr int minRuns = 100;
    static constexpr int minTimeMs = 100;
    static constexpr int fixedMinTimeMs = 1000; // the fixed rule's (ci_target 0; exported benchmarks)
    static constexpr int maxRuns = 10000;       // ...but never more calls...
    static constexpr int maxTimeMs = 5000;      // ...nor longer (adaptive rule)
    static constexpr int warmup = 10;           // untimed pairs first: at least this many and at least warmupMs
    static constexpr int warmupMs = 100;
    static constexpr int traceRuns = 10; // CUPTI trace runs per side after timing

    // Watchdogs of the client side.
    static constexpr int workerStartMs = 60000;     // until a worker's ready line (ssh and Slurm can be slow)
    static constexpr int workerRequestMs = 60000;   // a load, or an evaluate when the task names no timeout_s
    static constexpr int deviceInfoMs = 120000;     // device_info measures the peaks: the slowest request
    static constexpr int rawRequestMs = 10000;      // protocol tests' raw lines
    static constexpr int compileMs = 5 * 60 * 1000; // one nvcc run
};

} // namespace kforge
