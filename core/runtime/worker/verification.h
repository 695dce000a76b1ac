#pragma once
// Comparing a batch's outputs with the reference's (every slot of a verification round, a random subset of a
// timed one), early (the snapshot taken right after done) and late (after the host's finish), and what the
// result's "verification" object says about it.
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

private:
    std::vector<gpu::CompareStats> compareSlot(int slot, bool early);

    GpuContext &m_gpu;
    const TaskSpec &m_task;
    BatchTimer &m_batches;
    DeviceBuffer m_device;
    void *m_host = nullptr;
};

// Formatting shared with the evaluator.
std::string formatNumber(double v, int precision = 6);
std::string formatMs(double ms);

} // namespace kforge::runtime
