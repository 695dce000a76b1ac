#pragma once
// The source-level profile of one evaluation (protocol field "source_profile"): CUPTI PC samples of a few
// runs of the candidate (and optionally the reference), each PC with its stall reasons and the source
// line it came from. Plain data and its JSON; the sampling itself is PcSampler (pcsampler.h).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kforge::runtime::profiler {

struct SourcePc {
    uint64_t offset = 0;                    // byte offset of the instruction in its function
    uint64_t samples = 0;                   // all samples at this PC (sum of `stalls`)
    std::map<std::string, uint64_t> stalls; // short stall reason -> samples
    std::string file;                       // absolute path of the source file; empty without line info
    uint32_t line = 0;                      // 0 without line info
    // Where the instruction really is when it was inlined into `file`:`line` (a CUDA header function
    // called from the kernel's line); empty/0 when it was not inlined.
    std::string inlinedFile;
    uint32_t inlinedLine = 0;
    // SASS metrics (sassmetrics.h): executions of the instruction in the pass's patched launch(es),
    // warp-level and thread-level; empty when not measured. A PC that executed but was never sampled is
    // listed with 0 samples.
    std::optional<uint64_t> executed;
    std::optional<uint64_t> threadsExecuted;
};

struct SourceKernel {
    std::string name; // mangled
    std::string side; // candidate | reference
    uint64_t samples = 0;
    uint64_t dropped = 0;      // samples CUPTI dropped in this side's pass
    std::vector<SourcePc> pcs; // by offset
};

struct SourceProfile {
    std::string status = "unavailable"; // ok | unavailable | failed
    std::string reason;                 // what is missing and why; empty when complete
    std::vector<std::string> missing;   // counters_permission | line_info | pc_sampling_unsupported | ...
    double costMs = 0;                  // wall time of the whole pass
    // Where costMs went, step by step in the order they ran ("cuda_init", "launches", "decode", ...; the
    // steps are listed in docs/worker-protocol.md); steps that overlap others say so in their name ("tools"
    // runs beside cuda_init..decode, "tools_wait" is what the pass waited for it).
    using Step = std::pair<std::string, double>;
    std::vector<Step> costSplitMs;
    int period = 0;                                // sampling period exponent (2^period cycles); 0 when unknown
    int runs = 0;                                  // launches of each sampled side
    int sassRuns = 0;                              // launches under SASS metrics (0: no counts)
    std::vector<std::string> stallReasons;         // short names, in CUPTI's order
    std::map<std::string, std::string> cuptiNames; // short -> CUPTI's full name
    std::vector<SourceKernel> kernels;

    void addMissing(const std::string &what, const std::string &why);
    void addCost(const std::string &step, double ms);
    nlohmann::ordered_json toJson() const;
    // Reads toJson()'s shape back; false with `error` naming the first field that does not fit.
    static bool fromJson(const nlohmann::ordered_json &j, SourceProfile &out, std::string &error);
    static SourceProfile unavailable(const std::string &missing, const std::string &reason);
};

// CUPTI's stall reason name without its common prefix: "smsp__pcsamp_warps_issue_stalled_long_scoreboard"
// -> "long_scoreboard". Names without a known prefix are returned unchanged.
std::string shortStallReason(std::string_view cuptiName);
// The "..._not_issued" variants count a subset of the samples of their base reason again.
bool isNotIssuedVariant(std::string_view cuptiName);

// Samples per source line of one side, hottest first (ties: by file, then line); PCs without a line are
// left out. `topStall` is the line's reason with the most samples.
struct HotLine {
    std::string file;
    uint32_t line = 0;
    uint64_t samples = 0;
    std::string topStall;
    std::map<std::string, uint64_t> stalls;
};
std::vector<HotLine> hottestLines(const SourceProfile &profile, const std::string &side);

} // namespace kforge::runtime::profiler
