// gui_shots: the workbench used as a user uses it, offscreen, saved as PNGs (issue 7's screenshots for docs/).
//
//   gui_shots --task DIR --url URL --out DIR [--rounds 2] [--candidates 3] [--model NAME] [--worker CMD] [--size WxH]
//   gui_shots --open S.kforge --out DIR [--url URL] [--model NAME] [--worker CMD] [--size WxH]
//
// --task: opens the task folder in the real MainWindow (app/gui), which makes its working session; runs
// `--rounds` rounds from the Round Control panel against the OpenAI-compatible endpoint `--url` (the loopback
// replay server) with the real GPU worker `--worker`, saving the window while the answers stream; accepts
// the suspicious results it reviewed (as a user does from the Variants table) between rounds; then selects the
// two fastest correct variants in the Variants table, compares them (Compare and Diff docks), opens the best
// one in the editor, asks the model "why is A faster than B" and waits for the answer.
// --open: the same from "select the two fastest" on, for an existing session.
// Prints one line per PNG and what the panels say; the session's path is printed as "session <path>".
// Exit status: 0 when every step worked and every PNG was written, 1 otherwise, 2 on bad arguments.
#include "app/gui/mainwindow.h"
#include "core/llm/endpointpresets.h"
#include "core/log/loghub.h"
#include "core/optimizer/roundrunner.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/workbench/workbench.h"
#include "core/workerpool/workerpool.h"
#include "views/charts/chartspanel.h"
#include "views/compare/comparepanel.h"
#include "views/diff/diffview.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/varianttabbinding.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsfiltermodel.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFontDatabase>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <algorithm>
#include <functional>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

QTextStream &out()
{
    static QTextStream s(stdout);
    return s;
}

// Lets the event loop run for `ms` (rendering, throttled repaints, queued model updates).
void settle(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

// Waits until `done` holds, for at most `timeoutMs`; checks every 50 ms.
bool waitFor(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs)
            return false;
        settle(50);
    }
    return true;
}

class Shooter
{
public:
    explicit Shooter(const QString &dir)
        : m_dir(dir)
    {
    }

    void save(QWidget *w, const QString &name)
    {
        const QPixmap pixmap = w->grab();
        const QString path = QDir(m_dir).filePath(name + u".png"_s);
        const bool ok = !pixmap.isNull() && pixmap.save(path, "PNG");
        out() << "png " << name << ".png " << pixmap.width() << 'x' << pixmap.height() << (ok ? "" : " FAILED") << '\n'
              << Qt::flush;
        m_failed += ok ? 0 : 1;
        ++m_count;
    }

    // A dock's panel on its own: floated at a readable size, grabbed, docked again.
    void saveDock(QDockWidget *dock, const QString &name, QSize size)
    {
        const bool floating = dock->isFloating();
        dock->setFloating(true);
        dock->resize(size);
        dock->show();
        dock->raise();
        settle(600);
        save(dock->widget(), name);
        dock->setFloating(floating);
        settle(200);
    }

    int count() const { return m_count; }
    int failed() const { return m_failed; }

private:
    QString m_dir;
    int m_count = 0;
    int m_failed = 0;
};

QString describe(const SessionStore &store, qint64 id)
{
    const Variant *v = store.population().find(id);
    if (!v)
        return u"-"_s;
    return u"#%1 %2 (%3x)"_s.arg(id).arg(v->label).arg(v->eval.speedup.value_or(0), 0, 'f', 2);
}

// Selects these variants' rows in the Variants table, as a user's clicks would.
void selectRows(VariantsPanel *variants, const QList<qint64> &ids)
{
    QItemSelection rows;
    for (qint64 id : ids) {
        const int row = variants->model()->rowOf(id);
        if (row < 0)
            continue;
        const QModelIndex index = variants->filterModel()->mapFromSource(variants->model()->index(row, 0));
        rows.select(index, index.siblingAtColumn(variants->filterModel()->columnCount() - 1));
    }
    variants->view()->selectionModel()->select(rows, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(u"KForge"_s);
    QApplication::setApplicationName(u"KForge"_s);
    QStandardPaths::setTestModeEnabled(true); // never the user's settings or data folder

    QCommandLineParser parser;
    parser.setApplicationDescription(u"The KForge workbench used end to end, offscreen, with screenshots."_s);
    parser.addHelpOption();
    const QCommandLineOption taskOpt(u"task"_s, u"A task folder to open and run rounds on."_s, u"dir"_s);
    // Not "--session": QGuiApplication takes that one (X11 session management) before the parser sees it.
    const QCommandLineOption sessionOpt(u"open"_s, u"A session file (*.kforge) to open instead."_s, u"file"_s);
    const QCommandLineOption outOpt(u"out"_s, u"Folder for the PNGs."_s, u"dir"_s);
    const QCommandLineOption urlOpt({u"url"_s, u"why-url"_s}, u"OpenAI-compatible base URL (the replay server)."_s,
                                    u"url"_s);
    const QCommandLineOption modelOpt(u"model"_s, u"Model name."_s, u"name"_s, u"replay-model"_s);
    const QCommandLineOption workerOpt(u"worker"_s, u"The GPU worker command."_s, u"command"_s,
                                       u"kforge-worker --device 0"_s);
    const QCommandLineOption roundsOpt(u"rounds"_s, u"Rounds to run."_s, u"n"_s, u"2"_s);
    const QCommandLineOption candidatesOpt(u"candidates"_s, u"Candidates per round."_s, u"n"_s, u"3"_s);
    const QCommandLineOption sizeOpt(u"size"_s, u"Window size."_s, u"WxH"_s, u"1920x1200"_s);
    parser.addOptions({taskOpt, sessionOpt, outOpt, urlOpt, modelOpt, workerOpt, roundsOpt, candidatesOpt, sizeOpt});
    parser.process(app);
    if (parser.isSet(taskOpt) == parser.isSet(sessionOpt) || !parser.isSet(outOpt)
        || (parser.isSet(taskOpt) && !parser.isSet(urlOpt))) {
        out() << "gui_shots: --out and one of --task (with --url) or --open are required\n";
        return 2;
    }
    const QStringList wh = parser.value(sizeOpt).split(u'x');
    const QSize windowSize(wh.value(0).toInt(), wh.value(1).toInt());
    QDir().mkpath(parser.value(outOpt));
    Shooter shots(parser.value(outOpt));
    int status = 0;
    const auto fail = [&status](const QString &what) {
        out() << "FAILED: " << what << '\n' << Qt::flush;
        status = 1;
    };

    const QStringList families = QFontDatabase::families();
    if (families.contains(u"DejaVu Sans"_s))
        QApplication::setFont(QFont(u"DejaVu Sans"_s, 10));
    out() << "fonts: " << families.size() << " families (" << families.mid(0, 6).join(u", "_s) << ")\n";

    // Settings of this run only: the real worker and the loopback endpoint, as a user sets them up.
    QTemporaryDir settingsDir;
    Settings settings(settingsDir.filePath(u"kforge.ini"_s));
    settings.setTheme(Theme::Light);
    WorkerConfig worker;
    worker.name = u"local GPU"_s;
    worker.command = parser.value(workerOpt);
    settings.setWorkers({worker});
    EndpointConfig endpoint = EndpointPresets::forUrl(parser.isSet(urlOpt) ? parser.value(urlOpt) : u"http://127.0.0.1:9/v1"_s,
                                                      LlmProtocol::OpenAi);
    endpoint.id = u"loopback"_s;
    endpoint.displayName = u"Loopback replay server"_s;
    endpoint.defaultModel = parser.value(modelOpt);
    endpoint.limits.maxAttempts = 1;
    settings.setEndpoints({endpoint});

    LogHub log;
    QObject::connect(&log, &LogHub::entriesAdded, &log, [](const QList<LogEntry> &entries) {
        for (const LogEntry &e : entries)
            if (e.level >= LogLevel::Warning)
                out() << "log: " << LogHub::sourceName(e.source) << ": " << e.message.simplified().left(200) << '\n'
                      << Qt::flush;
    });
    MainWindow window(settings, log);
    window.resize(windowSize);
    window.show();
    settle(300);
    SessionStore *store = window.session();
    RoundRunner *runner = window.workbench()->runner();
    VariantsPanel *variants = window.variantsPanel();
    ComparePanel *compare = window.comparePanel();
    ChartsPanel *charts = window.chartsPanel();
    ReasoningPanel *reasoning = window.reasoningPanel();
    RoundControlPanel *rounds = window.roundControlPanel();
    QObject::connect(window.workbench()->pool(), &WorkerPool::deviceReported, &window, [](int, const DeviceInfo &d) {
        out() << "device: " << d.name << ' ' << d.smArch() << ", copy " << d.peakCopyGbps << " GB/s, FMA "
              << d.peakFmaGflops << " GFLOP/s\n"
              << Qt::flush;
    });

    if (parser.isSet(taskOpt)) {
        bool opened = false;
        QString openError;
        QObject::connect(&window, &MainWindow::taskOpened, &window, [&] { opened = true; });
        QObject::connect(&window, &MainWindow::openFailed, &window, [&](const QString &m) { openError = m; });
        window.openTaskFolder(parser.value(taskOpt));
        if (!waitFor([&] { return opened || !openError.isEmpty(); }, 30000) || !store->isOpen()) {
            out() << "gui_shots: cannot open the task: " << openError << '\n';
            return 1;
        }
        out() << "session " << store->path() << " (working session of " << store->task().name << ")\n";
        out() << "round control: " << rounds->noticeText().simplified().left(200) << '\n' << Qt::flush;

        rounds->candidatesBox()->setValue(parser.value(candidatesOpt).toInt());
        rounds->repairsBox()->setValue(0);
        // Watching the answers stream: one picture of the window per round, about a second into the stream.
        int liveShotRound = 0;
        int round = 0;
        QObject::connect(runner, &RoundRunner::textDelta, &window, [&](qint64, const QString &) {
            if (liveShotRound == round)
                return;
            liveShotRound = round;
            QTimer::singleShot(900, &window, [&, r = round] {
                reasoning->renderNow();
                out() << "streaming (round " << r << "): " << reasoning->headerText().simplified().left(140) << " | "
                      << reasoning->answerText().size() << " characters so far\n";
                shots.save(&window, u"window-streaming-round%1"_s.arg(r));
            });
        });
        const int nRounds = parser.value(roundsOpt).toInt();
        for (round = 1; round <= nRounds; ++round) {
            bool finished = false;
            QString message;
            qint64 roundId = 0;
            const auto started = QObject::connect(runner, &RoundRunner::roundStarted, &window,
                                                  [&](qint64 id) { roundId = id; });
            const auto c = QObject::connect(runner, &RoundRunner::roundFinished, &window,
                                            [&](qint64, RoundState, const QString &m) {
                                                finished = true;
                                                message = m;
                                            });
            if (!waitFor([&] { return rounds->startButton()->isEnabled(); }, 30000)) {
                fail(u"round %1: Start stays disabled: %2 %3"_s.arg(round).arg(rounds->noticeText().simplified(),
                                                                               rounds->statusText().simplified()));
                break;
            }
            QElapsedTimer clock;
            clock.start();
            rounds->startButton()->click();
            if (!waitFor([&] { return finished; }, 300000)) {
                fail(u"round %1 did not finish: %2"_s.arg(round).arg(rounds->statusText().simplified()));
                QObject::disconnect(c);
                QObject::disconnect(started);
                break;
            }
            QObject::disconnect(c);
            QObject::disconnect(started);
            out() << "round " << round << " finished in " << clock.elapsed() / 1000.0 << " s: " << message.simplified()
                  << '\n';
            for (const Variant &v : store->population().variants())
                if (roundId && v.roundId == roundId)
                    out() << "  R" << round << " #" << v.id << ' ' << VariantsModel::statusText(v).simplified().left(120)
                          << (v.suspicious ? " [suspicious]" : "") << '\n';
            settle(800);
            shots.save(&window, u"window-round%1"_s.arg(round));
            // The user reviews the suspiciously fast results of the round and accepts them as exemplars.
            QList<qint64> suspicious;
            for (const Variant &v : store->population().variants())
                if (v.suspicious && !v.accepted && v.isCorrect())
                    suspicious << v.id;
            if (!suspicious.isEmpty()) {
                selectRows(variants, suspicious);
                variants->acceptSuspicious();
                out() << "accepted after review: " << suspicious.size() << " suspicious result(s)\n";
            }
        }
    } else if (!window.openSession(parser.value(sessionOpt))) {
        out() << "gui_shots: cannot open " << parser.value(sessionOpt) << '\n';
        return 1;
    }
    out() << "session " << store->path() << ": " << store->population().size() << " variants, "
          << store->rounds().all().size() << " rounds\n";

    // The two fastest correct variants, picked in the table and compared.
    std::vector<const Variant *> correct;
    for (const Variant &v : store->population().variants())
        if (v.origin != VariantOrigin::Reference && v.isCorrect() && v.eval.speedup)
            correct.push_back(&v);
    std::sort(correct.begin(), correct.end(),
              [](const Variant *x, const Variant *y) { return *x->eval.speedup > *y->eval.speedup; });
    QList<qint64> best;
    for (const Variant *v : correct)
        if (best.size() < 2)
            best << v->id;
    out() << "correct variants: " << correct.size() << "; the two best: "
          << (best.size() < 2 ? u"fewer than two"_s : describe(*store, best[0]) + u", "_s + describe(*store, best[1]))
          << '\n';
    if (best.size() < 2) {
        fail(u"fewer than two correct variants to compare"_s);
    } else {
        waitFor([&] { return variants->model()->rowOf(best[0]) >= 0 && variants->model()->rowOf(best[1]) >= 0; }, 10000);
        selectRows(variants, best);
        if (!variants->compareSelected())
            fail(u"Compare these two did not compare"_s);
        window.tabs()->showVariant(best[1]);
        window.tabs()->showVariant(best[0]);
        reasoning->showVariant(compare->variantA() ? compare->variantA() : best[0]);
        reasoning->setReasoningExpanded(true);
        out() << "diff: " << window.diffView()->summary().simplified() << '\n';
    }
    settle(1500);
    reasoning->renderNow();
    settle(300);
    out() << "compare: " << compare->statusText().simplified() << " | pair " << describe(*store, compare->variantA())
          << " vs " << describe(*store, compare->variantB()) << '\n';
    out() << "reasoning: " << reasoning->headerText().simplified().left(160) << '\n';
    out() << "round control: " << rounds->statusText().simplified().left(160) << " | "
          << rounds->usageText().simplified().left(160) << '\n';
    const int editorTab = window.editor()->currentIndex();
    out() << "editor: tab " << window.editor()->title(editorTab) << ", variant "
          << window.editor()->variantId(editorTab) << '\n';
    for (QDockWidget *d : window.findChildren<QDockWidget *>())
        out() << "dock " << d->windowTitle() << ": " << (d->isVisible() ? "shown" : "hidden") << ' ' << d->width()
              << 'x' << d->height() << '\n';
    out() << Qt::flush;

    shots.save(&window, u"window"_s);
    const QSize panelSize(1280, 800);
    shots.saveDock(window.dockOf(variants), u"variants"_s, panelSize);
    shots.saveDock(window.dockOf(compare), u"compare"_s, panelSize);
    for (int i = 0; i < charts->tabs()->count(); ++i) {
        charts->tabs()->setCurrentIndex(i);
        shots.saveDock(window.dockOf(charts), u"charts-%1"_s.arg(i + 1), panelSize);
    }
    charts->tabs()->setCurrentIndex(0);
    shots.saveDock(window.dockOf(reasoning), u"reasoning"_s, panelSize);
    shots.saveDock(window.dockOf(rounds), u"roundcontrol"_s, QSize(520, 900));
    shots.saveDock(window.dockOf(window.diffView()), u"diff"_s, QSize(1500, 850));
    shots.save(window.editor(), u"editor"_s);

    // "Why is A faster than B?" against the loopback server; the answer streams into Reasoning and is stored.
    if (parser.isSet(urlOpt) && compare->variantA() && compare->variantB()) {
        if (parser.isSet(sessionOpt)) {
            LlmRequest request;
            request.endpoint = endpoint;
            request.model = parser.value(modelOpt);
            runner->setRequestTemplate(request); // a round would have set it from Round Control
        }
        qint64 answered = 0;
        QObject::connect(runner, &RoundRunner::pairAnswered, runner, [&answered](qint64 id) { answered = id; });
        const bool enabled = compare->askButton()->isEnabled();
        if (enabled)
            compare->askButton()->click(); // as the user does: the answer streams into Reasoning
        out() << "why: button " << (enabled ? "enabled" : "disabled") << ' ' << compare->statusText().simplified() << '\n'
              << Qt::flush;
        if (enabled && waitFor([&] { return answered != 0; }, 60000)) {
            settle(1500);
            reasoning->renderNow();
            settle(300);
            out() << "why answered: " << compare->pairAnswersText().simplified().left(240) << '\n';
            out() << "reasoning now: " << reasoning->headerText().simplified().left(160) << " | "
                  << reasoning->answerText().simplified().left(160) << '\n';
            shots.save(&window, u"window-why"_s);
            shots.saveDock(window.dockOf(compare), u"compare-why"_s, panelSize);
            shots.saveDock(window.dockOf(reasoning), u"reasoning-why"_s, panelSize);
        } else {
            fail(u"why: no answer ("_s + compare->statusText().simplified() + u')');
        }
    }
    out() << "gui_shots: " << shots.count() << " PNG(s), " << shots.failed() << " failed\n" << Qt::flush;
    if (shots.failed())
        status = 1;
    return status;
}
