#include "panelfixture.h"
#include "core/session/evaluation.h"

#include <QDir>
#include <QJsonArray>
#include <QTest>
#include <QWidget>
#include <cmath>

namespace kforge::test {

namespace {

constexpr double kN = 4096, kM = 4096;
constexpr double kPeakGbps = 4020, kPeakGflops = 59300;
constexpr int kRuns = 100;

QJsonObject stats(double v, int n = kRuns)
{
    return {{QStringLiteral("n"), n},
            {QStringLiteral("median"), v},
            {QStringLiteral("mean"), v * 1.01},
            {QStringLiteral("min"), v * 0.98},
            {QStringLiteral("max"), v * 1.07}};
}

QJsonObject launch(int registers, int smem)
{
    return {{QStringLiteral("grid"), QJsonArray{4096, 1, 1}},
            {QStringLiteral("block"), QJsonArray{256, 1, 1}},
            {QStringLiteral("registers"), registers},
            {QStringLiteral("static_smem"), smem},
            {QStringLiteral("dynamic_smem"), 0},
            {QStringLiteral("local_mem_per_thread"), 0}};
}

QJsonObject point(double flops, double bytes, double timeNs, const QString &bound)
{
    const double intensity = flops / bytes;
    const double seconds = timeNs * 1e-9;
    const double gflops = flops / seconds * 1e-9, gbps = bytes / seconds * 1e-9;
    return {{QStringLiteral("flops"), flops},
            {QStringLiteral("bytes"), bytes},
            {QStringLiteral("time_ns"), timeNs},
            {QStringLiteral("arithmetic_intensity"), intensity},
            {QStringLiteral("attainable_gflops"), std::min(kPeakGflops, intensity * kPeakGbps)},
            {QStringLiteral("achieved_gflops"), gflops},
            {QStringLiteral("achieved_gbps"), gbps},
            {QStringLiteral("pct_of_attainable"), 100 * gflops / std::min(kPeakGflops, intensity * kPeakGbps)},
            {QStringLiteral("pct_of_peak_flops"), 100 * gflops / kPeakGflops},
            {QStringLiteral("pct_of_peak_bandwidth"), 100 * gbps / kPeakGbps},
            {QStringLiteral("bound"), bound},
            {QStringLiteral("why"), QStringLiteral("fixture")}};
}

} // namespace

QString taskFolder()
{
    return QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/diag_matmul");
}

QJsonObject h200Device()
{
    return {{QStringLiteral("index"), 0},
            {QStringLiteral("name"), QStringLiteral("NVIDIA H200")},
            {QStringLiteral("cc_major"), 9},
            {QStringLiteral("cc_minor"), 0},
            {QStringLiteral("arch"), QStringLiteral("sm_90")},
            {QStringLiteral("sm_count"), 132},
            {QStringLiteral("peak_copy_gbps"), kPeakGbps},
            {QStringLiteral("peak_fma_gflops"), kPeakGflops}};
}

QJsonObject workerResult(const ResultSpec &spec)
{
    QJsonObject r{{QStringLiteral("verdict"), spec.verdict}, {QStringLiteral("message"), spec.message}};
    QJsonArray flags;
    for (const QString &f : spec.flags)
        flags.append(f);
    r.insert(QStringLiteral("flags"), flags);
    if (spec.verdict != QLatin1String("correct")) {
        if (spec.verdict == QLatin1String("incorrect"))
            r.insert(QStringLiteral("verification"), QJsonObject{{QStringLiteral("trials"), 1},
                                                                 {QStringLiteral("mismatches"), 4096},
                                                                 {QStringLiteral("max_abs_err"), 3.19},
                                                                 {QStringLiteral("reason"), spec.message}});
        if (spec.verdict == QLatin1String("compile_error"))
            r.insert(QStringLiteral("compile"),
                     QJsonObject{{QStringLiteral("ok"), false}, {QStringLiteral("log"), spec.message}});
        return r;
    }
    const double candMs = spec.referenceMs / spec.speedup;
    r.insert(QStringLiteral("verification"), QJsonObject{{QStringLiteral("trials"), 5},
                                                         {QStringLiteral("max_abs_err"), 0},
                                                         {QStringLiteral("mismatches"), 0},
                                                         {QStringLiteral("input_mutated"), false},
                                                         {QStringLiteral("output_depends_on_inputs"), true}});
    r.insert(QStringLiteral("timing"),
             QJsonObject{{QStringLiteral("reference"), QJsonObject{{QStringLiteral("median_ms"), spec.referenceMs},
                                                                   {QStringLiteral("cv"), 0.006},
                                                                   {QStringLiteral("runs"), kRuns}}},
                         {QStringLiteral("candidate"), QJsonObject{{QStringLiteral("median_ms"), candMs},
                                                                   {QStringLiteral("cv"), 0.01},
                                                                   {QStringLiteral("runs"), kRuns}}},
                         {QStringLiteral("speedup"), spec.speedup}});

    QList<KernelSpec> kernels = spec.kernels;
    if (kernels.isEmpty()) {
        KernelSpec k;
        k.name = QStringLiteral("scale_rows_x%1(float const*, float const*, float*, long, long)")
                     .arg(QString::number(spec.speedup, 'f', 1).replace(QLatin1Char('.'), QLatin1Char('_')));
        k.meanUs = candMs * 1000;
        k.flops = kN * kM;
        k.dramBytes = 4 * kN + 8 * kN * kM;
        kernels << k;
    }
    QJsonArray groups, metricKernels, roofKernels, resources;
    double kernelMs = 0, totalNs = 0, totalBytes = 0, totalFlops = 0;
    int index = 0;
    for (const KernelSpec &k : std::as_const(kernels)) {
        const double totalUs = k.meanUs * k.perRun * kRuns;
        kernelMs += k.meanUs * k.perRun / 1000;
        groups.append(QJsonObject{{QStringLiteral("name"), k.name},
                                  {QStringLiteral("mangled"),
                                   QString(QStringLiteral("_Z") + k.name.section(QLatin1Char('('), 0, 0))},
                                  {QStringLiteral("count"), k.perRun * kRuns},
                                  {QStringLiteral("per_run"), k.perRun},
                                  {QStringLiteral("total_us"), totalUs},
                                  {QStringLiteral("duration_us"), stats(k.meanUs, k.perRun * kRuns)},
                                  {QStringLiteral("launch"), launch(k.registers, k.staticSmem)},
                                  {QStringLiteral("launch_configs"), 1},
                                  {QStringLiteral("streams"), QJsonArray{7}},
                                  {QStringLiteral("theoretical_occupancy"),
                                   QJsonObject{{QStringLiteral("pct"), k.registers > 64 ? 50.0 : 100.0},
                                               {QStringLiteral("limiter"), k.registers > 64 ? QStringLiteral("registers")
                                                                                            : QStringLiteral("none")}}}});
        const double timeNs = k.meanUs * 1000;
        const QString bound = spec.speedup >= 30 ? QStringLiteral("memory") : QStringLiteral("compute");
        if (k.flops > 0 && k.dramBytes > 0) {
            QJsonObject p = point(k.flops, k.dramBytes, timeNs, bound);
            p.insert(QStringLiteral("index"), index);
            p.insert(QStringLiteral("name"), k.name);
            roofKernels.append(p);
        }
        metricKernels.append(
            QJsonObject{{QStringLiteral("index"), index},
                        {QStringLiteral("range"), QString::number(index)},
                        {QStringLiteral("name"), k.name},
                        {QStringLiteral("launch"), launch(k.registers, k.staticSmem)},
                        {QStringLiteral("time_ns"), timeNs},
                        {QStringLiteral("dram_bytes"), k.dramBytes},
                        {QStringLiteral("achieved_gbps"), k.dramBytes / timeNs},
                        {QStringLiteral("flops_fp32"), k.flops},
                        {QStringLiteral("achieved_gflops"), k.flops / timeNs},
                        {QStringLiteral("dram_throughput_pct"), std::min(95.0, 100 * k.dramBytes / timeNs / kPeakGbps)},
                        {QStringLiteral("sm_throughput_pct"), spec.speedup >= 30 ? 22.5 : 81.0},
                        {QStringLiteral("achieved_occupancy_pct"), k.registers > 64 ? 41.0 : 87.5},
                        {QStringLiteral("l2_hit_rate_pct"), spec.speedup >= 30 ? 12.0 : 96.0},
                        {QStringLiteral("values"), QJsonObject{}}});
        resources.append(
            QJsonObject{{QStringLiteral("name"), k.name},
                        {QStringLiteral("registers"), k.registers},
                        {QStringLiteral("shared_bytes"), k.staticSmem},
                        {QStringLiteral("spill_store_bytes"), index == 0 ? spec.spillBytes / 2 : 0},
                        {QStringLiteral("spill_load_bytes"), index == 0 ? spec.spillBytes - spec.spillBytes / 2 : 0}});
        totalNs += timeNs * k.perRun;
        totalBytes += k.dramBytes * k.perRun;
        totalFlops += k.flops * k.perRun;
        ++index;
    }
    QJsonObject side{{QStringLiteral("runs"), kRuns},
                     {QStringLiteral("launches_per_run"), stats(double(kernels.size()))},
                     {QStringLiteral("kernel_time_ms"), stats(kernelMs)},
                     {QStringLiteral("gpu_time_ms"), stats(kernelMs)},
                     {QStringLiteral("busy_time_ms"), stats(kernelMs)},
                     {QStringLiteral("event_time_ms"), stats(candMs)},
                     {QStringLiteral("gpu_over_event"), kernelMs / candMs},
                     {QStringLiteral("kernels"), groups},
                     {QStringLiteral("memory"), QJsonArray{}},
                     {QStringLiteral("side_stream_work"), false},
                     {QStringLiteral("late_work"), false}};
    r.insert(QStringLiteral("trace"), QJsonObject{{QStringLiteral("available"), true},
                                                  {QStringLiteral("records"), 1200},
                                                  {QStringLiteral("dropped"), 0},
                                                  {QStringLiteral("candidate"), side},
                                                  {QStringLiteral("flags"), QJsonArray{}}});

    const double taskFlops = kN * kM, taskBytes = 4 * kN + 8 * kN * kM;
    const double floorMs = taskBytes / (kPeakGbps * 1e6);
    QJsonObject roof{{QStringLiteral("flops"), taskFlops},
                     {QStringLiteral("bytes"), taskBytes},
                     {QStringLiteral("arithmetic_intensity"), taskFlops / taskBytes},
                     {QStringLiteral("peak_fma_gflops"), kPeakGflops},
                     {QStringLiteral("peak_copy_gbps"), kPeakGbps},
                     {QStringLiteral("floor_ms"), floorMs},
                     {QStringLiteral("candidate_gflops"), taskFlops / (candMs * 1e6)},
                     {QStringLiteral("candidate_gbps"), taskBytes / (candMs * 1e6)},
                     {QStringLiteral("fraction_of_floor"), floorMs / candMs}};
    if (spec.metrics) {
        r.insert(QStringLiteral("metrics"),
                 QJsonObject{{QStringLiteral("candidate"), QJsonObject{{QStringLiteral("available"), true},
                                                                       {QStringLiteral("chip"), QStringLiteral("GH100")},
                                                                       {QStringLiteral("passes"), 12},
                                                                       {QStringLiteral("kernels"), metricKernels},
                                                                       {QStringLiteral("total_time_ns"), totalNs},
                                                                       {QStringLiteral("total_dram_bytes"), totalBytes},
                                                                       {QStringLiteral("total_flops_fp32"), totalFlops}}}});
        QJsonObject report{
            {QStringLiteral("peaks"), QJsonObject{{QStringLiteral("copy_gbps"), kPeakGbps},
                                                  {QStringLiteral("fma_gflops"), kPeakGflops},
                                                  {QStringLiteral("ridge_flop_per_byte"), kPeakGflops / kPeakGbps}}},
            {QStringLiteral("task"), QJsonObject{{QStringLiteral("flops"), taskFlops},
                                                 {QStringLiteral("bytes"), taskBytes},
                                                 {QStringLiteral("time_ms"), candMs},
                                                 {QStringLiteral("floor_ms"), floorMs},
                                                 {QStringLiteral("time_over_floor"), candMs / floorMs},
                                                 {QStringLiteral("below_speed_of_light"), false},
                                                 {QStringLiteral("limit"), QStringLiteral("memory")}}},
            {QStringLiteral("kernels"), roofKernels},
            {QStringLiteral("total"), point(totalFlops, totalBytes, totalNs,
                                            spec.speedup >= 30 ? QStringLiteral("memory") : QStringLiteral("compute"))}};
        roof.insert(QStringLiteral("profile"), QJsonObject{{QStringLiteral("candidate"), report}});
    } else {
        r.insert(QStringLiteral("metrics"),
                 QJsonObject{
                     {QStringLiteral("candidate"),
                      QJsonObject{{QStringLiteral("available"), false},
                                  {QStringLiteral("problem"),
                                   QJsonObject{{QStringLiteral("error"), QStringLiteral("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES")},
                                               {QStringLiteral("call"), QStringLiteral("cuptiProfilerInitialize")},
                                               {QStringLiteral("reason"), spec.metricsReason},
                                               {QStringLiteral("hint"),
                                                QStringLiteral("Set NVreg_RestrictProfilingToAdminUsers=0.")}}}}}});
    }
    r.insert(QStringLiteral("roofline"), roof);
    r.insert(QStringLiteral("compile"), QJsonObject{{QStringLiteral("ok"), true},
                                                    {QStringLiteral("cache_hit"), false},
                                                    {QStringLiteral("resources"), resources},
                                                    {QStringLiteral("diagnostics"), QJsonArray{}}});
    return r;
}

SessionFixture::SessionFixture()
    : m_store(std::make_unique<SessionStore>())
{
}

SessionFixture::~SessionFixture() = default;

bool SessionFixture::create()
{
    return m_dir.isValid() && m_store->create(path(), taskFolder());
}

QString SessionFixture::path() const
{
    return m_dir.filePath(QStringLiteral("panels.kforge"));
}

qint64 SessionFixture::reference() const
{
    const Variant *r = m_store->population().reference();
    return r ? r->id : 0;
}

qint64 SessionFixture::measureReference()
{
    const qint64 ref = reference();
    ResultSpec spec;
    spec.speedup = 1.0;
    spec.kernels = {KernelSpec{QStringLiteral("void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"
                                              "(cutlass_80_simt_sgemm_256x128_8x4_nn_align1::Params)"),
                               11300, 1, 202, 0, 2 * kN * kN * kM, 201326592},
                    KernelSpec{QStringLiteral("scatter_diagonal(float const*, float*, long)"), 6.2, 1, 16, 0, 0, 0}};
    m_store->evaluations().add(Evaluation::fromResult(ref, workerResult(spec), h200Device()));
    m_store->variants().setStatus(ref, VariantStatus::Done);
    return ref;
}

qint64 SessionFixture::addMeasured(const QString &label, const ResultSpec &spec, const QList<qint64> &parents, qint64 roundId)
{
    Variant v;
    v.origin = VariantOrigin::Model;
    v.label = label;
    v.roundId = roundId;
    v.parentIds = parents.isEmpty() ? QList<qint64>{reference()} : parents;
    const qint64 id = m_store->variants().add(
        v, {QStringLiteral("// %1\n#include \"kforge/kernel.h\"\n").arg(label),
            QStringLiteral("The **%1** variant reads B once, coalesced; the reference runs a full SGEMM.").arg(label),
            QStringLiteral("1. One thread per element\n2. `float4` loads")});
    if (!id)
        return 0;
    m_store->evaluations().add(Evaluation::fromResult(id, workerResult(spec), h200Device()));
    m_store->variants().setStatus(
        id, spec.verdict == QLatin1String("correct") ? VariantStatus::Done : VariantStatus::Failed,
        spec.verdict == QLatin1String("correct") ? QString() : spec.verdict + QStringLiteral(": ") + spec.message);
    return id;
}

qint64 SessionFixture::addMeasured(const QString &label, double speedup, const QList<qint64> &parents, qint64 roundId)
{
    ResultSpec spec;
    spec.speedup = speedup;
    return addMeasured(label, spec, parents, roundId);
}

QString saveScreenshot(QWidget *widget, const QString &name)
{
    const QString dir = QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/panels");
    QDir().mkpath(dir);
    const QString file = dir + QLatin1Char('/') + name + QStringLiteral(".png");
    // Let pending layout requests and queued replots run, so the picture shows what a user would see.
    QTest::qWait(60);
    widget->grab().save(file);
    return file;
}

} // namespace kforge::test
