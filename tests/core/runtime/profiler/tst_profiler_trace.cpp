// Trace parsing and aggregation on synthetic CUPTI activity buffers: launches per run, kernel groups,
// side-stream and late work, replay exclusion, attribution of untagged work. No GPU needed.
#include "core/runtime/profiler/activityparser.h"
#include "core/runtime/profiler/profilerjson.h"
#include "core/runtime/profiler/tracesummary.h"
#include "tests/core/runtime/check.h"
#include "tests/core/runtime/profiler/syntheticbuffer.h"

#include <cmath>

using namespace kforge::runtime::profiler;
using kforge::runtime::test::SyntheticBuffer;

namespace {

constexpr uint64_t B = 1'000'000'000; // a non-zero time base (0 means "no timestamp" in CUPTI)
constexpr uint32_t kStream = 7;

const char *kRef = "_Z10ref_kernelPKfPfi";
const char *kStage1 = "_Z5stageILi1EEvPf";
const char *kStage2 = "_Z5stageILi2EEvPf";
const char *kSide = "_Z4sidePf";
const char *kHelper = "_Z6helperv";
const char *kPrologue = "_Z8prologuev";

Region region(uint32_t id, RegionKind kind, uint32_t run, uint64_t begin, uint64_t end, double eventMs = NAN)
{
    Region r;
    r.id = id;
    r.kind = kind;
    r.run = run;
    r.launchStreamId = kStream;
    r.beginNs = B + begin;
    r.endNs = B + end;
    r.eventMs = eventMs;
    return r;
}

std::vector<Region> regions()
{
    return {region(10, RegionKind::Reference, 0, 1000, 2000, 0.00090),
            region(11, RegionKind::Candidate, 0, 3000, 4000, 0.00095),
            region(12, RegionKind::Reference, 1, 5000, 6000, 0.00080),
            region(13, RegionKind::Candidate, 1, 7000, 8000, 0.00093),
            region(14, RegionKind::Reference, 2, 9000, 10000, 0.00085),
            region(15, RegionKind::Candidate, 2, 11000, 12000, 0.00094),
            region(16, RegionKind::MetricsPass, 0, 20000, 30000),
            region(17, RegionKind::Untimed, 0, 31000, 32000)};
}

// A tagged launch: API record + external correlation + the kernel.
void tagged(SyntheticBuffer &b, uint32_t regionId, uint32_t corr, const char *name, uint64_t start, uint64_t end,
            uint32_t stream = kStream, uint64_t apiAt = 0)
{
    b.external(corr, encodeRegionId(regionId));
    b.api(corr, B + (apiAt ? apiAt : start - 50), B + (apiAt ? apiAt : start - 50) + 5);
    SyntheticBuffer::Kernel k;
    k.name = name;
    k.start = start ? B + start : 0;
    k.end = end ? B + end : 0;
    k.stream = stream;
    k.correlation = corr;
    k.grid = {64, 1, 1};
    b.kernel(k);
}

// Everything the reference side did.
void fillReference(SyntheticBuffer &b)
{
    for (uint32_t run = 0; run < 3; ++run) {
        const uint64_t begin = 1000 + 4000 * run;
        tagged(b, 10 + 2 * run, 100 + run, kRef, begin + 100, begin + 700);
    }
    b.external(150, encodeRegionId(10));
    b.api(150, B + 1040, B + 1045);
    b.memset(4096, B + 1050, B + 1060, kStream, 150);
}

void fillRest(SyntheticBuffer &b)
{
    // Warm-up before any region: launched outside, ignored.
    b.api(1, B + 500, B + 505);
    b.kernel({kStage1, B + 600, B + 700, kStream, 1});

    // Candidate run 0: two stages, a memcpy, and a kernel another thread launched during the run.
    tagged(b, 11, 200, kStage1, 3100, 3400);
    tagged(b, 11, 201, kStage2, 3400, 3800);
    b.external(202, encodeRegionId(11));
    b.api(202, B + 3390, B + 3395);
    b.memcpy(1 << 20, B + 3800, B + 3850, kStream, 202);
    b.api(203, B + 3050, B + 3055); // no external id: other thread
    b.kernel({kHelper, B + 3200, B + 3300, kStream, 203});

    // Candidate run 1: a kernel on a side stream (ends in time) and one without any API record.
    tagged(b, 13, 210, kStage1, 7100, 7400);
    tagged(b, 13, 211, kStage2, 7400, 7800);
    tagged(b, 13, 212, kSide, 7100, 7500, 13);
    b.kernel({kPrologue, B + 7050, B + 7060, kStream, 600});

    // Candidate run 2: the second stage ends 500 ns after the region's end; one record lost its times.
    tagged(b, 15, 220, kStage1, 11100, 11400);
    tagged(b, 15, 221, kStage2, 11400, 12500);
    tagged(b, 15, 222, kStage1, 0, 0, kStream, 11900);

    // Metrics pass: ten replays of one tagged launch plus one record with no correlation at all.
    b.external(300, encodeRegionId(16));
    b.api(300, B + 20010, B + 20015);
    for (int pass = 0; pass < 10; ++pass)
        b.kernel({kStage1, B + 21000 + 500 * pass, B + 21300 + 500 * pass, kStream, 300});
    b.kernel({kStage2, B + 25000, B + 25100, kStream, 0});

    // Untimed region (the worker's own traced work).
    tagged(b, 17, 400, kHelper, 31100, 31200);

    // External ids that are not ours: another kind, and our kind with a foreign value.
    b.external(500, 42);
    b.external(501, encodeRegionId(11), CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1);
    b.api(500, B + 40000, B + 40005);
    b.kernel({kSide, B + 40100, B + 40200, kStream, 500});
}

void testParser()
{
    SyntheticBuffer b;
    fillReference(b);
    TraceRecords recs;
    size_t n = parseActivityBuffer(b.data(), b.size(), recs);
    // 3 x (ext + api + kernel) + ext + api + memset
    KF_CHECK(n == 12);
    KF_CHECK(recs.records == 12);
    KF_CHECK(recs.kernels.size() == 3);
    KF_CHECK(recs.memoryOps.size() == 1);
    KF_CHECK(recs.apiRecords == 4);
    KF_CHECK(recs.externalIds.size() == 4);
    KF_CHECK(recs.parseError.empty());
    KF_CHECK(recs.names.size() == 1);
    KF_CHECK(recs.name(recs.kernels[0]) == kRef);
    KF_CHECK(recs.kernels[0].grid[0] == 64 && recs.kernels[0].block[0] == 256 && recs.kernels[0].registers == 32);
    KF_CHECK(recs.kernels[0].start == B + 1100 && recs.kernels[0].end == B + 1700);
    KF_CHECK(recs.memoryOps[0].op == MemoryOpKind::Memset && recs.memoryOps[0].bytes == 4096);

    // An empty buffer and a null buffer are harmless.
    TraceRecords none;
    KF_CHECK(parseActivityBuffer(nullptr, 0, none) == 0);
    KF_CHECK(none.records == 0);

    // Foreign external ids are not kept.
    SyntheticBuffer f;
    f.external(1, 42);
    f.external(2, encodeRegionId(3), CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1);
    f.external(3, encodeRegionId(3));
    TraceRecords fr;
    parseActivityBuffer(f.data(), f.size(), fr);
    KF_CHECK(fr.externalIds.size() == 1 && fr.externalIds.count(3) == 1);

    KF_CHECK(demangle(kStage1) == "void stage<1>(float*)");
    KF_CHECK(demangle("kf_plain_c_kernel") == "kf_plain_c_kernel");
    KF_CHECK(demangle("_Znot_really_mangled$") == "_Znot_really_mangled$");
}

TraceRecords scenario()
{
    // Two buffers, as CUPTI delivers them; names are re-indexed when merged.
    SyntheticBuffer a, b;
    fillRest(a);
    fillReference(b);
    TraceRecords first, second;
    parseActivityBuffer(a.data(), a.size(), first);
    parseActivityBuffer(b.data(), b.size(), second);
    first.append(std::move(second));
    return first;
}

const KernelGroup *group(const SideSummary &s, const std::string &demangledPrefix)
{
    for (const KernelGroup &g : s.kernels)
        if (g.name.rfind(demangledPrefix, 0) == 0)
            return &g;
    return nullptr;
}

void testAggregation()
{
    TraceRecords recs = scenario();
    KF_CHECK(recs.names.size() == 6);
    TraceSummary s = summarizeTrace(recs, regions());
    KF_CHECK(s.available);
    KF_CHECK_MSG(s.replayExcluded == 11, "replayExcluded=" + std::to_string(s.replayExcluded));
    KF_CHECK_MSG(s.untimedIgnored == 1, "untimedIgnored=" + std::to_string(s.untimedIgnored));
    KF_CHECK_MSG(s.outsideRegions == 2, "outsideRegions=" + std::to_string(s.outsideRegions));

    const SideSummary &ref = s.reference;
    KF_CHECK(ref.runs == 3);
    KF_CHECK(ref.launchesPerRun.median == 1 && ref.launchesPerRun.min == 1 && ref.launchesPerRun.max == 1);
    KF_CHECK(ref.kernels.size() == 1);
    if (!ref.kernels.empty()) {
        const KernelGroup &g = ref.kernels[0];
        KF_CHECK(g.name == "ref_kernel(float const*, float*, int)");
        KF_CHECK(g.count == 3 && g.perRun == 1.0);
        KF_CHECK(std::abs(g.totalUs - 1.8) < 1e-9);
        KF_CHECK(std::abs(g.durationUs.mean - 0.6) < 1e-9);
        KF_CHECK(g.launchConfigs == 1 && g.grid[0] == 64 && g.block[0] == 256);
        KF_CHECK(!g.occupancy); // no device limits given
    }
    KF_CHECK(ref.memory.size() == 1 && ref.memory[0].kind == "memset" && ref.memory[0].bytes == 4096);
    KF_CHECK(!ref.sideStreamWork && !ref.lateWork);
    KF_CHECK(std::abs(ref.gpuTimeMs.max - 0.00061) < 1e-12); // run 0: kernel 600 ns + memset 10 ns
    KF_CHECK(std::abs(ref.gpuTimeMs.median - 0.0006) < 1e-12);
    KF_CHECK(std::abs(ref.eventTimeMs.median - 0.00085) < 1e-12);
    KF_CHECK(std::abs(ref.gpuOverEvent - 0.0006 / 0.00085) < 1e-9);

    const SideSummary &cand = s.candidate;
    KF_CHECK(cand.runs == 3);
    // run 0: stage1, stage2, helper (other thread); run 1: stage1, stage2, side, prologue; run 2: 3 x stage
    KF_CHECK_MSG(cand.launchesPerRun.min == 3 && cand.launchesPerRun.max == 4 && cand.launchesPerRun.median == 3,
                 "launches per run median/min/max " + std::to_string(cand.launchesPerRun.median) + "/"
                     + std::to_string(cand.launchesPerRun.min) + "/" + std::to_string(cand.launchesPerRun.max));
    KF_CHECK(std::abs(cand.launchesPerRun.mean - 10.0 / 3.0) < 1e-12);
    KF_CHECK(cand.untaggedItems == 2);
    KF_CHECK(cand.sideStreamWork && cand.sideStreamItems == 1);
    KF_CHECK(cand.sideStreams == std::vector<uint32_t>{13});
    KF_CHECK(cand.lateWork && cand.lateItems == 1);
    KF_CHECK(std::abs(cand.maxLateUs - 0.5) < 1e-9);
    KF_CHECK(cand.zeroTimestampItems == 1);
    const KernelGroup *st1 = group(cand, "void stage<1>");
    const KernelGroup *st2 = group(cand, "void stage<2>");
    KF_CHECK(st1 && st1->count == 4 && st1->durationUs.n == 3);
    KF_CHECK(st2 && st2->count == 3 && std::abs(st2->totalUs - (0.4 + 0.4 + 1.1)) < 1e-9);
    KF_CHECK(group(cand, "side(") && group(cand, "helper(") && group(cand, "prologue("));
    KF_CHECK(!cand.kernels.empty() && cand.kernels.front().name.rfind("void stage<2>", 0) == 0); // largest total
    KF_CHECK(cand.memory.size() == 1 && cand.memory[0].kind == "memcpy_dtod" && cand.memory[0].bytes == (1u << 20));
    // Work per run: run 0 300 + 400 + 100 (helper) + 50 (memcpy) = 850 ns, busy 3100..3850 = 750 ns;
    // run 1 300 + 400 + 400 (side, overlapping) + 10 = 1110 ns, busy 10 + 700 = 710 ns; run 2 1400 ns.
    KF_CHECK(std::abs(cand.gpuTimeMs.min - 0.00085) < 1e-12);
    KF_CHECK(std::abs(cand.gpuTimeMs.median - 0.00111) < 1e-12);
    KF_CHECK(std::abs(cand.gpuTimeMs.max - 0.0014) < 1e-12);
    KF_CHECK(std::abs(cand.busyTimeMs.min - 0.00071) < 1e-12);
    KF_CHECK(std::abs(cand.busyTimeMs.median - 0.00075) < 1e-12);
    KF_CHECK(std::abs(cand.kernelTimeMs.min - 0.0008) < 1e-12);
    KF_CHECK((s.candidateFlags() == std::vector<std::string>{"side_stream_work", "late_work"}));

    // The late-work deadline tolerates clock skew when asked to.
    SummaryOptions tolerant;
    tolerant.lateToleranceNs = 500;
    KF_CHECK(!summarizeTrace(recs, regions(), tolerant).candidate.lateWork);
    tolerant.lateToleranceNs = 499;
    KF_CHECK(summarizeTrace(recs, regions(), tolerant).candidate.lateWork);

    // Without the launch stream there is nothing to compare against: no side-stream flag.
    std::vector<Region> noStream = regions();
    for (Region &r : noStream)
        r.launchStreamId.reset();
    KF_CHECK(!summarizeTrace(recs, noStream).candidate.sideStreamWork);

    // Theoretical occupancy per group when the device limits are known (H200: 256 threads, 32 regs -> 100%).
    DeviceLimits h200{9, 0, 132, 32, 1024, 2048, 65536, 65536, 233472, 49152, 232448, 1024};
    SummaryOptions withLimits;
    withLimits.limits = &h200;
    TraceSummary o = summarizeTrace(recs, regions(), withLimits);
    const KernelGroup *og = group(o.candidate, "void stage<1>");
    KF_CHECK(og && og->occupancy && og->occupancy->percent == 100.0);

    // JSON: the fields the worker forwards.
    nlohmann::json j = s;
    KF_CHECK(j["available"] == true);
    KF_CHECK(j["candidate"]["launches_per_run"]["median"] == 3);
    KF_CHECK(j["candidate"]["side_stream_work"] == true && j["candidate"]["late_work"] == true);
    KF_CHECK((j["flags"] == nlohmann::json::array({"side_stream_work", "late_work"})));
    KF_CHECK(j["replay_excluded"] == 11);
    KF_CHECK(j["candidate"]["kernels"][0]["name"] == "void stage<2>(float*)");
    KF_CHECK(j["candidate"]["kernels"][0]["launch"]["grid"] == nlohmann::json::array({64, 1, 1}));
    KF_CHECK(j["candidate"]["kernels"][0]["theoretical_occupancy"].is_null());
    KF_CHECK(j["reference"]["memory"][0]["kind"] == "memset");
}

void testCleanRun()
{
    // A well-behaved candidate: one kernel per run on the launch stream, ending before the deadline.
    SyntheticBuffer b;
    std::vector<Region> rs;
    for (uint32_t run = 0; run < 5; ++run) {
        const uint64_t begin = 1000 * (run + 1);
        rs.push_back(region(run, RegionKind::Candidate, run, begin, begin + 900, 0.0008));
        tagged(b, run, 10 + run, kStage1, begin + 100, begin + 899);
    }
    TraceRecords recs;
    parseActivityBuffer(b.data(), b.size(), recs);
    TraceSummary s = summarizeTrace(recs, rs);
    KF_CHECK(s.candidate.runs == 5 && s.candidate.launchesPerRun.min == 1 && s.candidate.launchesPerRun.max == 1);
    KF_CHECK(s.candidateFlags().empty());
    KF_CHECK(s.reference.runs == 0 && std::isnan(s.reference.launchesPerRun.median));
    nlohmann::json j = s;
    KF_CHECK(j["reference"]["launches_per_run"]["median"].is_null());
    KF_CHECK(j["flags"].empty());

    // A run that launched nothing still counts as a run (0 launches).
    rs.push_back(region(9, RegionKind::Candidate, 5, 9000, 9500));
    TraceSummary t = summarizeTrace(recs, rs);
    KF_CHECK(t.candidate.runs == 6 && t.candidate.launchesPerRun.min == 0);
}

void testStats()
{
    Stats s = Stats::of({3, 1, NAN, 2, 10});
    KF_CHECK(s.n == 4 && s.median == 2.5 && s.min == 1 && s.max == 10 && s.mean == 4);
    KF_CHECK(Stats::of({}).n == 0 && std::isnan(Stats::of({}).median));
}

} // namespace

int main()
{
    testParser();
    testAggregation();
    testCleanRun();
    testStats();
    return kforge::runtime::test::finish("tst_profiler_trace");
}
