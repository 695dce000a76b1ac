// HeatCompareView on the hand-made profile of the committed transpose listing (tests/fixtures/asm) against a
// variant measured without the pass and one whose host refused the counters: models under
// QAbstractItemModelTester, the stall mixes, the sentences that say what is missing, and the button that
// profiles the sides without a profile.
#include "tests/core/sourcelevel/asmfixtures.h"
#include "views/compare/heatcompareview.h"
#include "views/editor/heatlinesmodel.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonDocument>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;
using kforge::test::asmBytes;

namespace {

SourceProfile profile(const QString &name)
{
    return SourceProfile::fromResult(QJsonDocument::fromJson(asmBytes(name)).object());
}

} // namespace

class TestHeatCompare : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void sideBySide();
    void missingProfiles();
    void profileButton();
};

void TestHeatCompare::sideBySide()
{
    HeatCompareView view;
    QAbstractItemModelTester ta(view.modelA(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester tb(view.modelB(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QString source = QString::fromUtf8(asmBytes(u"transpose_smem_tiled/source.cu"_s));
    SourceProfile b = profile(u"source_profile_handmade.json"_s);
    // B: the same kernel where the barrier dominates (its samples moved from line 19 to line 21).
    for (SourceProfile::Pc &pc : b.kernels[0].pcs)
        if (pc.line == 21)
            pc.samples = 2000, pc.stalls = {{u"barrier"_s, 2000}};
    b.kernels[0].samples = 3100;
    view.setPair({u"A (#3)"_s, profile(u"source_profile_handmade.json"_s), source}, {u"B (#4)"_s, b, source});
    QCOMPARE(view.modelA()->rowCount(), 4);
    QCOMPARE(view.modelA()->index(0, HeatLinesModel::LineColumn).data().toInt(), 19);
    QCOMPARE(view.modelB()->index(0, HeatLinesModel::LineColumn).data().toInt(), 21);
    QCOMPARE(view.modelB()->index(0, HeatLinesModel::SourceColumn).data().toString(), u"__syncthreads();"_s);
    QVERIFY2(view.summaryA().startsWith(u"A (#3): 1250 sample"_s), qPrintable(view.summaryA()));
    QVERIFY(view.summaryA().contains(u"long scoreboard 38%"_s)); // 470 of 1250
    QVERIFY2(view.summaryB().contains(u"barrier"_s), qPrintable(view.summaryB()));
    view.clear();
    QCOMPARE(view.modelA()->rowCount(), 0);
}

void TestHeatCompare::missingProfiles()
{
    HeatCompareView view;
    view.setPair({u"A (#3)"_s, SourceProfile{}, {}}, {u"B (#4)"_s, profile(u"source_profile_unavailable.json"_s), {}});
    QCOMPARE(view.modelA()->rowCount(), 0);
    QVERIFY2(view.summaryA().contains(u"Profile source lines"_s), qPrintable(view.summaryA()));
    QVERIFY(view.summaryB().contains(u"NVreg_RestrictProfilingToAdminUsers=0"_s));
    QVERIFY(!view.findChild<QTableView *>(u"heatViewB"_s)->isVisibleTo(&view));
}

void TestHeatCompare::profileButton()
{
    HeatCompareView view;
    QPushButton *button = view.profileButton();
    QCOMPARE(button->objectName(), u"profileBoth"_s);
    QList<qint64> asked;
    connect(&view, &HeatCompareView::profileRequested, &view, [&asked](qint64 id) { asked.append(id); });
    const SourceProfile ok = profile(u"source_profile_handmade.json"_s);
    const SourceProfile refused = profile(u"source_profile_unavailable.json"_s);
    SourceProfile failed;
    failed.status = SourceProfile::Status::Failed;
    failed.reason = u"The source-level helper was killed by signal 11"_s;

    // Neither side profiled: one button for both, both asked for in order.
    view.setPair({u"A (#3)"_s, {}, {}, 3}, {u"B (#4)"_s, {}, {}, 4});
    QVERIFY(button->isVisibleTo(&view));
    QCOMPARE(button->text(), u"Profile A and B"_s);
    QCOMPARE(view.toProfile(), (QList<qint64>{3, 4}));
    button->click();
    QCOMPARE(asked, (QList<qint64>{3, 4}));

    // Only B needs it (a failed pass is worth another run); A has a profile.
    asked.clear();
    view.setPair({u"A (#3)"_s, ok, {}, 3}, {u"B (#4)"_s, failed, {}, 4});
    QCOMPARE(button->text(), u"Profile B"_s);
    button->click();
    QCOMPARE(asked, (QList<qint64>{4}));

    // A host that refused the counters gives the same answer again: no button for that side.
    view.setPair({u"A (#3)"_s, ok, {}, 3}, {u"B (#4)"_s, refused, {}, 4});
    QVERIFY(!button->isVisibleTo(&view));
    QVERIFY(view.toProfile().isEmpty());
    // Not session variants (id 0): nothing to profile.
    view.setPair({u"A"_s, {}, {}, 0}, {u"B"_s, {}, {}, 0});
    QVERIFY(!button->isVisibleTo(&view));
    view.clear();
    QVERIFY(!button->isVisibleTo(&view));
}

QTEST_MAIN(TestHeatCompare)
#include "tst_heatcompare.moc"
