#include "core/runtime/worker/tensorset.h"

#include "core/runtime/worker/devicekernels.h"

#include <iterator>

namespace kforge::runtime {

TensorSet::TensorSet(const std::vector<TensorSpec> &specs)
    : m_specs(specs)
{
    m_buffers.reserve(m_specs.size());
    m_desc.resize(m_specs.size());
    for (std::size_t i = 0; i < m_specs.size(); ++i) {
        const TensorSpec &s = m_specs[i];
        m_buffers.emplace_back(s.sizeBytes());
        kf_tensor &d = m_desc[i];
        d = kf_tensor{};
        d.data = m_buffers.back().get();
        d.dtype = static_cast<kf_dtype>(s.dtype);
        d.ndim = static_cast<int32_t>(s.shape.size());
        int64_t stride = 1;
        for (int k = d.ndim - 1; k >= 0; --k) {
            d.shape[k] = s.shape[static_cast<std::size_t>(k)].value;
            d.strides[k] = stride;
            stride *= d.shape[k];
        }
        d.numel = s.numel();
        d.name = m_specs[i].name.c_str();
    }
}

std::size_t TensorSet::totalBytes() const
{
    std::size_t n = 0;
    for (const DeviceBuffer &b : m_buffers)
        n += b.bytes();
    return n;
}

void TensorSet::generate(uint64_t seed, cudaStream_t stream, InputRange range, double scale)
{
    for (std::size_t i = 0; i < m_specs.size(); ++i) {
        const TensorSpec &s = m_specs[i];
        const InitSpec init = rangedInit(s, range, scale);
        gpu::FillSpecials specials;
        const std::vector<double> values = specialValues(s, range, scale);
        for (double v : values)
            if (specials.count < static_cast<int>(std::size(specials.values)))
                specials.values[specials.count++] = v;
        KF_CUDA(gpu::fill(m_buffers[i].get(), static_cast<int>(s.dtype), s.numel(), static_cast<int>(init.kind), init.a,
                          init.b, seed, static_cast<uint32_t>(i), stream, specials));
    }
}

unsigned char TensorSet::poisonByte(Dtype dtype, int trial)
{
    if (isFloating(dtype))
        return trial % 2 == 0 ? 0xFF : 0xA5;
    return trial % 2 == 0 ? 0xA5 : 0x5A;
}

void TensorSet::poison(int trial, cudaStream_t stream)
{
    for (std::size_t i = 0; i < m_buffers.size(); ++i)
        if (m_buffers[i].bytes())
            KF_CUDA(cudaMemsetAsync(m_buffers[i].get(), poisonByte(m_specs[i].dtype, trial), m_buffers[i].bytes(), stream));
}

void TensorSet::copyFrom(const TensorSet &from, cudaStream_t stream)
{
    for (std::size_t i = 0; i < m_buffers.size() && i < from.m_buffers.size(); ++i)
        if (m_buffers[i].bytes())
            KF_CUDA(cudaMemcpyAsync(m_buffers[i].get(), from.m_buffers[i].get(), m_buffers[i].bytes(),
                                    cudaMemcpyDeviceToDevice, stream));
}

} // namespace kforge::runtime
