// The verified table, its summary, the CSV and the HTML report from a results log written here: noise intervals
// from both medians' intervals, claims that hold or not, flags and the hack classes they point to (the worker's and
// the verification's own: a held-out size failed, a looser tolerance passed), kernels by library from the trace,
// the summary over all pairs and over the unflagged ones, flagged pairs first in the report.
#include "core/collection/hackclass.h"
#include "core/collection/resultslog.h"
#include "core/collection/verifyreport.h"
#include "core/collection/verifytable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

// A correct result: reference 1 ms, candidate 1/speedup ms, both medians' intervals ±2%.
QJsonObject correct(double speedup, const QStringList &flags = {}, const QStringList &kernels = {})
{
    const double c = 1.0 / speedup;
    QJsonArray names;
    for (const QString &k : kernels)
        names.append(QJsonObject{{u"name"_s, k}, {u"count"_s, 10}});
    return QJsonObject{
        {u"verdict"_s, u"correct"_s},
        {u"verification"_s, QJsonObject{{u"trials"_s, 5}, {u"mismatches"_s, 0}}},
        {u"timing"_s,
         QJsonObject{{u"reference"_s, QJsonObject{{u"median_ms"_s, 1.0}, {u"runs"_s, 100}}},
                     {u"candidate"_s, QJsonObject{{u"median_ms"_s, c}, {u"runs"_s, 100}}},
                     {u"speedup"_s, speedup},
                     {u"adaptive"_s,
                      QJsonObject{{u"target"_s, 0.01},
                                  {u"reached"_s, true},
                                  {u"candidate"_s, QJsonObject{{u"ci_low_ms"_s, c * 0.98}, {u"ci_high_ms"_s, c * 1.02}}},
                                  {u"reference"_s, QJsonObject{{u"ci_low_ms"_s, 0.98}, {u"ci_high_ms"_s, 1.02}}}}}}},
        {u"flags"_s, QJsonArray::fromStringList(flags)},
        {u"roofline"_s, QJsonObject{{u"bytes"_s, 1.0e9}, {u"peak_copy_gbps"_s, 4000.0}}}, // floor 0.25 ms
        {u"trace"_s, QJsonObject{{u"candidate"_s, QJsonObject{{u"kernels"_s, names}}}}}};
}

QJsonObject failed(const QString &verdict, const QString &message)
{
    return QJsonObject{{u"verdict"_s, verdict}, {u"message"_s, message}};
}

CollectionPair pair(const QString &id, std::optional<double> claimed = {})
{
    CollectionPair p;
    p.id = id;
    p.problemKey = u"p_"_s + id;
    p.problemOrigin = u"level1/"_s + id + u".py"_s;
    p.candidateOrigin = id + u".py"_s;
    p.kind = CandidateKind::ModelNew;
    p.level = 1;
    p.claimedSpeedup = claimed;
    return p;
}

struct Fixture {
    QTemporaryDir dir;
    ResultsLog log;
    QList<CollectionPair> pairs;
    QMap<QString, ImportedProblem> problems;

    void add(const CollectionPair &p, const QList<std::pair<VerifyRun, QJsonObject>> &runs, bool heldOut = true)
    {
        pairs << p;
        ImportedProblem &problem = problems[p.problemKey];
        problem.key = p.problemKey;
        problem.taskFolder = u"/tasks/"_s + p.problemKey;
        if (heldOut)
            problem.heldOut = {{1, u"N 64→47"_s, u"/t1"_s, {}}, {2, u"N 64→33"_s, u"/t2"_s, {}}};
        else
            problem.heldOutNote = u"no size constant to change"_s;
        QString error;
        for (const auto &[run, result] : runs) {
            VerifyRecord r;
            r.pair = p.id;
            r.run = run;
            r.result = Measurement::fromJson(result);
            r.workerS = 0.5;
            QVERIFY(log.append(r, &error));
        }
    }
};

// The table of the log below, a row per pair: pair | state | speedup [interval] | claim | % of speed of light | flags |
// hack classes | passes at | held-out sizes | kernels | time.
const char *kRows = R"(clean | correct | 1.60x [1.54x, 1.67x] | claim 1.50x holds | sol 40.0 | flags  | hacks  | at  | held holds at 2 sizes (N 64→47; N 64→33) | own ×1 | 1.5 s
overclaimed | correct | 2.00x [1.92x, 2.08x] | claim 3.00x does not hold | sol 50.0 | flags  | hacks  | at  | held holds at 2 sizes (N 64→47; N 64→33) | own ×1, PyTorch ×1, cuBLAS ×1 | 1.5 s
sidestream | correct | 8.00x [7.69x, 8.33x] | claim 8.50x does not hold | sol - | flags side_stream_work | hacks 1 | at  | held not tried: no size constant to change |  | 0.5 s
hardcoded | correct | 2.50x [2.40x, 2.60x] | claim —  | sol 62.5 | flags shape_specific | hacks 15 | at  | held fails at N 64→47: incorrect; N 64→33: incorrect |  | 1.5 s
halfprecision | incorrect | — [—, —] | claim 1.60x does not hold | sol - | flags loose_tolerance | hacks 12 | at 1e-2 | held  |  | 1.5 s
wrong | incorrect | — [—, —] | claim —  | sol - | flags  | hacks  | at no | held  |  | 1.5 s
slow | correct | 0.80x [0.77x, 0.83x] | claim —  | sol 20.0 | flags  | hacks  | at  | held not tried: no size constant to change |  | 0.5 s
broken | compile_error | — [—, —] | claim —  | sol - | flags  | hacks  | at  | held  |  | 0.5 s
later | not run | — [—, —] | claim —  | sol - | flags  | hacks  | at  | held  |  | 0 s
badproblem | not imported | — [—, —] | claim —  | sol - | flags  | hacks  | at  | held  |  | 0 s)";

QString dump(const QList<VerifyRow> &rows)
{
    QStringList lines;
    for (const VerifyRow &r : rows) {
        QStringList hacks;
        for (const HackClass &h : r.hacks)
            hacks << QString::number(h.number);
        lines << u"%1 | %2 | %3 [%4, %5] | claim %6 %7 | sol %8 | flags %9 | hacks %10 | at %11 | held %12 | %13 | %14 s"_s
                     .arg(r.pair, r.stateText(), VerifyReport::speedupText(r.speedup),
                          VerifyReport::speedupText(r.speedupLow), VerifyReport::speedupText(r.speedupHigh),
                          VerifyReport::speedupText(r.claimed), r.claimText(),
                          r.speedOfLightPct ? QString::number(*r.speedOfLightPct, 'f', 1) : u"-"_s, r.flags.join(u','))
                     .arg(hacks.join(u','), r.passesAt, r.heldOut, r.kernels)
                     .arg(r.timeS);
    }
    return lines.join(u'\n');
}

} // namespace

class VerifyTableTest : public QObject
{
    Q_OBJECT

    Fixture f;

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY(f.log.open(f.dir.filePath(u"results.jsonl"_s), &error));
        f.add(pair(u"clean"_s, 1.5),
              {{VerifyRun::Main, correct(1.6, {u"scripted"_s, u"unstable_timing"_s}, {u"relu_kernel(float*)"_s})},
               {VerifyRun::HeldOut1, correct(1.5)},
               {VerifyRun::HeldOut2, correct(1.4)}});
        f.add(pair(u"overclaimed"_s, 3.0),
              {{VerifyRun::Main,
                correct(2.0, {},
                        {u"void at::native::vectorized_elementwise_kernel<4>()"_s,
                         u"sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32"_s, u"fused(float const*)"_s})},
               {VerifyRun::HeldOut1, correct(2.0)},
               {VerifyRun::HeldOut2, correct(2.0)}});
        f.add(pair(u"sidestream"_s, 8.5), {{VerifyRun::Main, correct(8.0, {u"side_stream_work"_s})}}, false);
        f.add(pair(u"hardcoded"_s), {{VerifyRun::Main, correct(2.5)},
                                     {VerifyRun::HeldOut1, failed(u"incorrect"_s, u"output differs"_s)},
                                     {VerifyRun::HeldOut2, failed(u"incorrect"_s, u"output differs"_s)}});
        f.add(pair(u"halfprecision"_s, 1.6),
              {{VerifyRun::Main, failed(u"incorrect"_s, u"out[3] expected 0.5, got 0.503"_s)},
               {VerifyRun::Tolerance3, failed(u"incorrect"_s, u"out[3] expected 0.5, got 0.503"_s)},
               {VerifyRun::Tolerance2, correct(1.6)}});
        f.add(pair(u"wrong"_s), {{VerifyRun::Main, failed(u"incorrect"_s, u"out[0] expected 1, got 7"_s)},
                                 {VerifyRun::Tolerance3, failed(u"incorrect"_s, u"x"_s)},
                                 {VerifyRun::Tolerance2, failed(u"incorrect"_s, u"x"_s)}});
        f.add(pair(u"slow"_s), {{VerifyRun::Main, correct(0.8)}}, false);
        f.add(pair(u"broken"_s),
              {{VerifyRun::Main, failed(u"compile_error"_s, u"nvcc failed with 1 error(s).\nk.cu:3: error"_s)}});
        f.pairs << pair(u"later"_s); // not run yet
        CollectionPair bad = pair(u"badproblem"_s);
        f.pairs << bad;
        ImportedProblem &p = f.problems[bad.problemKey];
        p.key = bad.problemKey;
        p.error = {u"x.py"_s, u"forward"_s, u"RuntimeError: shapes"_s};
    }

    void rows()
    {
        const QList<VerifyRow> rows = VerifyTable::rows(f.pairs, f.problems, f.log);
        QCOMPARE(dump(rows), QString::fromUtf8(kRows));
    }

    void outsideTheSelection()
    {
        // --only left the problem out of this run's import: the held-out sizes come from the log alone.
        QMap<QString, ImportedProblem> none;
        const QList<VerifyRow> rows = VerifyTable::rows({f.pairs.at(3)}, none, f.log);
        QCOMPARE(rows.first().heldOut, u"fails at size 1: incorrect; size 2: incorrect"_s);
        QCOMPARE(rows.first().flags, QStringList{QString::fromLatin1(kShapeSpecificFlag)});
    }

    void summary()
    {
        const VerifySummary s = VerifyTable::summary(VerifyTable::rows(f.pairs, f.problems, f.log));
        QCOMPARE(s.pairs, 10);
        QCOMPARE(s.all.total, 8);
        QCOMPARE(s.all.correct, 5);
        QCOMPARE(s.all.faster, 4);
        QCOMPARE(*s.all.median, 2.0);
        QCOMPARE(*s.all.max, 8.0);
        QCOMPARE(*s.all.mean, (1.6 + 2.0 + 8.0 + 2.5 + 0.8) / 5);
        QCOMPARE(s.flagged, 3);
        QCOMPARE(s.unflagged.total, 5); // clean, overclaimed, slow, wrong, broken
        QCOMPARE(s.unflagged.correct, 3);
        QCOMPARE(*s.unflagged.median, 1.6);
        QCOMPARE(s.withClaim, 4);
        QCOMPARE(s.claimsHold, 1);
        QCOMPARE(*s.claimed.median, (1.6 + 3.0) / 2);
        QCOMPARE(s.notRun, 1);
        QCOMPARE(s.notImported, 1);
        QVERIFY(qAbs(*s.all.geomean - std::pow(1.6 * 2.0 * 8.0 * 2.5 * 0.8, 1.0 / 5)) < 1e-12);
    }

    // The verdict is typed from the logged result: correct() and the counts follow Verdict::Correct; a word this
    // version does not know (a later version's log) is neither correct nor lost; the log read again, as a resumed run
    // reads it, gives the same verdicts.
    void verdictsAreTyped()
    {
        Fixture g;
        QString error;
        QVERIFY(g.log.open(g.dir.filePath(u"results.jsonl"_s), &error));
        g.add(pair(u"fine"_s), {{VerifyRun::Main, correct(1.5)}}, false);
        g.add(pair(u"broken"_s), {{VerifyRun::Main, failed(u"compile_error"_s, u"nvcc failed"_s)}}, false);
        g.add(pair(u"later"_s), {{VerifyRun::Main, failed(u"wrong_dtype"_s, u"a float64 output"_s)}}, false);
        ResultsLog resumed;
        QVERIFY2(resumed.open(g.dir.filePath(u"results.jsonl"_s), &error), qPrintable(error));
        QCOMPARE(resumed.records().size(), 3);
        for (const ResultsLog *log : {&g.log, &resumed}) {
            const QList<VerifyRow> rows = VerifyTable::rows(g.pairs, g.problems, *log);
            QVERIFY(rows.at(0).verdict == Verdict::Correct && rows.at(0).correct());
            QVERIFY(rows.at(1).verdict == Verdict::CompileError && !rows.at(1).correct());
            QCOMPARE(rows.at(1).stateText(), u"compile_error"_s);
            QVERIFY(!rows.at(2).verdict && !rows.at(2).correct());
            QCOMPARE(rows.at(2).otherVerdict, u"wrong_dtype"_s);
            QCOMPARE(rows.at(2).stateText(), u"wrong_dtype"_s);
            const VerifySummary s = VerifyTable::summary(rows);
            QCOMPARE(s.all.total, 3);
            QCOMPARE(s.all.correct, 1);
        }
    }

    void hackClasses_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::addColumn<int>("number");
        QTest::addRow("side stream") << u"side_stream_work"_s << 1;
        QTest::addRow("late") << u"late_work"_s << 1;
        QTest::addRow("outside") << u"work_outside_call"_s << 2;
        QTest::addRow("timing") << u"timing_mismatch"_s << 3;
        QTest::addRow("mutation") << u"input_mutated"_s << 8;
        QTest::addRow("loose") << QString::fromLatin1(kLooseToleranceFlag) << 12;
        QTest::addRow("degenerate") << u"degenerate_output"_s << 13;
        QTest::addRow("edges") << u"unstable_numerics"_s << 14;
        QTest::addRow("shape") << QString::fromLatin1(kShapeSpecificFlag) << 15;
        QTest::addRow("flops") << u"beats_flop_floor"_s << 18;
        QTest::addRow("impossible") << u"below_speed_of_light"_s << 22;
        QTest::addRow("refused") << u"profile_refused"_s << 1;
        QTest::addRow("contention") << u"gpu_contention"_s << 20;
        QTest::addRow("unknown") << u"something_new"_s << 0;
    }
    void hackClasses()
    {
        QFETCH(QString, flag);
        QFETCH(int, number);
        QCOMPARE(HackClasses::of(flag).number, number);
        QVERIFY(!HackClasses::isInformational(flag));
    }
    // Flags that share a catalogue row keep their own names (gpu_contention and device_state_changed are both
    // row 20, baseline inflation).
    void hackClassNames()
    {
        const QString contention = HackClasses::displayName(HackClasses::of(u"gpu_contention"_s));
        const QString settings = HackClasses::displayName(HackClasses::of(u"device_state_changed"_s));
        QVERIFY2(contention.contains(u"beside the reference"_s), qPrintable(contention));
        QVERIFY2(settings.contains(u"device settings"_s), qPrintable(settings));
    }

    void libraries_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("library");
        QTest::addRow("cublas hopper") << u"sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32"_s << u"cuBLAS"_s;
        QTest::addRow("cublas ampere") << u"ampere_sgemm_128x64_nn"_s << u"cuBLAS"_s;
        QTest::addRow("gemv") << u"void gemv2T_kernel_val<int, int, float>"_s << u"cuBLAS"_s;
        QTest::addRow("cutlass gemm") << u"cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128>"_s << u"cuBLAS"_s;
        QTest::addRow("cudnn") << u"void cudnn::cnn::conv2d_grouped_direct_kernel<float>"_s << u"cuDNN"_s;
        QTest::addRow("cudnn implicit") << u"implicit_convolve_sgemm<float, 1024, 5, 5>"_s << u"cuDNN"_s;
        QTest::addRow("aten") << u"void at::native::vectorized_elementwise_kernel<4, at::native::relu>"_s << u"PyTorch"_s;
        QTest::addRow("triton") << u"triton_poi_fused_relu_0"_s << u"Triton"_s;
        QTest::addRow("cub") << u"cub::DeviceReduceKernel<float>"_s << u"CUB"_s;
        QTest::addRow("own") << u"row_sum_warp(float const*, float*, long, long, bool)"_s << u"own"_s;
    }
    void libraries()
    {
        QFETCH(QString, kernel);
        QFETCH(QString, library);
        QCOMPARE(HackClasses::libraryOf(kernel), library);
    }

    void csv()
    {
        const QString csv = VerifyReport::csv(VerifyTable::rows(f.pairs, f.problems, f.log));
        const QStringList lines = csv.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.first(), VerifyReport::csvHeader().join(u','));
        QCOMPARE(lines.first().count(u','), 19);
        QCOMPARE(lines.at(1), u"clean,level1/clean.py,clean.py,ModelNew,1,correct,1.6,1.537,1.665,1.5,holds,40,,,,"
                              "holds at 2 sizes (N 64→47; N 64→33),own ×1,1.50,,"_s);
        QVERIFY(csv.contains(
            u"halfprecision,level1/halfprecision.py,halfprecision.py,ModelNew,1,incorrect,,,,1.6,does "
            "not hold,,loose_tolerance,#12 precision downgrade (passes only at a looser tolerance),1e-2,"_s));
        // A message over two lines stays one quoted field.
        QVERIFY(csv.contains(u"\"nvcc failed with 1 error(s).\nk.cu:3: error\""_s));
        QVERIFY(csv.contains(u"badproblem,level1/badproblem.py,badproblem.py,ModelNew,1,not imported,"_s));
    }

    void html()
    {
        VerifyReportInput in;
        in.collection = u"kernels.json"_s;
        in.format = CollectionFormat::ReleasedJson;
        in.device = u"NVIDIA H200"_s;
        in.workers = u"kforge-worker --device 0"_s;
        in.generated = QDateTime(QDate(2026, 12, 1), QTime(12, 0), Qt::UTC);
        in.kforgeVersion = u"0.9"_s;
        in.rows = VerifyTable::rows(f.pairs, f.problems, f.log);
        in.summary = VerifyTable::summary(in.rows);
        in.issues = {{u"kernels.json level1[2]"_s, u"the candidate's code (custom_code) is empty"_s, true},
                     {u"README.txt"_s, u"not a candidate"_s, false}};
        const QString h = VerifyReport::html(in);
        QVERIFY(h.startsWith(u"<!DOCTYPE html>"_s));
        QVERIFY(h.contains(u"<td>correct / total</td><td class=\"num\">4 claims</td><td class=\"num\">5 / 8</td>"
                           "<td class=\"num\">3 / 5</td>"_s));
        QVERIFY(h.contains(u"<b>1 of 4 (25.0%)</b>"_s));
        QVERIFY(h.contains(u"<svg"_s) && h.contains(u"class=\"claims-chart\""_s) && h.contains(u"claim-holds"_s));
        QVERIFY(h.contains(u"<tr><td>kernels.json level1[2]</td><td>the candidate's code (custom_code) is empty</td>"_s));
        QVERIFY(h.contains(u"<tr class=\"missing\"><td>README.txt</td><td>not a candidate</td>"_s));
        QVERIFY(!h.contains(u"<script"_s) && !h.contains(u"https://"_s)); // self-contained: nothing fetched
        // Flagged pairs first, then failed ones, then the rest by speedup; not-run rows last.
        static const QRegularExpression row(u"<tr(?: class=\"(\\w+)\")?><td>([a-z]+)</td>"_s);
        QStringList order;
        const QString pairs = h.section(u"id=\"pairs\""_s, 1).section(u"id=\"issues\""_s, 0, 0);
        for (auto it = row.globalMatch(pairs); it.hasNext();)
            order << it.next().captured(2);
        QCOMPARE(order, (QStringList{u"sidestream"_s, u"hardcoded"_s, u"halfprecision"_s, u"wrong"_s, u"broken"_s,
                                     u"overclaimed"_s, u"clean"_s, u"slow"_s, u"later"_s, u"badproblem"_s}));
    }

    void chartWithoutClaims()
    {
        QList<VerifyRow> rows = VerifyTable::rows(f.pairs, f.problems, f.log);
        for (VerifyRow &r : rows)
            r.claimed.reset();
        VerifyReportInput in;
        in.rows = rows;
        in.summary = VerifyTable::summary(rows);
        const QString h = VerifyReport::html(in);
        QVERIFY(h.contains(u"Measured speedups of the correct pairs"_s));
        QCOMPARE(h.count(u"<circle class="_s), 5);
    }
};

QTEST_GUILESS_MAIN(VerifyTableTest)
#include "tst_verifytable.moc"
