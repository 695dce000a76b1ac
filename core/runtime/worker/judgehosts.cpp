// How the evaluator lends its memory to the hosts (judge.h): the batches' arenas and events to every host,
// and for a torch task the forward's signature to a module host and the judge's weights (modulejudge.h) to
// the reference's and the candidate's. Split from judge.cpp, which times and verifies.
#include "core/runtime/worker/judge.h"

#include "core/runtime/host/hostprotocol.h"
#include "core/runtime/worker/evalrun.h"

#include <stdexcept>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;

// A refusal of the module host's "state" request, as the verdict load_error with its words ("cand.py: the
// candidate failed at step load_state_dict: missing key(s) ...").
void requireState(const Json &reply, const std::string &what)
{
    if (!reply.value("ok", false))
        throw host::HostFailure{"load_error", reply.value("message", what + " was refused")};
}

} // namespace

void Judge::loadWeights(Run &run, host::HostClient &h, Side side)
{
    run.phase = std::string("loading the judge's weights into the ") + sideName(side) + "'s module";
    requireState(h.request(run.weights->stateRequest("load"), run.waitS(), run.phase), run.phase);
}

void Judge::prepareWeights(Run &run)
{
    if (run.hosts.reference->kind() != host::HostKind::Module)
        throw host::HostFailure{"load_error", "a PyTorch task's reference runs as a module (its " + run.task.reference
                                                  + "), not as a kernel library"};
    run.phase = "laying out the module's weights";
    try {
        run.weights = std::make_unique<JudgeWeights>(run.hosts.reference->initReply().value("state", Json::array()));
    } catch (const std::runtime_error &e) {
        throw host::HostFailure{"load_error", e.what()};
    }
    if (run.hosts.candidate->kind() != host::HostKind::Native)
        return;
    // A kernel of a torch task reads the parameters and buffers after the forward's tensors, from the buffer
    // both modules' weights come from.
    if (const std::string m = run.weights->mismatch(run.task); !m.empty())
        throw host::HostFailure{"load_error", "the kernel cannot be given the module's weights: " + m};
    std::vector<std::pair<int, uint64_t>> refs;
    for (const std::vector<TensorSpec> *list : {&run.task.parameters, &run.task.buffers})
        for (const TensorSpec &t : *list)
            refs.emplace_back(JudgeWeights::kBufferId, *run.weights->offsetOf(t));
    // The no-op library's host is mapped with the same task, so its calls name the same tensors.
    run.batches->setExtraInputs(Side::Baseline, refs);
    run.batches->setExtraInputs(Side::Candidate, std::move(refs));
}

void Judge::mapHost(Run &run, host::HostClient &h, Side side)
{
    run.phase = std::string("mapping the batches into the ") + sideName(side) + "'s process";
    Json request = run.batches->mapRequest(side, run.taskJson);
    const bool module = h.kind() == host::HostKind::Module;
    if (module)
        request["signature"] = moduleSignature(run.task);
    // Every host of a torch task gets the weights' buffer (the baseline of a kernel names them in its calls too).
    const bool lent = run.weights && !run.weights->empty();
    if (lent)
        request["buffers"].push_back(run.weights->bufferJson());
    const Json reply = h.request(request, run.waitS(), run.phase);
    if (!reply["ok"].get<bool>()) {
        const std::string code = reply.value("code", std::string());
        if (code == "out_of_memory")
            throw EntryFailure{side, static_cast<int>(cudaErrorMemoryAllocation), "", run.phase};
        throw host::HostFailure{"crashed", "the " + std::string(sideName(side)) + "'s process refused the mapping: "
                                               + reply.value("message", std::string())};
    }
    if (lent && module && side != Side::Baseline && run.weightsMoved)
        loadWeights(run, h, side);
}

void Judge::judgeWeights(Run &run)
{
    if (!run.weights)
        return;
    if (!run.weights->empty()) {
        std::string scratch;
        std::string &initial = run.hosts.referenceState ? *run.hosts.referenceState : scratch;
        if (initial.empty()) {
            run.phase = "exporting the reference module's state";
            requireState(run.hosts.reference->request(run.weights->stateRequest("export"), run.waitS(), run.phase),
                         run.phase);
            initial = run.weights->download();
        }
        try {
            run.weightsReport = run.weights->moveFrom(initial, run.options.seed);
        } catch (const std::runtime_error &e) {
            initial.clear();
            throw host::HostFailure{"load_error", e.what()};
        }
    }
    run.weightsMoved = true;
    if (run.weights->empty())
        return;
    for (Side side : {Side::Reference, Side::Candidate})
        if (run.host(side).kind() == host::HostKind::Module)
            loadWeights(run, run.host(side), side);
}

} // namespace kforge::runtime
