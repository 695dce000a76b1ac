// The candidate host's trace check (CuptiHostProfiler::checkWindows) on plain records, without a GPU: the
// host's own kernels (flush, delay, marker) are removed and give each run's window; the candidate's kernels and
// copies inside a window are clean (also on another stream: joined-back work), one that starts before its
// window or ends after it is counted with how far it was out.
#include "check.h"

#include "core/runtime/host/hostkernels.h"
#include "core/runtime/worker/cuptiobserver.h"

using namespace kforge::runtime;
using namespace kforge::runtime::test;
using profiler::KernelRecord;
using profiler::MemoryRecord;
using profiler::TraceRecords;

namespace {

KernelRecord kernel(TraceRecords &r, const char *name, uint64_t start, uint64_t end, uint32_t stream = 7)
{
    KernelRecord k;
    k.nameIndex = r.internName(name);
    k.start = start;
    k.end = end;
    k.streamId = stream;
    return k;
}

// Two runs: windows [1000, 2000] and [5000, 6000] (delay kernel ends, marker starts), with the host's flush.
TraceRecords twoRuns()
{
    TraceRecords r;
    for (uint64_t base : {0ull, 4000ull}) {
        r.kernels.push_back(kernel(r, host::gpu::kFlushName, base + 100, base + 400));
        r.kernels.push_back(kernel(r, host::gpu::kDelayName, base + 400, base + 1000));
        r.kernels.push_back(kernel(r, host::gpu::kMarkerName, base + 2000, base + 2010));
    }
    return r;
}

} // namespace

int main()
{
    // Clean: the candidate's work inside both windows, one kernel on a second stream joined back in time.
    {
        TraceRecords r = twoRuns();
        r.kernels.push_back(kernel(r, "_Z5scalePfS_", 1100, 1900));
        r.kernels.push_back(kernel(r, "_Z4sidePf", 1200, 1950, 9));
        r.kernels.push_back(kernel(r, "_Z5scalePfS_", 5100, 5900));
        MemoryRecord m;
        m.start = 5200;
        m.end = 5300;
        r.memoryOps.push_back(m);
        const CuptiHostProfiler::Outside o = CuptiHostProfiler::checkWindows(r);
        KF_CHECK_MSG(o.items == 0, o.toJson().dump());
        KF_CHECK(r.kernels.size() == 3); // the host's six kernels are gone
        for (const KernelRecord &k : r.kernels)
            KF_CHECK(r.name(k) != host::gpu::kMarkerName && r.name(k) != host::gpu::kDelayName
                     && r.name(k) != host::gpu::kFlushName);
    }
    // Work before the call (overlapping the flush) and after it (left running on a side stream), and a copy
    // between the runs: three items, with how far out the worst ones were.
    {
        TraceRecords r = twoRuns();
        r.kernels.push_back(kernel(r, "_Z5earlyPf", 300, 1500));
        r.kernels.push_back(kernel(r, "_Z4latePf", 5500, 6800, 9));
        MemoryRecord m;
        m.start = 3000;
        m.end = 3100;
        r.memoryOps.push_back(m);
        const CuptiHostProfiler::Outside o = CuptiHostProfiler::checkWindows(r);
        KF_CHECK_MSG(o.items == 3, o.toJson().dump());
        KF_CHECK_MSG(o.maxBeforeUs > 0.69 && o.maxBeforeUs < 0.71, o.toJson().dump()); // 700 ns before [1000, ...]
        KF_CHECK_MSG(o.maxAfterUs > 1.09 && o.maxAfterUs < 1.11, o.toJson().dump());   // the copy: 1100 ns after 2000
        KF_CHECK(o.toJson().value("items", 0) == 3);
    }
    // Records CUPTI could not time are not judged.
    {
        TraceRecords r = twoRuns();
        r.kernels.push_back(kernel(r, "_Z5scalePfS_", 0, 0));
        KF_CHECK(CuptiHostProfiler::checkWindows(r).items == 0);
    }
    return finish("tst_host_trace");
}
