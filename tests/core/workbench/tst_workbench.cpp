// The composition root: the services are built from Settings (QStandardPaths test mode, an INI file per test),
// settings changes reach them while they run, and the headless flavour kforge-cli uses makes only what a command
// asks for, with the same lookups (endpoints, API keys, prices) and the same worker set-up. Workers are the
// scripted stand-in (tests/fixtures/workers), a real process speaking the protocol.
#include "core/compile/compiler.h"
#include "core/compile/kernelbuildflags.h"
#include "core/export/nvccflags.h"
#include "core/llm/endpointpresets.h"
#include "core/llm/llmclient.h"
#include "core/llm/pricetable.h"
#include "core/log/loghub.h"
#include "core/optimizer/roundrunner.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/workbench/workbench.h"
#include "core/workerpool/poolevaluator.h"
#include "core/workerpool/workerpool.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

QString scriptedWorker(const QString &mode)
{
    return u"\"" KFORGE_TEST_SOURCE_DIR "/tests/fixtures/workers/scripted-worker.sh\" "_s + mode;
}

WorkerConfig worker(const QString &name, const QString &mode)
{
    WorkerConfig w;
    w.name = name;
    w.command = scriptedWorker(mode);
    return w;
}

bool logHas(const LogHub &log, const QString &text)
{
    const QList<LogEntry> entries = log.entries();
    return std::any_of(entries.begin(), entries.end(), [&](const LogEntry &e) { return e.message.contains(text); });
}

} // namespace

class TestWorkbench : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    // The GUI's workbench: every part, configured from what Settings holds when it is made.
    void builtFromSettings()
    {
        Settings settings(m_dir.filePath(u"built.ini"_s));
        settings.setCompileFlags({u"-O2"_s, u"--use_fast_math"_s});
        settings.setDefaultArch(u"sm_90"_s);
        settings.setWorkers({worker(u"box-a"_s, u"normal"_s)});
        TimingSetting timing;
        timing.trials = 3;
        timing.minRuns = 20;
        timing.warmup = 4;
        settings.setTiming(timing);
        settings.setPrices(PriceTable::fromJson(R"({"gpt-4.1": {"input": 2.0, "output": 8.0}})"));

        SessionStore store;
        LogHub log;
        Workbench bench(&store, settings, log);
        QVERIFY(bench.compiler() && bench.pool() && bench.evaluator() && bench.llm() && bench.credentials()
                && bench.runner());
        QCOMPARE(bench.runner()->evaluator(), static_cast<Evaluator *>(bench.evaluator()));
        QCOMPARE(bench.compiler()->baseFlags(), (QStringList{u"-O2"_s, u"--use_fast_math"_s}));
        QCOMPARE(bench.compiler()->defaultArch(), u"sm_90"_s);
        QCOMPARE(bench.queue()->defaultOptions(), EvalOptions::fromSettings(timing));
        QCOMPARE(bench.queue()->defaultOptions().trials, 3);
        // Hardware metrics for round candidates: "when they pay" unless Settings → Timing says otherwise.
        QCOMPARE(bench.queue()->metricsPolicy().mode, MetricsPolicy::Mode::WhenTheyPay);
        QCOMPARE(bench.runner()->priceTable().prices(), settings.prices().prices());
        QVERIFY(bench.runner()->priceTable().find(u"gpt-4.1"_s));

        // The configured worker is started, and the log and the status bar name it as configured.
        QCOMPARE(bench.pool()->workerCount(), 1);
        QCOMPARE(bench.workerName(0), u"box-a"_s);
        QTRY_VERIFY_WITH_TIMEOUT(bench.pool()->device(0).isValid(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(logHas(log, u"GPU worker box-a: Scripted GPU (sm_80)"_s), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(bench.readiness().canEvaluate(), 5000);
        QCOMPARE(bench.statusText(), u"GPU: Scripted GPU"_s);
        QVERIFY2(bench.statusToolTip().startsWith(u"box-a: Scripted GPU (sm_80)"_s), qPrintable(bench.statusToolTip()));
    }

    // What the user changes in Settings reaches the running services: the next evaluation, the next request.
    void settingsChangesApplied()
    {
        Settings settings(m_dir.filePath(u"changes.ini"_s));
        settings.setWorkers({worker(u"first"_s, u"normal"_s)});
        SessionStore store;
        LogHub log;
        Workbench bench(&store, settings, log);
        QCOMPARE(bench.compiler()->baseFlags(), KernelBuildFlags::defaults());
        QCOMPARE(bench.queue()->defaultOptions(), EvalOptions());
        QVERIFY(bench.runner()->priceTable().prices().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(bench.readiness().canEvaluate(), 20000);

        settings.setCompileFlags({u"-O1"_s});
        settings.setNvccPath(u"/opt/no-such-cuda/bin/nvcc"_s);
        QCOMPARE(bench.compiler()->baseFlags(), QStringList{u"-O1"_s});
        QVERIFY(bench.compiler()->nvccPath().isEmpty()); // the override is taken, and it names no nvcc

        TimingSetting timing;
        timing.minTimeMs = 250;
        timing.maxRuns = 500;
        settings.setTiming(timing);
        QCOMPARE(bench.queue()->defaultOptions().minTimeMs, 250);
        QCOMPARE(bench.queue()->defaultOptions().maxRuns, 500);
        QCOMPARE(bench.evalOptions(), bench.queue()->defaultOptions());

        settings.setMetricsPolicy(MetricsPolicy::Mode::Never);
        QCOMPARE(bench.queue()->metricsPolicy().mode, MetricsPolicy::Mode::Never);
        settings.setMetricsPolicy(MetricsPolicy::Mode::Always);
        QCOMPARE(bench.queue()->metricsPolicy().mode, MetricsPolicy::Mode::Always);
        QCOMPARE(bench.queue()->metricsPolicy().best, MetricsPolicy().best);

        settings.setPrices(PriceTable::fromJson(R"({"deepseek-*": {"input": 0.5, "output": 2.0}})"));
        const auto price = bench.runner()->priceTable().find(u"deepseek-chat"_s);
        QVERIFY(price);
        QCOMPARE(price->outputPerMTok, 2.0);

        // A new worker list restarts the pool with it; readiness follows the new worker.
        QSignalSpy readiness(&bench, &Workbench::readinessChanged);
        settings.setWorkers({worker(u"gpu-less"_s, u"nodevice"_s), worker(u"second"_s, u"normal"_s)});
        QCOMPARE(bench.pool()->workerCount(), 2);
        QCOMPARE(bench.workerName(0), u"gpu-less"_s);
        QCOMPARE(bench.workerName(1), u"second"_s);
        QTRY_VERIFY_WITH_TIMEOUT(!bench.pool()->deviceError(0).isEmpty(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(bench.pool()->device(1).isValid(), 20000);
        QVERIFY(readiness.count() > 0);
        // A machine without a GPU is explained calmly, with the worker's own words, not logged as an error.
        QTRY_VERIFY_WITH_TIMEOUT(logHas(log, u"GPU worker gpu-less finds no usable NVIDIA GPU"_s), 5000);
        for (const LogEntry &e : log.entries())
            if (e.message.contains(u"gpu-less"_s))
                QVERIFY2(e.level == LogLevel::Info, qPrintable(e.message));
    }

    // kforge-cli's flavour: nothing but the lookups until a command asks for a part.
    void headlessMakesOnlyWhatIsAsked()
    {
        Settings settings(m_dir.filePath(u"headless.ini"_s));
        settings.setWorkers({worker(u"configured"_s, u"normal"_s), worker(u"other"_s, u"normal"_s)});
        LogHub log;
        Workbench bench(settings, log);
        QVERIFY(bench.credentials());
        QVERIFY(!bench.compiler() && !bench.pool() && !bench.evaluator() && !bench.llm() && !bench.runner());
        QCOMPARE(bench.readiness().state(), WorkerReadiness::State::NoWorker);

        bench.useModel();
        QVERIFY(bench.llm() && !bench.pool());

        // No --worker: the first configured worker only, under its configured name.
        bench.useEvaluation();
        QVERIFY(bench.compiler() && bench.pool() && bench.evaluator());
        QCOMPARE(bench.pool()->workerCount(), 1);
        QCOMPARE(bench.workerName(0), u"configured"_s);
        QTRY_VERIFY_WITH_TIMEOUT(bench.readiness().canEvaluate(), 20000);
        // The worker a command was started with stays while the settings change.
        settings.setWorkers({});
        QCOMPARE(bench.pool()->workerCount(), 1);
        QCOMPARE(bench.workers().size(), 1);

        // Rounds on a session: the same evaluator, with timing and prices from Settings.
        settings.setPrices(PriceTable::fromJson(R"({"m": {"input": 1, "output": 1}})"));
        SessionStore store;
        bench.useRounds(&store);
        QVERIFY(bench.runner());
        QCOMPARE(bench.runner()->evaluator(), static_cast<Evaluator *>(bench.evaluator()));
        QVERIFY(bench.runner()->priceTable().find(u"m"_s));
        QCOMPARE(bench.queue()->defaultOptions(), bench.evalOptions());
        // kforge-cli optimize sets the metrics policy from --metrics; the GUI's setting does not reach it.
        settings.setMetricsPolicy(MetricsPolicy::Mode::Never);
        QCOMPARE(bench.queue()->metricsPolicy().mode, MetricsPolicy().mode);
    }

    void headlessWorkerFromCommandLine()
    {
        Settings settings(m_dir.filePath(u"cli-worker.ini"_s));
        settings.setWorkers({worker(u"configured"_s, u"die"_s)});
        LogHub log;
        Workbench bench(settings, log);
        SessionStore store;
        bench.useEvaluation(scriptedWorker(u"normal"_s));
        bench.useRounds(&store); // keeps the worker given first
        QCOMPARE(bench.workers().size(), 1);
        QCOMPARE(bench.workers().constFirst().command, scriptedWorker(u"normal"_s));
        QCOMPARE(bench.workerName(0), scriptedWorker(u"normal"_s)); // unnamed: the command
        QTRY_VERIFY_WITH_TIMEOUT(bench.readiness().canEvaluate(), 20000);
    }

    // Endpoints by preset, saved id (the typed Settings) or URL; the protocol can be forced.
    void findEndpoint()
    {
        Settings settings(m_dir.filePath(u"endpoints.ini"_s));
        EndpointConfig saved;
        saved.id = u"lab-vllm"_s;
        saved.displayName = u"Lab vLLM"_s;
        saved.baseUrl = u"http://10.0.0.7:8000/v1"_s;
        saved.protocol = LlmProtocol::OpenAi;
        saved.defaultModel = u"qwen"_s;
        settings.setEndpoints({saved});
        LogHub log;
        Workbench bench(settings, log);

        const auto preset = bench.findEndpoint(u"anthropic"_s);
        QVERIFY(preset);
        QCOMPARE(preset->protocol, LlmProtocol::Anthropic);
        const auto mine = bench.findEndpoint(u"lab-vllm"_s);
        QVERIFY(mine);
        QCOMPARE(mine->baseUrl, saved.baseUrl);
        QCOMPARE(mine->defaultModel, u"qwen"_s);
        const auto forced = bench.findEndpoint(u"lab-vllm"_s, LlmProtocol::Anthropic);
        QVERIFY(forced);
        QCOMPARE(forced->protocol, LlmProtocol::Anthropic);
        const auto url = bench.findEndpoint(u"http://localhost:9999/v1"_s);
        QVERIFY(url);
        QCOMPARE(url->baseUrl, u"http://localhost:9999/v1"_s);
        QCOMPARE(url->protocol, LlmProtocol::OpenAi);
        QVERIFY(!bench.findEndpoint(u"nowhere"_s));
    }

    // The key: a named variable only when one is named; else the endpoint's variable (then the keychain).
    void lookupKey_data()
    {
        QTest::addColumn<QString>("keyVariable");
        QTest::addColumn<QString>("endpointVariable");
        QTest::addColumn<bool>("requiresKey");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("error");
        QTest::newRow("named variable") << u"KFORGE_TST_WB_KEY"_s << u"KFORGE_TST_WB_UNSET"_s << true
                                        << u"sk-test-123"_s << QString();
        QTest::newRow("named variable unset") << u"KFORGE_TST_WB_UNSET"_s << u"KFORGE_TST_WB_KEY"_s << false << QString()
                                              << u"the environment variable KFORGE_TST_WB_UNSET is not set"_s;
        QTest::newRow("endpoint's variable")
            << QString() << u"KFORGE_TST_WB_KEY"_s << true << u"sk-test-123"_s << QString();
        QTest::newRow("endpoint's variable unset")
            << QString() << u"KFORGE_TST_WB_UNSET"_s << true << QString()
            << u"no API key: the environment variable KFORGE_TST_WB_UNSET is not set"_s;
        QTest::newRow("no key needed") << QString() << u"KFORGE_TST_WB_UNSET"_s << false << QString() << QString();
        // A server on this machine never demands a key, even one marked as needing it (issue 37).
        QTest::newRow("local server") << QString() << u"KFORGE_TST_WB_UNSET"_s << true << QString() << QString();
    }

    void lookupKey()
    {
        QFETCH(QString, keyVariable);
        QFETCH(QString, endpointVariable);
        QFETCH(bool, requiresKey);
        QFETCH(QString, key);
        QFETCH(QString, error);
        qputenv("KFORGE_TST_WB_KEY", "  sk-test-123 \n");
        qunsetenv("KFORGE_TST_WB_UNSET");
        Settings settings(m_dir.filePath(u"keys.ini"_s));
        LogHub log;
        Workbench bench(settings, log);
        const bool local = QByteArray(QTest::currentDataTag()) == "local server";
        EndpointConfig endpoint = EndpointPresets::forUrl(local ? u"http://localhost:1/v1"_s
                                                                : u"https://llm.example.invalid/v1"_s,
                                                          LlmProtocol::OpenAi);
        endpoint.apiKeyEnv = endpointVariable;
        endpoint.keychainEntry.clear();
        endpoint.requiresKey = requiresKey;

        bool answered = false;
        ApiKeyLookup found;
        bench.lookupKey(endpoint, keyVariable, this, [&](const ApiKeyLookup &r) {
            found = r;
            answered = true;
        });
        QVERIFY(!answered); // never before lookupKey returns
        if (!keyVariable.isEmpty()) {
            QCOMPARE(endpoint.apiKeyEnv, keyVariable); // the request names the variable it got its key from
            QVERIFY(endpoint.keychainEntry.isEmpty());
        }
        QTRY_VERIFY(answered);
        QCOMPARE(found.key, key);
        QCOMPARE(found.error, error);
        QCOMPARE(found.source, key.isEmpty() ? ApiKeyLookup::None : ApiKeyLookup::Environment);
    }

    // The flags KForge decides for a shared object (KernelBuildFlags) are exactly what an export leaves to the
    // generated build: translating the compiler's own command line keeps only the user's and the task's flags.
    void compileFlagsDecidedOnce()
    {
        Settings settings(m_dir.filePath(u"flags.ini"_s));
        settings.setCompileFlags({u"-O2"_s, u"-lineinfo"_s});
        LogHub log;
        Workbench bench(settings, log);
        bench.useEvaluation(scriptedWorker(u"normal"_s));
        CompileRequest request;
        request.fileName = u"candidate.cu"_s;
        request.flags = {u"-lcublas"_s, u"--use_fast_math"_s};
        QStringList args = bench.compiler()->arguments(request, u"sm_90"_s, u"kernel.so"_s);
        QCOMPARE(args.takeLast(), u"candidate.cu"_s); // the source, which no build option stands for
        for (const QString &flag : KernelBuildFlags::sharedObject() + QStringList{KernelBuildFlags::arch(u"sm_90"_s)})
            QVERIFY2(args.contains(flag), qPrintable(flag));
        const NvccFlags::Translated kept = NvccFlags::translate(args);
        QCOMPARE(kept.compile, (QList<QStringList>{{u"-O2"_s}, {u"-lineinfo"_s}, {u"--use_fast_math"_s}}));
        QCOMPARE(kept.libraries, QStringList{u"cublas"_s});
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestWorkbench)
#include "tst_workbench.moc"
