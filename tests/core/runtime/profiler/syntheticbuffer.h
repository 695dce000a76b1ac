#pragma once
// Builds CUPTI activity buffers by hand (the record structs of CUDA 13.0), so the parser and the
// aggregation can be tested without a GPU exactly as the tracer feeds them.

#include <cupti.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace kforge::runtime::test {

class SyntheticBuffer
{
public:
    struct Kernel {
        const char *name = "_Z6kernelPf";
        uint64_t start = 0, end = 0;
        uint32_t stream = 7;
        uint32_t correlation = 0;
        std::array<int32_t, 3> grid{1, 1, 1};
        std::array<int32_t, 3> block{256, 1, 1};
        uint16_t registers = 32;
        int32_t staticSmem = 0;
        int32_t dynamicSmem = 0;
    };

    void kernel(const Kernel &k)
    {
        CUpti_ActivityKernel10 r{};
        r.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        r.name = k.name;
        r.start = k.start;
        r.end = k.end;
        r.streamId = k.stream;
        r.correlationId = k.correlation;
        r.gridX = k.grid[0];
        r.gridY = k.grid[1];
        r.gridZ = k.grid[2];
        r.blockX = k.block[0];
        r.blockY = k.block[1];
        r.blockZ = k.block[2];
        r.registersPerThread = k.registers;
        r.staticSharedMemory = k.staticSmem;
        r.dynamicSharedMemory = k.dynamicSmem;
        append(r);
    }

    void memcpy(uint64_t bytes, uint64_t start, uint64_t end, uint32_t stream, uint32_t correlation,
                uint8_t copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOD)
    {
        CUpti_ActivityMemcpy6 r{};
        r.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
        r.copyKind = copyKind;
        transfer(r, bytes, start, end, stream, correlation);
    }

    void memset(uint64_t bytes, uint64_t start, uint64_t end, uint32_t stream, uint32_t correlation)
    {
        CUpti_ActivityMemset4 r{};
        r.kind = CUPTI_ACTIVITY_KIND_MEMSET;
        transfer(r, bytes, start, end, stream, correlation);
    }

    void api(uint32_t correlation, uint64_t start, uint64_t end, CUpti_ActivityKind kind = CUPTI_ACTIVITY_KIND_RUNTIME)
    {
        CUpti_ActivityAPI r{};
        r.kind = kind;
        r.correlationId = correlation;
        r.start = start;
        r.end = end;
        append(r);
    }

    void external(uint32_t correlation, uint64_t externalId,
                  CUpti_ExternalCorrelationKind kind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0)
    {
        CUpti_ActivityExternalCorrelation r{};
        r.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
        r.externalKind = kind;
        r.externalId = externalId;
        r.correlationId = correlation;
        append(r);
    }

    uint8_t *data() { return reinterpret_cast<uint8_t *>(m_words.data()); }
    size_t size() const { return m_bytes; }

private:
    // Memcpy and memset records carry the same size, span, stream and correlation fields.
    template <typename T>
    void transfer(T &r, uint64_t bytes, uint64_t start, uint64_t end, uint32_t stream, uint32_t correlation)
    {
        r.bytes = bytes;
        r.start = start;
        r.end = end;
        r.streamId = stream;
        r.correlationId = correlation;
        append(r);
    }

    template <typename T>
    void append(const T &r)
    {
        static_assert(sizeof(T) % 8 == 0, "CUPTI records are 8-byte multiples");
        m_words.resize((m_bytes + sizeof(T)) / 8);
        std::memcpy(reinterpret_cast<uint8_t *>(m_words.data()) + m_bytes, &r, sizeof(T));
        m_bytes += sizeof(T);
    }

    std::vector<uint64_t> m_words; // keeps the 8-byte alignment CUPTI requires
    size_t m_bytes = 0;
};

} // namespace kforge::runtime::test
