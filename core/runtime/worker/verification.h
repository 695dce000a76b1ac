#pragma once
// Comparing a batch's outputs with the reference's (every slot of a verification round, a random subset of a
// timed one), early (the snapshot taken right after done) and late (after the host's finish), and what the
// result's "verification" object says about it.
#include "core/runtime/task/inputrange.h"
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/batchtimer.h"
#include "core/runtime/worker/devicebuffer.h"
#include "core/runtime/worker/devicekernels.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kforge::runtime {

struct OutputTotals {
    unsigned long long mismatches = 0, nans = 0, infs = 0;
    double maxAbs = 0, maxRel = 0;
};

// The edge rounds of one evaluation (inputrange.h): edgeTrials(task) in order; the reference decides. A
// scaled trial whose reference output leaves the declared domain (NaN or Inf where the declared rounds had
// none) is skipped, and so is every larger scale after it; special values run regardless. Pure logic: the
// evaluator runs the rounds and reports each outcome.
class EdgeSchedule
{
public:
    EdgeSchedule() = default;
    explicit EdgeSchedule(std::vector<EdgeTrial> trials);
    // The next trial to run; nullptr when none is left. Every trial it returns must get one outcome below.
    const EdgeTrial *next();
    void passed();
    void failed();
    void skipped(const std::string &why); // the current trial did not run (beyond the domain, ...)
    bool anyRan() const;
    // [{"range": "scaled x16", "ran": true, "passed": true}, {"range": "scaled x256", "ran": false,
    //   "reason": "..."}, ...]: every trial of the task, run or not.
    nlohmann::ordered_json toJson() const;

private:
    struct Outcome {
        EdgeTrial trial;
        enum class State { Pending, Passed, Failed, Skipped } state = State::Pending;
        std::string reason;
    };
    std::vector<Outcome> m_trials;
    std::size_t m_next = 0;
    bool m_scaleBlocked = false; // a scaled trial left the domain: larger scales are skipped
    std::string m_blockedBy;
};

struct Verification {
    int trials = 0;                  // rounds whose every output was compared
    unsigned long long compared = 0; // calls whose outputs were compared, all rounds
    std::vector<OutputTotals> totals;
    unsigned long long elements = 0; // per call, all outputs
    nlohmann::ordered_json firstMismatch = nullptr;
    std::string reason;
    std::vector<std::string> mutatedInputs;
    std::optional<bool> dependsOnInputs;
    bool sideStream = false;
    bool referenceMutates = false;
    bool failed = false;
    bool sanitizerErrors = false;  // compute-sanitizer memcheck reported errors (options.deep)
    bool unstableNumerics = false; // an edge round failed while the declared rounds passed
    EdgeSchedule edges;

    nlohmann::ordered_json toJson(const TaskSpec &task) const;
};

class Verifier
{
public:
    Verifier(GpuContext &gpu, const TaskSpec &task, BatchTimer &batches);
    ~Verifier();
    Verifier(const Verifier &) = delete;
    Verifier &operator=(const Verifier &) = delete;

    // Compares the candidate's output slots `slots` with the reference's (late) and the snapshot (early) with
    // the late outputs; accumulates into `v` and sets v.failed with the reason at the first wrong slot.
    void compare(const std::vector<int> &slots, const std::string &round, uint64_t roundSeed, Verification &v);
    // Differing words between two reference slots (all outputs): the output depends on the inputs when not 0.
    unsigned long long referenceDifference(int a, int b);
    // NaN and Inf counts of the reference's outputs in `slots`, summed, one entry per output; `maxAbs` (when
    // given) gets the largest finite |value| of each output over the slots.
    std::vector<NonFinite> referenceNonFinite(const std::vector<int> &slots, std::vector<double> *maxAbs = nullptr);
    // Multiplies each output's atol from now on (edge rounds: by how much the reference's magnitude grew over
    // the declared inputs', so the rule stays the same relative to the outputs' scale); empty: 1 for all.
    void setAtolScale(std::vector<double> scale) { m_atolScale = std::move(scale); }

private:
    // The early (snapshot) and late comparisons of every slot in `slots`, all enqueued before one
    // synchronize: per slot, nout early stats then nout late ones.
    std::vector<gpu::CompareStats> compareSlots(const std::vector<int> &slots);
    // Output `output`'s tolerance: the task's for its dtype, atol scaled as setAtolScale said.
    Tolerance toleranceOf(std::size_t output) const;

    GpuContext &m_gpu;
    const TaskSpec &m_task;
    BatchTimer &m_batches;
    DeviceBuffer m_device;
    DeviceBuffer m_slotStats; // compareSlots: kSlotsPerSync slots' stats
    void *m_slotStatsHost = nullptr;
    static constexpr std::size_t kSlotsPerSync = 64;
    DeviceBuffer m_zeros; // the largest output's size of zeros (the reference's magnitude), made when needed
    void *m_host = nullptr;
    std::vector<double> m_atolScale;
};

// compute-sanitizer on PATH, else under CUDA_HOME (or CUDA_PATH) /bin; empty when neither has it.
std::string findComputeSanitizer();
// The sanitizer's report lines ("========= ..." with the prefix removed), at most `max`, and its
// "ERROR SUMMARY: N error(s)" count in `summary` (-1 when it printed none).
std::vector<std::string> sanitizerLines(const std::string &text, std::size_t max, long long &summary);

// Formatting shared with the evaluator.
std::string formatNumber(double v, int precision = 6);
std::string formatMs(double ms);

} // namespace kforge::runtime
