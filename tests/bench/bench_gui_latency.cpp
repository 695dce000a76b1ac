// GUI latency benchmark: the longest event-loop stall (lateness of a 5 ms timer) while the workbench's
// panels (Variants, Compare, Charts, Reasoning, Round control) follow
//   1. a round of 8 candidates streamed from the loopback LLM server and evaluated by ScriptedEvaluator;
//   2. opening a session of 10,000 evaluated variants into the Variants panel (and the charts) with
//      SessionStore::openAsync(), as the File menu does, split into the store's and the panels' shares.
// Prints the figures; the goal is a longest stall of at most 50 ms. Runs offscreen.
#include "roundharness.h"
#include "views/charts/chartspanel.h"
#include "views/charts/speedupchart.h"
#include "views/compare/comparepanel.h"
#include "views/reasoning/reasoningentriesmodel.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/roundcontrol/roundhistorymodel.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEvent>
#include <QEventLoop>
#include <QMainWindow>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <vector>

using namespace kforge;
using namespace kforge::test;
using namespace Qt::StringLiterals;

namespace {

// Times every top-level event delivery, so a stall can be traced to the object that handled it.
class TimingApplication : public QApplication
{
public:
    using QApplication::QApplication;

    struct Slow {
        double ms = 0;
        QString what;
    };

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (m_depth++ > 0) {
            const bool r = QApplication::notify(receiver, event);
            --m_depth;
            return r;
        }
        QElapsedTimer t;
        t.start();
        const int type = int(event->type());
        const QString name = QString::fromLatin1(receiver->metaObject()->className());
        const bool watched = receiver == m_watched;
        const bool r = QApplication::notify(receiver, event);
        --m_depth;
        const double ms = t.nsecsElapsed() / 1e6;
        if (ms > 10)
            m_slow.push_back({ms, QStringLiteral("%1 (event %2)").arg(name).arg(type)});
        if (watched)
            m_watchedMs = std::max(m_watchedMs, ms);
        return r;
    }
    // The longest delivery of one event to `receiver` from now on (e.g. the store's result of openAsync()).
    void watch(const QObject *receiver)
    {
        m_watched = receiver;
        m_watchedMs = 0;
    }
    double watchedMs() const { return m_watchedMs; }
    // The slowest deliveries since the last call, longest first.
    std::vector<Slow> takeSlowest(size_t n)
    {
        std::vector<Slow> out = std::exchange(m_slow, {});
        std::sort(out.begin(), out.end(), [](const Slow &a, const Slow &b) { return a.ms > b.ms; });
        if (out.size() > n)
            out.resize(n);
        return out;
    }

private:
    int m_depth = 0;
    std::vector<Slow> m_slow;
    const QObject *m_watched = nullptr;
    double m_watchedMs = 0;
};

void printSlowest()
{
    auto *app = static_cast<TimingApplication *>(QCoreApplication::instance());
    for (const auto &s : app->takeSlowest(4))
        std::printf("    %6.1f ms in %s\n", s.ms, qPrintable(s.what));
}

// Measures how late a 5 ms timer fires: every millisecond past its due time is a millisecond the event loop
// was busy with something else.
class StallMeter
{
public:
    StallMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(5);
        QObject::connect(&m_timer, &QTimer::timeout, &m_timer, [this] {
            const double now = m_clock.nsecsElapsed() / 1e6;
            m_late.push_back(std::max(0.0, now - m_last - 5.0));
            m_last = now;
        });
    }
    void start()
    {
        m_late.clear();
        m_clock.start();
        m_last = 0;
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    double longest() const { return m_late.empty() ? 0 : *std::max_element(m_late.begin(), m_late.end()); }
    double percentile(double p) const
    {
        if (m_late.empty())
            return 0;
        std::vector<double> v = m_late;
        std::sort(v.begin(), v.end());
        return v[size_t(p * double(v.size() - 1))];
    }
    int over(double ms) const
    {
        return int(std::count_if(m_late.begin(), m_late.end(), [ms](double l) { return l > ms; }));
    }
    size_t ticks() const { return m_late.size(); }
    double elapsedMs() const { return m_clock.nsecsElapsed() / 1e6; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_last = 0;
    std::vector<double> m_late;
};

void report(const char *what, const StallMeter &m)
{
    std::printf("%-44s longest stall %7.1f ms   p99 %6.1f ms   p50 %5.1f ms   stalls >50 ms: %d   (%zu ticks over %.0f ms)\n",
                what, m.longest(), m.percentile(0.99), m.percentile(0.5), m.over(50), m.ticks(), m.elapsedMs());
    printSlowest();
    std::fflush(stdout);
}

// Runs the event loop until `done` or `timeoutMs`.
bool runUntil(const std::function<bool()> &done, int timeoutMs)
{
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    poll.start();
    loop.exec();
    return done();
}

struct Workbench {
    QMainWindow window;
    VariantSelection selection;
    VariantsPanel *variants = nullptr;
    ChartsPanel *charts = nullptr;
    ReasoningPanel *reasoning = nullptr;
    ComparePanel *compare = nullptr;
    RoundControlPanel *control = nullptr;

    Workbench(SessionStore *store, RoundRunner *runner, Settings *settings)
    {
        variants = new VariantsPanel(store, &selection);
        charts = new ChartsPanel(store, &selection);
        reasoning = new ReasoningPanel(store, &selection, runner);
        compare = new ComparePanel(store, &selection, runner);
        window.setCentralWidget(charts);
        auto dock = [this](QWidget *w, Qt::DockWidgetArea area) {
            auto *d = new QDockWidget(&window);
            d->setWidget(w);
            window.addDockWidget(area, d);
        };
        dock(variants, Qt::BottomDockWidgetArea);
        dock(reasoning, Qt::RightDockWidgetArea);
        dock(compare, Qt::RightDockWidgetArea);
        control = new RoundControlPanel(store, runner, settings); // without a runner: the session's history only
        dock(control, Qt::LeftDockWidgetArea);
        window.resize(1600, 1000);
        window.show();
    }
};

void benchRound()
{
    SessionFixture f;
    if (!f.create()) {
        std::printf("round: cannot create the session: %s\n", qPrintable(f.store().errorString()));
        return;
    }
    RoundHarness h(f, 40);
    QList<CandidateAnswer> answers;
    for (int i = 0; i < 8; ++i) {
        CandidateAnswer a{1.5 + i * 0.9};
        if (i == 3)
            a.verdict = QStringLiteral("incorrect");
        answers << a;
    }
    QString error;
    if (!h.serve(answers, QStringLiteral("unused"), &error, 4)) {
        std::printf("round: %s\n", qPrintable(error));
        return;
    }
    Workbench wb(&f.store(), h.runner.get(), h.settings.get());
    runUntil([] { return false; }, 300); // let the window settle
    wb.control->candidatesBox()->setValue(8);
    wb.control->repairsBox()->setValue(0);
    bool finished = false;
    QObject::connect(h.runner.get(), &RoundRunner::roundFinished, &wb.window, [&] { finished = true; });
    StallMeter meter;
    static_cast<TimingApplication *>(QCoreApplication::instance())->takeSlowest(0);
    meter.start();
    wb.control->start();
    const bool ok = runUntil([&] { return finished; }, 120000);
    runUntil([] { return false; }, 400); // the throttled repaints after the last result
    meter.stop();
    if (!ok)
        std::printf("round: did not finish: %s\n", qPrintable(wb.control->statusText()));
    std::printf("round of 8 candidates: %d variants made, reasoning re-rendered %d times\n",
                f.store().population().size() - 1, wb.reasoning->renderCount());
    report("during a round of 8 candidates:", meter);
}

void benchOpen(int count)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.kforge"));
    {
        QElapsedTimer t;
        t.start();
        SessionStore store;
        if (!store.create(path, taskFolder())) {
            std::printf("open: cannot create the session: %s\n", qPrintable(store.errorString()));
            return;
        }
        const qint64 ref = store.population().reference()->id;
        const qint64 round = store.rounds().add({});
        // Every variant is a model's answer, as in a long optimization: the panels list the session's history
        // (Round Control's candidates, Reasoning's answers) read off the GUI thread.
        const QString answer = QStringLiteral("## Analysis\n") + QString(2000, u'x');
        qint64 prompt = 0;
        for (int i = 0; i < count; ++i) {
            if (i % 8 == 0) {
                PromptRecord p;
                p.roundId = round;
                p.kind = QStringLiteral("contrastive");
                p.templateName = QStringLiteral("contrastive");
                p.rendered = QStringLiteral("prompt %1").arg(i);
                p.exemplarIds = {ref};
                prompt = store.exchanges().addPrompt(p);
            }
            ResponseRecord r;
            r.promptId = prompt;
            r.rawText = answer;
            r.parseStatus = QStringLiteral("ok");
            r.finishStatus = QStringLiteral("stop");
            r.promptTokens = 1000;
            r.completionTokens = 700;
            Variant v;
            v.origin = VariantOrigin::Model;
            v.roundId = round;
            v.promptId = prompt;
            v.responseId = store.exchanges().addResponse(r);
            v.parentIds = {ref};
            v.label = QStringLiteral("v%1").arg(i);
            const qint64 id = store.variants().add(v, {QStringLiteral("// variant %1\n").arg(i),
                                                       QStringLiteral("analysis"), QStringLiteral("design")});
            ResultSpec spec;
            spec.speedup = 0.5 + (i % 97) * 0.1;
            if (i % 13 == 0)
                spec.verdict = QStringLiteral("incorrect");
            store.evaluations().add(Evaluation::fromResult(id, workerResult(spec), h200Device()));
            store.variants().setStatus(id, spec.verdict == "correct"_L1 ? VariantStatus::Done : VariantStatus::Failed);
        }
        store.rounds().setState(round, RoundState::Finished);
        std::printf("created a session of %d variants (each a model's answer) with evaluations in %lld ms (not measured "
                    "below)\n",
                    count,
                    t.elapsed());
        // close() stays on the calling thread, and openAsync() starts with it when a session is open.
        QElapsedTimer c;
        c.start();
        store.close();
        std::printf("  closing it right after those writes (WAL checkpoint, freeing the population): %.1f ms\n",
                    c.nsecsElapsed() / 1e6);
    }
    auto *app = static_cast<TimingApplication *>(QCoreApplication::instance());
    SessionStore store;
    // Connected before the panels, so it runs first among opened()'s slots: the store has adopted the loaded
    // session and starts announcing it.
    QElapsedTimer openClock;
    double loadedMs = 0;
    QObject::connect(&store, &SessionStore::opened, &store, [&] { loadedMs = openClock.nsecsElapsed() / 1e6; });
    Workbench wb(&store, nullptr, nullptr);
    // openFinished comes after opened() has returned, i.e. after every panel's synchronous reaction to it.
    bool finished = false;
    bool ok = false;
    double finishedMs = 0;
    QObject::connect(&store, &SessionStore::openFinished, &store, [&](bool success, const QString &error) {
        finishedMs = openClock.nsecsElapsed() / 1e6;
        finished = true;
        ok = success;
        if (!success)
            std::printf("open: %s\n", qPrintable(error));
    });
    runUntil([] { return false; }, 300);
    StallMeter meter;
    app->takeSlowest(0);
    app->watch(&store);
    meter.start();
    runUntil([] { return false; }, 50);
    double callMs = 0;
    // Open from the event loop, as the File menu would.
    QTimer::singleShot(0, &wb.window, [&] {
        openClock.start();
        store.openAsync(path);
        callMs = openClock.nsecsElapsed() / 1e6;
    });
    runUntil([&] { return finished && (!ok || wb.variants->model()->rowCount() == count + 1); }, 60000);
    // The history (read off the GUI thread) listed: every answer in Reasoning, the round in Round Control.
    const bool historyIn = runUntil(
        [&] { return wb.reasoning->model()->rowCount() == count && wb.control->roundsModel()->rowCount() == 1; }, 60000);
    const double historyMs = openClock.nsecsElapsed() / 1e6;
    if (!ok) {
        meter.stop();
        return;
    }
    const double tableMs = openClock.nsecsElapsed() / 1e6;
    const bool detailsDone = runUntil([&] { return wb.variants->model()->pendingDetails() == 0; }, 300000);
    const double detailsMs = openClock.nsecsElapsed() / 1e6;
    runUntil([] { return false; }, 400);
    meter.stop();
    const double adoptionMs = app->watchedMs(); // the one event that delivers the loaded session
    const double panelsMs = finishedMs - loadedMs;
    std::printf("  the session's history (%d answers) listed in Reasoning and Round Control after %.0f ms%s\n", count,
                historyMs, historyIn ? "" : " (unfinished)");
    std::printf("opening %d variants with SessionStore::openAsync(): the call %.1f ms; read on the loader thread and "
                "announced (opened()) after %.0f ms; rows in the table after %.0f ms; every row's details read in the "
                "background after %.0f ms%s; %d points in the speedup chart\n",
                count, callMs, loadedMs, tableMs, detailsMs, detailsDone ? "" : " (unfinished)",
                wb.charts->speedupChart()->pointCount());
    report("while opening (openAsync):", meter);
    std::printf("  on the GUI thread, the event that delivers the loaded session: %.1f ms = the store adopting it "
                "(connection, interrupted rounds, taking the data) %.1f ms + the panels' synchronous reaction to "
                "opened() %.1f ms\n",
                adoptionMs, adoptionMs - panelsMs, panelsMs);

    QElapsedTimer step;
    step.start();
    wb.charts->speedupChart()->refreshNow();
    const double rebuild = step.nsecsElapsed() / 1e6;
    step.restart();
    wb.charts->speedupChart()->replot();
    const double replot = step.nsecsElapsed() / 1e6;
    step.restart();
    wb.variants->view()->sortByColumn(VariantsModel::Speedup, Qt::DescendingOrder);
    const double sort = step.nsecsElapsed() / 1e6;
    step.restart();
    wb.window.grab();
    const double paint = step.nsecsElapsed() / 1e6;
    std::printf("  with %d variants: speedup chart rebuild and replot %.1f ms, replot alone %.1f ms, sorting the table "
                "by speedup %.1f ms, painting the whole window %.1f ms\n",
                count, rebuild, replot, sort, paint);

    // Once more over the open session, as when the user switches sessions: openAsync() first closes the open one
    // on this thread, and the panels empty themselves on closed().
    {
        StallMeter meter;
        finished = false;
        app->takeSlowest(0);
        app->watch(&store);
        meter.start();
        runUntil([] { return false; }, 50);
        QTimer::singleShot(0, &wb.window, [&] {
            openClock.start();
            store.openAsync(path);
            callMs = openClock.nsecsElapsed() / 1e6;
        });
        runUntil([&] { return finished && (!ok || wb.variants->model()->rowCount() == count + 1); }, 60000);
        runUntil([&] { return wb.variants->model()->pendingDetails() == 0; }, 300000);
        runUntil([] { return false; }, 400);
        meter.stop();
        std::printf("reopening it over the open session: the openAsync() call (closing the open session, the panels' "
                    "reaction to closed()) %.1f ms; delivering the loaded session %.1f ms\n",
                    callMs, app->watchedMs());
        report("while reopening (openAsync):", meter);
    }

    // For comparison, what the GUI thread would wait for in the synchronous open() (no panels attached).
    store.close();
    SessionStore plain;
    step.restart();
    const bool reopened = plain.open(path);
    std::printf("  for comparison, the synchronous SessionStore::open() of the same file, no panels: %.0f ms%s\n",
                step.nsecsElapsed() / 1e6, reopened ? "" : " (failed)");
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    TimingApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    int count = 10000;
    const QStringList args = app.arguments();
    if (const qsizetype i = args.indexOf(QStringLiteral("--variants")); i >= 0 && i + 1 < args.size())
        count = args.at(i + 1).toInt();
    std::printf("KForge GUI latency (goal: longest stall <= 50 ms)\n");
    benchRound();
    benchOpen(count);
    return 0;
}
