// The heat gutter on a real editor tab with the transpose variant's source and the hand-made profile of its
// committed listing (tests/fixtures/asm): margin text per line, call tips, the lines model under
// QAbstractItemModelTester. Writes docs/screenshots/heat-gutter.png.
#include "tests/core/sourcelevel/asmfixtures.h"
#include "views/editor/editorsetup.h"
#include "views/editor/heatgutter.h"
#include "views/editor/heatlinesmodel.h"
#include "views/editor/kerneltab.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QLocale>
#include <QStandardPaths>
#include <QTest>
#include <Qsci/qsciscintilla.h>

using namespace Qt::StringLiterals;
using namespace kforge;
using kforge::test::asmBytes;

namespace {

SourceHeat heat(const QString &fixture = u"source_profile_handmade.json"_s)
{
    return SourceHeat::of(SourceProfile::fromResult(QJsonDocument::fromJson(asmBytes(fixture)).object()),
                          u"smem_tiled.cu"_s);
}

} // namespace

class TestHeatGutter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void modelUnderTester();
    void marginAndTips();
    void executedInTips();
    void hiddenWithoutProfile();
    void screenshot();
};

void TestHeatGutter::modelUnderTester()
{
    HeatLinesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setHeat(heat(), QString::fromUtf8(asmBytes(u"transpose_smem_tiled/source.cu"_s)));
    QCOMPARE(model.rowCount(), 4);
    // Hottest first: line 19 (the global load into the tile), 26, 21, 9.
    QCOMPARE(model.index(0, HeatLinesModel::LineColumn).data().toInt(), 19);
    QCOMPARE(model.index(0, HeatLinesModel::ShareColumn).data().toString(), u"64.0%"_s);
    QCOMPARE(model.index(0, HeatLinesModel::StallsColumn).data().toString(), u"long scoreboard 59%, selected 35%"_s);
    QCOMPARE(model.index(0, HeatLinesModel::SourceColumn).data().toString(), u"tile[ty + j][tx] = x[r * cols + c];"_s);
    QCOMPARE(model.index(1, HeatLinesModel::LineColumn).data().toInt(), 26);
    QCOMPARE(model.index(3, HeatLinesModel::LineColumn).data().toInt(), 9);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestHeatGutter::marginAndTips()
{
    KernelTab tab(false);
    tab.editor()->setText(QString::fromUtf8(asmBytes(u"transpose_smem_tiled/source.cu"_s)));
    HeatGutter *gutter = HeatGutter::of(tab.editor());
    QCOMPARE(HeatGutter::of(tab.editor()), gutter); // one per editor
    QVERIFY(!gutter->isShown());
    gutter->setHeat(heat());
    QVERIFY(gutter->isShown());
    QCOMPARE(gutter->marginText(19), u"64%"_s);
    QCOMPARE(gutter->marginText(26), u"20%"_s);
    QCOMPARE(gutter->marginText(20), QString());
    // What Scintilla holds for the margin (0-based lines).
    char buffer[16] = {};
    tab.editor()->SendScintilla(QsciScintilla::SCI_MARGINGETTEXT, 18, buffer);
    QCOMPARE(QString::fromUtf8(buffer), u"64%"_s);
    const QString tip = gutter->tipForLine(19);
    QVERIFY2(tip.startsWith(u"64.0% of samples (800 of 1250)"_s), qPrintable(tip));
    QVERIFY(tip.contains(u"long scoreboard: waiting on a global or local memory load (L1TEX)"_s));
    QVERIFY(gutter->tipForLine(21).contains(u"barrier: waiting at a block barrier (__syncthreads)"_s));
    QVERIFY(gutter->tipForLine(1).isEmpty());
}

void TestHeatGutter::executedInTips()
{
    KernelTab tab(false);
    tab.editor()->setText(QString::fromUtf8(asmBytes(u"transpose_smem_tiled/source.cu"_s)));
    HeatGutter *gutter = HeatGutter::of(tab.editor());
    gutter->setHeat(heat(u"source_profile_sass_handmade.json"_s));
    // A sampled line: its samples and stalls first, then its executed instructions (SASS metrics).
    const QStringList tip = gutter->tipForLine(19).split(u'\n');
    QVERIFY2(tip.first().startsWith(u"64.0% of samples (800 of 1250)"_s), qPrintable(tip.join(u" | "_s)));
    QCOMPARE(tip.last(), u"%1 instructions executed (warp-level), thread efficiency 75%"_s.arg(QLocale().toString(2048)));
    QVERIFY(gutter->tipForLine(21).contains(QLocale().toString(6144)));
    // A line that executed but was never sampled: no margin text, a tip with its count.
    QCOMPARE(gutter->marginText(14), QString());
    QCOMPARE(gutter->tipForLine(14), u"No samples\n512 instructions executed (warp-level), thread efficiency 100%"_s);
    // A line without counts keeps the tip it had; a line with neither has none.
    QVERIFY(!gutter->tipForLine(26).contains(u"executed"_s));
    QVERIFY(gutter->tipForLine(1).isEmpty());
    // The lines list is the sampled lines only.
    QCOMPARE(gutter->model()->rowCount(), 4);
}

void TestHeatGutter::hiddenWithoutProfile()
{
    KernelTab tab(false);
    tab.editor()->setText(QString::fromUtf8(asmBytes(u"transpose_smem_tiled/source.cu"_s)));
    HeatGutter *gutter = HeatGutter::of(tab.editor());
    gutter->setHeat(heat());
    gutter->clear();
    QVERIFY(!gutter->isShown());
    QVERIFY(gutter->marginText(19).isEmpty());
    char buffer[16] = {};
    tab.editor()->SendScintilla(QsciScintilla::SCI_MARGINGETTEXT, 18, buffer);
    QCOMPARE(QString::fromUtf8(buffer), QString());
}

void TestHeatGutter::screenshot()
{
    KernelTab tab(false);
    tab.resize(900, 640);
    tab.editor()->setText(QString::fromUtf8(asmBytes(u"transpose_smem_tiled/source.cu"_s)));
    HeatGutter::of(tab.editor())->setHeat(heat());
    tab.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tab));
    const QString dir = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/screenshots");
    QDir().mkpath(dir);
    QVERIFY(tab.grab().save(dir + u"/heat-gutter.png"_s));
}

QTEST_MAIN(TestHeatGutter)
#include "tst_heatgutter.moc"
