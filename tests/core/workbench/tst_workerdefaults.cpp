// The Qt-free kforge-worker cannot link the client's decisions, so it keeps copies: the protocol's defaults for an
// evaluate request that omits an option, and the nvcc flags of its --self-test builds. They must say what the
// client says (TimingDefaults, KernelBuildFlags); this test fails the day one side changes alone.
#include "core/compile/kernelbuildflags.h"
#include "core/eval/timingdefaults.h"
#include "core/runtime/worker/judgeoptions.h" // the worker's EvalOptions: the only one in this file
#include "core/runtime/worker/kernelflags.h"

#include <QTest>

using namespace kforge;

namespace {

QStringList toQt(const std::vector<std::string> &flags)
{
    QStringList out;
    for (const std::string &f : flags)
        out << QString::fromStdString(f);
    return out;
}

} // namespace

class TestWorkerDefaults : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void timing()
    {
        const runtime::EvalOptions worker; // kforge-worker's protocol defaults
        QCOMPARE(worker.trials, TimingDefaults::trials);
        QCOMPARE(worker.minRuns, TimingDefaults::minRuns);
        QCOMPARE(worker.minTimeMs, double(TimingDefaults::minTimeMs));
        QCOMPARE(worker.maxRuns, TimingDefaults::maxRuns);
        QCOMPARE(worker.ciTarget, TimingDefaults::ciTarget);
        QCOMPARE(runtime::EvalOptions::kFixedMinTimeMs, double(TimingDefaults::fixedMinTimeMs));
        QCOMPARE(worker.maxTimeMs, double(TimingDefaults::maxTimeMs));
        QCOMPARE(worker.warmup, TimingDefaults::warmup);
        QCOMPARE(worker.warmupMs, double(TimingDefaults::warmupMs));
        QCOMPARE(worker.traceRuns, TimingDefaults::traceRuns);
    }

    void nvccFlags()
    {
        QCOMPARE(toQt(runtime::nvccBaseFlags()), KernelBuildFlags::defaults());
        QCOMPARE(toQt(runtime::nvccSharedObjectFlags()), KernelBuildFlags::sharedObject());
    }
};

QTEST_GUILESS_MAIN(TestWorkerDefaults)
#include "tst_workerdefaults.moc"
