#pragma once
// Device tensors for one side of a kernel call (the task's inputs or outputs), freshly allocated, with
// the kf_tensor descriptors the kernel receives.
#include "core/runtime/task/inputrange.h"
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/devicebuffer.h"
#include "kforge/kernel.h"

#include <vector>

namespace kforge::runtime {

class TensorSet
{
public:
    explicit TensorSet(const std::vector<TensorSpec> &specs);
    TensorSet(const TensorSet &) = delete;
    TensorSet &operator=(const TensorSet &) = delete;

    std::size_t size() const { return m_buffers.size(); }
    const TensorSpec &spec(std::size_t i) const { return m_specs[i]; }
    const DeviceBuffer &buffer(std::size_t i) const { return m_buffers[i]; }
    kf_tensor *descriptors() { return m_desc.data(); }
    int32_t count() const { return static_cast<int32_t>(m_desc.size()); }
    std::size_t totalBytes() const;

    // Fills every tensor from its init distribution (inputs), as declared or at its edges: Scaled multiplies
    // the spread by `scale`, Special mixes in the dtype's special values (+-max/scale among them) where the
    // input admits them (core/runtime/task/inputrange.h). Declared gives the same data for a seed as before.
    void generate(uint64_t seed, cudaStream_t stream, InputRange range = InputRange::Declared, double scale = 1.0);
    // Fills every byte with poisonByte(dtype, trial) (outputs, before a kernel runs).
    void poison(int trial, cudaStream_t stream);
    // Alternating patterns, so an element the kernel never writes fails in one trial or the other even
    // where the right value happens to equal one pattern: 0xFF (NaN for every float type) / 0xA5 for
    // floats, 0xA5 / 0x5A for integers.
    static unsigned char poisonByte(Dtype dtype, int trial);
    // Device-to-device copy of the same-shaped set `from`.
    void copyFrom(const TensorSet &from, cudaStream_t stream);

private:
    std::vector<TensorSpec> m_specs; // owns the names the descriptors point at
    std::vector<DeviceBuffer> m_buffers;
    std::vector<kf_tensor> m_desc;
};

} // namespace kforge::runtime
