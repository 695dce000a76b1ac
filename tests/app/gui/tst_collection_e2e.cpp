// Issue 36 in the workbench, on the real MainWindow offscreen: File → Verify Collection… on the released-kernels
// fixture (tests/fixtures/collections/released/kernels.json) with the scripted worker of the verify tests as the
// configured pool (tests/fixtures/workers/scripted-worker.sh collection: it answers what each candidate's marker
// line says, never a measurement), the problems imported with a python3 that has torch (a CPU is enough): the
// Collection page's table, its sorting, its summary and the records not verified with their cause; Cancel in the
// middle and the same output folder verified again (the dialog says it continues; nothing measured twice);
// a pair double-clicked opens as a session with the problem as the reference and the candidate as a variant with
// its measured result. Screenshots in test-artifacts/collection. The docs' picture of the page: the 20-pair folder
// fixture verified the same way, every pair in view (into docs/screenshots with KFORGE_DOC_SHOTS=1, as
// tst_docshots). SKIP without a python3 with torch.
#include "app/gui/collectionactions.h"
#include "app/gui/mainactions.h"
#include "app/gui/mainwindow.h"
#include "core/collection/collectionverifier.h"
#include "core/log/loghub.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "guitesthelpers.h"
#include "views/collection/collectionpanel.h"
#include "views/collection/verifycollectiondialog.h"
#include "views/collection/verifytablemodel.h"

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

const QString kCollection = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/collections/released/kernels.json");
const QString kFolder = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/collections/folder/candidates");
const QString kProblems = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/collections/kernelbench");
const QString kWorker = u"bash "_s + QStringLiteral(KFORGE_TEST_SOURCE_DIR)
                        + u"/tests/fixtures/workers/scripted-worker.sh collection"_s;

int lineCount(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? int(f.readAll().count('\n')) : 0;
}

// The scripted worker of the verify tests as the configured pool.
void useScriptedWorker(Settings &settings)
{
    WorkerConfig worker;
    worker.name = u"scripted"_s;
    worker.command = kWorker;
    settings.setWorkers({worker});
}

QString shotDir()
{
    return qEnvironmentVariableIsSet("KFORGE_DOC_SHOTS") ? QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/screenshots")
                                                         : QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/collection");
}

QStringList column(const QAbstractItemModel *m, int col)
{
    QStringList out;
    for (int r = 0; r < m->rowCount(); ++r)
        out << m->index(r, col).data().toString();
    return out;
}

} // namespace

class TestCollectionE2e : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // Opens File → Verify Collection…, fills it in as a user does and presses Verify.
    VerifyCollectionDialog *verifyThroughDialog(MainWindow &w, const QString &collection, const QString &outDir)
    {
        VerifyCollectionDialog *shown = nullptr;
        QObject::connect(
            w.collections(), &CollectionActions::dialogShown, &w, [&](VerifyCollectionDialog *d) { shown = d; },
            Qt::SingleShotConnection);
        w.actions()->verifyCollection->trigger();
        if (!shown)
            return nullptr;
        shown->findChild<QLineEdit *>(u"outDir"_s)->setText(outDir);
        if (!collection.isEmpty())
            shown->findChild<QLineEdit *>(u"collectionPath"_s)->setText(collection);
        return shown;
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString missing = test::guiTestSetUp(m_dir, {kCollection});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        for (const QString &python : {qEnvironmentVariable("KFORGE_TORCH_PYTHON"), u"python3"_s, u"/usr/bin/python3"_s}) {
            if (python.isEmpty())
                continue;
            QProcess p;
            p.start(python, {u"-c"_s, u"import torch"_s});
            if (p.waitForFinished(120000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0) {
                qputenv("KFORGE_TORCH_PYTHON", python.toLocal8Bit());
                return;
            }
        }
        QSKIP("SKIP: no python3 with torch (tried $KFORGE_TORCH_PYTHON, python3, /usr/bin/python3)");
    }

    void verifyCollection()
    {
        Settings settings(m_dir.filePath(u"kforge.ini"_s));
        useScriptedWorker(settings);
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1600, 1000}));
        CollectionPanel *page = w.collectionPanel();
        QAbstractItemModelTester tester(page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(page->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString out = m_dir.filePath(u"verified"_s);

        // 1. The dialog, a slow worker, Cancel after the first result.
        qputenv("KFORGE_SCRIPTED_DELAY", "0.6");
        VerifyCollectionDialog *dialog = verifyThroughDialog(w, kCollection, out);
        QVERIFY(dialog);
        QVERIFY2(dialog->problem().isEmpty(), qPrintable(dialog->problem()));
        QTest::mouseClick(dialog->verifyButton(), Qt::LeftButton);
        QVERIFY(w.dockOf(page)->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(w.collections()->verifier() && w.collections()->verifier()->runner(), 120000);
        CollectionVerifier *first = w.collections()->verifier();
        QTRY_VERIFY_WITH_TIMEOUT(lineCount(first->logPath()) >= 1, 60000);
        QVERIFY(page->cancelButton()->isVisible());
        QTest::mouseClick(page->cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(first->stage(), CollectionVerifier::Stage::Done, 30000);
        const int afterCancel = lineCount(first->logPath());
        QVERIFY2(afterCancel >= 1 && afterCancel < 9, qPrintable(QString::number(afterCancel)));
        QVERIFY2(page->progressText().contains(u"Cancelled"_s), qPrintable(page->progressText()));
        QVERIFY(QFile::exists(first->htmlPath())); // written from what was measured

        // 2. The same output folder again: the dialog fills the collection in and says it continues.
        qunsetenv("KFORGE_SCRIPTED_DELAY");
        dialog = verifyThroughDialog(w, QString(), out);
        QVERIFY(dialog);
        QCOMPARE(dialog->findChild<QLineEdit *>(u"collectionPath"_s)->text(), kCollection);
        QVERIFY2(dialog->continueText().contains(u"it continues"_s), qPrintable(dialog->continueText()));
        QTest::mouseClick(dialog->verifyButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(w.collections()->verifier() != first && w.collections()->verifier()
                                     && w.collections()->verifier()->stage() == CollectionVerifier::Stage::Done,
                                 120000);
        CollectionVerifier *second = w.collections()->verifier();
        QCOMPARE(lineCount(second->logPath()), 9); // 3 pairs: main and two held-out sizes each, none measured twice
        QVERIFY2(page->progressText().contains(u"Done"_s), qPrintable(page->progressText()));
        QCOMPARE(page->progressBar()->value(), 3);
        QVERIFY(!page->cancelButton()->isVisible());

        // 3. The table: a row per pair with verdict, speedup and its interval, claim, flags and hack class.
        page->refresh();
        VerifyTableModel *m = page->model();
        QCOMPARE(m->rowCount(), 3);
        QCOMPARE(column(m, VerifyTableModel::Pair), (QStringList{u"level1/2"_s, u"level1/3"_s, u"level2/3"_s}));
        QCOMPARE(column(m, VerifyTableModel::Verdict), (QStringList{u"correct"_s, u"correct"_s, u"correct"_s}));
        QCOMPARE(column(m, VerifyTableModel::Speedup), (QStringList{u"1.10×"_s, u"1.40×"_s, u"40.00×"_s}));
        QCOMPARE(column(m, VerifyTableModel::Claimed), (QStringList{u"1.35×"_s, u"1.40×"_s, u"40.20×"_s}));
        QCOMPARE(column(m, VerifyTableModel::Claim), (QStringList{u"does not hold"_s, u"holds"_s, u"does not hold"_s}));
        QCOMPARE(column(m, VerifyTableModel::Flags), (QStringList{QString(), QString(), u"degenerate_output"_s}));
        QVERIFY(m->index(2, VerifyTableModel::HackClass).data().toString().startsWith(u"#13 degenerate output"_s));
        QCOMPARE(m->index(1, VerifyTableModel::Noise).data().toString(), u"1.36–1.44×"_s);
        QCOMPARE(column(m, VerifyTableModel::HeldOut), (QStringList{u"holds"_s, u"holds"_s, u"holds"_s}));
        // The summary the papers print, recomputed.
        const QString summary = page->summaryText();
        QVERIFY2(summary.contains(u"All pairs: correct 3 / 3 · mean 14.17× · median 1.40× · max 40.00× · faster than "
                                  "the reference 3 / 3 (100%)"_s),
                 qPrintable(summary));
        QVERIFY2(summary.contains(u"Without flags: correct 2 / 2 · mean 1.25×"_s), qPrintable(summary));
        QVERIFY2(summary.contains(u"Claims that hold within their noise: 1 of 3 · flagged 1"_s), qPrintable(summary));
        // The records that could not become pairs, with their cause.
        QCOMPARE(page->issues()->topLevelItemCount(), 3);
        QCOMPARE(page->issues()->topLevelItem(0)->text(1), u"the candidate's code (custom_code) is empty"_s);

        // 4. Sorting: by speedup, highest first, through the header as a user does.
        QTableView *view = page->view();
        view->sortByColumn(VerifyTableModel::Speedup, Qt::DescendingOrder);
        QCOMPARE(column(page->proxy(), VerifyTableModel::Pair), (QStringList{u"level2/3"_s, u"level1/3"_s, u"level1/2"_s}));
        view->sortByColumn(VerifyTableModel::Claim, Qt::AscendingOrder);
        QCOMPARE(page->proxy()->index(0, VerifyTableModel::Pair).data().toString(), u"level1/3"_s); // holds first
        test::saveShot(&w, QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/collection"), u"collection-window"_s);
        test::saveShot(w.dockOf(page), QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/collection"), u"collection-page"_s);

        // 5. A pair double-clicked opens as a session: the problem as the reference, the candidate as a variant with
        //    its measured result.
        QSignalSpy opened(&w, &MainWindow::sessionOpened);
        const int row = 0; // level1/3 after the sort above
        view->scrollTo(page->proxy()->index(row, VerifyTableModel::Verdict));
        const QRect cell = view->visualRect(page->proxy()->index(row, VerifyTableModel::Verdict));
        QVERIFY(view->viewport()->rect().contains(cell.center()));
        // As a user's double-click arrives: a press (the view's pressed index), then the double-click.
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QVERIFY2(opened.wait(30000), qPrintable(page->messageText()));
        SessionStore *s = w.session();
        QVERIFY(s->path().endsWith(u"/verified/sessions/level1_3.kforge"_s));
        QCOMPARE(s->task().name, u"level1_3"_s);
        const std::vector<Variant> &variants = s->population().variants();
        QCOMPARE(int(variants.size()), 2);
        QVERIFY(variants.at(0).origin == VariantOrigin::Reference);
        QVERIFY(variants.at(1).origin == VariantOrigin::Imported);
        QVERIFY(variants.at(1).isCorrect());
        QCOMPARE(s->variants().texts(variants.at(1).id).source.section(u'\n', 0, 0),
                 u"# kforge-scripted: verdict=correct speedup=1.40"_s);
        const std::optional<Evaluation> e = s->evaluations().latest(variants.at(1).id);
        QVERIFY(e);
        QCOMPARE(e->measurement().speedup, 1.4);
        QVERIFY(variants.at(1).notes.contains(u"Claimed speedup: 1.4×"_s));
        // Opened again: the same file, kept.
        const qint64 again = opened.count();
        w.collections()->openPair(u"level1/3"_s);
        QTRY_VERIFY_WITH_TIMEOUT(opened.count() > again, 30000);
        QCOMPARE(w.session()->population().size(), 2);
    }

    // The picture docs/verify-collection.md and README.md show: the 20-pair folder fixture (ModelNew modules, a
    // load_inline one, .cu kernels, cheats, a degenerate problem, a .cu that does not build) verified through the
    // dialog with the scripted worker, the page given the height of the strip under the editor it needs: every
    // pair in view, the flagged ones first, the summary and the records not verified.
    void folderCollectionShot()
    {
        Settings settings(m_dir.filePath(u"folder.ini"_s));
        useScriptedWorker(settings);
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1920, 1100}));
        CollectionPanel *page = w.collectionPanel();
        VerifyCollectionDialog *dialog = verifyThroughDialog(w, kFolder, m_dir.filePath(u"folder-verified"_s));
        QVERIFY(dialog);
        dialog->findChild<QLineEdit *>(u"problemsPath"_s)->setText(kProblems);
        QVERIFY2(dialog->problem().isEmpty(), qPrintable(dialog->problem()));
        QTest::mouseClick(dialog->verifyButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(w.collections()->verifier()
                                     && w.collections()->verifier()->stage() == CollectionVerifier::Stage::Done,
                                 240000);
        page->refresh();
        QCOMPARE(page->model()->rowCount(), 20);
        QVERIFY2(page->progressText().startsWith(u"20 of 20 pairs Done"_s), qPrintable(page->progressText()));
        QVERIFY2(page->summaryText().contains(u"All pairs: correct 16 / 20 · mean 26.08× · median 1.50× · max 350.00×"_s),
                 qPrintable(page->summaryText()));
        QCOMPARE(page->proxy()->index(0, VerifyTableModel::Flags).data().toString(), u"loose_tolerance"_s);
        QCOMPARE(page->issues()->topLevelItemCount(), 4);

        // The strip under the editor as tall as the pairs need and as wide as the flags' hack classes need.
        QDockWidget *dock = w.dockOf(page);
        w.resizeDocks({dock}, {720}, Qt::Vertical);
        w.resizeDocks({w.findChild<QDockWidget *>(u"roundDock"_s)}, {360}, Qt::Horizontal);
        QTest::qWait(200);
        QTableView *view = page->view();
        const QRect hack = view->visualRect(page->proxy()->index(0, VerifyTableModel::HackClass));
        QVERIFY2(hack.left() + 200 < view->viewport()->width(),
                 qPrintable(u"the hack class at x %1 of %2"_s.arg(hack.left()).arg(view->viewport()->width())));
        for (int row = 0; row < page->proxy()->rowCount(); ++row) {
            const QRect cell = view->visualRect(page->proxy()->index(row, VerifyTableModel::Pair));
            QVERIFY2(view->viewport()->rect().contains(cell),
                     qPrintable(u"row %1 at y %2 of %3"_s.arg(row).arg(cell.bottom()).arg(view->viewport()->height())));
        }
        QVERIFY(page->issues()->isVisible() && page->issues()->height() >= 60);
        test::saveShot(dock, shotDir(), u"collection-page"_s);
    }
};

QTEST_MAIN(TestCollectionE2e)
#include "tst_collection_e2e.moc"
