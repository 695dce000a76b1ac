// The precision contract's pass (precisionpass.h): the judge runs one call of the candidate and of the reference
// on a fresh input set, asks a torch task's reference host for the same call in float64 (its module copied and
// cast with .double(), the inputs cast too: the module host's "float64" request), and judges the three outputs
// on the CPU. A CUDA task's reference is a compiled kernel of fixed dtypes: the contract says it is not
// available and why, and flags nothing.
#include "core/runtime/worker/precisionpass.h"

#include "core/runtime/host/hostprotocol.h"
#include "core/runtime/worker/cudacheck.h"
#include "core/runtime/worker/evalrun.h"
#include "core/runtime/worker/precisioncontract.h"
#include "core/runtime/worker/profilepasses.h"
#include "core/runtime/worker/seeds.h"

#include <string>
#include <vector>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t kExactAlign = 256;

std::vector<double> downloadAs(const void *device, Dtype dtype, std::size_t n)
{
    std::string bytes(n * dtypeSize(dtype), '\0');
    KF_CUDA(cudaMemcpy(bytes.data(), device, bytes.size(), cudaMemcpyDeviceToHost));
    return toDoubles(bytes.data(), dtype, n);
}

} // namespace

void PrecisionPass::notAvailable(const std::string &why)
{
    m_contract = PrecisionContract::notAvailable(why).toJson();
}

std::string PrecisionPass::unavailableReason(const TaskSpec &task, bool referenceIsModule, bool referenceMutates)
{
    bool judged = false;
    for (const TensorSpec &t : task.outputs)
        judged = judged || precisionFloor(t.dtype) > 0;
    if (!judged)
        return "the task's outputs are float64 or integers: nothing computes below the declared precision";
    if (task.kind != TaskKind::Torch || !referenceIsModule)
        return "the reference is a compiled kernel (" + task.reference
               + ") that computes in the task's declared dtypes; the judge cannot run it in float64";
    if (referenceMutates)
        return "the reference modifies its inputs, so a second run of it in float64 would not see the same ones";
    return {};
}

void PrecisionPass::run(const TaskSpec &task, uint64_t seed, bool referenceMutates, PassHosts &hosts, EvalClock &clock)
{
    const std::string why =
        unavailableReason(task, hosts.hosts.reference->kind() == host::HostKind::Module, referenceMutates);
    if (!why.empty()) {
        notAvailable(why);
        return;
    }
    BatchTimer &bt = hosts.batches;
    clock.mark("precision");
    const uint64_t callSeed = deriveSeed(seed, seedstream::precision(0));
    const std::vector<int> set{0};
    // The candidate first: it may write to its inputs, and the reference's untimed call regenerates them.
    for (Side side : {Side::Candidate, Side::Reference}) {
        clock.phase = std::string("the precision contract's call of the ") + sideName(side);
        const BatchTimer::Finish f = bt.untimed(hosts.host(side), side, callSeed, set, false, clock.waitS(), clock.phase);
        for (int rc : f.rc)
            if (rc != 0)
                throw EntryFailure{side, rc, "", clock.phase, f.error};
        if (!f.cudaError.empty())
            throw EntryFailure{side, 0, f.cudaError, clock.phase};
    }
    // The float64 outputs, in a buffer lent to the reference's host for this one request.
    std::vector<std::size_t> offsets;
    std::size_t total = 0;
    Json outputs = Json::array();
    for (const TensorSpec &t : task.outputs) {
        offsets.push_back(total);
        outputs.push_back(Json{{"offset", total}, {"shape", t.dims()}});
        total += (static_cast<std::size_t>(t.numel()) * 8 + kExactAlign - 1) / kExactAlign * kExactAlign;
    }
    DeviceBuffer exact;
    std::string handle;
    try {
        exact = DeviceBuffer(std::max<std::size_t>(total, kExactAlign));
        cudaIpcMemHandle_t h;
        KF_CUDA(cudaIpcGetMemHandle(&h, exact.get()));
        handle = host::toHex(&h, sizeof h);
    } catch (const CudaFailure &f) {
        if (f.code != cudaErrorMemoryAllocation)
            throw;
        cudaGetLastError();
        notAvailable("the judge had no device memory for the float64 outputs");
        return;
    }
    clock.phase = "the reference module in float64";
    Json reply;
    try {
        reply = hosts.hosts.reference->request(Json{{"op", "float64"},
                                                    {"call", bt.callJson(Side::Reference, 0)},
                                                    {"out", Json{{"handle", handle}, {"bytes", exact.bytes()}}},
                                                    {"outputs", outputs}},
                                               clock.waitS(), clock.phase);
    } catch (const host::HostFailure &f) {
        // The contract's own pass failed (the reference's host died or hung in float64): no verdict of the
        // candidate's comes from it. The host is ended; the next evaluation starts a fresh one.
        hosts.hosts.reference->kill();
        notAvailable("the reference module failed in float64: " + f.message);
        return;
    }
    if (!reply.value("ok", false)) {
        notAvailable("the reference module could not run in float64: " + reply.value("message", std::string("refused")));
        return;
    }
    PrecisionContract contract;
    for (std::size_t k = 0; k < task.outputs.size(); ++k) {
        const TensorSpec &t = task.outputs[k];
        if (precisionFloor(t.dtype) <= 0)
            continue;
        const auto n = static_cast<std::size_t>(t.numel());
        const std::vector<double> x = downloadAs(static_cast<char *>(exact.get()) + offsets[k], Dtype::F64, n);
        judgeOutput(contract, t.name, t.dtype, x, downloadAs(bt.output(Side::Reference, 0, k), t.dtype, n),
                    downloadAs(bt.output(Side::Candidate, 0, k), t.dtype, n));
    }
    concludePrecision(contract);
    m_contract = contract.toJson();
    m_contract["float64_ms"] = reply.value("ms", 0.0);
    if (contract.lost)
        m_lost = contract.message;
}

void PrecisionPass::report(Json &result, std::vector<std::string> &flags, std::vector<std::string> &warnings) const
{
    if (!m_contract.is_object() || result["verdict"] != "correct")
        return;
    result["precision"] = m_contract;
    if (!m_lost.empty()) {
        addFlag(flags, "precision_loss");
        warnings.push_back(m_lost);
    }
}

} // namespace kforge::runtime
