// The strip under a kernel tab never widens what holds it: a status of any length is one elided line with
// the whole text as its tool tip, and a long kernel name is elided in the middle (issue 14 item 1).
#include "views/editor/elidinglabel.h"
#include "views/editor/kernelinfostrip.h"

#include <QDir>
#include <QTest>
#include <QVBoxLayout>

using namespace kforge;

namespace {
// The kind of message an `incorrect` variant carries: one line of thousands of characters.
QString longStatus()
{
    QString s = QStringLiteral("failed: incorrect: C: 16772087 of 16777216 elements differ from the reference beyond atol "
                               "1e-05 + rtol 1e-05 * |expected| in trial 1;");
    for (int i = 0; i < 40; ++i)
        s += QStringLiteral(" first at [%1, 17]: got 0.25 expected 0.5;").arg(i);
    return s;
}

KernelResources longKernel()
{
    KernelResources k;
    k.name = QStringLiteral("void cutlass::Kernel<cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::threadblock::MmaMultistage<"
                            "cutlass::gemm::GemmShape<128, 256, 64>, cutlass::arch::OpClassTensorOp, 3>, "
                            "cutlass::epilogue::threadblock::Epilogue<float, 8>>>>(Params)");
    k.mangledName = QStringLiteral("_ZN7cutlass6KernelINS_4gemm6kernel13GemmUniversalEEEvNT_6ParamsE");
    k.registers = 232;
    k.sharedBytes = 98304;
    return k;
}
} // namespace

class TestKernelInfoStrip : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void longStatusDoesNotWiden()
    {
        QWidget holder;
        auto *layout = new QVBoxLayout(&holder);
        auto *strip = new KernelInfoStrip(&holder);
        layout->addWidget(strip);
        const int before = holder.minimumSizeHint().width();
        strip->setStatus(longStatus());
        strip->setResources({longKernel()});
        QVERIFY2(QFontMetrics(strip->font()).horizontalAdvance(longStatus()) > 2000, "the message is long");
        // Neither the strip nor what holds it asks for more than a narrow window's width.
        QVERIFY2(strip->minimumSizeHint().width() < 500, qPrintable(QString::number(strip->minimumSizeHint().width())));
        QVERIFY2(holder.minimumSizeHint().width() < std::max(before, 500),
                 qPrintable(QString::number(holder.minimumSizeHint().width())));
        QVERIFY(strip->sizeHint().width() < 1000);

        holder.resize(600, 200);
        holder.show();
        QVERIFY(QTest::qWaitForWindowExposed(&holder));
        QCOMPARE(holder.width(), 600);
        // The whole text is still there (tests, the tool tip, copying); what is painted is elided.
        QCOMPARE(strip->statusText(), longStatus());
        auto *status = strip->findChild<ElidingLabel *>(QStringLiteral("kforgeStatus"));
        QVERIFY(status);
        QVERIFY(status->isElided());
        QVERIFY(status->shownText().endsWith(QChar(0x2026)));
        QVERIFY(status->shownText().startsWith(QStringLiteral("failed: incorrect")));
        QVERIFY(status->width() <= 600);
        QCOMPARE(status->toolTip(), longStatus());
        // The kernel's name keeps its start and its end.
        ElidingLabel *name = nullptr;
        for (ElidingLabel *l : strip->findChildren<ElidingLabel *>())
            if (l != status)
                name = l;
        QVERIFY(name);
        // The strip shows the one short kernel name (core/eval/kernelname.h: the template arguments of so long
        // a name are folded into '‹…>'), elided further only where the strip is narrower still; the whole
        // demangled name stays in the tool tip.
        QVERIFY2(name->shownText().size() < longKernel().name.size() / 2, qPrintable(name->shownText()));
        QVERIFY(name->shownText().contains(QChar(0x2026)) || name->shownText().contains(QChar(0x2039)));
        QVERIFY(name->width() <= 600);
        QVERIFY(name->toolTip().contains(longKernel().name));

        QDir().mkpath(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/layout"));
        QVERIFY(holder.grab().save(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/layout/infostrip-long-status.png")));
    }

    void shortStatusIsShownWhole()
    {
        KernelInfoStrip strip;
        strip.setStatus(QStringLiteral("correct: 63.9× the reference"));
        strip.resize(600, strip.sizeHint().height());
        strip.show();
        QVERIFY(QTest::qWaitForWindowExposed(&strip));
        auto *status = strip.findChild<ElidingLabel *>(QStringLiteral("kforgeStatus"));
        QVERIFY(!status->isElided());
        QCOMPARE(status->shownText(), QStringLiteral("correct: 63.9× the reference"));
    }

    void multiLineStatusIsOneLine()
    {
        ElidingLabel label;
        label.setText(QStringLiteral("compile error\nnvcc failed"));
        label.resize(800, label.sizeHint().height());
        QCOMPARE(label.shownText(), QStringLiteral("compile error nvcc failed"));
        ElidingLabel single;
        single.setText(QStringLiteral("compile error"));
        QCOMPARE(label.sizeHint().height(), single.sizeHint().height());
        QCOMPARE(label.minimumSizeHint().height(), single.sizeHint().height());
    }
};

QTEST_MAIN(TestKernelInfoStrip)
#include "tst_kernelinfostrip.moc"
