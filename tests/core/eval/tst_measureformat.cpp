// The one unit policy for times (core/eval/measureformat.h): the magnitude picks µs or ms, formatMeasure's digits,
// and a forced unit for figures side by side; the two times' names in English and translated from one text.
#include "core/eval/measureformat.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

class TestMeasureFormat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void duration_data()
    {
        QTest::addColumn<double>("ms");
        QTest::addColumn<QString>("shown");
        QTest::newRow("a launch-bound kernel") << 0.00312 << u"3.12 µs"_s;
        QTest::newRow("diag_matmul's best") << 0.0318 << u"31.8 µs"_s;
        QTest::newRow("just under a millisecond") << 0.412 << u"412 µs"_s;
        QTest::newRow("one millisecond") << 1.0 << u"1 ms"_s;
        QTest::newRow("a GEMM") << 1.2046 << u"1.20 ms"_s;
        QTest::newRow("a slow reference") << 75.08 << u"75.1 ms"_s;
        QTest::newRow("seconds stay in ms") << 4219.3 << u"4219 ms"_s;
    }
    void duration()
    {
        QFETCH(double, ms);
        QFETCH(QString, shown);
        QCOMPARE(formatDuration(ms), shown);
    }

    void forcedUnit()
    {
        // Compare's row of 31.8 µs against 1.20 ms reads in the larger one's unit.
        QCOMPARE(formatDuration(0.0318, timeUnitFor(1.2046)), u"0.0318 ms"_s);
        QCOMPARE(formatDuration(1.2046, TimeUnit::Us), u"1205 µs"_s);
        QCOMPARE(timeUnitSymbol(timeUnitFor(0.5)), u"µs"_s);
        QCOMPARE(inTimeUnit(0.5, TimeUnit::Us), 500.0);
    }

    void names()
    {
        QCOMPARE(TimeNames::eventTimeEnglish(), u"Event time (median)"_s);
        QCOMPARE(TimeNames::kernelTimeEnglish(), u"Kernel time (CUPTI)"_s);
        // Untranslated, the panels' names are the exports' names.
        QCOMPARE(TimeNames::eventTime(), TimeNames::eventTimeEnglish());
        QCOMPARE(TimeNames::kernelTime(), TimeNames::kernelTimeEnglish());
        QVERIFY(TimeNames::eventTimeTip().contains(u"median"_s));
        QVERIFY(TimeNames::kernelTimeTip().contains(u"CUPTI"_s));
    }
};

QTEST_GUILESS_MAIN(TestMeasureFormat)
#include "tst_measureformat.moc"
