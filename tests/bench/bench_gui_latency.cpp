// GUI latency benchmark: the longest event-loop stall (lateness of a 5 ms timer) while the workbench's
// panels (Variants, Compare, Charts, Reasoning, Round control) follow
//   1. a round of 8 candidates streamed from the loopback LLM server and evaluated by ScriptedEvaluator;
//   2. opening a session of 10,000 evaluated variants into the Variants panel (and the charts).
// Prints the figures; the goal is a longest stall of at most 50 ms. Runs offscreen.
#include "roundharness.h"
#include "views/charts/chartspanel.h"
#include "views/charts/speedupchart.h"
#include "views/compare/comparepanel.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QMainWindow>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <vector>

using namespace kforge;
using namespace kforge::test;

namespace {

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
    int over(double ms) const { return int(std::count_if(m_late.begin(), m_late.end(), [ms](double l) { return l > ms; })); }
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
        if (runner) {
            control = new RoundControlPanel(store, runner, settings);
            dock(control, Qt::LeftDockWidgetArea);
        }
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
        const qint64 round = store.addRound({});
        for (int i = 0; i < count; ++i) {
            Variant v;
            v.origin = VariantOrigin::Model;
            v.roundId = round;
            v.parentIds = {ref};
            v.label = QStringLiteral("v%1").arg(i);
            const qint64 id = store.addVariant(v, {QStringLiteral("// variant %1\n").arg(i), QStringLiteral("analysis"),
                                                   QStringLiteral("design")});
            ResultSpec spec;
            spec.speedup = 0.5 + (i % 97) * 0.1;
            if (i % 13 == 0)
                spec.verdict = QStringLiteral("incorrect");
            store.addEvaluation(Evaluation::fromResult(id, workerResult(spec), h200Device()));
            store.setStatus(id, spec.verdict == QLatin1String("correct") ? VariantStatus::Done : VariantStatus::Failed);
        }
        std::printf("created a session of %d variants with evaluations in %lld ms (not measured below)\n", count,
                    t.elapsed());
    }
    SessionStore store;
    Workbench wb(&store, nullptr, nullptr);
    runUntil([] { return false; }, 300);
    StallMeter meter;
    meter.start();
    runUntil([] { return false; }, 50);
    QElapsedTimer openClock;
    bool opened = false;
    double openMs = 0;
    // Open from the event loop, as the File menu would.
    QTimer::singleShot(0, &wb.window, [&] {
        openClock.start();
        opened = store.open(path);
        openMs = openClock.nsecsElapsed() / 1e6;
    });
    runUntil([&] { return opened && wb.variants->model()->rowCount() == count + 1; }, 60000);
    const double tableMs = openClock.nsecsElapsed() / 1e6;
    const bool detailsDone = runUntil([&] { return wb.variants->model()->pendingDetails() == 0; }, 300000);
    const double detailsMs = openClock.nsecsElapsed() / 1e6;
    runUntil([] { return false; }, 400);
    meter.stop();
    std::printf("opening %d variants: SessionStore::open() %.0f ms (synchronous, in the stall below); rows in the table "
                "after %.0f ms; every row's details read after %.0f ms%s; %d points in the speedup chart\n",
                count, openMs, tableMs, detailsMs, detailsDone ? "" : " (unfinished)",
                wb.charts->speedupChart()->pointCount());
    report("while opening (SessionStore::open included):", meter);
    // The same without the store's own open(): the session is open before the panels are made, so what is
    // measured is what the panels add (model reset, background detail reads, chart rebuilds).
    store.close();
    runUntil([] { return false; }, 300);
    SessionStore third;
    if (!third.open(path)) {
        std::printf("reopen failed: %s\n", qPrintable(third.errorString()));
        return;
    }
    StallMeter panelsOnly;
    panelsOnly.start();
    runUntil([] { return false; }, 50);
    VariantSelection selection;
    auto *panel = new VariantsPanel(&third, &selection);
    auto *charts = new ChartsPanel(&third, &selection);
    QMainWindow window;
    window.setCentralWidget(charts);
    auto *d = new QDockWidget(&window);
    d->setWidget(panel);
    window.addDockWidget(Qt::BottomDockWidgetArea, d);
    window.resize(1600, 1000);
    window.show();
    runUntil([&] { return panel->model()->pendingDetails() == 0; }, 300000);
    runUntil([] { return false; }, 400);
    panelsOnly.stop();
    report("panels taking in an open 10k session:", panelsOnly);
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
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
