// The one worker readiness every view shows, through real parts: a WorkerPool behind a PoolEvaluator starting
// the scripted stand-in worker (ready, no GPU, a command that does not exist) and the Settings' worker list,
// which says "no worker" on its own while it is empty, whatever evaluator stands behind the runner.
#include "core/compile/compiler.h"
#include "core/settings/settings.h"
#include "core/workbench/readinesswatch.h"
#include "core/workerpool/poolevaluator.h"
#include "core/workerpool/scriptedevaluator.h"
#include "core/workerpool/workerpool.h"
#include "tests/core/workerpool/workertesthelpers.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace kforge::test;

namespace {
WorkerConfig worker(const QString &name, const QString &command)
{
    WorkerConfig w;
    w.name = name;
    w.command = command;
    return w;
}

WorkerReadiness::State stateOf(const QList<QVariant> &signalArgs)
{
    return signalArgs.at(0).value<WorkerReadiness>().state();
}
} // namespace

class TestReadinessWatch : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<kforge::WorkerReadiness>();
        QVERIFY(m_dir.isValid());
    }

    void followsThePoolAndTheSettings()
    {
        Settings settings(m_dir.filePath(QStringLiteral("pool.ini")));
        Compiler compiler;
        WorkerPool pool;
        PoolEvaluator evaluator(&compiler, &pool);
        // As the Workbench does: the pool follows Settings → Workers.
        connect(&settings, &Settings::workersChanged, &pool, [&] { pool.setWorkers(settings.workers()); });
        settings.setWorkers({});
        ReadinessWatch watch(&evaluator, &settings);
        QSignalSpy changed(&watch, &ReadinessWatch::changed);
        QCOMPARE(watch.readiness().state(), WorkerReadiness::State::NoWorker);

        settings.setWorkers({worker(QStringLiteral("local"), scriptedWorker(QStringLiteral("normal")))});
        QTRY_COMPARE_WITH_TIMEOUT(watch.readiness().state(), WorkerReadiness::State::Ready, 20000);
        QTRY_VERIFY(!changed.isEmpty() && stateOf(changed.constLast()) == WorkerReadiness::State::Ready);
        QCOMPARE(watch.readiness(), pool.readiness());
        // Every change once: Starting (maybe), then Ready; never the same state twice in a row.
        for (qsizetype i = 1; i < changed.size(); ++i)
            QVERIFY(changed.at(i).at(0).value<WorkerReadiness>() != changed.at(i - 1).at(0).value<WorkerReadiness>());

        // A worker on a machine without a usable GPU: what the worker said is kept, the wording is ours.
        changed.clear();
        settings.setWorkers({worker(QStringLiteral("gpu-box"), scriptedWorker(QStringLiteral("nodevice")))});
        QTRY_COMPARE_WITH_TIMEOUT(watch.readiness().state(), WorkerReadiness::State::NoGpu, 20000);
        QTRY_VERIFY(!changed.isEmpty() && stateOf(changed.constLast()) == WorkerReadiness::State::NoGpu);
        QVERIFY(watch.readiness().isUnusable());
        QVERIFY(watch.readiness().details().join(u' ').contains(QStringLiteral("CUDA driver version is insufficient")));
        QVERIFY(!watch.readiness().explanation().contains(QStringLiteral("driver"), Qt::CaseInsensitive));

        changed.clear();
        settings.setWorkers({worker(QStringLiteral("gpu-box"), QStringLiteral("/nonexistent/kforge-worker"))});
        QTRY_COMPARE_WITH_TIMEOUT(watch.readiness().state(), WorkerReadiness::State::CannotStart, 20000);
        QTRY_COMPARE(stateOf(changed.constLast()), WorkerReadiness::State::CannotStart);

        // Emptied: no worker at once, announced once.
        changed.clear();
        settings.setWorkers({});
        QCOMPARE(watch.readiness().state(), WorkerReadiness::State::NoWorker);
        QTRY_COMPARE(changed.size(), 1);
        QCOMPARE(stateOf(changed.first()), WorkerReadiness::State::NoWorker);
        QTest::qWait(100);
        QCOMPARE(changed.size(), 1);
    }

    void settingsDecideForAStandIn()
    {
        // The scripted evaluator is always ready; with no worker listed there is still none to the user.
        Settings settings(m_dir.filePath(QStringLiteral("scripted.ini")));
        settings.setWorkers({});
        ScriptedEvaluator scripted([](const EvalRequest &) { return EvalResult{}; });
        ReadinessWatch watch(&scripted, &settings);
        QSignalSpy changed(&watch, &ReadinessWatch::changed);
        QCOMPARE(watch.readiness().state(), WorkerReadiness::State::NoWorker);
        settings.setWorkers(Settings::Defaults::workers());
        QCOMPARE(watch.readiness().state(), WorkerReadiness::State::Ready);
        QCOMPARE(changed.size(), 1);
        settings.setWorkers(Settings::Defaults::workers()); // the same list again: nothing changed
        QCOMPARE(changed.size(), 1);

        // Without settings the evaluator alone decides; without an evaluator there is no worker.
        QCOMPARE(ReadinessWatch(&scripted, nullptr).readiness().state(), WorkerReadiness::State::Ready);
        QCOMPARE(ReadinessWatch(nullptr, &settings).readiness().state(), WorkerReadiness::State::NoWorker);
        QCOMPARE(ReadinessWatch(nullptr, nullptr).readiness().state(), WorkerReadiness::State::NoWorker);
    }
};

QTEST_GUILESS_MAIN(TestReadinessWatch)
#include "tst_readinesswatch.moc"
