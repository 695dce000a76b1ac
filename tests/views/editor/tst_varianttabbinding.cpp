// The editor-tab <-> variant binding on a real session file: which tabs a session opens with, read-only once
// measured (a compile error is none), the stored compiler diagnostics and the status line of a tab, fork to
// edit, and Ctrl+Enter's rules: an edited source becomes a manual variant of what it was forked from, a fixed
// compile error is the same attempt again, the same source is measured again, text edited while it was being
// measured stays editable, a running evaluation's provisional result shows until its final one, and while no GPU
// worker is usable nothing enters the session. The runner evaluates through ScriptedEvaluator, the one allowed fake.
#include "core/compile/compiler.h"
#include "core/log/loghub.h"
#include "core/queue/evaluationqueue.h"
#include "core/task/task.h"
#include "core/workbench/readinesswatch.h"
#include "roundharness.h"
#include "views/editor/compileonly.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/varianttabbinding.h"

#include <Qsci/qsciscintilla.h>

#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace kforge::test;

namespace {
// What the scripted evaluator answers for it (see scriptedResult()).
QString kernel(const QString &verdict, double speedup = 2.0)
{
    return QStringLiteral("// kforge-test: speedup=%1 verdict=%2 metrics=1\n#include \"kforge/kernel.h\"\n")
        .arg(speedup, 0, 'f', 1)
        .arg(verdict);
}

// A hand-made variant whose stored evaluation is nvcc's error on line 5.
qint64 addCompileError(SessionStore &store, qint64 parent)
{
    Variant v;
    v.origin = VariantOrigin::Manual;
    v.label = QStringLiteral("mine");
    v.parentIds = {parent};
    const qint64 id = store.variants().add(v, {kernel(QStringLiteral("compile_error")), {}, {}});
    Diagnostic d;
    d.file = QStringLiteral("candidate.cu");
    d.line = 5;
    d.column = 13;
    d.message = QStringLiteral("identifier \"undeclared_name_here\" is undefined");
    d.tool = QStringLiteral("nvcc");
    const QJsonObject result{{QStringLiteral("verdict"), QStringLiteral("compile_error")},
                             {QStringLiteral("message"), d.message},
                             {QStringLiteral("compile"),
                              QJsonObject{{QStringLiteral("ok"), false},
                                          {QStringLiteral("diagnostics"), QJsonArray{d.toJson()}}}}};
    store.evaluations().add(Evaluation::fromResult(id, result));
    store.variants().setStatus(id, VariantStatus::Failed, d.message);
    return id;
}

struct Bench {
    SessionFixture fixture;
    std::unique_ptr<RoundHarness> harness;
    LogHub log;
    Compiler compiler;
    KernelEditor editor;
    std::unique_ptr<ReadinessWatch> readiness;
    std::unique_ptr<VariantTabBinding> tabs;

    // `workers`: whether Settings → Workers lists one (the scripted evaluator is ready either way).
    bool make(bool workers = true, int evalDelayMs = 30)
    {
        if (!fixture.create())
            return false;
        harness = std::make_unique<RoundHarness>(fixture, evalDelayMs);
        harness->settings->setWorkers(workers ? Settings::Defaults::workers() : QList<WorkerConfig>{});
        readiness = std::make_unique<ReadinessWatch>(&harness->evaluator, harness->settings.get());
        tabs = std::make_unique<VariantTabBinding>(&editor, &fixture.store(), harness->runner->queue(), readiness.get(),
                                                   &compiler, log);
        return true;
    }
    SessionStore &store() { return fixture.store(); }
    // The measured reference and a measured model variant "fast" (2.5×), the session's tabs shown; fast's id.
    qint64 showFastVariant()
    {
        fixture.measureReference();
        const qint64 fast = fixture.addMeasured(QStringLiteral("fast"), 2.5);
        tabs->showSession();
        return fast;
    }
    qsizetype evaluations(qint64 id) { return store().evaluations().ofVariant(id).size(); }
};
} // namespace

class TestVariantTabBinding : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void sessionTabsFollowTheReadOnlyRules()
    {
        Bench b;
        QVERIFY(b.make());
        const qint64 ref = b.fixture.measureReference();
        const qint64 fast = b.fixture.addMeasured(QStringLiteral("fast"), 2.5);
        const qint64 broken = addCompileError(b.store(), ref);
        b.tabs->showSession();
        // The reference and the hand-made variant open; the model's variant waits for the Variants panel.
        QCOMPARE(b.editor.count(), 2);
        QCOMPARE(b.editor.variantId(0), ref);
        QCOMPARE(b.editor.referenceIndex(), 0);
        QVERIFY(b.editor.isReadOnly(0));
        QCOMPARE(b.editor.compileFileName(0), QStringLiteral("reference.cu"));
        QCOMPARE(b.editor.indexOfVariant(fast), -1);
        QCOMPARE(b.editor.currentIndex(), 0);

        // A compile error is no measurement: editable, with what nvcc said where it said it.
        const int mine = b.editor.indexOfVariant(broken);
        QCOMPARE(mine, 1);
        QVERIFY(!b.editor.isReadOnly(mine));
        QCOMPARE(b.editor.title(mine), QStringLiteral("#%1 mine").arg(broken));
        QCOMPARE(b.editor.compileFileName(mine), QStringLiteral("candidate.cu"));
        const QList<Diagnostic> diagnostics = b.editor.diagnostics(mine);
        QCOMPARE(diagnostics.size(), 1);
        QCOMPARE(diagnostics.first().line, 5);
        QVERIFY(diagnostics.first().message.contains(QStringLiteral("undeclared_name_here")));

        // A measured variant opens read-only, its status line the measurement; a second request reuses the tab.
        const int shown = b.tabs->showVariant(fast);
        QCOMPARE(b.editor.count(), 3);
        QVERIFY(b.editor.isReadOnly(shown));
        QCOMPARE(b.editor.currentIndex(), shown);
        QVERIFY2(b.editor.status(shown).startsWith(QStringLiteral("correct: 2.50× the reference")),
                 qPrintable(b.editor.status(shown)));
        QCOMPARE(b.tabs->showVariant(fast), shown);
        QCOMPARE(b.editor.count(), 3);
        QCOMPARE(b.tabs->showVariant(987654), -1);

        Variant measured;
        measured.eval.verdict = Verdict::Correct;
        measured.eval.id = 1;
        QVERIFY(VariantTabBinding::isMeasured(measured));
        for (const Verdict notMeasured : {Verdict::CompileError, Verdict::Error}) {
            measured.eval.verdict = notMeasured;
            QVERIFY(!VariantTabBinding::isMeasured(measured));
        }
    }

    void taskTabs()
    {
        Bench b;
        QVERIFY(b.make());
        const TaskLoadResult loaded = Task::load(taskFolder());
        QVERIFY(loaded.ok());
        b.tabs->showTask(*loaded.task);
        QCOMPARE(b.editor.count(), 1 + int(loaded.task->variants().size()));
        QCOMPARE(b.editor.title(0), QStringLiteral("reference"));
        QVERIFY(b.editor.isReadOnly(0));
        for (int i = 1; i < b.editor.count(); ++i)
            QVERIFY(!b.editor.isReadOnly(i));
        QCOMPARE(b.editor.variantId(0), 0); // no session: no variant behind a tab
    }

    void forkEditEvaluate()
    {
        Bench b;
        QVERIFY(b.make());
        const qint64 fast = b.showFastVariant();
        const int fork = b.tabs->fork(fast);
        QCOMPARE(b.editor.title(fork), QStringLiteral("fork of fast"));
        QVERIFY(!b.editor.isReadOnly(fork));
        QCOMPARE(b.editor.variantId(fork), 0);
        QCOMPARE(b.editor.status(fork), QStringLiteral("Edit, then Ctrl+Enter compiles and evaluates it as a new variant."));
        QCOMPARE(b.editor.source(fork), b.store().variants().source(fast));

        b.editor.editor(fork)->setText(kernel(QStringLiteral("correct"), 3.0));
        QSignalSpy evaluated(&b.store(), &SessionStore::evaluationAdded);
        QVERIFY(b.tabs->evaluate(fork));
        const qint64 id = b.editor.variantId(fork);
        QVERIFY(id > fast);
        const Variant *v = b.store().population().find(id);
        QVERIFY(v);
        QVERIFY(v->origin == VariantOrigin::Manual);
        QCOMPARE(v->parentIds, QList<qint64>{fast});
        QCOMPARE(b.editor.status(fork), QStringLiteral("Variant #%1 queued for evaluation…").arg(id));
        QVERIFY(!b.editor.isReadOnly(fork)); // until the evaluation finishes
        QTRY_VERIFY_WITH_TIMEOUT(b.evaluations(id) == 1, 10000);
        QTRY_VERIFY(b.editor.isReadOnly(fork));
        QVERIFY2(b.editor.status(fork).startsWith(QStringLiteral("correct: 3.00×")), qPrintable(b.editor.status(fork)));

        // Ctrl+Enter on the same source again: a new measurement of the same variant, no new variant, said as such
        // (the first result is not silently replaced: issue 37).
        const qsizetype variants = b.store().population().size();
        QVERIFY(b.tabs->evaluate(fork));
        QCOMPARE(b.editor.status(fork),
                 QStringLiteral("Measuring again as evaluation 2; evaluation 1 (correct, 3.00×) stays in the session…"));
        QTRY_VERIFY_WITH_TIMEOUT(b.evaluations(id) == 2, 10000);
        QCOMPARE(b.store().population().size(), variants);
        QTRY_VERIFY2(b.editor.status(fork).endsWith(QStringLiteral(" (evaluation 2; before: correct, 3.00×)")),
                     qPrintable(b.editor.status(fork)));
    }

    // The worker's result after timing shows in the tab's status line at once, marked provisional with the passes
    // still running; the final result replaces it.
    void provisionalResultInTheStatusLine()
    {
        Bench b;
        QVERIFY(b.make(true, 150));
        b.harness->evaluator.setMeasuredScript([](const EvalRequest &request) -> std::optional<EvalResult> {
            EvalResult r = scriptedResult(request);
            r.speedup = 36.3;
            r.candidate.medianMs = 0.1;
            r.pending = QStringList{QStringLiteral("precision"), QStringLiteral("trace")};
            return r;
        });
        const int fork = b.tabs->fork(b.showFastVariant());
        b.editor.editor(fork)->setText(kernel(QStringLiteral("correct"), 3.0));
        QSignalSpy provisional(b.harness->runner->queue(), &EvaluationQueue::provisional);
        QVERIFY(b.tabs->evaluate(fork));
        const qint64 id = b.editor.variantId(fork);
        QVERIFY(provisional.wait(5000));
        QCOMPARE(b.editor.status(fork), QStringLiteral("correct: 36.30× the reference, event time (median) 100 µs "
                                                       "(provisional; checking precision, trace…)"));
        QCOMPARE(b.evaluations(id), 0);
        QVERIFY(!b.editor.isReadOnly(fork)); // not measured yet
        QTRY_VERIFY_WITH_TIMEOUT(b.evaluations(id) == 1, 10000);
        QTRY_VERIFY(b.editor.isReadOnly(fork));
        QVERIFY2(b.editor.status(fork).startsWith(QStringLiteral("correct: 3.00×")), qPrintable(b.editor.status(fork)));
        QVERIFY(!b.editor.status(fork).contains(QStringLiteral("provisional")));
    }

    void fixedCompileErrorIsTheSameAttempt()
    {
        Bench b;
        QVERIFY(b.make());
        const qint64 fast = b.showFastVariant();
        const int fork = b.tabs->fork(fast);
        b.editor.editor(fork)->setText(kernel(QStringLiteral("compile_error")));
        QVERIFY(b.tabs->evaluate(fork));
        const qint64 failed = b.editor.variantId(fork);
        QTRY_VERIFY_WITH_TIMEOUT(b.evaluations(failed) == 1, 10000);
        QVERIFY(!b.editor.isReadOnly(fork)); // fixed in place

        // The fix descends from what the failed attempt was forked from, not from the text that did not build.
        b.editor.editor(fork)->setText(kernel(QStringLiteral("correct"), 2.8));
        QVERIFY(b.tabs->evaluate(fork));
        const qint64 fixed = b.editor.variantId(fork);
        QVERIFY(fixed != failed);
        QCOMPARE(b.store().population().find(fixed)->parentIds, QList<qint64>{fast});

        // The same for a failed attempt stored in the session (a tab without a fork's ancestry): the fix is a
        // child of the failed variant's parents.
        const qint64 stored = addCompileError(b.store(), fast);
        const int tab = b.tabs->showVariant(stored);
        QVERIFY(!b.editor.isReadOnly(tab));
        b.editor.editor(tab)->setText(kernel(QStringLiteral("correct"), 2.7));
        QVERIFY(b.tabs->evaluate(tab));
        QVERIFY(b.editor.variantId(tab) != stored);
        QCOMPARE(b.store().population().find(b.editor.variantId(tab))->parentIds, QList<qint64>{fast});
        // An edit of a measured variant's source descends from it.
        const int shown = b.tabs->showVariant(fast);
        b.editor.setReadOnly(shown, false);
        b.editor.editor(shown)->setText(kernel(QStringLiteral("correct"), 2.6));
        QVERIFY(b.tabs->evaluate(shown));
        QCOMPARE(b.store().population().find(b.editor.variantId(shown))->parentIds, QList<qint64>{fast});

        // Another session's tabs: the fork's ancestry is forgotten with it.
        b.tabs->forgetParents();
        const int again = b.tabs->fork(fast);
        b.tabs->forgetParents();
        b.editor.editor(again)->setText(kernel(QStringLiteral("correct"), 2.9));
        QVERIFY(b.tabs->evaluate(again));
        QVERIFY(b.store().population().find(b.editor.variantId(again))->parentIds.isEmpty());
    }

    void textEditedWhileMeasuredStaysEditable()
    {
        Bench b;
        QVERIFY(b.make(true, 300));
        b.fixture.measureReference();
        b.tabs->showSession();
        const int fork = b.tabs->fork(b.fixture.reference());
        b.editor.editor(fork)->setText(kernel(QStringLiteral("correct"), 1.5));
        QVERIFY(b.tabs->evaluate(fork));
        const qint64 id = b.editor.variantId(fork);
        b.editor.editor(fork)->append(QStringLiteral("// still typing\n"));
        QTRY_VERIFY_WITH_TIMEOUT(b.evaluations(id) == 1, 10000);
        QTest::qWait(50);
        QVERIFY(!b.editor.isReadOnly(fork));
    }

    void withoutAWorkerNothingEntersTheSession()
    {
        Bench b;
        QVERIFY(b.make(/*workers*/ false));
        const WorkerReadiness readiness = b.readiness->readiness();
        QCOMPARE(readiness.state(), WorkerReadiness::State::NoWorker);
        b.fixture.measureReference();
        b.tabs->showSession();
        const qsizetype variants = b.store().population().size();
        const int fork = b.tabs->fork(b.fixture.reference());
        b.editor.editor(fork)->setText(kernel(QStringLiteral("correct")));
        QVERIFY(!b.tabs->evaluate(fork));
        QCOMPARE(b.store().population().size(), variants);
        QCOMPARE(b.editor.variantId(fork), 0);
        QVERIFY2(b.editor.status(fork).contains(readiness.summary()), qPrintable(b.editor.status(fork)));
        QVERIFY(b.tabs->findChild<CompileOnly *>());

        // A dropped kernel file opens as an editable tab that says why, not as a variant that can only fail.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("mine.cu"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(kernel(QStringLiteral("correct")).toUtf8());
        }
        const int tabs = b.editor.count();
        QCOMPARE(b.tabs->addFile(file), 0);
        QCOMPARE(b.editor.count(), tabs + 1);
        QCOMPARE(b.editor.title(tabs), QStringLiteral("mine"));
        QVERIFY(!b.editor.isReadOnly(tabs));
        QCOMPARE(b.editor.status(tabs), readiness.explanation());
        QCOMPARE(b.store().population().size(), variants);

        // Settings → Workers gets one: the same file becomes a variant and is shown in its tab.
        QSignalSpy changed(b.readiness.get(), &ReadinessWatch::changed);
        b.harness->settings->setWorkers(Settings::Defaults::workers());
        QCOMPARE(changed.count(), 1);
        const qint64 id = b.tabs->addFile(file);
        QVERIFY(id > 0);
        QCOMPARE(b.store().population().find(id)->label, QStringLiteral("mine"));
        QCOMPARE(b.editor.variantId(b.editor.currentIndex()), id);
    }

    // A torch task's ModelNew tab while nothing can evaluate it: python3 checks its syntax; nvcc never sees it (it
    // used to mark correct Python with C++ errors). A syntax error gets its marker on its line.
    void withoutAWorkerAModelNewTabIsCheckedAsPython()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("no python3 on PATH");
        Bench b;
        QVERIFY(b.make(/*workers*/ false));
        b.fixture.measureReference();
        b.tabs->showSession();
        const qsizetype variants = b.store().population().size();
        const int fork = b.tabs->fork(b.fixture.reference());
        auto *compileOnly = b.tabs->findChild<CompileOnly *>();
        QVERIFY(compileOnly);
        QSignalSpy compiled(compileOnly, &CompileOnly::compiled);
        QSignalSpy nvcc(&b.compiler, &Compiler::finished);
        b.editor.setCompileFileName(fork, QStringLiteral("candidate.py"));
        b.editor.editor(fork)->setText(QStringLiteral("import torch\n\nclass ModelNew(torch.nn.Module):\n"
                                                      "    def forward(self, a, b):\n        return a.unsqueeze(1) * b\n"));
        QVERIFY(!b.tabs->evaluate(fork));
        QVERIFY(b.editor.status(fork).startsWith(QLatin1String("Checking the module's Python syntax only")));
        QVERIFY(compiled.wait(20000));
        QCOMPARE(compiled.at(0).at(1).toBool(), true);
        QVERIFY(b.editor.diagnostics(fork).isEmpty());
        QVERIFY2(b.editor.status(fork).startsWith(QLatin1String("Python syntax checked: no errors; not evaluated")),
                 qPrintable(b.editor.status(fork)));
        QVERIFY(b.editor.status(fork).contains(b.readiness->readiness().summary()));

        b.editor.editor(fork)->setText(QStringLiteral("import torch\n\nclass ModelNew(torch.nn.Module):\n"
                                                      "    def forward(self, a, b)\n        return a * b\n"));
        QVERIFY(!b.tabs->evaluate(fork));
        QVERIFY(compiled.wait(20000));
        QCOMPARE(compiled.at(1).at(1).toBool(), false);
        const QList<Diagnostic> errors = b.editor.diagnostics(fork);
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.constFirst().line, 4);
        QCOMPARE(errors.constFirst().tool, QStringLiteral("python3"));
        QVERIFY2(b.editor.status(fork).startsWith(QLatin1String("Python syntax error on line 4: expected ':'")),
                 qPrintable(b.editor.status(fork)));
        QTest::qWait(50);
        QCOMPARE(nvcc.count(), 0);
        QCOMPARE(b.store().population().size(), variants);
    }

    void withoutASessionItSaysSo()
    {
        Bench b;
        QVERIFY(b.make());
        b.tabs->showSession();
        b.store().close();
        QSignalSpy error(b.tabs.get(), &VariantTabBinding::errorOccurred);
        QVERIFY(!b.tabs->evaluate(0));
        QCOMPARE(error.count(), 1);
        QCOMPARE(error.first().at(0).toString(),
                 QStringLiteral("Open a task folder or a session first: evaluations are kept in a session."));
        QCOMPARE(b.tabs->addFile(QStringLiteral("/nonexistent/x.cu")), 0);
        QCOMPARE(error.count(), 2);
        QVERIFY(error.last().at(0).toString().contains(QStringLiteral("then drop /nonexistent/x.cu")));
        QVERIFY(!b.tabs->evaluate(99)); // no such tab: nothing to say
        QCOMPARE(error.count(), 2);
    }
};

QTEST_MAIN(TestVariantTabBinding)
#include "tst_varianttabbinding.moc"
