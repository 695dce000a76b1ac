// The worker's "source_profile" (docs/worker-protocol.md) parsed, written back losslessly, and folded onto
// source lines; what is said when there is no usable profile.
#include "core/eval/evaloptions.h"
#include "core/eval/sourceprofile.h"
#include "core/sourcelevel/sasslisting.h"
#include "core/sourcelevel/sourceheat.h"
#include "core/sourcelevel/stallreason.h"
#include "tests/core/sourcelevel/asmfixtures.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QTest>
#include <algorithm>

using namespace Qt::StringLiterals;
using namespace kforge;
using kforge::test::asmBytes;
using kforge::test::asmJson;

namespace {

} // namespace

class TestSourceProfile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesTheContract();
    void roundTripsLosslessly();
    void absentWithoutTheKey();
    void foldsOntoLines();
    void hottestLinesText();
    void pcsMapToListingOffsets();
    void h200Profiles_data();
    void h200Profiles();
    void unavailableSaysWhatIsMissing();
    void problems_data();
    void problems();
    void optionOnlyWhenAsked();
    void executionCounts();
    void executionCountsMissing();
};

void TestSourceProfile::parsesTheContract()
{
    const SourceProfile p = SourceProfile::fromResult(asmJson(u"source_profile_handmade.json"_s));
    QCOMPARE(p.status, SourceProfile::Status::Ok);
    QCOMPARE(p.costMs, 812.3);
    QCOMPARE(p.period, 5);
    QCOMPARE(p.stallReasons.size(), 6);
    QCOMPARE(p.kernels.size(), 2);
    QCOMPARE(p.kernels.at(0).name, u"_Z15transpose_tiledPKfPfll"_s);
    QCOMPARE(p.kernels.at(0).pcs.size(), 6);
    QCOMPARE(p.kernels.at(1).side, u"reference"_s);
    QCOMPARE(p.kernels.at(1).dropped, 2);
    QCOMPARE(p.totalSamples(), 1250);
    QCOMPARE(p.totalSamples(u"reference"_s), 100);
    QVERIFY(p.hasLines());
    QVERIFY(p.problem().isEmpty());
}

void TestSourceProfile::roundTripsLosslessly()
{
    const SourceProfile p = SourceProfile::fromResult(asmJson(u"source_profile_handmade.json"_s));
    QCOMPARE(SourceProfile::fromJson(p.toJson()), p);
    const SourceProfile u = SourceProfile::fromResult(asmJson(u"source_profile_unavailable.json"_s));
    QCOMPARE(SourceProfile::fromJson(u.toJson()), u);
}

void TestSourceProfile::absentWithoutTheKey()
{
    const SourceProfile p = SourceProfile::fromResult(QJsonObject{{u"ok"_s, true}});
    QCOMPARE(p.status, SourceProfile::Status::Absent);
    QVERIFY(p.problem().contains(u"Profile source lines"_s));
}

void TestSourceProfile::foldsOntoLines()
{
    const SourceProfile p = SourceProfile::fromResult(asmJson(u"source_profile_handmade.json"_s));
    const SourceHeat heat = SourceHeat::of(p, u"smem_tiled.cu"_s);
    QCOMPARE(heat.totalSamples, 1250);
    QCOMPARE(heat.unattributedSamples, 20); // the PC without a line
    QCOMPARE(heat.lines.size(), 4);         // 9, 19, 21, 26
    const LineHeat *l19 = heat.at(19);
    QVERIFY(l19);
    QCOMPARE(l19->samples, 800);
    QCOMPARE(l19->share, 800.0 / 1250.0);
    QCOMPARE(l19->dominantStall(), u"long_scoreboard"_s); // 20 + 450 of 800
    QCOMPARE(l19->stalls.at(0).second, 470);
    QCOMPARE(heat.at(21)->dominantStall(), u"barrier"_s);
    QVERIFY(!heat.at(20));
    // Another file name (the editor's tab is named otherwise): nothing attributed.
    QVERIFY(SourceHeat::of(p, u"other.cu"_s).lines.isEmpty());
    // The reference side on its own.
    const SourceHeat ref = SourceHeat::of(p, u"reference.cu"_s, u"reference"_s);
    QCOMPARE(ref.totalSamples, 100);
    QCOMPARE(ref.at(12)->dominantStall(), u"lg_throttle"_s);
    QCOMPARE(SourceHeat::stallMix(ref.stalls), u"lg throttle 70%, long scoreboard 30%"_s);
}

void TestSourceProfile::hottestLinesText()
{
    const SourceHeat heat = SourceHeat::of(SourceProfile::fromResult(asmJson(u"source_profile_handmade.json"_s)),
                                           u"smem_tiled.cu"_s);
    const QList<LineHeat> top = heat.hottest(3);
    QCOMPARE(top.size(), 3);
    QCOMPARE(top.at(0).line, 19);
    QCOMPARE(top.at(1).line, 26);
    QCOMPARE(top.at(2).line, 21);
    QCOMPARE(SourceHeat::describe(top.at(0)),
             u"line 19, 64% of samples, long scoreboard: waiting on a global or local memory load (L1TEX)"_s);
    QCOMPARE(SourceHeat::describe(top.at(2)),
             u"line 21, 12% of samples, barrier: waiting at a block barrier (__syncthreads)"_s);
    QCOMPARE(heat.hottest(10).size(), 4);
}

void TestSourceProfile::pcsMapToListingOffsets()
{
    // The fixture's PCs are offsets of the committed listing; the line the worker names and the line the
    // listing's markers give agree, which is what the assembly panel relies on.
    QFile f(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/asm/transpose_smem_tiled/nvdisasm_lineinfo.sass"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const SassListing l = SassListing::parse(QString::fromUtf8(f.readAll()));
    const SourceProfile p = SourceProfile::fromResult(asmJson(u"source_profile_handmade.json"_s));
    const SassFunction *fn = l.function(p.kernels.first().name);
    QVERIFY(fn);
    for (const SourceProfile::Pc &pc : p.kernels.first().pcs) {
        if (pc.line == 0)
            continue;
        const int i = fn->indexOfOffset(pc.offset);
        QVERIFY2(i >= 0, qPrintable(QString::number(pc.offset, 16)));
        QCOMPARE(lineInFile(fn->instructions.at(i).where, u"smem_tiled.cu"_s), pc.line);
    }
}

// The worker's replies on the H200 (tests/gpu/run_source_profile.sh: the pass and the disassemble op on the
// built-in tasks' good candidates; tests/fixtures/asm/h200/README.md): every sampled PC is an instruction of the
// SASS the worker disassembled, at the line the listing gives it, and the hottest line is the one named in the
// issue's figures, with its stall reason.
void TestSourceProfile::h200Profiles_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("hotLine");
    QTest::addColumn<QString>("stall");
    QTest::addColumn<bool>("counts"); // SASS execution counts measured (matmul's were skipped: over the budget)
    // softmax: the first use of the loaded float4 in the online max/sum (p = add(p, v.x)); layernorm: the sum
    // of the registers' loaded values; transpose: the global read into the shared tile; diag_matmul: the
    // product stored from the loaded row (v.w *= s). Each waits on its global load.
    // matmul: the register-blocked FMA loop waiting on its shared-memory operands.
    QTest::newRow("softmax") << u"softmax"_s << u"online_warp.cu"_s << 74 << u"long_scoreboard"_s << true;
    QTest::newRow("layernorm") << u"layernorm"_s << u"registers.cu"_s << 39 << u"long_scoreboard"_s << true;
    QTest::newRow("transpose") << u"transpose"_s << u"smem_tiled.cu"_s << 19 << u"long_scoreboard"_s << true;
    QTest::newRow("diag_matmul") << u"diag_matmul"_s << u"rowscale.cu"_s << 17 << u"long_scoreboard"_s << true;
    QTest::newRow("matmul") << u"matmul"_s << u"regblock.cu"_s << 53 << u"short_scoreboard"_s << false;
}

void TestSourceProfile::h200Profiles()
{
    QFETCH(QString, task);
    QFETCH(QString, file);
    QFETCH(int, hotLine);
    QFETCH(QString, stall);
    QFETCH(bool, counts);
    const SourceProfile p = SourceProfile::fromResult(asmJson(u"h200/"_s + task + u".evaluate.json"_s));
    QCOMPARE(p.status, SourceProfile::Status::Ok);
    QVERIFY(p.costMs > 0 && p.costMs <= 1500);
    // Execution counts where the pass's budget allowed them, and the reason where it did not.
    QCOMPARE(p.hasExecutionCounts(), counts);
    QCOMPARE(p.sassRuns, counts ? 1 : 0);
    if (!counts)
        QVERIFY2(p.executionCountsProblem().contains(u"SASS metrics skipped"_s), qPrintable(p.executionCountsProblem()));
    QCOMPARE(SourceHeat::mainFile(p), file);
    const SourceHeat heat = SourceHeat::of(p, file);
    const QList<LineHeat> top = heat.hottest(1);
    QVERIFY(!top.isEmpty());
    QCOMPARE(top.first().line, hotLine);
    QCOMPARE(top.first().dominantStall(), stall);

    const SassListing l = SassListing::parse(QString::fromUtf8(asmBytes(u"h200/"_s + task + u".sass"_s)));
    QCOMPARE(l.source, SassListing::Source::Nvdisasm);
    QVERIFY(l.hasLineInfo());
    int mapped = 0, onHotLine = 0, counted = 0;
    for (const SourceProfile::Kernel &k : p.kernels) {
        const SassFunction *fn = l.function(k.name);
        QVERIFY2(fn, qPrintable(k.name));
        for (const SourceProfile::Pc &pc : k.pcs) {
            const int i = fn->indexOfOffset(pc.offset);
            QVERIFY2(i >= 0, qPrintable(k.name + u" +0x"_s + QString::number(pc.offset, 16)));
            // Thread-level counts of a warp-level count: at most 32 threads per warp execution.
            if (pc.hasExecuted())
                QVERIFY(pc.threadsExecuted >= 0 && pc.threadsExecuted <= 32 * pc.executed);
            counted += pc.hasExecuted() && pc.executed > 0;
            if (pc.line == 0)
                continue;
            // The worker names the outermost line in the kernel's own file (inlined helpers fold onto it).
            QCOMPARE(outermostLineInFile(fn->instructions.at(i).where, file), pc.line);
            ++mapped;
            onHotLine += pc.line == hotLine;
        }
    }
    QVERIFY(mapped > 10);
    QVERIFY(onHotLine > 0);
    QCOMPARE(counted > 10, counts);
}

void TestSourceProfile::unavailableSaysWhatIsMissing()
{
    const SourceProfile p = SourceProfile::fromResult(asmJson(u"source_profile_unavailable.json"_s));
    QCOMPARE(p.status, SourceProfile::Status::Unavailable);
    QCOMPARE(p.missing, QStringList{u"counters_permission"_s});
    QVERIFY(p.problem().contains(u"ERR_NVGPUCTRPERM"_s));
    QVERIFY(p.problem().contains(u"NVreg_RestrictProfilingToAdminUsers=0"_s));
    QVERIFY(SourceHeat::of(p).lines.isEmpty());
}

void TestSourceProfile::problems_data()
{
    QTest::addColumn<QJsonObject>("profile");
    QTest::addColumn<QString>("expected");
    QTest::newRow("permission without the worker's hint")
        << QJsonObject{{u"status"_s, u"unavailable"_s}, {u"missing"_s, QJsonArray{u"counters_permission"_s}}}
        << u"NVreg_RestrictProfilingToAdminUsers=0"_s;
    QTest::newRow("no line info") << QJsonObject{{u"status"_s, u"unavailable"_s}, {u"missing"_s, QJsonArray{u"line_info"_s}}}
                                  << u"-lineinfo"_s;
    QTest::newRow("unsupported") << QJsonObject{{u"status"_s, u"unavailable"_s},
                                                {u"missing"_s, QJsonArray{u"pc_sampling_unsupported"_s}}}
                                 << u"does not support CUPTI PC sampling"_s;
    QTest::newRow("failed") << QJsonObject{{u"status"_s, u"failed"_s}, {u"reason"_s, u"CUPTI_ERROR_UNKNOWN"_s}}
                            << u"CUPTI_ERROR_UNKNOWN"_s;
    QTest::newRow("unknown status") << QJsonObject{{u"status"_s, u"weird"_s}} << u"\"weird\""_s;
    QTest::newRow("ok without samples") << QJsonObject{{u"status"_s, u"ok"_s}, {u"kernels"_s, QJsonArray{}}}
                                        << u"no samples"_s;
    QTest::newRow("ok without lines")
        << QJsonObject{{u"status"_s, u"ok"_s},
                       {u"kernels"_s,
                        QJsonArray{QJsonObject{{u"name"_s, u"k"_s},
                                               {u"side"_s, u"candidate"_s},
                                               {u"samples"_s, 5},
                                               {u"pcs"_s, QJsonArray{QJsonObject{{u"offset"_s, 0}, {u"samples"_s, 5}}}}}}}}
        << u"-lineinfo"_s;
    // The worker host without cuobjdump (pcsampler.cpp: "no_disassembler"): samples, no lines, and not the
    // kernel's fault; the worker's reason (where it looked) follows.
    const QJsonArray sampled{QJsonObject{{u"name"_s, u"k"_s},
                                         {u"side"_s, u"candidate"_s},
                                         {u"samples"_s, 5},
                                         {u"pcs"_s, QJsonArray{QJsonObject{{u"offset"_s, 0}, {u"samples"_s, 5}}}}}};
    QTest::newRow("no cuobjdump") << QJsonObject{
        {u"status"_s, u"ok"_s},
        {u"missing"_s, QJsonArray{u"no_disassembler"_s}},
        {u"reason"_s,
         u"No source lines: the cubins could not be extracted from the library (cuobjdump not found (PATH=/usr/bin))."_s},
        {u"kernels"_s,
         sampled}} << u"has no cuobjdump to take the kernels' cubins out of the library. Install the CUDA toolkit's binary tools there, or put them on the worker's PATH (or CUDA_HOME). No source lines: the cubins could not be extracted from the library (cuobjdump not found (PATH=/usr/bin))."_s;
    QTest::newRow("cubins not extracted")
        << QJsonObject{{u"status"_s, u"ok"_s}, {u"missing"_s, QJsonArray{u"cubin"_s}}, {u"kernels"_s, sampled}}
        << u"cannot be mapped to source lines"_s;
    QTest::newRow("helper crashed")
        << QJsonObject{{u"status"_s, u"failed"_s},
                       {u"missing"_s, QJsonArray{u"helper_failed"_s}},
                       {u"reason"_s,
                        u"The source-level helper (kforge-worker --source-profile) was killed by signal 11 (Segmentation fault), probably by the candidate's code. The evaluation's verdict and timing are not affected."_s}}
        << u"The PC-sampling pass failed. The source-level helper (kforge-worker --source-profile) was killed by signal 11"_s;
}

void TestSourceProfile::problems()
{
    QFETCH(QJsonObject, profile);
    QFETCH(QString, expected);
    const QString problem = SourceProfile::fromJson(profile).problem();
    QVERIFY2(problem.contains(expected), qPrintable(problem));
}

void TestSourceProfile::optionOnlyWhenAsked()
{
    EvalOptions off;
    QVERIFY(!off.toJson().contains(u"source_profile"_s));
    EvalOptions on;
    on.sourceProfile = true;
    on.sourceProfilePeriod = 7;
    QCOMPARE(on.toJson().value(u"source_profile"_s), QJsonValue(true));
    QCOMPARE(on.toJson().value(u"source_profile_period"_s), QJsonValue(7));
    QCOMPARE(EvalOptions::fromJson(on.toJson()), on);
    QCOMPARE(StallReason::label(u"long_scoreboard_not_issued"_s), u"long scoreboard"_s);
    QVERIFY(StallReason::meaning(u"no_such_reason"_s).isEmpty());
    QCOMPARE(StallReason::describe(u"no_such_reason"_s), u"no such reason"_s);
}

void TestSourceProfile::executionCounts()
{
    const SourceProfile p = SourceProfile::fromResult(asmJson(u"source_profile_sass_handmade.json"_s));
    QCOMPARE(p.status, SourceProfile::Status::Ok);
    QCOMPARE(p.sassRuns, 1);
    QVERIFY(p.hasExecutionCounts());
    QVERIFY(!p.hasExecutionCounts(u"reference"_s));
    QVERIFY(p.executionCountsProblem().isEmpty());
    const QList<SourceProfile::Pc> &pcs = p.kernels.at(0).pcs;
    QCOMPARE(pcs.size(), 8);
    QCOMPARE(pcs.at(1).offset, 16); // executed, never sampled
    QCOMPARE(pcs.at(1).samples, 0);
    QCOMPARE(pcs.at(1).executed, 512);
    const auto at = [&pcs](qint64 offset) {
        return *std::find_if(pcs.cbegin(), pcs.cend(),
                             [offset](const SourceProfile::Pc &pc) { return pc.offset == offset; });
    };
    QCOMPARE(at(1232).executed, 1024);
    QCOMPARE(at(1232).threadsExecuted, 16384);
    QCOMPARE(at(1232).threadEfficiency(), 0.5);
    QVERIFY(!at(1472).hasExecuted()); // not measured: -1, not 0
    QCOMPARE(at(1472).threadEfficiency(), -1.0);
    QCOMPARE(p.totalSamples(), 1250); // the unsampled PCs add no samples

    // Lossless, and a count of 0 stays a count.
    QCOMPARE(SourceProfile::fromJson(p.toJson()), p);
    QJsonObject o = p.toJson();
    QJsonArray ks = o.value(u"kernels"_s).toArray();
    QJsonObject k0 = ks.at(0).toObject();
    QJsonArray pj = k0.value(u"pcs"_s).toArray();
    QJsonObject first = pj.at(1).toObject();
    first.insert(u"executed"_s, 0);
    first.remove(u"threads_executed"_s);
    pj.replace(1, first);
    k0.insert(u"pcs"_s, pj);
    ks.replace(0, k0);
    o.insert(u"kernels"_s, ks);
    const SourceProfile zero = SourceProfile::fromJson(o);
    QCOMPARE(zero.kernels.at(0).pcs.at(1).executed, 0);
    QCOMPARE(zero.kernels.at(0).pcs.at(1).threadsExecuted, -1);
    QCOMPARE(zero.kernels.at(0).pcs.at(1).threadEfficiency(), -1.0);
    QCOMPARE(SourceProfile::fromJson(zero.toJson()), zero);

    // Per line: the executed instructions of all its PCs; a line only executed is there with 0 samples,
    // but never among the hottest.
    const SourceHeat heat = SourceHeat::of(p, u"smem_tiled.cu"_s);
    QCOMPARE(heat.totalSamples, 1250);
    QCOMPARE(heat.at(19)->executed, 2048);
    QCOMPARE(heat.at(19)->threadsExecuted, 49152);
    QCOMPARE(heat.at(21)->executed, 4096 + 2048);
    QCOMPARE(heat.at(21)->samples, 150);
    QVERIFY(heat.at(14));
    QCOMPARE(heat.at(14)->samples, 0);
    QCOMPARE(heat.at(14)->executed, 512);
    QCOMPARE(heat.at(26)->executed, -1);
    QVERIFY(heat.at(26)->executionText().isEmpty());
    QCOMPARE(heat.at(19)->executionText(),
             u"%1 instructions executed (warp-level), thread efficiency 75%"_s.arg(QLocale().toString(2048)));
    for (const LineHeat &l : heat.hottest(100))
        QVERIFY(l.line != 14);
    QCOMPARE(heat.hottest(100).size(), 4);
    // The prompt is unchanged by the counts.
    const SourceProfile plain = SourceProfile::fromResult(asmJson(u"source_profile_handmade.json"_s));
    QCOMPARE(SourceHeat::promptLines(p, QString()), SourceHeat::promptLines(plain, QString()));
}

void TestSourceProfile::executionCountsMissing()
{
    // A worker that could not count says why, after the PC sampling's own reasons.
    QJsonObject o = asmJson(u"source_profile_handmade.json"_s).value(u"source_profile"_s).toObject();
    o.insert(u"missing"_s, QJsonArray{u"sass_metrics"_s, u"counters_permission"_s});
    o.insert(u"reason"_s, u"CUPTI dropped samples. SASS metrics unavailable: cuptiSassMetricsSetConfig failed: "
                          "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES."_s);
    const SourceProfile p = SourceProfile::fromJson(o);
    QVERIFY(!p.hasExecutionCounts());
    QCOMPARE(p.executionCountsProblem(),
             u"No instruction execution counts: SASS metrics unavailable: cuptiSassMetricsSetConfig failed: "
             "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES."_s);
    // An older worker: no sass_runs, no counts, no reason.
    const SourceProfile old = SourceProfile::fromResult(asmJson(u"source_profile_handmade.json"_s));
    QVERIFY(old.executionCountsProblem().contains(u"did not run CUPTI's SASS metrics"_s));
    // Ran, but counted nothing of the candidate.
    QJsonObject ran = asmJson(u"source_profile_handmade.json"_s).value(u"source_profile"_s).toObject();
    ran.insert(u"sass_runs"_s, 1);
    QVERIFY(SourceProfile::fromJson(ran).executionCountsProblem().contains(u"counted no instruction"_s));
    // No profile at all: nothing to say about counts.
    QVERIFY(SourceProfile{}.executionCountsProblem().isEmpty());
}

QTEST_GUILESS_MAIN(TestSourceProfile)
#include "tst_sourceprofile.moc"
