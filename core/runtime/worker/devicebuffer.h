#pragma once
// Owning device allocation (cudaMalloc/cudaFree). Freeing after a sticky error fails silently: the
// worker exits right after such an error anyway.
#include "core/runtime/worker/cudacheck.h"

#include <cstddef>
#include <utility>

namespace kforge::runtime {

class DeviceBuffer
{
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t bytes)
        : m_bytes(bytes)
    {
        if (bytes)
            KF_CUDA(cudaMalloc(&m_ptr, bytes));
    }
    ~DeviceBuffer() { reset(); }
    DeviceBuffer(DeviceBuffer &&o) noexcept
        : m_ptr(std::exchange(o.m_ptr, nullptr))
        , m_bytes(std::exchange(o.m_bytes, 0))
    {
    }
    DeviceBuffer &operator=(DeviceBuffer &&o) noexcept
    {
        if (this != &o) {
            reset();
            m_ptr = std::exchange(o.m_ptr, nullptr);
            m_bytes = std::exchange(o.m_bytes, 0);
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;

    void *get() const { return m_ptr; }
    template <typename T>
    T *as() const
    {
        return static_cast<T *>(m_ptr);
    }
    std::size_t bytes() const { return m_bytes; }

    // Forgets the allocation without freeing it (a stream that never drains: cudaFree would block).
    void release()
    {
        m_ptr = nullptr;
        m_bytes = 0;
    }

    void reset()
    {
        if (m_ptr)
            cudaFree(m_ptr);
        m_ptr = nullptr;
        m_bytes = 0;
    }

private:
    void *m_ptr = nullptr;
    std::size_t m_bytes = 0;
};

} // namespace kforge::runtime
