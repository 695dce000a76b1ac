#pragma once
// What the judge adds for a torch task (docs/worker-protocol.md, "Module host"; issue 34): the forward's
// signature the module hosts bind the lent buffers with, each side's init, and the judge's weights (a kernel of a
// torch task reads them after the forward's tensors: the native host's inputs are then the forward's tensors, the
// module's parameters and its buffers).
//
// The weights: the reference host's state is exported once per reference host (its initial values), moved
// away from them with the evaluation's seed (moduleweights.h), and the same values go to every side: a module
// host loads them ("state" load: names, dtypes and shapes checked), a kernel reads them from the weights
// buffer as extra inputs. The buffer is the judge's (plain cudaMalloc, lent through CUDA IPC like the
// batches' arenas), mapped as buffer kBufferId.
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/devicebuffer.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kforge::runtime {

// {"args": [{"dtype", "shape"} | {"value"}], "outputs": [{"dtype", "shape"}]}: the input tensors in order
// with the scalar arguments at their positions.
nlohmann::ordered_json moduleSignature(const TaskSpec &task);

// The init fields of a module host (HostStart::module.init): class Model for the reference, ModelNew for a
// candidate; init_args the task's init_inputs (null: the module's get_init_inputs()) for the reference, what
// the reference was built with for a candidate; construction seed 0 (the judge's weights replace what it
// draws); mode eval or train.
nlohmann::ordered_json moduleInit(const TaskSpec &task, bool reference, const nlohmann::ordered_json &referenceInitArgs);

class JudgeWeights
{
public:
    static constexpr int kBufferId = 4; // after the batches' arenas (batchtimer.h)

    // `state`: the reference host's init reply's "state" ([{name, dtype, shape, kind}]). Allocates the buffer
    // unless `allocate` is false (the layout alone: tests without a GPU); throws CudaFailure, and
    // std::runtime_error for an entry of a dtype the judge cannot lend.
    explicit JudgeWeights(const nlohmann::ordered_json &state, bool allocate = true);
    bool empty() const { return m_entries.empty(); }
    std::size_t bytes() const { return m_bytes; }

    // The map request's entry for the buffer.
    nlohmann::ordered_json bufferJson() const;
    // A "state" request: export (the host writes its state into the buffer) or load (it takes the buffer's).
    nlohmann::ordered_json stateRequest(const char *direction) const;
    // The buffer's bytes (synchronous copies on the default stream of the judge's context).
    std::string download() const;
    // Moves `initial` (a download of the reference's own state) with `seed` and puts the result in the buffer;
    // the report (moduleweights.h, weightsReport) for the result's "weights".
    nlohmann::ordered_json moveFrom(const std::string &initial, uint64_t seed);
    // The same without the buffer: `initial` moved, in the same layout. Throws std::runtime_error when
    // `initial` is not of this layout's size.
    std::string moved(const std::string &initial, uint64_t seed, nlohmann::ordered_json &report) const;

    // Where a task's parameter or buffer lies in the buffer (a kernel's extra inputs), by state-dict name;
    // nothing when the reference has no such entry or it differs in dtype or size from the task's.
    std::optional<uint64_t> offsetOf(const TensorSpec &declared) const;
    // The first declared parameter or buffer that offsetOf cannot place, in words; empty when all fit.
    std::string mismatch(const TaskSpec &task) const;

private:
    struct Entry {
        std::string name;
        std::string dtypeName;      // as the module host names it ("f32", "bool", ...)
        std::optional<Dtype> dtype; // the judge's type, when it has one (floating entries are moved)
        std::vector<long long> shape;
        std::size_t offset = 0;
        std::size_t bytes = 0;
    };
    std::vector<Entry> m_entries;
    std::size_t m_bytes = 0;
    DeviceBuffer m_buffer;
    std::string m_handle;
};

} // namespace kforge::runtime
