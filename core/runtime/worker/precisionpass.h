#pragma once
// The precision contract of a correct candidate (precisioncontract.h), a pass the judge calls after the
// verification and timing (judge.h): one call of the candidate and of the reference on a fresh input set, a
// torch task's reference module in float64 on the same inputs, and the three outputs judged on the CPU. A CUDA
// task's reference is a compiled kernel of fixed dtypes: the contract says it is not available and why.
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/evalclock.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kforge::runtime {

struct PassHosts;

class PrecisionPass
{
public:
    // `seed`: the evaluation's (options.seed); `referenceMutates`: the reference modifies its inputs
    // (Verification), so a second run of it would not see the same ones. Throws EntryFailure (evalrun.h) when a
    // side's call fails, CudaFailure.
    void run(const TaskSpec &task, uint64_t seed, bool referenceMutates, PassHosts &hosts, EvalClock &clock);
    // result["precision"], and `precision_loss` with its warning when the candidate lost precision; a correct
    // candidate's only (the caller's test).
    void report(nlohmann::ordered_json &result, std::vector<std::string> &flags, std::vector<std::string> &warnings) const;

    // Why the pass cannot judge this evaluation (the contract's "not available" reason), or empty when it runs:
    // `referenceIsModule` the reference runs in a module host.
    static std::string unavailableReason(const TaskSpec &task, bool referenceIsModule, bool referenceMutates);

private:
    void notAvailable(const std::string &why);

    nlohmann::ordered_json m_contract; // the contract's object, or null when the pass did not run
    std::string m_lost;                // its message when the candidate lost precision
};

} // namespace kforge::runtime
