// Issue 39, item 2: an evaluation is parsed at most once per session on the GUI's path. The real main window
// offscreen on a real session file: the reference measured with Ctrl+Enter, two candidates added as files (one
// wrong), all through the workbench's queue (ScriptedEvaluator behind it, the one allowed fake, answering with
// worker-shaped results). Then every reader of an evaluation reads each one, twice: the Variants table, Compare and
// the charts of two selected variants, the Task panel, the editor's tab of each variant, the prompt's exemplars and
// the session report. Counted: the stored documents that become a Measurement (Measurement::parseCount()), printed.
// Fresh from the queue, none (the store keeps the Measurement the queue built); after the session is opened again
// from its file, one per evaluation however often it is read.
#include "app/gui/mainwindow.h"
#include "core/eval/measurement.h"
#include "core/export/reportinput.h"
#include "core/log/loghub.h"
#include "core/optimizer/promptbuilder.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/workbench/workbench.h"
#include "core/workerpool/scriptedevaluator.h"
#include "panelfixture.h"
#include "views/charts/chartspanel.h"
#include "views/charts/kerneltimechart.h"
#include "views/charts/rooflinechart.h"
#include "views/compare/comparepanel.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/varianttabbinding.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <QDockWidget>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;
using namespace kforge::test;

namespace {

// Worker-shaped answers (timing, trace, metrics, roofline) by marker in the source.
EvalResult answer(const EvalRequest &request)
{
    ResultSpec spec;
    if (request.candidateSource.contains(u"WRONG"))
        spec.verdict = u"incorrect"_s, spec.message = u"output C differs in 3 of 16 elements"_s;
    else if (request.candidateSource.contains(u"FAST"))
        spec.speedup = 2.5;
    EvalResult r = EvalResult::fromJson(workerResult(spec));
    r.deviceName = u"NVIDIA H200"_s;
    r.workerName = u"w0"_s;
    return r;
}

bool writeFile(const QString &path, const QString &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) > 0;
}

const QString kFast = u"// FAST\n__global__ void diag_matmul(const float *a, const float *b, float *c, long n) {}\n"_s;
const QString kWrong = u"// WRONG\n__global__ void diag_matmul(const float *a, const float *b, float *c, long n) {}\n"_s;

} // namespace

class TestParsesPerEvaluation : public QObject
{
    Q_OBJECT

    // Every reader of an evaluation in the window, and the prompt and the report, reads each of `store`'s.
    void readEverywhere(MainWindow &w)
    {
        SessionStore *store = w.session();
        QList<qint64> measured;
        for (const Variant &v : store->population().variants())
            if (v.hasEvaluation())
                measured << v.id;
        QVERIFY(measured.size() >= 2);

        // The Variants table reads the details of the rows it shows.
        VariantsModel *table = w.variantsPanel()->model();
        for (int row = 0; row < table->rowCount(); ++row)
            table->index(row, VariantsModel::SpeedOfLight).data();
        QTRY_COMPARE_WITH_TIMEOUT(table->pendingDetails(), 0, 10000);
        for (qint64 id : std::as_const(measured))
            if (store->population().find(id)->isCorrect())
                QVERIFY(!table->index(table->rowOf(id), VariantsModel::Registers).data().toString().isEmpty());

        // Two selected variants: Compare, the kernel-time and roofline charts.
        w.selection()->setSelected(measured, measured.first());
        w.selection()->setComparePair(measured.at(0), measured.at(1));
        w.comparePanel()->setPair(measured.at(0), measured.at(1));
        ChartsPanel *charts = w.chartsPanel();
        if (QDockWidget *dock = w.dockOf(charts))
            dock->show();
        for (int tab = 0; tab < charts->tabs()->count(); ++tab) {
            charts->tabs()->setCurrentIndex(tab);
            QCoreApplication::processEvents();
        }
        charts->kernelTimeChart()->refreshNow();
        charts->rooflineChart()->refreshNow();

        // The editor: each variant's tab (its compile diagnostics come from the stored evaluation).
        for (qint64 id : std::as_const(measured))
            QVERIFY(w.tabs()->showVariant(id) >= 0);

        // The prompt's exemplars and the session report.
        for (qint64 id : std::as_const(measured))
            QCOMPARE(PromptBuilder::exemplar(*store, id).id, id);
        QString error;
        QVERIFY2(ReportSource::build(*store, 100, &error), qPrintable(error));

        // And the store asked directly, as the Task panel and the round runner do.
        for (qint64 id : std::as_const(measured))
            QVERIFY(store->evaluations().latest(id));
        QTest::qWait(50); // throttled rebuilds and the Task panel's reload
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void parsedAtMostOncePerSession()
    {
        QTemporaryDir dir;
        Settings settings(dir.filePath(u"kforge.ini"_s));
        ScriptedEvaluator evaluator(&answer);
        evaluator.setDelayMs(10);
        LogHub log;
        MainWindow w(settings, log, nullptr, &evaluator);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));

        QSignalSpy opened(&w, &MainWindow::taskOpened);
        w.openTaskFolder(taskFolder());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        SessionStore *store = w.session();
        QVERIFY(store->isOpen());
        const QString sessionFile = store->path();

        // ---- three evaluations through the GUI's entries: Ctrl+Enter on the reference, two files added
        const qint64 before = Measurement::parseCount();
        KernelEditor *editor = w.editor();
        QCOMPARE(editor->variantId(editor->currentIndex()), store->population().reference()->id);
        QVERIFY(w.tabs()->evaluate(editor->currentIndex()));
        QVERIFY(writeFile(dir.filePath(u"fast.cu"_s), kFast));
        QVERIFY(writeFile(dir.filePath(u"wrong.cu"_s), kWrong));
        QVERIFY(w.tabs()->addFile(dir.filePath(u"fast.cu"_s)));
        QVERIFY(w.tabs()->addFile(dir.filePath(u"wrong.cu"_s)));
        QTRY_COMPARE_WITH_TIMEOUT(store->evaluations().count(), 3, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(w.workbench()->queue()->pendingCount(), 0, 60000);
        const int evaluations = store->evaluations().count();

        readEverywhere(w);
        readEverywhere(w);
        const qint64 fresh = Measurement::parseCount() - before;
        qInfo("parses per evaluation, fresh from the queue: %.2f (%lld parses of %d evaluations)",
              double(fresh) / evaluations, fresh, evaluations);
        QCOMPARE(fresh, 0);

        // ---- the same session opened again from its file: each evaluation parsed once, however often it is read
        const qint64 beforeReopened = Measurement::parseCount();
        QVERIFY(w.openSession(sessionFile));
        store = w.session();
        QCOMPARE(store->evaluations().count(), evaluations);
        readEverywhere(w);
        readEverywhere(w);
        QList<qint64> ids;
        for (const Variant &v : store->population().variants())
            for (const EvaluationSummary &e : store->evaluations().ofVariant(v.id))
                ids << e.id;
        QCOMPARE(ids.size(), evaluations);
        for (qint64 id : std::as_const(ids)) // every evaluation read at least once...
            QVERIFY(store->evaluations().find(id));
        const qint64 reopened = Measurement::parseCount() - beforeReopened;
        qInfo("parses per evaluation, session opened from its file: %.2f (%lld parses of %d evaluations)",
              double(reopened) / evaluations, reopened, evaluations);
        QCOMPARE(reopened, qint64(evaluations)); // ...and, with as many parses as evaluations, each exactly once
    }
};

QTEST_MAIN(TestParsesPerEvaluation)
#include "tst_parses_per_evaluation.moc"
