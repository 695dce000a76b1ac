#include "core/runtime/profiler/activityparser.h"

#include "core/runtime/profiler/cuptidiagnosis.h"
#include "core/runtime/profiler/region.h"

#include <cupti.h>
#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace kforge::runtime::profiler {

namespace {

void noteZeroTimestamp(uint64_t start, uint64_t end, TraceRecords &out)
{
    if (start == 0 || end == 0 || end < start)
        ++out.zeroTimestamp;
}

} // namespace

size_t parseActivityBuffer(uint8_t *buffer, size_t validSize, TraceRecords &out)
{
    size_t count = 0;
    CUpti_Activity *rec = nullptr;
    while (buffer && validSize > 0) {
        CUptiResult st = cuptiActivityGetNextRecord(buffer, validSize, &rec);
        if (st == CUPTI_ERROR_MAX_LIMIT_REACHED)
            break;
        if (st != CUPTI_SUCCESS) {
            if (out.parseError.empty())
                out.parseError = "cuptiActivityGetNextRecord: " + cuptiResultName(st);
            break;
        }
        ++count;
        ++out.records;
        switch (rec->kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
            const auto *k = reinterpret_cast<const CUpti_ActivityKernel10 *>(rec);
            KernelRecord r;
            r.nameIndex = out.internName(k->name);
            r.start = k->start;
            r.end = k->end;
            r.deviceId = k->deviceId;
            r.contextId = k->contextId;
            r.streamId = k->streamId;
            r.correlationId = k->correlationId;
            r.grid = {k->gridX, k->gridY, k->gridZ};
            r.block = {k->blockX, k->blockY, k->blockZ};
            r.staticSmem = k->staticSharedMemory;
            r.dynamicSmem = k->dynamicSharedMemory;
            r.localMemPerThread = k->localMemoryPerThread;
            r.registers = k->registersPerThread;
            r.graphId = k->graphId;
            r.deviceLaunched = k->isDeviceLaunched != 0;
            noteZeroTimestamp(r.start, r.end, out);
            out.kernels.push_back(r);
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
            const auto *c = reinterpret_cast<const CUpti_ActivityMemcpy6 *>(rec);
            MemoryRecord m;
            m.op = MemoryOpKind::Memcpy;
            m.copyKind = c->copyKind;
            m.bytes = c->bytes;
            m.start = c->start;
            m.end = c->end;
            m.deviceId = c->deviceId;
            m.streamId = c->streamId;
            m.correlationId = c->correlationId;
            noteZeroTimestamp(m.start, m.end, out);
            out.memoryOps.push_back(m);
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
            const auto *s = reinterpret_cast<const CUpti_ActivityMemset4 *>(rec);
            MemoryRecord m;
            m.op = MemoryOpKind::Memset;
            m.bytes = s->bytes;
            m.start = s->start;
            m.end = s->end;
            m.deviceId = s->deviceId;
            m.streamId = s->streamId;
            m.correlationId = s->correlationId;
            noteZeroTimestamp(m.start, m.end, out);
            out.memoryOps.push_back(m);
            break;
        }
        case CUPTI_ACTIVITY_KIND_RUNTIME:
        case CUPTI_ACTIVITY_KIND_DRIVER: {
            const auto *a = reinterpret_cast<const CUpti_ActivityAPI *>(rec);
            ++out.apiRecords;
            // Runtime and nested driver calls can share a correlation id: keep the earliest (outermost).
            auto [it, inserted] = out.apiStart.emplace(a->correlationId, a->start);
            if (!inserted && a->start < it->second)
                it->second = a->start;
            break;
        }
        case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
            const auto *e = reinterpret_cast<const CUpti_ActivityExternalCorrelation *>(rec);
            if (e->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0 && decodeRegionId(e->externalId))
                out.externalIds[e->correlationId] = e->externalId;
            break;
        }
        default: ++out.otherRecords; break;
        }
    }
    return count;
}

std::string demangle(const std::string &mangled)
{
    if (mangled.size() < 2 || mangled[0] != '_' || mangled[1] != 'Z')
        return mangled;
    int status = 0;
    std::unique_ptr<char, void (*)(void *)> d(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && d ? std::string(d.get()) : mangled;
}

} // namespace kforge::runtime::profiler
