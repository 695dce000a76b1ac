// The degrade-gracefully paths: CUPTI error codes map to a reason and a remedy, unavailable trace/metrics
// serialise as such, and where there is no GPU the tracer and the collector say so instead of failing.
#include "core/runtime/profiler/activitytracer.h"
#include "core/runtime/profiler/cuptidiagnosis.h"
#include "core/runtime/profiler/metricscollector.h"
#include "core/runtime/profiler/profilerjson.h"
#include "tests/core/runtime/check.h"

#include <cuda_runtime.h>
#include <cupti.h>

using namespace kforge::runtime::profiler;

namespace {

void testMapping()
{
    CuptiDiagnosis p = explainCuptiError(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "cuptiRangeProfilerEnable");
    KF_CHECK(!p.ok());
    KF_CHECK(p.error == "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" && p.call == "cuptiRangeProfilerEnable");
    KF_CHECK_CONTAINS(p.reason, "not permitted");
    KF_CHECK_CONTAINS(p.hint, "NVreg_RestrictProfilingToAdminUsers=0");
    KF_CHECK_CONTAINS(p.hint, "CAP_SYS_ADMIN");
    KF_CHECK_CONTAINS(p.hint, "root");
    KF_CHECK_CONTAINS(p.hint, "/etc/modprobe.d/");
    KF_CHECK_CONTAINS(explainCuptiError(CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES, "x").hint,
                      "NVreg_RestrictProfilingToAdminUsers=0");

    CuptiDiagnosis m = explainCuptiError(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "cuptiSubscribe_v2",
                                         "Nsight Systems");
    KF_CHECK(m.error == "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
    KF_CHECK_CONTAINS(m.reason, "\"Nsight Systems\"");
    KF_CHECK(m.holder == "Nsight Systems");
    KF_CHECK_CONTAINS(m.hint, "compute-sanitizer");
    KF_CHECK_CONTAINS(m.hint, "Nsight");
    KF_CHECK_CONTAINS(explainCuptiError(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "x").reason, "another CUPTI client");
    // compute-sanitizer's slot has no name (measured on the H200: CUPTI says "<not provided>").
    CuptiDiagnosis anon = explainCuptiError(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "x", "<not provided>");
    KF_CHECK(anon.holder.empty());
    KF_CHECK_CONTAINS(anon.reason, "compute-sanitizer");

    KF_CHECK_CONTAINS(explainCuptiError(CUPTI_ERROR_NOT_INITIALIZED, "cuptiActivityEnable").hint, "driver");
    KF_CHECK_CONTAINS(explainCuptiError(CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED, "x").reason, "not supported");
    KF_CHECK_CONTAINS(explainCuptiError(CUPTI_ERROR_HARDWARE_BUSY, "x").hint, "ncu");
    KF_CHECK(explainCuptiError(CUPTI_SUCCESS, "x").ok());

    CuptiDiagnosis unknown = explainCuptiError(12345, "cuptiSomething");
    KF_CHECK(unknown.error == "CUPTI_ERROR_12345");
    KF_CHECK_CONTAINS(unknown.reason, "cuptiSomething");

    // Our names agree with libcupti's for every code we name (libcupti needs no GPU for this).
    for (int code : {1,  2,  3,  7,  8,  9,  11, 12, 13, 14, 15, 17, 23, 26, 27,
                     33, 34, 35, 36, 38, 39, 40, 41, 42, 43, 44, 45, 46, 999}) {
        const char *s = nullptr;
        if (cuptiGetResultString(static_cast<CUptiResult>(code), &s) == CUPTI_SUCCESS && s)
            KF_CHECK_MSG(cuptiResultName(code) == s,
                         "code " + std::to_string(code) + ": ours " + cuptiResultName(code) + ", libcupti " + s);
    }
}

void testJson()
{
    TraceSummary t = TraceSummary::unavailable(
        explainCuptiError(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "cuptiSubscribe_v2", "nsys"));
    nlohmann::json jt = t;
    KF_CHECK(jt["available"] == false);
    KF_CHECK(jt["problem"]["error"] == "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
    KF_CHECK(jt["problem"]["holder"] == "nsys");
    KF_CHECK(!jt.contains("candidate"));
    KF_CHECK(t.candidateFlags().empty());

    MetricsResult m = MetricsResult::unavailable(
        explainCuptiError(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "cuptiRangeProfilerStart"));
    nlohmann::json jm = m;
    KF_CHECK(jm["available"] == false);
    KF_CHECK(jm["problem"]["call"] == "cuptiRangeProfilerStart");
    KF_CHECK(std::string(jm["problem"]["hint"]).find("NVreg_RestrictProfilingToAdminUsers=0") != std::string::npos);
    KF_CHECK(!jm.contains("kernels"));
}

void testWithoutGpu()
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) {
        std::printf("(a GPU is present: the no-GPU paths are covered by the gpu tests instead)\n");
        return;
    }
    MetricsCollector collector;
    bool launched = false;
    MetricsResult m = collector.collect([&] { launched = true; });
    KF_CHECK(!m.available);
    KF_CHECK(!launched);
    KF_CHECK_MSG(m.problem.error == "no_device", "error: " + m.problem.error + " reason: " + m.problem.reason);
    KF_CHECK(!m.problem.reason.empty());
    // A second call answers from the remembered problem, just as quickly.
    KF_CHECK(collector.collect([] {}).problem.error == m.problem.error);

    // Activity tracing needs no device to start; whatever it says, it must not crash, and the
    // region calls are harmless either way.
    ActivityTracer tracer;
    CuptiDiagnosis d = tracer.start();
    std::printf("tracer.start() without a GPU: %s %s\n", d.ok() ? "ok" : d.error.c_str(), d.reason.c_str());
    KF_CHECK(d.ok() == tracer.active());
    if (!nvidiaDriverPresent())
        KF_CHECK(d.error == "no_device" && !d.reason.empty());
    uint32_t r = tracer.beginRegion(RegionKind::Candidate, 0);
    tracer.endRegion(1.0);
    KF_CHECK(d.ok() ? r != kNoRegion : r == kNoRegion);
    tracer.stop();
    KF_CHECK(!tracer.active() && ActivityTracer::current() == nullptr);
}

} // namespace

int main()
{
    testMapping();
    testJson();
    testWithoutGpu();
    return kforge::runtime::test::finish("tst_profiler_degrade");
}
