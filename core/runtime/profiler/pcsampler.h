#pragma once
// The source-level pass: CUPTI PC sampling (PC Sampling API, cupti_pcsampling.h) around a few launches of
// a kernel library's entry, in continuous mode with start/stop control on the current context, and each
// sampled PC mapped to its source line with cuptiGetSassToSourceCorrelation on the library's cubins.
// Nothing of it is active outside sample(): PC sampling is enabled and disabled again per call.
#include "core/runtime/profiler/sourcesamples.h"

#include <functional>
#include <string>
#include <vector>

namespace kforge::runtime::profiler {

struct CubinImage {
    std::string name;
    std::string bytes;
};

struct SampleTarget {
    std::string side;               // candidate | reference
    std::function<void()> launch;   // one run of the entry, device synchronized; may throw
    std::vector<CubinImage> cubins; // the library's cubins (for line numbers)
    std::string cubinProblem;       // why `cubins` is empty, when it is
};

struct PcSamplingOptions {
    int period = 0;   // 2^period cycles between samples (5..31); 0: CUPTI's default for the device...
    int minRuns = 1;  // launches of each target, at least...
    int maxRuns = 50; // ...at most...
    // ...and no new launch once this much wall time went into a target's launches. CUPTI's decoding costs
    // about 55 ms per million samples (H200: matmul's 50 runs of 3.8 ms gave 23.7 M samples, 2.1 s), so the
    // sampled kernel time is what bounds the pass; 10 ms still gives about 1 M samples on an H200.
    double budgetMs = 10;
    // ...raised, with period 0, by log2(launchMs / budgetMs) when one launch of a target takes longer than
    // the budget (its untimed first run; 0: unknown), so a 60 ms kernel is not decoded from 6 M samples.
    double launchMs = 0;
    // Called once after the launches, before the PCs are mapped to lines: the caller may fill the targets'
    // cubins (and cubinProblem) here, extracted while the kernels ran. Its time is the step "tools_wait".
    std::function<void()> awaitCubins;
};

class PcSampler
{
public:
    // Samples each target in turn. Problems become the profile's status and reason; only an exception of a
    // launch (a CUDA failure of the kernel) leaves, after PC sampling was disabled again.
    static SourceProfile sample(const std::vector<SampleTarget> &targets, const PcSamplingOptions &options);
};

// The period for a pass whose longest launch takes `launchMs` when CUPTI's default is `defaultPeriod`: the
// default while a launch fits the budget, else raised so one launch gives about a budget's worth of samples
// (at most 31). A pure function, for the tests.
int periodForLaunch(int defaultPeriod, double launchMs, double budgetMs);

// Maps the PCs of `side` that were not sampled and have no line yet (those SASS metrics added) to their
// source lines on `cubins`, as the sampler maps its own.
void correlateUnmappedPcs(SourceProfile &profile, const std::string &side, const std::vector<CubinImage> &cubins);

// Which "missing" entry a failed CUPTI call of the pass means (counters_permission, pc_sampling_unsupported,
// cupti_busy, no_device, cupti_error); a pure function of the result code.
std::string missingForCuptiResult(int cuptiResult);

} // namespace kforge::runtime::profiler
