// SpeedOfLight, the one speed-of-light computation: from task.json and the device's measured peaks it gives
// the floors kforge-worker wrote into real H200 results (tests/fixtures/rounds/worker_results, and every
// evaluation of the H200 session docs/h200-diag_matmul.kforge, opened through SessionStore); it classifies a
// time against both floors the way the worker flags it; and no text it makes holds a percentage over 100.
#include "core/eval/speedoflight.h"
#include "core/runtime/task/taskspec.h"
#include "core/session/sessionstore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

const QString kSource = QStringLiteral(KFORGE_TEST_SOURCE_DIR);

QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

QJsonObject workerResult(const QString &name)
{
    return QJsonDocument::fromJson(readFile(kSource + u"/tests/fixtures/rounds/worker_results/"_s + name + u".json"_s)).object();
}

runtime::TaskSpec diagTask(const QString &flops = {})
{
    QByteArray json = readFile(kSource + u"/tests/fixtures/rounds/task_diag/task.json"_s);
    if (!flops.isEmpty())
        json.replace(QByteArrayLiteral("\"flops\": \"N*M\""),
                     QByteArray(QByteArrayLiteral("\"flops\": \"") + flops.toUtf8() + '"'));
    const runtime::TaskSpecResult parsed = runtime::parseTaskSpecText(json.toStdString());
    if (!parsed.ok())
        qFatal("task.json: %s", parsed.error.message().c_str());
    return *parsed.spec;
}

double at(const QJsonObject &o, const QString &path)
{
    QJsonValue v(o);
    for (const QString &part : path.split(u'.'))
        v = v.toObject().value(part);
    if (!v.isDouble())
        qFatal("no number at %s", qPrintable(path));
    return v.toDouble();
}

bool near(double a, double b, double rel = 1e-12)
{
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

// Every "<number>%" in the texts a variant's speed of light is shown with.
QList<double> percentages(const SpeedOfLight &s)
{
    static const QRegularExpression re(uR"((\d+(?:\.\d+)?)\s*%)"_s);
    QList<double> out;
    for (const QString &text : {s.promptLine(), s.reportText(), s.cellText(), s.explanation()})
        for (auto it = re.globalMatch(text); it.hasNext();)
            out << it.next().captured(1).toDouble();
    return out;
}

} // namespace

class TestSpeedOfLight : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fromTaskAndPeaksMatchesTheWorker_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("figure");
        QTest::newRow("R1.1 rowscale4") << u"h200_diag_matmul_r1_1"_s << u"75.1"_s;
        QTest::newRow("reference, cuBLAS") << u"h200_diag_matmul_reference"_s << u"1.18"_s;
    }

    void fromTaskAndPeaksMatchesTheWorker()
    {
        QFETCH(QString, file);
        QFETCH(QString, figure);
        const QJsonObject r = workerResult(file);
        const runtime::TaskSpec task = diagTask();
        const double median = at(r, u"timing.candidate.median_ms"_s);
        const SpeedOfLight s = SpeedOfLight::compute(task.flops.value, task.bytes.value,
                                                     at(r, u"roofline.peak_copy_gbps"_s),
                                                     at(r, u"roofline.peak_fma_gflops"_s), median);
        QCOMPARE(s.state, SpeedOfLight::State::WithinFloors);
        QVERIFY(near(*s.byteFloorMs, at(r, u"roofline.bytes_floor_ms"_s)));
        QVERIFY(near(*s.flopFloorMs, at(r, u"roofline.flops_floor_ms"_s)));
        QVERIFY(near(*s.floorMs, at(r, u"roofline.floor_ms"_s)));
        QVERIFY(near(*s.percent(), 100.0 * at(r, u"roofline.fraction_of_floor"_s), 1e-9));
        QCOMPARE(speedOfLightFigure(*s.percent()), figure);

        // The stored result gives the same figures, and so does the profiler's report alone.
        const SpeedOfLight stored = SpeedOfLight::fromResult(r);
        QCOMPARE(stored.state, s.state);
        QVERIFY(near(*stored.percent(), *s.percent(), 1e-9));
        QVERIFY(near(*stored.byteFloorMs, *s.byteFloorMs) && near(*stored.flopFloorMs, *s.flopFloorMs));
        QCOMPARE(stored.promptLine(), s.promptLine());
        QCOMPARE(stored.promptLine(), u"%1% of speed of light (the task's floor is 31.8 µs)"_s.arg(figure));
        QJsonObject profileOnly = r;
        profileOnly.insert(u"roofline"_s,
                           QJsonObject{{u"profile"_s, r.value(u"roofline"_s).toObject().value(u"profile"_s)}});
        const SpeedOfLight fromProfile = SpeedOfLight::fromResult(profileOnly);
        QCOMPARE(fromProfile.state, s.state);
        QVERIFY(near(*fromProfile.percent(), *s.percent(), 1e-9));
        QVERIFY(near(*fromProfile.byteFloorMs, *s.byteFloorMs));
    }

    void everyEvaluationOfTheH200Session()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"h200.kforge"_s);
        QVERIFY(QFile::copy(kSource + u"/docs/h200-diag_matmul.kforge"_s, path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        SessionStore store;
        QVERIFY2(store.open(path), qPrintable(store.errorString()));
        const runtime::TaskSpecResult task = runtime::parseTaskSpecText(store.task().taskJson.toStdString());
        QVERIFY(task.ok());
        int measured = 0;
        for (const Variant &v : store.population().variants()) {
            const auto e = store.evaluations().latest(v.id);
            if (!e || !e->summary.isCorrect())
                continue;
            const QJsonObject &r = e->result;
            const SpeedOfLight stored = SpeedOfLight::fromResult(r);
            const SpeedOfLight computed = SpeedOfLight::compute(task.spec->flops.value, task.spec->bytes.value,
                                                                at(r, u"roofline.peak_copy_gbps"_s),
                                                                at(r, u"roofline.peak_fma_gflops"_s),
                                                                at(r, u"timing.candidate.median_ms"_s));
            const QByteArray tag = "variant #" + QByteArray::number(v.id);
            QVERIFY2(stored.state == SpeedOfLight::State::WithinFloors, tag);
            QVERIFY2(computed.state == stored.state, tag);
            QVERIFY2(near(*stored.percent(), *computed.percent(), 1e-9), tag);
            QVERIFY2(*stored.percent() > 0 && *stored.percent() <= 100, tag);
            ++measured;
        }
        QCOMPARE(measured, 5); // the reference and four correct model variants, 41x to 65x
    }

    void states_data()
    {
        QTest::addColumn<double>("timeOverByteFloor");
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("cell");
        using S = SpeedOfLight::State;
        // diag_matmul's floors on the H200 (bytes 134234112, flops 16777216): the byte floor binds.
        QTest::newRow("well above") << 1.3310 << int(S::WithinFloors) << u"75.1%"_s;
        QTest::newRow("at the floor") << 1.0 << int(S::WithinFloors) << u"100%"_s;
        QTest::newRow("within the tolerance") << 0.95 << int(S::WithinFloors) << u"100%"_s;
        QTest::newRow("at the tolerance") << 0.9 << int(S::WithinFloors) << u"100%"_s;
        QTest::newRow("under the byte floor") << 0.8999 << int(S::BelowByteFloor) << u"impossible"_s;
        QTest::newRow("far under") << 0.01 << int(S::BelowByteFloor) << u"impossible"_s;
    }

    void states()
    {
        QFETCH(double, timeOverByteFloor);
        QFETCH(int, state);
        QFETCH(QString, cell);
        const double copy = 4226.424773715547, fma = 62878.83179605057, bytes = 134234112, flops = 16777216;
        const double byteFloor = bytes / (copy * 1e6);
        const SpeedOfLight s = SpeedOfLight::compute(flops, bytes, copy, fma, timeOverByteFloor * byteFloor);
        QCOMPARE(int(s.state), state);
        QCOMPARE(s.cellText(), cell);
        for (double pct : percentages(s))
            QVERIFY2(pct <= 100, qPrintable(s.promptLine()));
        if (s.state == SpeedOfLight::State::BelowByteFloor) {
            QVERIFY(!s.percent() && !s.bytePct());
            QVERIFY(s.promptLine().contains(u"impossible"_s));
            QVERIFY(s.reportText().contains(u"impossible"_s));
        } else {
            QVERIFY(*s.percent() <= 100);
        }
    }

    // The diag_matmul task as PyTorch users write it: flops counted for the GEMM on the materialised diagonal
    // matrix (2*N*N*M). Every correct rewrite beats that FLOP floor; that is what the prompt must say, not
    // "5170% of speed of light".
    void declaredFlopsBeaten()
    {
        const runtime::TaskSpec task = diagTask(u"2*N*N*M"_s);
        QJsonObject r = workerResult(u"h200_diag_matmul_r1_1"_s);
        const double median = at(r, u"timing.candidate.median_ms"_s);
        const double copy = at(r, u"roofline.peak_copy_gbps"_s), fma = at(r, u"roofline.peak_fma_gflops"_s);
        const SpeedOfLight s = SpeedOfLight::compute(task.flops.value, task.bytes.value, copy, fma, median);
        QCOMPARE(s.state, SpeedOfLight::State::BeatsFlopFloor);
        QVERIFY(near(*s.flopFloorMs, 2.0 * 4096 * 4096 * 4096 / (fma * 1e6)));
        QVERIFY(!s.flopPct());
        QCOMPARE(speedOfLightFigure(*s.percent()), u"75.1"_s); // of the byte floor, which still binds
        QCOMPARE(s.promptLine(),
                 u"faster than the task's declared arithmetic allows: 42.3 µs is under the FLOP floor of 2.19 ms (the "
                 "task's flops at the measured FP32 FMA peak); either work is skipped or the task's `flops` counts "
                 "avoidable work, such as an algebraic rewrite; 75.1% of the byte floor (31.8 µs)"_s);
        QCOMPARE(s.cellText(), u"beats FLOP floor"_s);
        for (double pct : percentages(s))
            QVERIFY2(pct <= 100, qPrintable(s.promptLine()));

        // The same variant as the worker stores it with that task: its flat fields and the profiler's report.
        QJsonObject roof = r.value(u"roofline"_s).toObject();
        const double floor = *s.flopFloorMs;
        roof.insert(u"flops"_s, task.flops.value);
        roof.insert(u"flops_floor_ms"_s, floor);
        roof.insert(u"floor_ms"_s, floor);
        roof.insert(u"fraction_of_floor"_s, floor / median); // 51.7: the old "5170% of speed of light"
        QJsonObject profile = roof.value(u"profile"_s).toObject();
        QJsonObject candidate = profile.value(u"candidate"_s).toObject();
        QJsonObject taskReport = candidate.value(u"task"_s).toObject();
        taskReport.insert(u"flops"_s, task.flops.value);
        taskReport.insert(u"compute_floor_ms"_s, floor);
        taskReport.insert(u"floor_ms"_s, floor);
        taskReport.insert(u"time_over_floor"_s, median / floor);
        taskReport.insert(u"limit"_s, u"compute"_s);
        candidate.insert(u"task"_s, taskReport);
        profile.insert(u"candidate"_s, candidate);
        roof.insert(u"profile"_s, profile);
        r.insert(u"roofline"_s, roof);
        const SpeedOfLight stored = SpeedOfLight::fromResult(r);
        QCOMPARE(stored.state, SpeedOfLight::State::BeatsFlopFloor);
        QCOMPARE(stored.promptLine(), s.promptLine());
        QCOMPARE(stored.reportText(), s.reportText());
        QVERIFY(*stored.percent() <= 100);
    }

    // Results that hold only the task's floor (early sessions, hand-made fixtures): the worker's flag tells
    // which floor a time under it beats.
    void unsplitFloor()
    {
        const auto result = [](double fraction, bool flagged) {
            QJsonObject r{{u"timing"_s, QJsonObject{{u"candidate"_s, QJsonObject{{u"median_ms"_s, 0.04 / fraction}}}}},
                          {u"roofline"_s, QJsonObject{{u"floor_ms"_s, 0.04}, {u"fraction_of_floor"_s, fraction}}}};
            if (flagged)
                r.insert(u"flags"_s, QJsonArray{u"below_speed_of_light"_s});
            return r;
        };
        const SpeedOfLight within = SpeedOfLight::fromResult(result(0.8, false));
        QCOMPARE(within.state, SpeedOfLight::State::WithinFloors);
        QCOMPARE(within.reportText(), u"80.0% of the roofline bound"_s);
        const SpeedOfLight beats = SpeedOfLight::fromResult(result(2.0, false));
        QCOMPARE(beats.state, SpeedOfLight::State::BeatsFlopFloor);
        QCOMPARE(*beats.flopFloorMs, 0.04);
        QVERIFY(!beats.percent());
        const SpeedOfLight impossible = SpeedOfLight::fromResult(result(2.0, true));
        QCOMPARE(impossible.state, SpeedOfLight::State::BelowByteFloor);
        QCOMPARE(*impossible.byteFloorMs, 0.04);
        QVERIFY(impossible.promptLine().startsWith(u"below the task's byte floor: 20 µs is under the 40 µs"_s));
    }

    void flopPeakOfTheTaskDtype()
    {
        // A result of the issue-19 worker: the FLOP floor from peak_flops_gflops (a measured bf16 peak), not the
        // FP32 FMA rate, and no "tensor cores" excuse in the words.
        QJsonObject roof{{u"flops"_s, 1e12},
                         {u"bytes"_s, 1e6},
                         {u"peak_copy_gbps"_s, 4000},
                         {u"peak_fma_gflops"_s, 50000},
                         {u"peak_flops_gflops"_s, 1e6},
                         {u"flops_peak_kind"_s, u"bf16"_s}};
        QJsonObject r{{u"roofline"_s, roof},
                      {u"timing"_s, QJsonObject{{u"candidate"_s, QJsonObject{{u"median_ms"_s, 0.5}}}}}};
        const SpeedOfLight s = SpeedOfLight::fromResult(r);
        QVERIFY(near(*s.flopFloorMs, 1.0));
        QCOMPARE(s.state, SpeedOfLight::State::BeatsFlopFloor);
        QVERIFY(!s.fp32Peak());
        QVERIFY2(s.promptLine().contains(u"(the task's flops at the measured bf16 tensor-core peak)"_s),
                 qPrintable(s.promptLine()));
        QVERIFY(!s.explanation().contains(u"Tensor cores"_s));
        QVERIFY2(s.explanation().contains(u"FLOP floor 1 ms (the task's FLOPs at the measured bf16 tensor-core peak)"_s),
                 qPrintable(s.explanation()));
        // The worker took the tensor cores' datasheet rate (above its probe): the words say so, and which bandwidth.
        QJsonObject spec = roof;
        spec.insert(u"flops_peak_source"_s, u"spec"_s);
        spec.insert(u"bytes_peak_kind"_s, u"dram"_s);
        const SpeedOfLight datasheet = SpeedOfLight::fromResult(
            QJsonObject{{u"roofline"_s, spec}, {u"timing"_s, r.value(u"timing"_s)}});
        QVERIFY2(datasheet.promptLine().contains(u"at the bf16 tensor cores' datasheet peak)"_s),
                 qPrintable(datasheet.promptLine()));
        QVERIFY2(datasheet.explanation().contains(u"the task's bytes at the DRAM's peak bandwidth"_s),
                 qPrintable(datasheet.explanation()));
        QVERIFY(datasheet.explanation().contains(u"the bf16 tensor cores' datasheet peak"_s));
        // The same result with only the FP32 FMA peak: kind fp32_fma, the floor at 50 TFLOP/s.
        roof.remove(u"peak_flops_gflops"_s);
        roof.insert(u"flops_peak_kind"_s, u"fp32_fma"_s);
        r.insert(u"roofline"_s, roof);
        const SpeedOfLight fp32 = SpeedOfLight::fromResult(r);
        QVERIFY(near(*fp32.flopFloorMs, 20.0));
        QVERIFY(fp32.fp32Peak());
        QVERIFY(fp32.explanation().contains(u"Tensor cores"_s));
        QVERIFY(fp32.promptLine().contains(u"measured FP32 FMA peak"_s));
    }

    void nothingToSay()
    {
        QCOMPARE(SpeedOfLight::fromResult({}).state, SpeedOfLight::State::Unknown);
        QVERIFY(SpeedOfLight::fromResult({}).promptLine().isEmpty());
        QCOMPARE(SpeedOfLight::compute(0, 0, 4000, 60000, 1.0).state, SpeedOfLight::State::Unknown);
        QCOMPARE(SpeedOfLight::compute(1e6, 1e6, 0, 0, 1.0).state, SpeedOfLight::State::Unknown);
        QCOMPARE(SpeedOfLight::compute(1e6, 1e6, 4000, 60000, std::nullopt).state, SpeedOfLight::State::Unknown);
        QVERIFY(SpeedOfLight::compute(1e6, 1e6, 4000, 60000, std::nullopt).byteFloorMs.has_value());
    }
};

QTEST_GUILESS_MAIN(TestSpeedOfLight)
#include "tst_speedoflight.moc"
