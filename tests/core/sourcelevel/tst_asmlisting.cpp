// SASS and PTX parsing on committed nvdisasm/cuobjdump/nvcc output (tests/fixtures/asm), with line mappings
// checked against the variants' sources by reading them.
#include "core/sourcelevel/assemblyfetcher.h"
#include "core/sourcelevel/instructionmix.h"
#include "core/sourcelevel/ptxlisting.h"
#include "core/sourcelevel/sasslisting.h"
#include "tests/core/sourcelevel/asmfixtures.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;
using kforge::test::asmText;

namespace {

const SassInstruction &at(const SassFunction &f, qint64 offset)
{
    const int i = f.indexOfOffset(offset);
    if (i < 0)
        qFatal("no instruction at 0x%llx", static_cast<long long>(offset));
    return f.instructions.at(i);
}

const QString kTiled = u"smem_tiled.cu"_s;

} // namespace

class TestAsmListing : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nvdisasmFunctionsAndOffsets();
    void nvdisasmLineMarkers_data();
    void nvdisasmLineMarkers();
    void inlinedAtChains();
    void cuobjdumpFallbackHasNoLines();
    void cuobjdumpAndNvdisasmAgree();
    void instructionMix();
    void ptxLineTable();
    void ptxInlinedAt();
    void realWorkerDisassembleReply();
    void garbageGivesEmptyListing();
};

void TestAsmListing::nvdisasmFunctionsAndOffsets()
{
    const SassListing l = SassListing::parse(asmText(u"transpose_smem_tiled/nvdisasm_lineinfo.sass"_s));
    QCOMPARE(l.source, SassListing::Source::Nvdisasm);
    QCOMPARE(l.arch, u"sm_90"_s);
    QCOMPARE(l.functions.size(), 1);
    const SassFunction &f = l.functions.first();
    QCOMPARE(f.name, u"_Z15transpose_tiledPKfPfll"_s);
    QCOMPARE(f.instructions.first().offset, 0);
    QCOMPARE(f.instructions.first().text(), u"LDC R1, c[0x0][0x28]"_s);
    // Every instruction is 16 bytes on sm_90 and none is lost between the markers.
    for (qsizetype i = 0; i < f.instructions.size(); ++i)
        QCOMPARE(f.instructions.at(i).offset, 16 * i);
    const SassInstruction &load = at(f, 0x02b0);
    QCOMPARE(load.predicate, u"@!P2"_s);
    QCOMPARE(load.opcode, u"LDG.E.CONSTANT"_s);
    QCOMPARE(load.baseOpcode(), u"LDG"_s);
    QCOMPARE(load.operands, u"R22, desc[UR4][R22.64]"_s);
    QVERIFY(l.hasLineInfo());
}

void TestAsmListing::nvdisasmLineMarkers_data()
{
    QTest::addColumn<qint64>("offset");
    QTest::addColumn<QString>("opcode");
    QTest::addColumn<int>("line");
    // Lines read off smem_tiled.cu: 9 the signature, 19 `tile[ty + j][tx] = x[r * cols + c]`,
    // 21 `__syncthreads()`, 26 `y[c * rows + r] = tile[tx][ty + j]`.
    QTest::newRow("prologue") << qint64(0x0000) << u"LDC"_s << 9;
    QTest::newRow("global load of x") << qint64(0x02b0) << u"LDG.E.CONSTANT"_s << 19;
    QTest::newRow("store into the tile") << qint64(0x04d0) << u"STS"_s << 19;
    QTest::newRow("__syncthreads") << qint64(0x05a0) << u"BAR.SYNC.DEFER_BLOCKING"_s << 21;
    QTest::newRow("read from the tile") << qint64(0x05c0) << u"LDS"_s << 26;
}

void TestAsmListing::nvdisasmLineMarkers()
{
    QFETCH(qint64, offset);
    QFETCH(QString, opcode);
    QFETCH(int, line);
    const SassListing l = SassListing::parse(asmText(u"transpose_smem_tiled/nvdisasm_lineinfo.sass"_s));
    const SassInstruction &i = at(l.functions.first(), offset);
    QCOMPARE(i.opcode, opcode);
    QCOMPARE(i.where.size(), 1);
    QCOMPARE(i.where.first().file, u"/work/main/resources/tasks/transpose/variants/smem_tiled.cu"_s);
    QCOMPARE(lineInFile(i.where, kTiled), line);
    QCOMPARE(lineInFile(i.where, u"other.cu"_s), 0);
}

void TestAsmListing::inlinedAtChains()
{
    const SassListing l = SassListing::parse(asmText(u"softmax_online_warp/nvdisasm_inline.sass"_s));
    const SassFunction *scalar = l.function(u"_Z21softmax_online_scalarPKfPfl"_s);
    QVERIFY(scalar);
    QVERIFY(l.function(u"_Z19softmax_online_vec4PK6float4PS_l"_s));
    // The warp shuffle: CUDA's header, inlined at __shfl_xor_sync in block_merge (line 42), itself inlined
    // into the kernel at `block_merge(p)` (line 96).
    const SassInstruction &shfl = at(*scalar, 0x0400);
    QCOMPARE(shfl.opcode, u"SHFL.BFLY"_s);
    QCOMPARE(shfl.where.size(), 3);
    QVERIFY(shfl.where.at(0).file.endsWith(u"/sm_30_intrinsics.hpp"));
    QCOMPARE(shfl.where.at(0).line, 449);
    QCOMPARE(shfl.where.at(1), (SourceLocation{u"/work/main/resources/tasks/softmax/variants/online_warp.cu"_s, 42}));
    QCOMPARE(shfl.where.at(2).line, 96);
    QCOMPARE(lineInFile(shfl.where, u"online_warp.cu"_s), 42);
    QCOMPARE(lineInFile(shfl.where, u"sm_30_intrinsics.hpp"_s), 449);
    // add()'s `if (v > a.m)` (line 27) inlined at `p = add(p, xr[c])` (line 95); the load itself is line 95.
    QCOMPARE(lineInFile(at(*scalar, 0x01e0).where, u"online_warp.cu"_s), 27);
    QCOMPARE(at(*scalar, 0x01e0).where.last().line, 95);
    QCOMPARE(at(*scalar, 0x01c0).baseOpcode(), u"LDG"_s);
    QCOMPARE(lineInFile(at(*scalar, 0x01c0).where, u"online_warp.cu"_s), 95);
    // The kernel's own line, as the source-level pass counts samples: the outermost in the file.
    QCOMPARE(outermostLineInFile(shfl.where, u"online_warp.cu"_s), 96);
    QCOMPARE(outermostLineInFile(at(*scalar, 0x01e0).where, u"online_warp.cu"_s), 95);
    QCOMPARE(outermostLineInFile(shfl.where, u"other.cu"_s), 0);
}

void TestAsmListing::cuobjdumpFallbackHasNoLines()
{
    const SassListing l = SassListing::parse(asmText(u"transpose_smem_tiled/cuobjdump.sass"_s));
    QCOMPARE(l.source, SassListing::Source::Cuobjdump);
    QCOMPARE(l.arch, u"sm_90"_s);
    QCOMPARE(l.functions.size(), 1);
    QCOMPARE(l.functions.first().name, u"_Z15transpose_tiledPKfPfll"_s);
    QVERIFY(!l.hasLineInfo());
    // The encoding comments ("/* 0x000fe20000000800 */") are not instructions.
    QCOMPARE(at(l.functions.first(), 0x05a0).text(), u"BAR.SYNC.DEFER_BLOCKING 0x0"_s);
}

void TestAsmListing::cuobjdumpAndNvdisasmAgree()
{
    // Both tools disassemble the same cubin: same instruction count and opcodes (branch targets differ:
    // nvdisasm prints labels, cuobjdump addresses).
    for (const QString &dir : {u"transpose_smem_tiled"_s, u"relu_bf16_vec8"_s}) {
        const SassListing a = SassListing::parse(asmText(dir + u"/cuobjdump.sass"_s));
        const SassListing b = SassListing::parse(asmText(dir + u"/nvdisasm_lineinfo.sass"_s));
        QCOMPARE(a.functions.size(), b.functions.size());
        for (const SassFunction &fa : a.functions) {
            const SassFunction *fb = b.function(fa.name);
            QVERIFY2(fb, qPrintable(fa.name));
            QCOMPARE(fa.instructions.size(), fb->instructions.size());
            for (qsizetype i = 0; i < fa.instructions.size(); ++i)
                QCOMPARE(fa.instructions.at(i).opcode, fb->instructions.at(i).opcode);
        }
    }
}

void TestAsmListing::instructionMix()
{
    const SassListing l = SassListing::parse(asmText(u"transpose_smem_tiled/nvdisasm_lineinfo.sass"_s));
    const InstructionMix mix = InstructionMix::of(l.functions.first());
    QCOMPARE(mix.total, int(l.functions.first().instructions.size()));
    int sum = 0;
    for (int c : mix.counts)
        sum += c;
    QCOMPARE(sum, mix.total);
    // 4 loads of x and 4 stores of y (the unrolled loops), 4 shared stores and 4 shared loads, one barrier.
    QCOMPARE(mix.count(InstructionMix::GlobalMemory), 8);
    QCOMPARE(mix.count(InstructionMix::SharedMemory), 8);
    QCOMPARE(mix.count(InstructionMix::Sync), 1);
    QCOMPARE(mix.count(InstructionMix::LocalMemory), 0);
    QVERIFY(mix.count(InstructionMix::Integer) > mix.count(InstructionMix::Fp32));
    QVERIFY2(mix.summary().startsWith(QString::number(mix.total) + u" instruction"_s), qPrintable(mix.summary()));
    QVERIFY(mix.summary().contains(u"% integer"_s));

    const SassListing bf16 = SassListing::parse(asmText(u"relu_bf16_vec8/nvdisasm_lineinfo.sass"_s));
    int fp16 = 0;
    for (const SassFunction &f : bf16.functions)
        fp16 += InstructionMix::of(f).count(InstructionMix::Fp16);
    QVERIFY(fp16 > 0); // HMNMX2.BF16 does the ReLU on pairs

    QCOMPARE(InstructionMix::classify(u"HGMMA"_s), InstructionMix::Tensor);
    QCOMPARE(InstructionMix::classify(u"STL"_s), InstructionMix::LocalMemory);
    QCOMPARE(InstructionMix::classify(u"NOTANOPCODE"_s), InstructionMix::Other);
}

void TestAsmListing::ptxLineTable()
{
    const PtxListing p = PtxListing::parse(asmText(u"transpose_smem_tiled/kernel.ptx"_s));
    QCOMPARE(p.target, u"sm_90"_s);
    QCOMPARE(p.functions.size(), 1);
    QCOMPARE(p.functions.first().name, u"_Z15transpose_tiledPKfPfll"_s);
    QVERIFY(p.functions.first().entry);
    QVERIFY(p.hasLineInfo());
    // `bar.sync 0;` is line 121 of kernel.ptx (index 120), under `.loc 1 21 5`: __syncthreads() on line 21.
    QCOMPARE(p.lines.at(120).text.trimmed(), u"bar.sync \t0;"_s);
    QVERIFY(p.lines.at(120).instruction);
    QCOMPARE(lineInFile(p.lines.at(120).where, kTiled), 21);
    // The .loc holds until the next one: the barrier and the three address computations after it.
    QCOMPARE(p.linesFor(kTiled, 21), (QList<int>{120, 121, 122, 123}));
    // The four unrolled reads of the tile (`ld.shared.f32`) are all line 26.
    int sharedLoads = 0;
    for (int i : p.linesFor(kTiled, 26, p.functions.first().name))
        sharedLoads += p.lines.at(i).text.contains(u"ld.shared.f32"_s);
    QCOMPARE(sharedLoads, 4);
    // Directives are not instructions and lines outside a body carry no location.
    QVERIFY(!p.lines.at(0).instruction);
    QVERIFY(p.lines.at(0).where.isEmpty());
}

void TestAsmListing::ptxInlinedAt()
{
    const PtxListing p = PtxListing::parse(asmText(u"softmax_online_warp/kernel.ptx"_s));
    QCOMPARE(p.functions.size(), 2);
    // Line 62: `.loc 1 27 5, function_name $L__info_string0, inlined_at 1 74 9`: add() inlined in the vec4 kernel.
    const PtxLine &next = p.lines.at(62);
    QVERIFY(next.instruction);
    QCOMPARE(next.where.size(), 2);
    QCOMPARE(next.where.at(0).line, 27);
    QCOMPARE(next.where.at(1).line, 74);
    // A source line selects the instructions whose outermost line in the file it is (as the heat gutter counts
    // samples): add()'s body (line 27) inlined at a call site selects nothing of its own in the vec4 kernel;
    // the call site (line 74) selects them.
    const QList<int> call = p.linesFor(u"online_warp.cu"_s, 74, u"_Z19softmax_online_vec4PK6float4PS_l"_s);
    QVERIFY(call.contains(62));
    QVERIFY(!p.linesFor(u"online_warp.cu"_s, 27, u"_Z19softmax_online_vec4PK6float4PS_l"_s).contains(62));
}

void TestAsmListing::realWorkerDisassembleReply()
{
    // kforge-worker's answer to {"op":"disassemble"} on the H200 host (the conv3d task's fused variant).
    const QJsonObject reply = QJsonDocument::fromJson(asmText(u"conv3d_fused/disassemble_reply.json"_s).toUtf8()).object();
    QVERIFY(reply.value(u"ok"_s).toBool());
    const SassListing l = AssemblyFetcher::parseDisassembly(reply);
    QCOMPARE(l.source, SassListing::Source::Nvdisasm);
    QCOMPARE(l.arch, u"sm_90"_s);
    QCOMPARE(l.functions.size(), 1);
    const SassFunction &f = l.functions.first();
    QCOMPARE(f.name, u"_Z23fused_conv_gn_min_clampPKfS0_S0_S0_S0_Pf9ConvShapeifff"_s);
    QVERIFY(l.hasLineInfo());
    // source.cu line 40 is the first `__syncthreads();`: the first barrier of the kernel is there.
    const SassInstruction &bar = at(f, 0x0470);
    QCOMPARE(bar.opcode, u"BAR.SYNC.DEFER_BLOCKING"_s);
    QCOMPARE(lineInFile(bar.where, u"fused.cu"_s), 40);
    int barriers = 0;
    for (const SassInstruction &i : f.instructions)
        barriers += i.baseOpcode() == u"BAR";
    QVERIFY(barriers >= 3); // lines 40, 68, 82
}

void TestAsmListing::garbageGivesEmptyListing()
{
    QVERIFY(SassListing::parse(u"nvdisasm fatal : not an ELF file\n"_s).functions.isEmpty());
    QVERIFY(!SassListing::parse(QString()).hasLineInfo());
    QVERIFY(PtxListing::parse(u"no ptx here"_s).functions.isEmpty());
}

QTEST_GUILESS_MAIN(TestAsmListing)
#include "tst_asmlisting.moc"
