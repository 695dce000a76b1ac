// ProfileSummary on results as the worker really writes them: two evaluations copied verbatim from the
// H200 session docs/h200-diag_matmul.kforge (evaluation_results.result_json), whose roofline report sits in
// roofline.profile.candidate. Expected summaries are written out as text, one line per measured field.
#include "core/optimizer/profilesummary.h"

#include <QFile>
#include <QJsonDocument>
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

} // namespace

using namespace kforge;

class TestProfileSummary : public QObject
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
                              "throughput of peak: DRAM 3.21%, SM 86.9%\n"
                              "occupancy 12.5% achieved, 12.5% theoretical\n"
                              "254 registers per thread, no spills\n"
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

        const ProfileSummary p = ProfileSummary::fromResult(result);
        QCOMPARE(p.bound, bound);
        QVERIFY(!p.rooflineKernels.isEmpty());
        QCOMPARE(p.rooflineKernels.first().bound, bound);
        QVERIFY(p.rooflineKernels.first().pctOfAttainable.has_value());
        QCOMPARE(p.lines().join(QLatin1Char('\n')), expected);
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
        const ProfileSummary p = ProfileSummary::fromResult(result);
        QVERIFY(p.bound.isEmpty());
        QVERIFY(p.rooflineKernels.isEmpty());
        QVERIFY(!p.lines().join(QLatin1Char('\n')).contains(QLatin1String("-bound")));
    }

    void withoutMetricsTheFlatRooflineRemains()
    {
        // No metrics pass: the worker writes no roofline.profile, only its task-level fields.
        QJsonObject result = workerResult(QStringLiteral("h200_diag_matmul_r1_1"));
        QJsonObject roofline = result.value(QLatin1String("roofline")).toObject();
        roofline.remove(QLatin1String("profile"));
        result.insert(QLatin1String("roofline"), roofline);
        result.remove(QLatin1String("metrics"));
        const ProfileSummary p = ProfileSummary::fromResult(result);
        QVERIFY(p.bound.isEmpty());
        QVERIFY(p.rooflineKernels.isEmpty());
        QVERIFY(qAbs(*p.achievedGbps - 3175.485125407328) < 1e-9); // task bytes over the median time
        QVERIFY(qAbs(*p.speedOfLightPct - 75.13407419802921) < 1e-9);
        QCOMPARE(*p.floorMs, 0.03176067697568214);
    }
};

QTEST_GUILESS_MAIN(TestProfileSummary)
#include "tst_profilesummary.moc"
