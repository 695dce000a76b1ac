// MeasurementFigures, the one projection of a Measurement, on results as the worker really writes them: two
// evaluations copied verbatim from the H200 session docs/h200-diag_matmul.kforge (evaluation_results.result_json),
// whose roofline report sits in roofline.profile.candidate. Expected profile lines are written out as text, one
// line per measured field; then each choice the projection makes where the parts of a result disagree.
#include "core/eval/measurementfigures.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace {

const QString kData = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/rounds/worker_results/");

QJsonObject workerResult(const QString &name)
{
    QFile f(kData + name + QLatin1String(".json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("%s: %s", qPrintable(f.fileName()), qPrintable(error.errorString()));
    return doc.object();
}

// `result` with `key` removed from the roofline report's figures of the whole call (roofline.profile.candidate.total).
QJsonObject withoutInReport(QJsonObject result, const QString &key)
{
    QJsonObject roofline = result.value(QLatin1String("roofline")).toObject();
    QJsonObject profile = roofline.value(QLatin1String("profile")).toObject();
    QJsonObject candidate = profile.value(QLatin1String("candidate")).toObject();
    QJsonObject total = candidate.value(QLatin1String("total")).toObject();
    total.remove(key);
    candidate.insert(QLatin1String("total"), total);
    profile.insert(QLatin1String("candidate"), candidate);
    roofline.insert(QLatin1String("profile"), profile);
    result.insert(QLatin1String("roofline"), roofline);
    return result;
}

} // namespace

using namespace kforge;

class TestMeasurementFigures : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realWorkerResult_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("bound");
        QTest::addColumn<QString>("expected");

        // R1.1, one float4 kernel: memory-bound at 91% of the bandwidth roof.
        QTest::newRow("candidate, one kernel")
            << QStringLiteral("h200_diag_matmul_r1_1") << QStringLiteral("memory")
            << QStringLiteral("event time (median) 42.3 µs\n"
                              "75.1% of speed of light (the task's floor is 31.8 µs)\n"
                              "memory-bound\n"
                              "3847 GB/s achieved DRAM bandwidth\n"
                              "489 GFLOP/s\n"
                              "throughput of peak: DRAM 80.0%, SM 22.8%\n"
                              "occupancy 79.5% achieved, 100% theoretical\n"
                              "22 registers per thread, no spills\n"
                              "roofline of rowscale4: memory-bound, 91.0% of its attainable "
                              "roofline, 3847 GB/s, 489 GFLOP/s\n"
                              "kernels: rowscale4 (1 launches per call)");
        // The reference as a variant: cuBLAS SGEMM on a materialised diagonal matrix. The run as a whole is
        // compute-bound; its short scatter kernel is latency-bound. The GEMM takes the time, so it comes first.
        QTest::newRow("reference, two kernels")
            << QStringLiteral("h200_diag_matmul_reference") << QStringLiteral("compute")
            << QStringLiteral("event time (median) 2.70 ms\n"
                              "1.18% of speed of light (the task's floor is 31.8 µs)\n"
                              "compute-bound\n"
                              "154 GB/s achieved DRAM bandwidth\n"
                              "51368 GFLOP/s\n"
                              // Weighted by kernel time over the GEMM and the scatter: the call's, not the GEMM's 86.9%.
                              "throughput of peak: DRAM 3.21%, SM 86.8%\n"
                              "occupancy 12.5% achieved, 12.5% theoretical\n"
                              "254 registers per thread, 67584 bytes of shared memory per block, no spills\n"
                              "roofline of sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_warpsize4x2x1_"
                              "ffma_aligna4_alignc4_execute_kernel__5x_cublas: compute-bound, 81.8% of its attainable "
                              "roofline, 155 GB/s, 51415 GFLOP/s\n"
                              "roofline of scatter_diagonal: latency-bound, 1.96% of its attainable roofline, 82.8 GB/s\n"
                              "kernels: sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_warpsize4x2x1_"
                              "ffma_aligna4_alignc4_execute_kernel__5x_cublas, scatter_diagonal (2 launches per call)");
    }

    void realWorkerResult()
    {
        QFETCH(QString, file);
        QFETCH(QString, bound);
        QFETCH(QString, expected);
        const QJsonObject result = workerResult(file);
        // The shape this test is about: the report is where the worker puts it, and nowhere else.
        QVERIFY(result.value(QLatin1String("roofline")).toObject().value(QLatin1String("profile")).isObject());
        QVERIFY(!result.value(QLatin1String("roofline")).toObject().contains(QLatin1String("candidate")));

        const MeasurementFigures p = MeasurementFigures::fromResult(result);
        QCOMPARE(p.bound, bound);
        QVERIFY(!p.rooflineKernels.isEmpty());
        QCOMPARE(p.rooflineKernels.first().bound, bound);
        QVERIFY(p.rooflineKernels.first().pctOfAttainable.has_value());
        QCOMPARE(p.profileLines().join(QLatin1Char('\n')), expected);
    }

    void unknownBoundIsLeftOut()
    {
        QJsonObject result = workerResult(QStringLiteral("h200_diag_matmul_r1_1"));
        QJsonObject roofline = result.value(QLatin1String("roofline")).toObject();
        QJsonObject profile = roofline.value(QLatin1String("profile")).toObject();
        QJsonObject candidate = profile.value(QLatin1String("candidate")).toObject();
        QJsonObject total = candidate.value(QLatin1String("total")).toObject();
        total.insert(QLatin1String("bound"), QLatin1String("unknown"));
        candidate.insert(QLatin1String("total"), total);
        candidate.remove(QLatin1String("kernels"));
        profile.insert(QLatin1String("candidate"), candidate);
        roofline.insert(QLatin1String("profile"), profile);
        result.insert(QLatin1String("roofline"), roofline);
        const MeasurementFigures p = MeasurementFigures::fromResult(result);
        QVERIFY(p.bound.isEmpty());
        // Without the report's kernels the metrics pass places them, and it names no bound.
        QCOMPARE(p.rooflineKernels.size(), 1);
        QVERIFY(p.rooflineKernels.first().bound.isEmpty());
        QVERIFY(!p.profileLines().join(QLatin1Char('\n')).contains(QLatin1String("-bound")));
    }

    void withoutMetricsTheFlatRooflineRemains()
    {
        // No metrics pass: the worker writes no roofline.profile, only its task-level fields.
        QJsonObject result = workerResult(QStringLiteral("h200_diag_matmul_r1_1"));
        QJsonObject roofline = result.value(QLatin1String("roofline")).toObject();
        roofline.remove(QLatin1String("profile"));
        result.insert(QLatin1String("roofline"), roofline);
        result.remove(QLatin1String("metrics"));
        const MeasurementFigures p = MeasurementFigures::fromResult(result);
        QVERIFY(p.bound.isEmpty());
        QVERIFY(p.rooflineKernels.isEmpty());
        QVERIFY(qAbs(*p.achievedGbps - 3175.485125407328) < 1e-9); // task bytes over the median time
        QVERIFY(qAbs(*p.speedOfLight.percent() - 75.13407419802921) < 1e-9);
        QCOMPARE(*p.speedOfLight.floorMs, 0.03176067697568214);
    }

    // The choices the Variants table and the prompt used to make each their own way.
    void heaviestKernelHoldsStaticAndDynamicSharedMemory()
    {
        // cuBLAS's GEMM takes its 66 KiB of shared memory dynamically: static alone said it had none.
        const MeasurementFigures p = MeasurementFigures::fromResult(
            workerResult(QStringLiteral("h200_diag_matmul_reference")));
        QVERIFY(p.heaviestKernel.startsWith(QLatin1String("sm80_xmma_gemm")));
        QCOMPARE(p.registers, 254);
        QCOMPARE(p.sharedBytes, 67584);
        QCOMPARE(p.theoreticalOccupancyPct, 12.5);
        QCOMPARE(p.kernels.size(), 2);
        QVERIFY(p.kernels.at(0).totalUs > p.kernels.at(1).totalUs);
        // The scatter kernel uses none: a figure of 0, which no line mentions.
        QCOMPARE(p.kernels.at(1).sharedBytes(), 0);
    }

    void registersWithoutATrace()
    {
        // The metrics pass's longest kernel (the GEMM's 254) before ptxas's most for the source (12: the reference's
        // own scatter kernel; the GEMM is in cuBLAS and never compiled here).
        QJsonObject result = workerResult(QStringLiteral("h200_diag_matmul_reference"));
        result.remove(QLatin1String("trace"));
        MeasurementFigures p = MeasurementFigures::fromResult(result);
        QVERIFY(p.heaviestKernel.isEmpty());
        QCOMPARE(p.registers, 254);
        QVERIFY(!p.sharedBytes);
        QVERIFY(!p.traceProblem.isEmpty());
        result.remove(QLatin1String("metrics"));
        p = MeasurementFigures::fromResult(result);
        QCOMPARE(p.registers, 12);
        QCOMPARE(p.spillBytes, 0);
    }

    void boundOfTheKernelThatTakesTheTime()
    {
        // The report lists the short scatter kernel (latency-bound) first; without a bound for the whole call the
        // bound is the GEMM's, which takes 99.9% of the time, not the first listed.
        const MeasurementFigures p = MeasurementFigures::fromResult(
            withoutInReport(workerResult(QStringLiteral("h200_diag_matmul_reference")), QStringLiteral("bound")));
        QCOMPARE(p.bound, QStringLiteral("compute"));
        QCOMPARE(p.rooflineKernels.first().bound, QStringLiteral("compute"));
        QCOMPARE(p.rooflineKernels.last().bound, QStringLiteral("latency"));
        QVERIFY(p.profileLines().contains(QStringLiteral("compute-bound")));
    }

    void ratesAreTheCallsWeightedByKernelTime()
    {
        const QJsonObject result = workerResult(QStringLiteral("h200_diag_matmul_reference"));
        const MeasurementFigures p = MeasurementFigures::fromResult(result);
        const Measurement m = Measurement::fromJson(result);
        double sum = 0, time = 0;
        for (const MetricsKernel &k : m.metricsSummary.kernels) {
            sum += *k.smThroughputPct * *k.timeNs;
            time += *k.timeNs;
        }
        QCOMPARE(m.metricsSummary.kernels.size(), 2);
        QCOMPARE(*p.smThroughputPct, sum / time);
    }

    void failedCandidateSaysWhyNothingWasMeasured()
    {
        QFile f(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/rounds/results/wrong.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const MeasurementFigures p = MeasurementFigures::fromResult(QJsonDocument::fromJson(f.readAll()).object());
        QVERIFY(!p.isCorrect());
        QVERIFY(p.timingProblem.startsWith(QLatin1String("the candidate was not measured (")));
        QCOMPARE(p.traceProblem, p.timingProblem);
        QCOMPARE(p.metricsProblem, p.timingProblem);
        QVERIFY(!p.registers && !p.sharedBytes && p.bound.isEmpty() && !p.speedOfLight.isKnown());
    }
};

QTEST_GUILESS_MAIN(TestMeasurementFigures)
#include "tst_measurementfigures.moc"
