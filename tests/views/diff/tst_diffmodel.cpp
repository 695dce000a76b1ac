// DiffModel: rows aligned as a side-by-side diff reads them, written down as text dumps.
#include "views/diff/diffmodel.h"

#include <QStandardPaths>
#include <QTest>

using namespace kforge;

namespace {
QString lines(std::initializer_list<const char *> l)
{
    QString out;
    for (const char *s : l)
        out += QString::fromUtf8(s) + u'\n';
    return out;
}

QString numbered(int from, int to, const char *prefix = "line")
{
    QString out;
    for (int i = from; i <= to; ++i)
        out += QStringLiteral("%1 %2\n").arg(QString::fromUtf8(prefix)).arg(i);
    return out;
}
} // namespace

class TestDiffModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void alignment_data()
    {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<QString>("expected");

        QTest::newRow("identical") << lines({"a", "b"}) << lines({"a", "b"})
                                   << QStringLiteral("=   1   1 | a\n=   2   2 | b\n");
        QTest::newRow("both empty") << QString() << QString() << QString();
        QTest::newRow("changed line") << lines({"a", "int x = 1;", "c"}) << lines({"a", "int x = 2;", "c"})
                                      << QStringLiteral(
                                             "=   1   1 | a\n~   2   2 | int x = 1; -> int x = 2;\n=   3   3 | c\n");
        QTest::newRow("removed") << lines({"a", "b", "c"}) << lines({"a", "c"})
                                 << QStringLiteral("=   1   1 | a\n-   2   . | b\n=   3   2 | c\n");
        QTest::newRow("added") << lines({"a", "c"}) << lines({"a", "b", "c"})
                               << QStringLiteral("=   1   1 | a\n+   .   2 | b\n=   2   3 | c\n");
        QTest::newRow("two edited, one added")
            << lines({"a", "float p = x[i];", "float q = y[i];", "z"})
            << lines({"a", "float p = x[j];", "float q = y[j];", "float r = w[j];", "z"})
            << QStringLiteral(
                   "=   1   1 | a\n~   2   2 | float p = x[i]; -> float p = x[j];\n"
                   "~   3   3 | float q = y[i]; -> float q = y[j];\n+   .   4 | float r = w[j];\n=   4   5 | z\n");
        QTest::newRow("dissimilar lines are not paired")
            << lines({"{", "    if (i < n)", "}"}) << lines({"{", "    const float s = __ldg(a + row);", "}"})
            << QStringLiteral("=   1   1 | {\n-   2   . |     if (i < n)\n+   .   2 |     const float s = __ldg(a + row);\n"
                              "=   3   3 | }\n");
        QTest::newRow("pairs follow similarity, not position")
            << lines({"int a = 1;", "x"}) << lines({"y", "int a = 2;"})
            << QStringLiteral("+   .   1 | y\n~   1   2 | int a = 1; -> int a = 2;\n-   2   . | x\n");
        QTest::newRow("from nothing") << QString() << lines({"a", "b"}) << QStringLiteral("+   .   1 | a\n+   .   2 | b\n");
        QTest::newRow("no final newline")
            << QStringLiteral("a\nb") << QStringLiteral("a\nb\n") << QStringLiteral("=   1   1 | a\n=   2   2 | b\n");
        QTest::newRow("crlf") << QStringLiteral("a\r\nb\r\n") << QStringLiteral("a\nc\n")
                              << QStringLiteral("=   1   1 | a\n-   2   . | b\n+   .   2 | c\n");
    }

    void alignment()
    {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(QString, expected);
        DiffModel m;
        m.setTexts(left, right);
        QCOMPARE(m.dump(), expected);
    }

    void folding()
    {
        // 20 equal lines, one change, 20 equal lines: context 3 around the change, the rest folded.
        const QString left = numbered(1, 20) + QStringLiteral("int v = old;\n") + numbered(22, 41);
        const QString right = numbered(1, 20) + QStringLiteral("int v = new;\n") + numbered(22, 41);
        DiffModel m;
        m.setTexts(left, right);
        QCOMPARE(m.dump(), QStringLiteral("@ 17 lines folded\n"
                                          "=  18  18 | line 18\n=  19  19 | line 19\n=  20  20 | line 20\n"
                                          "~  21  21 | int v = old; -> int v = new;\n"
                                          "=  22  22 | line 22\n=  23  23 | line 23\n=  24  24 | line 24\n"
                                          "@ 17 lines folded\n"));
        QCOMPARE(m.rows().front().foldedLines, 17);
        QCOMPARE(m.changeStarts(), std::vector<int>{4});

        m.expandFold(m.rows().back().foldKey);
        QCOMPARE(m.rowCount(), 1 + 3 + 1 + 20);
        QCOMPARE(m.rows().front().kind, DiffRow::Fold); // the other fold stays closed
        m.collapseAll();
        QCOMPARE(m.rowCount(), 9);
        m.setContext(1);
        QCOMPARE(m.rowCount(), 1 + 1 + 1 + 1 + 1);
        m.setFolding(false);
        QCOMPARE(m.rowCount(), 41);
    }

    void identicalSourcesAreNotFolded()
    {
        DiffModel m;
        m.setTexts(numbered(1, 30), numbered(1, 30));
        QVERIFY(m.identical());
        QCOMPARE(m.rowCount(), 30);
        QVERIFY(m.changeStarts().empty());
    }

    void smallRunsAreNotFolded()
    {
        // Between two changes 7 equal lines: 3 + 3 context leave 1 line, not worth a fold.
        const QString left = QStringLiteral("x = 1;\n") + numbered(1, 7) + QStringLiteral("y = 1;\n");
        const QString right = QStringLiteral("x = 2;\n") + numbered(1, 7) + QStringLiteral("y = 2;\n");
        DiffModel m;
        m.setTexts(left, right);
        QCOMPARE(m.rowCount(), 9);
        QCOMPARE(m.changeStarts(), (std::vector<int>{0, 8}));
    }

    void navigation()
    {
        const QString left = QStringLiteral("x = 1;\n") + numbered(1, 10) + QStringLiteral("y = 1;\n")
                             + numbered(11, 20) + QStringLiteral("z = 1;\n");
        const QString right = QStringLiteral("x = 2;\n") + numbered(1, 10) + QStringLiteral("y = 2;\n")
                              + numbered(11, 20) + QStringLiteral("z = 2;\n");
        DiffModel m;
        m.setTexts(left, right);
        const std::vector<int> starts = m.changeStarts();
        QCOMPARE(int(starts.size()), 3);
        QCOMPARE(m.nextChange(-1), starts[0]);
        QCOMPARE(m.nextChange(starts[0]), starts[1]);
        QCOMPARE(m.nextChange(starts[2]), -1);
        QCOMPARE(m.previousChange(starts[2]), starts[1]);
        QCOMPARE(m.previousChange(starts[0]), -1);
        QCOMPARE(m.previousChange(m.rowCount()), starts[2]);
        for (int s : starts)
            QCOMPARE(m.rows()[size_t(s)].kind, DiffRow::Changed);
        QCOMPARE(m.changedLines(), 3);
        QVERIFY(!m.identical());
    }

    void changeBlockIsOneStop()
    {
        DiffModel m;
        m.setTexts(lines({"a", "b = 1;", "c = 1;", "d"}), lines({"a", "b = 2;", "c = 2;", "new", "d"}));
        QCOMPARE(m.changeStarts(), std::vector<int>{1});
        QCOMPARE(m.changedLines(), 2);
        QCOMPARE(m.addedLines(), 1);
        QCOMPARE(m.removedLines(), 0);
    }

    void lineSpans_data()
    {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<QList<DiffSpan>>("leftSpans");
        QTest::addColumn<QList<DiffSpan>>("rightSpans");
        QTest::newRow("one number") << QStringLiteral("int x = 1;") << QStringLiteral("int x = 42;")
                                    << QList<DiffSpan>{{8, 1}} << QList<DiffSpan>{{8, 2}};
        QTest::newRow("word replaced") << QStringLiteral("float *a") << QStringLiteral("float4 *a")
                                       << QList<DiffSpan>{{0, 5}} << QList<DiffSpan>{{0, 6}};
        QTest::newRow("inserted qualifier")
            << QStringLiteral("const float *a") << QStringLiteral("const float *__restrict__ a") << QList<DiffSpan>{}
            << QList<DiffSpan>{{13, 12}};
        QTest::newRow("indentation is not marked") << QStringLiteral("    x = 1;") << QStringLiteral("        x = 2;")
                                                   << QList<DiffSpan>{{8, 1}} << QList<DiffSpan>{{12, 1}};
        QTest::newRow("adjacent tokens merge")
            << QStringLiteral("a+b") << QStringLiteral("c*d") << QList<DiffSpan>{{0, 3}} << QList<DiffSpan>{{0, 3}};
        QTest::newRow("member access is one token") << QStringLiteral("threadIdx.x") << QStringLiteral("threadIdx.y")
                                                    << QList<DiffSpan>{{0, 11}} << QList<DiffSpan>{{0, 11}};
    }

    void lineSpans()
    {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(QList<DiffSpan>, leftSpans);
        QFETCH(QList<DiffSpan>, rightSpans);
        QList<DiffSpan> l;
        QList<DiffSpan> r;
        DiffModel::lineSpans(left, right, &l, &r);
        QCOMPARE(l, leftSpans);
        QCOMPARE(r, rightSpans);
    }

    void largeSources()
    {
        // Two 5,000-line sources with a change every 100 lines diff quickly and completely.
        QString left;
        QString right;
        for (int i = 0; i < 5000; ++i) {
            left += QStringLiteral("    acc += a[%1] * b[%1];\n").arg(i);
            right += (i % 100 == 50 ? QStringLiteral("    acc = fmaf(a[%1], b[%1], acc);\n")
                                    : QStringLiteral("    acc += a[%1] * b[%1];\n"))
                         .arg(i);
        }
        DiffModel m;
        m.setTexts(left, right);
        QCOMPARE(m.changedLines(), 50);
        QCOMPARE(int(m.changeStarts().size()), 50);
    }
};

QTEST_GUILESS_MAIN(TestDiffModel)
#include "tst_diffmodel.moc"
