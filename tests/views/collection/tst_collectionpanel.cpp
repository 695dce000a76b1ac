// The Collection page on its own, offscreen (issue 36): the fixture collections read as `kforge-cli verify` reads
// them (tests/fixtures/collections: the 20-pair folder of problems and candidates, the released-kernels JSON with
// claims), their results in <out>/results.jsonl in the stored shape (what the scripted worker of the verify tests
// answers for each candidate's marker line, written through ResultsLog as the runner writes it), shown by a
// CollectionVerifier: the rows, the summary the papers print (correct / total, mean, median and max speedup, the
// share faster, the same over the unflagged pairs, the claims that hold within their noise), the flagged pairs
// first, sorting numbers as numbers with pairs without a value last in either order, a running verification's rows
// updated in place, and a double-click asking for the pair. No worker and no python: tst_collection_e2e drives the
// whole window. Screenshots in test-artifacts/panels.
#include "core/collection/collectionreader.h"
#include "core/collection/collectionverifier.h"
#include "core/collection/resultslog.h"
#include "panelfixture.h"
#include "views/collection/collectionpanel.h"
#include "views/collection/verifytablemodel.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

const QString kRoot = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/collections");

// A candidate's marker line ("# kforge-scripted: verdict=correct speedup=1.4 flags=side_stream_work err=0.004
// heldout=incorrect") as key → value.
QMap<QString, QString> marker(const QString &source)
{
    QMap<QString, QString> m;
    const QRegularExpressionMatch line =
        QRegularExpression(u"^(?:#|//) kforge-scripted: (.*)$"_s, QRegularExpression::MultilineOption).match(source);
    for (const QString &kv : line.captured(1).split(u' ', Qt::SkipEmptyParts))
        m.insert(kv.section(u'=', 0, 0), kv.section(u'=', 1));
    return m;
}

// What tests/fixtures/workers/scripted-worker.sh (mode collection) answers for a candidate at tolerance `atol`,
// at a held-out size or not: the worker's result object, in the shape a real worker sends.
QJsonObject scriptedResult(const QString &source, double atol, bool heldOutSize)
{
    const QMap<QString, QString> m = marker(source);
    QString verdict = m.value(u"verdict"_s, u"correct"_s);
    double err = m.value(u"err"_s, u"1"_s).toDouble();
    if (verdict == u"incorrect" && m.contains(u"err"_s) && err <= atol)
        verdict = u"correct"_s;
    if (heldOutSize && m.value(u"heldout"_s) == u"incorrect") {
        verdict = u"incorrect"_s;
        err = 1;
    }
    QJsonArray flags{u"scripted"_s};
    for (const QString &f : m.value(u"flags"_s).split(u',', Qt::SkipEmptyParts))
        flags.append(f);
    if (verdict == u"correct") {
        const double speedup = m.value(u"speedup"_s, u"1"_s).toDouble(), c = 1 / speedup;
        return QJsonObject{
            {u"verdict"_s, verdict},
            {u"message"_s, u"correct (scripted)"_s},
            {u"device_name"_s, u"Scripted GPU"_s},
            {u"verification"_s, QJsonObject{{u"trials"_s, 5}, {u"mismatches"_s, 0}, {u"max_abs_err"_s, 0}}},
            {u"timing"_s,
             QJsonObject{{u"reference"_s, QJsonObject{{u"median_ms"_s, 1}, {u"runs"_s, 100}}},
                         {u"candidate"_s, QJsonObject{{u"median_ms"_s, c}, {u"runs"_s, 100}}},
                         {u"speedup"_s, speedup},
                         {u"adaptive"_s,
                          QJsonObject{{u"target"_s, 0.01},
                                      {u"reached"_s, true},
                                      {u"candidate"_s, QJsonObject{{u"ci_low_ms"_s, c * 0.98}, {u"ci_high_ms"_s, c * 1.02}}},
                                      {u"reference"_s, QJsonObject{{u"ci_low_ms"_s, 0.99}, {u"ci_high_ms"_s, 1.01}}}}}}},
            {u"flags"_s, flags}};
    }
    if (verdict == u"incorrect")
        return QJsonObject{{u"verdict"_s, verdict},
                           {u"message"_s, u"incorrect (scripted)"_s},
                           {u"verification"_s, QJsonObject{{u"trials"_s, 5}, {u"mismatches"_s, 12}, {u"max_abs_err"_s, err}}},
                           {u"flags"_s, flags}};
    return QJsonObject{{u"verdict"_s, verdict}, {u"message"_s, QString(verdict + u" (scripted)"_s)}, {u"flags"_s, flags}};
}

// The runs VerifyRunner makes of a pair and their results, appended to `log` as it appends them: the pair as
// published at the task's f32 tolerance (1e-4), a failing one again at 1e-3 and 1e-2, a correct one at its two
// held-out sizes. A .cu that does not build never reaches a worker: nvcc's error is its result.
void verify(const CollectionPair &pair, ResultsLog &log)
{
    const auto append = [&](VerifyRun run, const QJsonObject &result) {
        VerifyRecord r;
        r.pair = pair.id;
        r.run = run;
        r.problem = pair.problemKey;
        r.task = pair.problemKey;
        r.candidate = pair.candidateOrigin;
        r.kind = kindName(pair.kind);
        r.claimedSpeedup = pair.claimedSpeedup;
        r.result = Measurement::fromJson(result);
        r.wallS = 0.25;
        r.workerS = 0.2;
        QString error;
        QVERIFY2(log.append(r, &error), qPrintable(error));
    };
    if (pair.candidateSource.contains(u"undeclared_scale"_s)) {
        append(VerifyRun::Main, QJsonObject{{u"verdict"_s, u"compile_error"_s},
                                            {u"message"_s, u"nvcc failed with 1 error(s).\n8_sigmoid_broken.cu:9:44: "
                                                           "error: identifier \"undeclared_scale\" is undefined"_s}});
        return;
    }
    const QJsonObject main = scriptedResult(pair.candidateSource, 1e-4, false);
    append(VerifyRun::Main, main);
    if (main.value(u"verdict"_s).toString() == u"incorrect") {
        append(VerifyRun::Tolerance3, scriptedResult(pair.candidateSource, 1e-3, false));
        append(VerifyRun::Tolerance2, scriptedResult(pair.candidateSource, 1e-2, false));
    } else if (main.value(u"verdict"_s).toString() == u"correct") {
        append(VerifyRun::HeldOut1, scriptedResult(pair.candidateSource, 1e-4, true));
        append(VerifyRun::HeldOut2, scriptedResult(pair.candidateSource, 1e-4, true));
    }
}

QStringList column(const QAbstractItemModel *m, int col)
{
    QStringList out;
    for (int r = 0; r < m->rowCount(); ++r)
        out << m->index(r, col).data().toString();
    return out;
}

// A verification of `collection` into `outDir` as the page gets it: the pairs selected, results.jsonl opened.
struct Shown {
    CollectionVerifier verifier;
    CollectionPanel page;
    QAbstractItemModelTester modelTester{page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest};
    QAbstractItemModelTester proxyTester{page.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest};
};

} // namespace

class TestCollectionPanel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static Collection read(const QString &path, const CollectionOptions &options = {})
    {
        const CollectionReadResult r = CollectionReader::read(path, options);
        return r.collection.value_or(Collection{});
    }

    // Writes the verification of `pairs` into <outDir>/results.jsonl and shows it on a page `size` large.
    static void show(Shown &s, const Collection &collection, const QString &outDir, const QList<CollectionPair> &pairs,
                     QSize size = {1280, 640})
    {
        {
            ResultsLog log;
            QString error;
            QVERIFY2(log.open(QDir(outDir).filePath(u"results.jsonl"_s), &error), qPrintable(error));
            for (const CollectionPair &p : pairs)
                verify(p, log);
        }
        CollectionVerifier::Options options;
        options.outDir = outDir;
        s.verifier.setCollection(collection, options);
        QString error;
        QVERIFY2(s.verifier.openLog(&error), qPrintable(error));
        s.page.resize(size);
        s.page.setVerifier(&s.verifier);
        s.page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&s.page));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    // The 20-pair folder of problems and candidates (ModelNew modules, a load_inline one, .cu kernels, cheats, a
    // degenerate problem, a .cu that does not build): what `kforge-cli verify` prints for it, on the page.
    void folderCollection()
    {
        CollectionOptions options;
        options.problems = kRoot + u"/kernelbench"_s;
        const Collection collection = read(kRoot + u"/folder/candidates"_s, options);
        QCOMPARE(collection.pairs.size(), 20);
        Shown s;
        show(s, collection, m_dir.filePath(u"folder"_s), collection.pairs);
        VerifyTableModel *m = s.page.model();
        QCOMPARE(m->rowCount(), 20);

        // The summary the papers print, recomputed: 16 of 20 correct (a wrong tanh, a half-precision layernorm that
        // passes only at 1e-2, a CUDA error, a .cu that does not build); without the 5 flagged pairs, 12 of 15.
        const QString summary = s.page.summaryText();
        QVERIFY2(summary.contains(u"All pairs: correct 16 / 20 · mean 26.08× · median 1.50× · max 350.00× · faster "
                                  "than the reference 15 / 20 (75%)"_s),
                 qPrintable(summary));
        QVERIFY2(summary.contains(u"Without flags: correct 12 / 15 · mean 1.40× · median 1.27× · max 2.20× · faster "
                                  "than the reference 11 / 15 (73%)"_s),
                 qPrintable(summary));
        QVERIFY2(summary.contains(u"Claims that hold within their noise: 0 of 0 · flagged 5 · not imported 0 · not run 0 "
                                  "· 20 pairs"_s),
                 qPrintable(summary));
        // The records that could not become pairs, with their cause.
        QCOMPARE(s.page.issues()->topLevelItemCount(), 4);
        QCOMPARE(s.page.issues()->topLevelItem(0)->text(0), u"candidates/5_which_level.py"_s);
        QVERIFY(s.page.issues()->topLevelItem(0)->text(1).startsWith(u"ambiguous: problem 5 is in several levels"_s));

        // The flagged pairs first (the report's order for them), each with the hack class it points to, then the
        // rest in the collection's order; the header says the table is sorted by its flags.
        QSortFilterProxyModel *proxy = s.page.proxy();
        QCOMPARE(s.page.view()->horizontalHeader()->sortIndicatorSection(), int(VerifyTableModel::Flags));
        const QStringList pairs = column(proxy, VerifyTableModel::Pair);
        QCOMPARE(pairs.mid(0, 5), (QStringList{u"level1/4_layernorm_half.py"_s, u"level1/5_sum_fixed_shape.py"_s,
                                               u"level1/6_gelu_side_stream.py"_s, u"level1/11_max_cached.py"_s,
                                               u"level2/3_matmul_min_clamp_zeros.py"_s}));
        QCOMPARE(column(proxy, VerifyTableModel::Flags).mid(0, 6),
                 (QStringList{u"loose_tolerance"_s, u"shape_specific"_s, u"side_stream_work"_s,
                              u"below_speed_of_light"_s, u"degenerate_output"_s, QString()}));
        QCOMPARE(column(proxy, VerifyTableModel::HackClass).mid(0, 5).join(u'|').count(u'#'), 5);
        QVERIFY(proxy->index(3, VerifyTableModel::HackClass).data().toString().startsWith(u"#22 "_s));
        QCOMPARE(proxy->index(0, VerifyTableModel::PassesAt).data().toString(), u"1e-2"_s);
        QCOMPARE(proxy->index(1, VerifyTableModel::HeldOut).data().toString(), u"fails"_s);
        QCOMPARE(pairs.at(5), u"level1/1_Square_matrix_multiplication_.py"_s);
        QCOMPARE(pairs.at(6), u"level1/2_ReLU.py"_s);
        QCOMPARE(column(m, VerifyTableModel::Kind).count(u".cu"_s), 3);
        QCOMPARE(m->index(m->rowOf(u"level1/8_sigmoid_broken.cu"_s), VerifyTableModel::Cause).data().toString(),
                 u"nvcc failed with 1 error(s).\n8_sigmoid_broken.cu:9:44: error: identifier \"undeclared_scale\" is "
                 "undefined"_s);
        QVERIFY(test::saveScreenshot(&s.page, u"collection-flagged-first"_s).endsWith(u".png"_s));

        // By speedup, highest first: numbers as numbers (as text "8.00×" would come before "40.00×" and "350.00×"),
        // the four pairs without a speedup last.
        s.page.view()->sortByColumn(VerifyTableModel::Speedup, Qt::DescendingOrder);
        const QStringList highestFirst{u"350.00×"_s, u"40.00×"_s, u"8.00×"_s, u"2.50×"_s, u"2.20×"_s, u"1.90×"_s,
                                       u"1.80×"_s,   u"1.60×"_s,  u"1.40×"_s, u"1.30×"_s, u"1.25×"_s, u"1.20×"_s,
                                       u"1.10×"_s,   u"1.10×"_s,  u"1.02×"_s, u"0.90×"_s, QString(),  QString(),
                                       QString(),    QString()};
        QCOMPARE(column(proxy, VerifyTableModel::Speedup), highestFirst);
        QCOMPARE(column(proxy, VerifyTableModel::Verdict).mid(16),
                 (QStringList{u"incorrect"_s, u"compile error"_s, u"incorrect"_s, u"CUDA error"_s}));
        // Lowest first: the same numbers the other way, the pairs without one still last.
        s.page.view()->sortByColumn(VerifyTableModel::Speedup, Qt::AscendingOrder);
        QStringList lowestFirst = highestFirst.mid(0, 16);
        std::reverse(lowestFirst.begin(), lowestFirst.end());
        QCOMPARE(column(proxy, VerifyTableModel::Speedup).mid(0, 16), lowestFirst);
        QCOMPARE(column(proxy, VerifyTableModel::Speedup).mid(16), (QStringList{QString(), QString(), QString(), QString()}));
        // The noise interval sorts by its low end, as a number.
        s.page.view()->sortByColumn(VerifyTableModel::Noise, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, VerifyTableModel::Noise).data().toString(), u"339.71–360.71×"_s);
        QCOMPARE(proxy->index(2, VerifyTableModel::Noise).data().toString(), u"7.76–8.24×"_s);

        // Double-clicking a pair asks for it as a session (the main window opens it: tst_collection_e2e).
        s.page.view()->sortByColumn(VerifyTableModel::Speedup, Qt::DescendingOrder);
        QSignalSpy activated(&s.page, &CollectionPanel::pairActivated);
        QTableView *view = s.page.view();
        const QRect cell = view->visualRect(proxy->index(1, VerifyTableModel::Speedup));
        QVERIFY(view->viewport()->rect().contains(cell.center()));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().at(0).toString(), u"level2/3_matmul_min_clamp_zeros.py"_s);
    }

    // A verification on its way: the pairs not run yet are counted and listed as such, and the next results change
    // their rows in place; the page keeps its order as they come: flagged pairs first and, among equals, the
    // collection's order, whichever result came first.
    void running()
    {
        CollectionOptions options;
        options.problems = kRoot + u"/kernelbench"_s;
        const Collection collection = read(kRoot + u"/folder/candidates"_s, options);
        QCOMPARE(collection.pairs.size(), 20);
        const QString out = m_dir.filePath(u"running"_s);
        Shown s;
        // The later pairs first: three of them flagged (the side stream, the cached max, the degenerate output).
        show(s, collection, out, collection.pairs.mid(4));
        VerifyTableModel *m = s.page.model();
        QCOMPARE(m->rowCount(), 20);
        QVERIFY2(s.page.summaryText().contains(u"not run 4 · 20 pairs"_s), qPrintable(s.page.summaryText()));
        QCOMPARE(column(m, VerifyTableModel::Verdict).count(u"not run"_s), 4);
        // Not run sorts after every verdict.
        s.page.view()->sortByColumn(VerifyTableModel::Verdict, Qt::AscendingOrder);
        QCOMPARE(column(s.page.proxy(), VerifyTableModel::Verdict).mid(16), QStringList(4, u"not run"_s));
        s.page.view()->sortByColumn(VerifyTableModel::Flags, Qt::DescendingOrder);
        QCOMPARE(column(s.page.proxy(), VerifyTableModel::Pair).mid(0, 3),
                 (QStringList{u"level1/6_gelu_side_stream.py"_s, u"level1/11_max_cached.py"_s,
                              u"level2/3_matmul_min_clamp_zeros.py"_s}));

        // Then the first four: two more flagged pairs (a precision downgrade, a shape hard-coded).
        QSignalSpy reset(m, &QAbstractItemModel::modelReset);
        QSignalSpy changed(m, &QAbstractItemModel::dataChanged);
        {
            ResultsLog log;
            QString error;
            QVERIFY(log.open(QDir(out).filePath(u"results.jsonl"_s), &error));
            for (const CollectionPair &p : collection.pairs.mid(0, 4))
                verify(p, log);
        }
        // The verifier's log learns of the new lines as the runner appends them; here, the file is read again.
        QString error;
        QVERIFY(s.verifier.openLog(&error));
        s.page.refresh();
        QCOMPARE(reset.count(), 0);
        QCOMPARE(changed.count(), 4);
        QVERIFY2(s.page.summaryText().contains(u"All pairs: correct 16 / 20"_s), qPrintable(s.page.summaryText()));
        QCOMPARE(column(m, VerifyTableModel::Verdict).count(u"not run"_s), 0);
        // The flagged pairs first, in the collection's order, then the others in it.
        QStringList flagged, others;
        for (int row = 0; row < m->rowCount(); ++row)
            (m->index(row, VerifyTableModel::Flags).data().toString().isEmpty() ? others : flagged)
                << m->index(row, VerifyTableModel::Pair).data().toString();
        QCOMPARE(flagged.size(), 5);
        QCOMPARE(column(s.page.proxy(), VerifyTableModel::Pair), flagged + others);
    }

    // The released-kernels JSON: the claimed speedup beside the measured one, whether each claim holds within the
    // noise (correct, unflagged, the interval's high end at the claim or above) and the summary's count of them.
    void releasedClaims()
    {
        const Collection collection = read(kRoot + u"/released/kernels.json"_s);
        QCOMPARE(collection.pairs.size(), 3);
        Shown s;
        show(s, collection, m_dir.filePath(u"released"_s), collection.pairs, {1100, 420});
        VerifyTableModel *m = s.page.model();
        QCOMPARE(column(m, VerifyTableModel::Pair), (QStringList{u"level1/2"_s, u"level1/3"_s, u"level2/3"_s}));
        QCOMPARE(column(m, VerifyTableModel::Claimed), (QStringList{u"1.35×"_s, u"1.40×"_s, u"40.20×"_s}));
        QCOMPARE(column(m, VerifyTableModel::Speedup), (QStringList{u"1.10×"_s, u"1.40×"_s, u"40.00×"_s}));
        // 1.10× [1.07, 1.13] against 1.35×: no. 1.40× [1.36, 1.44] against 1.40×: holds. 40.00× [38.82, 41.22]
        // against 40.20×: within the noise, but its output does not depend on the inputs: no.
        QCOMPARE(column(m, VerifyTableModel::Claim), (QStringList{u"does not hold"_s, u"holds"_s, u"does not hold"_s}));
        QCOMPARE(m->index(2, VerifyTableModel::Noise).data().toString(), u"38.82–41.22×"_s);
        const QString summary = s.page.summaryText();
        QVERIFY2(summary.contains(u"All pairs: correct 3 / 3 · mean 14.17× · median 1.40× · max 40.00× · faster than "
                                  "the reference 3 / 3 (100%)"_s),
                 qPrintable(summary));
        QVERIFY2(summary.contains(u"Without flags: correct 2 / 2 · mean 1.25× · median 1.25× · max 1.40×"_s),
                 qPrintable(summary));
        QVERIFY2(summary.contains(u"Claims that hold within their noise: 1 of 3 · flagged 1"_s), qPrintable(summary));
        // Flagged first; sorted by claim, those that hold first and the pairs without a claim never among them.
        QCOMPARE(s.page.proxy()->index(0, VerifyTableModel::Pair).data().toString(), u"level2/3"_s);
        s.page.view()->sortByColumn(VerifyTableModel::Claim, Qt::AscendingOrder);
        QCOMPARE(column(s.page.proxy(), VerifyTableModel::Claim),
                 (QStringList{u"holds"_s, u"does not hold"_s, u"does not hold"_s}));
        QCOMPARE(s.page.issues()->topLevelItemCount(), 3);
        test::saveScreenshot(&s.page, u"collection-claims"_s);
    }
};

QTEST_MAIN(TestCollectionPanel)
#include "tst_collectionpanel.moc"
