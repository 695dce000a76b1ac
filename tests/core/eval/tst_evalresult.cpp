// The evaluation value types round-trip through JSON without losing a number, so the session store can
// persist them; a worker's result in the protocol's shape is read field by field.
#include "core/eval/deviceinfo.h"
#include "core/eval/evaloptions.h"
#include "core/eval/evalresult.h"
#include "core/eval/measurementfigures.h"
#include "core/settings/settings.h"

#include <QJsonDocument>
#include <QTest>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

const char *kWorkerResult = R"json({
  "verdict": "correct", "message": "", "restart_required": false,
  "verification": {"trials": 5, "elements": 16777216, "max_abs_err": 1.5e-6, "max_rel_err": 2.5e-7,
                   "mismatches": 0, "nan_count": 0, "inf_count": 0, "first_mismatch": null,
                   "input_mutated": false, "mutated_inputs": [], "output_depends_on_inputs": false,
                   "reference_cached": 4, "outputs": [{"name": "C", "mismatches": 0, "max_abs_err": 1.5e-6}],
                   "reason": ""},
  "timing": {"reference": {"median_ms": 2.75, "mean_ms": 2.8, "min_ms": 2.7, "p10_ms": 2.71, "p90_ms": 2.9,
                           "cv": 0.01, "runs": 364},
             "candidate": {"median_ms": 0.05, "mean_ms": 0.051, "min_ms": 0.049, "p10_ms": 0.0495,
                           "p90_ms": 0.052, "cv": 0.02, "runs": 364, "samples_ms": [0.05, 0.049]},
             "speedup": 55.0},
  "flags": ["degenerate_output"],
  "warnings": ["The reference output does not depend on the inputs."],
  "trace": {"available": true,
            "candidate": {"runs": 364, "kernel_time_ms": {"n": 364, "median": 0.048},
                          "kernels": [{"name": "scale_rows(float const*, float const*, float*, int)", "count": 364,
                                       "per_run": 1, "total_us": 17472.0, "duration_us": {"median": 48.0}}]},
            "reference": {"runs": 364, "kernel_time_ms": {"n": 364, "median": 2.7},
                          "kernels": [{"name": "fill_diag", "count": 364, "per_run": 1, "total_us": 18200.0,
                                       "duration_us": {"median": 50.0}},
                                      {"name": "sgemm_128x128", "count": 364, "per_run": 1, "total_us": 964600.0,
                                       "duration_us": {"median": 2650.0}}]}},
  "metrics": {"dram__throughput": 0.91},
  "roofline": {"floor_ms": 0.04},
  "stdout": "hello from the kernel\n", "stdout_truncated": true,
  "future_field": {"x": 1}
})json";

} // namespace

class TestEvalResult : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void verdictNames_data();
    void verdictNames();
    void readsTheWorkersResult();
    void roundTripKeepsEverything();
    void adaptiveTiming();
    void nonFiniteNumbers();
    void unknownVerdictIsAnError();
    void incorrectResult();
    void deviceInfo();
    void options();
};

void TestEvalResult::verdictNames_data()
{
    QTest::addColumn<QString>("wire");
    QTest::addColumn<Verdict>("verdict");
    QTest::newRow("correct") << u"correct"_s << Verdict::Correct;
    QTest::newRow("incorrect") << u"incorrect"_s << Verdict::Incorrect;
    QTest::newRow("crashed") << u"crashed"_s << Verdict::Crashed;
    QTest::newRow("cuda_error") << u"cuda_error"_s << Verdict::CudaError;
    QTest::newRow("timeout") << u"timeout"_s << Verdict::Timeout;
    QTest::newRow("load_error") << u"load_error"_s << Verdict::LoadError;
    QTest::newRow("compile_error") << u"compile_error"_s << Verdict::CompileError;
    QTest::newRow("error") << u"error"_s << Verdict::Error;
}

void TestEvalResult::verdictNames()
{
    QFETCH(QString, wire);
    QFETCH(Verdict, verdict);
    QCOMPARE(verdictToString(verdict), wire);
    QCOMPARE(verdictFromString(wire), std::optional<Verdict>(verdict));
    QVERIFY(!verdictDisplayName(verdict).isEmpty());
}

void TestEvalResult::readsTheWorkersResult()
{
    const EvalResult r = EvalResult::fromJson(QJsonDocument::fromJson(kWorkerResult).object());
    QVERIFY(r.isCorrect());
    QCOMPARE(r.verification.trials, 5);
    QCOMPARE(r.verification.maxAbsErr, 1.5e-6);
    QVERIFY(!r.verification.outputDependsOnInputs);
    QVERIFY(!r.verification.firstMismatch.isValid());
    QCOMPARE(r.reference.medianMs, 2.75);
    QCOMPARE(r.reference.runs, 364);
    QCOMPARE(r.candidate.p90Ms, 0.052);
    QCOMPARE(r.speedup, 55.0);
    QVERIFY(r.hasTiming());
    QVERIFY(r.hasFlag(u"degenerate_output"_s));
    QCOMPARE(r.stdoutText, u"hello from the kernel\n"_s);
    QCOMPARE(r.metrics.value("dram__throughput"_L1).toDouble(), 0.91);
    QCOMPARE(r.kernelTimeMs(), 0.048);
    QCOMPARE(r.kernelTimeMs(u"reference"_s), 2.7);
    // The trace's kernels, typed, as every reader gets them: Measurement's, longest first in MeasurementFigures.
    const Measurement m(r);
    const QList<TraceKernel> candidate = MeasurementFigures::of(m).kernels;
    QCOMPARE(candidate.size(), 1);
    QCOMPARE(candidate.at(0).count, 364);
    QCOMPARE(candidate.at(0).totalUs.value_or(0), 17472.0);
    QCOMPARE(candidate.at(0).medianUs.value_or(0), 48.0);
    QCOMPARE(candidate.at(0).msPerRun(364).value_or(0), 0.048);
    const QList<TraceKernel> &reference = m.traceSummary.reference.kernels;
    QCOMPARE(reference.size(), 2);
    QCOMPARE(reference.at(1).name, u"sgemm_128x128"_s); // in the trace's order
    QVERIFY(std::isnan(EvalResult().kernelTimeMs()));
    QVERIFY(Measurement(EvalResult()).traceSummary.candidate.kernels.isEmpty());
    QCOMPARE(r.extra.value("future_field"_L1).toObject().value("x"_L1).toInt(), 1);
    QCOMPARE(r.warnings.size(), 1);
    QVERIFY(r.stdoutTruncated);
}

void TestEvalResult::roundTripKeepsEverything()
{
    const QJsonObject original = QJsonDocument::fromJson(kWorkerResult).object();
    EvalResult r = EvalResult::fromJson(original);
    r.workerName = u"gpu-box"_s;
    r.deviceName = u"NVIDIA H200"_s;
    r.elapsedMs = 812.5;
    const QJsonObject saved = r.toJson();
    const EvalResult back = EvalResult::fromJson(saved);
    QCOMPARE(back.toJson(), saved);
    // Every key of the worker's result survives (the store keeps what this version does not know).
    for (auto it = original.begin(); it != original.end(); ++it)
        QVERIFY2(saved.contains(it.key()), qPrintable(it.key()));
    QCOMPARE(saved.value("timing"_L1).toObject(), original.value("timing"_L1).toObject());
    QCOMPARE(saved.value("trace"_L1).toObject(), original.value("trace"_L1).toObject());
    // Nested fields this version has no member for are kept too.
    QCOMPARE(saved.value("verification"_L1).toObject(), original.value("verification"_L1).toObject());
    QCOMPARE(saved.value("warnings"_L1), original.value("warnings"_L1));
    QCOMPARE(saved.value("stdout_truncated"_L1), original.value("stdout_truncated"_L1));
    QCOMPARE(back.workerName, u"gpu-box"_s);
    QCOMPARE(back.elapsedMs, 812.5);
    QVariant v = QVariant::fromValue(back);
    QCOMPARE(v.value<EvalResult>().speedup, 55.0);
}

void TestEvalResult::adaptiveTiming()
{
    // timing.adaptive (docs/worker-protocol.md): typed, and kept exactly through the store.
    QJsonObject o = QJsonDocument::fromJson(kWorkerResult).object();
    QVERIFY(!EvalResult::fromJson(o).adaptive.isValid()); // results before the adaptive rule still load
    QJsonObject timing = o.value("timing"_L1).toObject();
    timing.insert(u"adaptive"_s, QJsonDocument::fromJson(R"json({
        "target": 0.01, "reached": false, "stopped_by": "max_runs", "rounds": 40, "min_rounds": 8,
        "candidate": {"ci_low_ms": 0.0496, "ci_high_ms": 0.0503, "half_width": 0.007},
        "reference": {"ci_low_ms": 2.6, "ci_high_ms": 2.9, "half_width": null}})json")
                                     .object());
    o.insert(u"timing"_s, timing);
    const EvalResult r = EvalResult::fromJson(o);
    QVERIFY(r.adaptive.isValid());
    QCOMPARE(r.adaptive.target, 0.01);
    QVERIFY(!r.adaptive.reached);
    QCOMPARE(r.adaptive.stoppedBy, u"max_runs"_s);
    QCOMPARE(r.adaptive.rounds, 40);
    QCOMPARE(r.adaptive.candidate.lowMs, 0.0496);
    QCOMPARE(r.adaptive.candidate.highMs, 0.0503);
    QCOMPARE(r.adaptive.candidate.halfWidth, 0.007);
    QCOMPARE(r.adaptive.reference.highMs, 2.9);
    QVERIFY(std::isnan(r.adaptive.reference.halfWidth)); // unbounded
    const QJsonObject saved = r.toJson();
    QCOMPARE(saved.value("timing"_L1).toObject().value("adaptive"_L1).toObject(), timing.value("adaptive"_L1).toObject());
    QCOMPARE(EvalResult::fromJson(saved).toJson(), saved);
}

void TestEvalResult::nonFiniteNumbers()
{
    EvalResult r = EvalResult::failure(Verdict::Crashed, u"boom"_s);
    r.exitSignal = 11;
    r.verification.trials = 1;
    r.verification.maxAbsErr = std::numeric_limits<double>::infinity();
    r.verification.maxRelErr = -std::numeric_limits<double>::infinity();
    const QJsonObject o = r.toJson();
    // As the worker writes them: JSON has no NaN or Inf.
    QCOMPARE(o.value("verification"_L1).toObject().value("max_abs_err"_L1).toString(), u"inf"_s);
    QCOMPARE(o.value("verification"_L1).toObject().value("max_rel_err"_L1).toString(), u"-inf"_s);
    QVERIFY(!o.contains("timing"_L1)); // nothing was timed
    const EvalResult back = EvalResult::fromJson(QJsonDocument::fromJson(QJsonDocument(o).toJson()).object());
    QCOMPARE(back.verification.maxAbsErr, std::numeric_limits<double>::infinity());
    QCOMPARE(back.verification.maxRelErr, -std::numeric_limits<double>::infinity());
    QVERIFY(std::isnan(back.speedup));
    QCOMPARE(back.exitSignal, 11);
    QCOMPARE(back.verdict, Verdict::Crashed);
    QVERIFY(!QJsonDocument(o).toJson().isEmpty());
}

void TestEvalResult::unknownVerdictIsAnError()
{
    const EvalResult r = EvalResult::fromJson(QJsonObject{{u"verdict"_s, u"sparkling"_s}, {u"message"_s, u"?"_s}});
    QCOMPARE(r.verdict, Verdict::Error);
    QVERIFY(r.message.contains(u"sparkling"));
}

void TestEvalResult::incorrectResult()
{
    const QJsonObject o = QJsonDocument::fromJson(R"({"verdict": "incorrect", "message": "C differs",
        "verification": {"trials": 5, "mismatches": 16777216, "first_mismatch": {"output": "C", "index": 0,
        "coords": [0, 0], "expected": 1.25, "got": "nan", "poison": true, "trial": 0, "seed": 1}, "nan_count": 3, "input_mutated": true, "reason": "input A was modified"}})")
                              .object();
    const EvalResult r = EvalResult::fromJson(o);
    QCOMPARE(r.verdict, Verdict::Incorrect);
    QCOMPARE(r.verification.mismatches, 16777216);
    QVERIFY(r.verification.firstMismatch.isValid());
    QCOMPARE(r.verification.firstMismatch.output, u"C"_s);
    QCOMPARE(r.verification.firstMismatch.expected, 1.25);
    QVERIFY(std::isnan(r.verification.firstMismatch.got));
    QVERIFY(r.verification.inputMutated);
    QVERIFY(r.verification.outputDependsOnInputs); // not stated: assume it does
    QVERIFY(!r.hasTiming());
    QCOMPARE(EvalResult::fromJson(r.toJson()).verification.firstMismatch.index, 0);
    QCOMPARE(r.toJson().value("verification"_L1).toObject().value("first_mismatch"_L1),
             o.value("verification"_L1).toObject().value("first_mismatch"_L1));
}

void TestEvalResult::deviceInfo()
{
    const QJsonObject o = QJsonDocument::fromJson(R"({"index": 0, "name": "NVIDIA H200", "cc_major": 9,
        "cc_minor": 0, "sm_count": 132, "sm_clock_mhz": 1980, "mem_clock_mhz": 3201,
        "memory_bytes": 150754820096, "l2_bytes": 62914560, "driver_version": 13000, "runtime_version": "13.0",
        "peak_copy_gbps": 4012.5, "peak_fma_gflops": 60000})")
                              .object();
    const DeviceInfo d = DeviceInfo::fromJson(o);
    QVERIFY(d.isValid());
    QCOMPARE(d.smArch(), u"sm_90"_s);
    QCOMPARE(d.memoryBytes, Q_INT64_C(150754820096));
    QCOMPARE(d.driverVersion, u"13000"_s);
    QCOMPARE(d.runtimeVersion, u"13.0"_s);
    QCOMPARE(DeviceInfo::fromJson(d.toJson()), d);
    QVERIFY(!DeviceInfo().isValid());
    QVERIFY(DeviceInfo().smArch().isEmpty());
}

void TestEvalResult::options()
{
    EvalOptions o;
    o.metrics = false;
    o.metricNames = {u"sm__throughput.avg.pct_of_peak_sustained_elapsed"_s};
    QCOMPARE(EvalOptions::fromJson(o.toJson()), o);
    QCOMPARE(EvalOptions::fromJson({}), EvalOptions());
    QCOMPARE(o.toJson().value("min_runs"_L1).toInt(), 100);

    // No seed unless one is chosen: the worker then draws a fresh one per evaluation.
    QVERIFY(!o.seed.has_value());
    QVERIFY(!o.toJson().contains("seed"_L1));
    QVERIFY(!EvalOptions::fromJson({}).seed.has_value());
    o.seed = Q_INT64_C(9223372036854775807);
    const QJsonObject sent = QJsonDocument::fromJson(QJsonDocument(o.toJson()).toJson()).object();
    QCOMPARE(sent.value("seed"_L1).toInteger(), Q_INT64_C(9223372036854775807));
    QCOMPARE(EvalOptions::fromJson(sent), o);
    QVERIFY(!(EvalOptions::fromJson(sent) == EvalOptions::fromJson({})));
    QVERIFY(!EvalOptions::fromJson(QJsonObject{{u"seed"_s, -1}}).seed.has_value());
    QVERIFY(!EvalOptions::fromJson(QJsonObject{{u"seed"_s, 1.5}}).seed.has_value());

    // The adaptive timing's target: sent always, from the settings' percent, the task's own where it has one.
    EvalOptions a;
    QCOMPARE(a.toJson().value("ci_target"_L1).toDouble(), 0.01);
    QCOMPARE(a.toJson().value("min_time_ms"_L1).toInt(), 100);
    QCOMPARE(a.toJson().value("max_time_ms"_L1).toInt(), 5000);
    TimingSetting timing;
    timing.ciTargetPercent = 2.5;
    a = EvalOptions::fromSettings(timing);
    QCOMPARE(a.ciTarget, 0.025);
    QCOMPARE(EvalOptions::fromJson(a.toJson()), a);
    timing.ciTargetPercent = 0;
    QCOMPARE(EvalOptions::fromSettings(timing).toJson().value("ci_target"_L1).toDouble(), 0.0);
    const QJsonObject task{{u"name"_s, u"t"_s}, {u"timing"_s, QJsonObject{{u"ci_target"_s, 0.05}}}};
    QCOMPARE(a.forTask(task).ciTarget, 0.05);
    QCOMPARE(a.forTask(QJsonObject{{u"name"_s, u"t"_s}}).ciTarget, 0.025);
    QCOMPARE(a.forTask(task).minRuns, a.minRuns);
}

QTEST_GUILESS_MAIN(TestEvalResult)
#include "tst_evalresult.moc"
