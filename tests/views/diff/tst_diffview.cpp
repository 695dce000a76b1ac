// DiffView: both panes show the same rows, changes are marked, navigation and folds work, scrolling is shared.
#include "views/diff/diffview.h"
#include "views/editor/cudalexer.h"

#include <Qsci/qsciscintilla.h>

#include <QFile>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace kforge;

namespace {
QString readTaskFile(const QString &relative)
{
    QFile f(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/") + relative);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString sourceWithChanges()
{
    QString s;
    for (int i = 0; i < 60; ++i)
        s += QStringLiteral("    float v%1 = a[%1];\n").arg(i);
    return s;
}
} // namespace

class TestDiffView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void rowsAndMarks()
    {
        const QString left = sourceWithChanges();
        QString right = left;
        right.replace(QStringLiteral("float v10 = a[10];"), QStringLiteral("float v10 = __ldg(a + 10);"));
        right.replace(QStringLiteral("    float v40 = a[40];\n"), QString());
        DiffView view;
        view.setSources(QStringLiteral("naive"), left, QStringLiteral("good"), right);
        const DiffModel &m = view.model();
        QCOMPARE(view.leftEditor()->lines(), m.rowCount());
        QCOMPARE(view.rightEditor()->lines(), m.rowCount());
        QVERIFY(view.leftEditor()->isReadOnly());
        QVERIFY(qobject_cast<CudaLexer *>(view.rightEditor()->lexer()));
        QCOMPARE(int(m.changeStarts().size()), 2);

        const int changed = m.changeStarts()[0];
        const int removed = m.changeStarts()[1];
        QCOMPARE(m.rows()[size_t(changed)].kind, DiffRow::Changed);
        QCOMPARE(m.rows()[size_t(removed)].kind, DiffRow::Removed);
        QVERIFY(view.leftEditor()->markersAtLine(changed) != 0);
        QVERIFY(view.rightEditor()->markersAtLine(changed) != 0);
        QVERIFY(view.leftEditor()->markersAtLine(removed) != 0);
        QVERIFY(view.rightEditor()->text(removed).trimmed().isEmpty()); // the gap
        // Margins show the sources' own line numbers.
        const int same = changed - 1;
        QCOMPARE(m.rows()[size_t(same)].kind, DiffRow::Same);
        QCOMPARE(view.leftEditor()->text(same).trimmed(), QStringLiteral("float v9 = a[9];"));
        QVERIFY2(view.summary().startsWith(QLatin1String("Changes: 2 ")), qPrintable(view.summary()));
    }

    void navigationAndFolds()
    {
        const QString left = sourceWithChanges();
        QString right = left;
        right.replace(QStringLiteral("v5 ="), QStringLiteral("w5 ="));
        right.replace(QStringLiteral("v50 ="), QStringLiteral("w50 ="));
        DiffView view;
        view.resize(900, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSources(QStringLiteral("a"), left, QStringLiteral("b"), right);
        const std::vector<int> starts = view.model().changeStarts();
        QCOMPARE(int(starts.size()), 2);
        QSignalSpy moved(&view, &DiffView::currentRowChanged);
        view.nextChange();
        QCOMPARE(view.currentRow(), starts[0]);
        view.nextChange();
        QCOMPARE(view.currentRow(), starts[1]);
        view.nextChange(); // wraps
        QCOMPARE(view.currentRow(), starts[0]);
        view.previousChange();
        QCOMPARE(view.currentRow(), starts[1]);
        QCOMPARE(moved.count(), 4);

        // The 41 equal lines between the changes are folded to one row; clicking it opens them.
        int fold = -1;
        for (int i = 0; i < view.model().rowCount(); ++i)
            if (view.model().rows()[size_t(i)].foldedLines == 38)
                fold = i;
        QVERIFY(fold >= 0);
        QVERIFY(view.leftEditor()->text(fold).contains(QLatin1String("unchanged")));
        const int before = view.model().rowCount();
        view.expandFoldAt(fold);
        QCOMPARE(view.model().rowCount(), before - 1 + 38);
        QCOMPARE(view.leftEditor()->lines(), view.model().rowCount());
        view.setFolding(false);
        QCOMPARE(view.model().rowCount(), 60);
    }

    void scrollingTogether()
    {
        const QString left = sourceWithChanges();
        DiffView view;
        view.resize(800, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setFolding(false);
        view.setSources(QStringLiteral("a"), left, QStringLiteral("b"), left + QStringLiteral("extra\n"));
        QScrollBar *l = view.leftEditor()->verticalScrollBar();
        QScrollBar *r = view.rightEditor()->verticalScrollBar();
        QVERIFY(l->maximum() > 10);
        l->setValue(25);
        QCOMPARE(r->value(), 25);
        r->setValue(7);
        QCOMPARE(l->value(), 7);
    }

    void identical()
    {
        DiffView view;
        view.setSources(QStringLiteral("a"), QStringLiteral("x\n"), QStringLiteral("b"), QStringLiteral("x\n"));
        QVERIFY(view.model().identical());
        QVERIFY(view.summary().contains(QLatin1String("identical")));
        view.nextChange(); // nothing to go to
        QCOMPARE(view.currentRow(), -1);
    }

    void screenshot()
    {
        const QString naive = readTaskFile(QStringLiteral("diag_matmul/variants/naive.cu"));
        const QString good = readTaskFile(QStringLiteral("diag_matmul/variants/rowscale.cu"));
        if (naive.isEmpty() || good.isEmpty())
            QSKIP("diag_matmul variants not found");
        DiffView view;
        view.resize(1400, 800);
        view.setSources(QStringLiteral("naive.cu"), naive, QStringLiteral("rowscale.cu"), good);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.nextChange();
        QVERIFY(view.grab().save(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/diffview.png")));
        view.setDarkTheme(true);
        QVERIFY(view.grab().save(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/diffview-dark.png")));
    }
};

QTEST_MAIN(TestDiffView)
#include "tst_diffview.moc"
