// The assembly panel on the committed transpose listing (tests/fixtures/asm): models under
// QAbstractItemModelTester, source line <-> instruction highlighting both ways, PC samples per instruction,
// resources and mix, and what it says when SASS or line info is missing. Writes docs/screenshots/assembly-panel.png
// with KFORGE_DOC_SHOTS=1 (else into the test artifacts).
#include "core/sourcelevel/assemblyfetcher.h"
#include "tests/core/sourcelevel/asmfixtures.h"
#include "views/assembly/assemblypanel.h"
#include "views/assembly/ptxmodel.h"
#include "views/assembly/sassmodel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;
using kforge::test::asmText;

namespace {

Assembly transpose()
{
    Assembly a;
    a.fileName = u"smem_tiled.cu"_s;
    a.ptx = PtxListing::parse(asmText(u"transpose_smem_tiled/kernel.ptx"_s));
    a.sass = SassListing::parse(asmText(u"transpose_smem_tiled/nvdisasm_lineinfo.sass"_s));
    a.sassTool = u"nvdisasm 13.0.88 on worker 1"_s;
    // ptxas -v's figures for this kernel (the fixture host's compile log).
    KernelResources r;
    r.mangledName = u"_Z15transpose_tiledPKfPfll"_s;
    r.registers = 30;
    r.sharedBytes = 4224; // 32 x 33 floats
    a.resources = {r};
    a.ptxDone = a.sassDone = true;
    return a;
}

SourceProfile profile(const QString &fixture = u"source_profile_handmade.json"_s)
{
    return SourceProfile::fromResult(QJsonDocument::fromJson(asmText(fixture).toUtf8()).object());
}

} // namespace

class TestAssemblyPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void modelsUnderTester();
    void lineToInstructions();
    void instructionToLine();
    void samplesPerInstruction();
    void executedPerInstruction();
    void resourcesAndMix();
    void saysWhatIsMissing();
    void referenceBeside();
    void screenshot();
    void promptScreenshot();
};

void TestAssemblyPanel::referenceBeside()
{
    AssemblyPanel panel;
    QAbstractItemModelTester refTester(panel.referenceSassModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy asked(&panel, &AssemblyPanel::referenceRequested);
    panel.setAssembly(transpose());
    QWidget *pane = panel.findChild<QWidget *>(u"assemblyReferencePane"_s);
    QVERIFY(pane && !pane->isVisibleTo(&panel));
    // Switched on: the panel asks for the reference once, and says it is on its way.
    panel.setReferenceShown(true);
    QVERIFY(pane->isVisibleTo(&panel));
    QCOMPARE(asked.count(), 1);
    QCOMPARE(panel.referenceStatusText(), u"Compiling the reference's SASS…"_s);
    panel.setReferenceShown(false);
    panel.setReferenceShown(true);
    QCOMPARE(asked.count(), 1);

    // A reference with the same kernel: shown beside it, kernel for kernel.
    Assembly ref = transpose();
    ref.fileName = u"reference.cu"_s;
    ref.sassTool = u"nvdisasm 13.0.88 on worker 2"_s;
    panel.setReferenceAssembly(ref);
    QCOMPARE(panel.currentReferenceKernel(), panel.currentKernel());
    QCOMPARE(panel.referenceSassModel()->rowCount(), panel.sassModel()->rowCount());
    QVERIFY(panel.referenceSassModel()->rowCount() > 20);
    QCOMPARE(panel.referenceStatusText(), u"Reference SASS from nvdisasm 13.0.88 on worker 2."_s);
    // The reference's own lines count (its file is reference.cu), not the candidate's file name.
    bool anyLine = false;
    for (int r = 0; r < panel.referenceSassModel()->rowCount(); ++r)
        anyLine = anyLine || panel.referenceSassModel()->lineOfRow(r) > 0;
    QVERIFY(!anyLine); // the listing names smem_tiled.cu, which is not the reference's file

    // Another kernel: its first function; a reference without SASS of its own, and one whose SASS failed, say so.
    Assembly other;
    other.sass = SassListing::parse(asmText(u"softmax_online_warp/nvdisasm_inline.sass"_s));
    other.sassDone = other.ptxDone = true;
    panel.setReferenceAssembly(other);
    QVERIFY(!other.sass.functions.isEmpty());
    QCOMPARE(panel.currentReferenceKernel(), other.sass.functions.first().name);
    QVERIFY(panel.referenceSassModel()->rowCount() > 0);
    Assembly library;
    library.sassDone = library.ptxDone = true;
    panel.setReferenceAssembly(library);
    QCOMPARE(panel.referenceSassModel()->rowCount(), 0);
    QVERIFY2(panel.referenceStatusText().contains(u"cuBLAS"_s), qPrintable(panel.referenceStatusText()));
    Assembly failed;
    failed.sassDone = failed.ptxDone = true;
    failed.sassError = u"No SASS: nvdisasm and cuobjdump were not found."_s;
    panel.setReferenceAssembly(failed);
    QCOMPARE(panel.referenceStatusText(), failed.sassError);
    // Another session: the listing is forgotten and, with the switch on, asked for again.
    panel.resetReference();
    QCOMPARE(asked.count(), 2);
    QCOMPARE(panel.referenceSassModel()->rowCount(), 0);
}

void TestAssemblyPanel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestAssemblyPanel::modelsUnderTester()
{
    AssemblyPanel panel;
    QAbstractItemModelTester sassTester(panel.sassModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester ptxTester(panel.ptxModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.setAssembly(transpose());
    panel.setSourceProfile(profile());
    panel.highlightSourceLine(19);
    panel.setAssembly(Assembly{});
    panel.setAssembly(transpose());
    QCOMPARE(panel.sassModel()->rowCount(), 152);
    QVERIFY(panel.ptxModel()->rowCount() > 100);
}

void TestAssemblyPanel::lineToInstructions()
{
    AssemblyPanel panel;
    panel.setAssembly(transpose());
    panel.highlightSourceLine(21); // __syncthreads()
    const SassModel *m = panel.sassModel();
    QList<QString> highlighted;
    for (int row = 0; row < m->rowCount(); ++row) {
        if (m->index(row, 0).data(SassModel::HighlightRole).toBool())
            highlighted.append(m->index(row, SassModel::InstructionColumn).data().toString());
    }
    QVERIFY2(highlighted.contains(u"BAR.SYNC.DEFER_BLOCKING 0x0"_s), qPrintable(highlighted.join(u", "_s)));
    for (int row : m->rowsOfLine(21))
        QCOMPARE(m->index(row, SassModel::LineColumn).data().toInt(), 21);
    // The PTX tab too: bar.sync is under .loc 21.
    bool barSync = false;
    for (int row : panel.ptxModel()->rowsOfLine(21))
        barSync = barSync || panel.ptxModel()->index(row, 0).data().toString().contains(u"bar.sync"_s);
    QVERIFY(barSync);
    panel.highlightSourceLine(0);
    QVERIFY(!m->index(m->rowsOfLine(21).first(), 0).data(SassModel::HighlightRole).toBool());
}

void TestAssemblyPanel::instructionToLine()
{
    AssemblyPanel panel;
    panel.setAssembly(transpose());
    QSignalSpy selected(&panel, &AssemblyPanel::sourceLineSelected);
    auto *view = panel.findChild<QTableView *>(u"sassView"_s);
    QVERIFY(view);
    // The LDS at 0x05c0 (row 92) reads the tile: line 26.
    QCOMPARE(view->model()->index(92, SassModel::OffsetColumn).data().toString(), u"05c0"_s);
    view->setCurrentIndex(view->model()->index(92, SassModel::InstructionColumn));
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.first().first().toInt(), 26);
    QVERIFY(panel.sassModel()->index(92, 0).data(SassModel::HighlightRole).toBool());
    // Following a line from the editor does not echo back.
    panel.highlightSourceLine(19);
    QCOMPARE(selected.size(), 1);
}

void TestAssemblyPanel::samplesPerInstruction()
{
    AssemblyPanel panel;
    panel.setAssembly(transpose());
    panel.setSourceProfile(profile());
    const SassModel *m = panel.sassModel();
    const int sts = m->rowsOfLine(19).isEmpty() ? -1 : int(0x04d0 / 16);
    QCOMPARE(m->index(sts, SassModel::OffsetColumn).data().toString(), u"04d0"_s);
    QCOMPARE(m->index(sts, SassModel::SamplesColumn).data().toString(), u"500 (40.0%)"_s);
    QCOMPARE(m->index(sts, 0).data(SassModel::ShareRole).toDouble(), 500.0 / 1250.0);
    QVERIFY(m->index(sts, 0).data(Qt::ToolTipRole).toString().contains(u"long scoreboard 90%"_s));
    QVERIFY(!m->index(1, SassModel::SamplesColumn).data().isValid());
}

void TestAssemblyPanel::executedPerInstruction()
{
    AssemblyPanel panel;
    QAbstractItemModelTester tester(panel.sassModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.setAssembly(transpose());
    panel.setSourceProfile(profile(u"source_profile_sass_handmade.json"_s));
    const SassModel *m = panel.sassModel();
    QCOMPARE(m->columnCount(), int(SassModel::ColumnCount));
    QCOMPARE(m->headerData(SassModel::ExecutedColumn, Qt::Horizontal).toString(), u"Executed"_s);
    QCOMPARE(m->headerData(SassModel::EfficiencyColumn, Qt::Horizontal).toString(), u"Threads"_s);
    QVERIFY(m->headerData(SassModel::ExecutedColumn, Qt::Horizontal, Qt::ToolTipRole).toString().contains(u"smsp__sass_inst_executed"_s));
    // 0x04d0: sampled and counted, half its threads active.
    const int sts = 0x04d0 / 16;
    QCOMPARE(m->index(sts, SassModel::ExecutedColumn).data().toString(), QLocale().toString(1024));
    QCOMPARE(m->index(sts, SassModel::EfficiencyColumn).data().toString(), u"50%"_s);
    QCOMPARE(m->index(sts, 0).data(SassModel::ExecutedRole).toLongLong(), 1024);
    QCOMPARE(m->index(sts, 0).data(SassModel::ThreadsExecutedRole).toLongLong(), 16384);
    QCOMPARE(m->index(sts, 0).data(SassModel::EfficiencyRole).toDouble(), 0.5);
    QVERIFY(m->index(sts, 0)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(u"Executed by %1 warps, %2 threads"_s.arg(QLocale().toString(1024), QLocale().toString(16384))));
    // 0x04f0: executed, never sampled: a count and no samples.
    const int unsampled = 0x04f0 / 16;
    QCOMPARE(m->index(unsampled, SassModel::OffsetColumn).data().toString(), u"04f0"_s);
    QVERIFY(!m->index(unsampled, SassModel::SamplesColumn).data().isValid());
    QCOMPARE(m->index(unsampled, SassModel::ExecutedColumn).data().toString(), QLocale().toString(2048));
    QCOMPARE(m->index(unsampled, SassModel::EfficiencyColumn).data().toString(), u"100%"_s);
    // 0x05c0: sampled, not counted: empty cells, -1 in the roles.
    const int uncounted = 0x05c0 / 16;
    QVERIFY(!m->index(uncounted, SassModel::ExecutedColumn).data().isValid());
    QVERIFY(!m->index(uncounted, SassModel::EfficiencyColumn).data().isValid());
    QCOMPARE(m->index(uncounted, 0).data(SassModel::ExecutedRole).toLongLong(), -1);
    QCOMPARE(m->index(uncounted, 0).data(SassModel::EfficiencyRole).toDouble(), -1.0);
    // Counts present: the status does not mention them.
    QVERIFY2(!panel.statusText().contains(u"execution counts"_s), qPrintable(panel.statusText()));

    // Samples without counts: the cells are empty and the status says why.
    panel.setSourceProfile(profile());
    QVERIFY(!m->index(sts, SassModel::ExecutedColumn).data().isValid());
    QVERIFY2(panel.statusText().contains(u"No instruction execution counts"_s), qPrintable(panel.statusText()));
}

void TestAssemblyPanel::resourcesAndMix()
{
    AssemblyPanel panel;
    panel.setAssembly(transpose());
    const QString res = panel.findChild<QLabel *>(u"assemblyResources"_s)->text();
    QVERIFY2(res.contains(u"30 registers"_s) && res.contains(u"4.1 KiB shared"_s) && res.contains(u"no spills"_s),
             qPrintable(res));
    const QString mix = panel.findChild<QLabel *>(u"assemblyMix"_s)->text();
    QVERIFY2(mix.contains(u"152 instruction"_s) && mix.contains(u"global memory"_s), qPrintable(mix));
    QVERIFY(panel.statusText().contains(u"SASS from nvdisasm 13.0.88 on worker 1"_s));
}

void TestAssemblyPanel::saysWhatIsMissing()
{
    AssemblyPanel panel;
    QVERIFY(panel.statusText().contains(u"Select a variant"_s));
    Assembly a = transpose();
    a.sass = {};
    a.sassError = u"No SASS: the worker host has no disassembler (neither cuobjdump nor nvdisasm found)."_s;
    panel.setAssembly(a);
    QVERIFY(panel.statusText().contains(a.sassError));
    QCOMPARE(panel.sassModel()->rowCount(), 0);
    QVERIFY(panel.ptxModel()->rowCount() > 0); // the rest works
    // A profile the host could not take: its reason is shown too.
    panel.setSourceProfile(SourceProfile::fromResult(
        QJsonDocument::fromJson(asmText(u"source_profile_unavailable.json"_s).toUtf8()).object()));
    QVERIFY(panel.statusText().contains(u"ERR_NVGPUCTRPERM"_s));
}

void TestAssemblyPanel::screenshot()
{
    // The H200's own replies (tests/fixtures/asm/h200): transpose's good kernel, its SASS and its PC samples.
    AssemblyPanel panel;
    panel.resize(760, 560);
    Assembly a = transpose();
    a.sass = SassListing::parse(asmText(u"h200/transpose.sass"_s));
    a.sassTool = u"nvdisasm 13.0.85 on the H200"_s;
    panel.setAssembly(a);
    panel.setSourceProfile(
        SourceProfile::fromResult(QJsonDocument::fromJson(asmText(u"h200/transpose.evaluate.json"_s).toUtf8()).object()));
    panel.show();
    panel.highlightSourceLine(19);
    // The view scrolled to line 19's instruction with most samples: the shared store that waits for the global
    // load's data (a long-scoreboard stall is counted on the instruction that needs the loaded register).
    const int hot = panel.sassModel()->hottestRowOfLine(19);
    QVERIFY(hot >= 0);
    QVERIFY(!panel.sassModel()->index(hot, SassModel::SamplesColumn).data().toString().isEmpty());
    QVERIFY2(panel.sassModel()->index(hot, SassModel::InstructionColumn).data().toString().contains(u"STS"_s),
             qPrintable(panel.sassModel()->index(hot, SassModel::InstructionColumn).data().toString()));
    // The H200 reply has SASS execution counts: the hot instruction shows its executions and thread efficiency.
    QVERIFY(!panel.sassModel()->index(hot, SassModel::ExecutedColumn).data().toString().isEmpty());
    QVERIFY(!panel.sassModel()->index(hot, SassModel::EfficiencyColumn).data().toString().isEmpty());
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    // Into docs/ only when asked (KFORGE_DOC_SHOTS=1, as tst_docshots): a test run leaves the tree as it found it.
    const QString dir = qEnvironmentVariableIntValue("KFORGE_DOC_SHOTS") == 1
                            ? QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/screenshots")
                            : QStringLiteral(KFORGE_TEST_ARTIFACT_DIR);
    QDir().mkpath(dir);
    QVERIFY(panel.grab().save(dir + u"/assembly-panel.png"_s));
    panel.tabs()->setCurrentIndex(1);
    panel.highlightSourceLine(26);
    QVERIFY(panel.grab().save(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/assembly-panel-ptx.png")));
}

void TestAssemblyPanel::promptScreenshot()
{
    // The exemplar with hot lines as the model reads it: the golden prompt tst_promptbuilder renders and checks.
    QFile f(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/core/optimizer/golden/contrastive_hot_lines.md"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString prompt = QString::fromUtf8(f.readAll());
    const qsizetype hot = prompt.indexOf(u"Hottest source lines"_s);
    QVERIFY(hot > 0);
    const qsizetype from = prompt.lastIndexOf(u"### Variant"_s, hot);
    const qsizetype to = prompt.indexOf(u"```cuda"_s, hot);
    QVERIFY(from >= 0 && to > hot);
    QPlainTextEdit view;
    view.setReadOnly(true);
    view.setLineWrapMode(QPlainTextEdit::WidgetWidth);
    view.setPlainText(prompt.mid(from, to - from).trimmed());
    view.resize(900, 330);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.grab().save(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/screenshots/prompt-hot-lines.png")));
}

QTEST_MAIN(TestAssemblyPanel)
#include "tst_assemblypanel.moc"
