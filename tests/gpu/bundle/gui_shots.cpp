// gui_shots: the workbench on a real session, offscreen, saved as PNGs (issue 7's screenshots for docs/).
//
//   gui_shots --session S.kforge --out DIR [--why-url URL] [--model NAME] [--worker CMD] [--size WxH]
//
// Opens the session in the real MainWindow (app/gui), docks the views/ panels beside it (those the window
// does not already have), selects the two fastest correct variants in the Variants table, compares them and,
// with --why-url (an OpenAI-compatible endpoint: the loopback replay server), presses "why is A faster than
// B" and waits for the answer. Saves the whole window and each panel; prints one line per PNG and what the
// panels say. Exit status: 0 when every PNG was written, 1 otherwise, 2 on bad arguments.
#include "app/gui/mainwindow.h"
#include "core/compile/compiler.h"
#include "core/llm/endpointpresets.h"
#include "core/llm/llmclient.h"
#include "core/log/loghub.h"
#include "core/optimizer/roundrunner.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/worker/poolevaluator.h"
#include "core/worker/workerpool.h"
#include "views/charts/chartspanel.h"
#include "views/compare/comparepanel.h"
#include "views/editor/kerneleditor.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsfiltermodel.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFontDatabase>
#include <QItemSelectionModel>
#include <QPushButton>
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

// Waits until `done` holds, for at most `timeoutMs`; checks every 100 ms.
bool waitFor(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs)
            return false;
        settle(100);
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

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(u"KForge"_s);
    QApplication::setApplicationName(u"KForge"_s);
    QStandardPaths::setTestModeEnabled(true); // never the user's settings

    QCommandLineParser parser;
    parser.setApplicationDescription(u"Screenshots of the KForge workbench on a session, offscreen."_s);
    parser.addHelpOption();
    const QCommandLineOption sessionOpt(u"session"_s, u"The session file (*.kforge)."_s, u"file"_s);
    const QCommandLineOption outOpt(u"out"_s, u"Folder for the PNGs."_s, u"dir"_s);
    const QCommandLineOption whyOpt(u"why-url"_s, u"OpenAI-compatible base URL to ask 'why is A faster than B'."_s, u"url"_s);
    const QCommandLineOption modelOpt(u"model"_s, u"Model name for the question."_s, u"name"_s, u"replay-model"_s);
    const QCommandLineOption workerOpt(u"worker"_s, u"The GPU worker command shown in Settings."_s, u"command"_s,
                                       u"kforge-worker --device 0"_s);
    const QCommandLineOption sizeOpt(u"size"_s, u"Window size."_s, u"WxH"_s, u"1920x1200"_s);
    parser.addOptions({sessionOpt, outOpt, whyOpt, modelOpt, workerOpt, sizeOpt});
    parser.process(app);
    if (!parser.isSet(sessionOpt) || !parser.isSet(outOpt)) {
        out() << "gui_shots: --session and --out are required\n";
        return 2;
    }
    const QStringList wh = parser.value(sizeOpt).split(u'x');
    const QSize windowSize(wh.value(0).toInt(), wh.value(1).toInt());
    QDir().mkpath(parser.value(outOpt));
    Shooter shots(parser.value(outOpt));

    const QStringList families = QFontDatabase::families();
    if (families.contains(u"DejaVu Sans"_s))
        QApplication::setFont(QFont(u"DejaVu Sans"_s, 10));
    out() << "fonts: " << families.size() << " families (" << families.mid(0, 6).join(u", "_s) << ")\n";

    // Settings of this run only: the real worker and the loopback endpoint, as a user would have set them up.
    QTemporaryDir settingsDir;
    Settings settings(settingsDir.filePath(u"kforge.ini"_s));
    settings.setTheme(Theme::Light);
    WorkerConfig worker;
    worker.name = u"local GPU"_s;
    worker.command = parser.value(workerOpt);
    settings.setWorkers({worker});
    EndpointConfig endpoint = EndpointPresets::forUrl(parser.value(whyOpt).isEmpty() ? u"http://127.0.0.1:9/v1"_s
                                                                                     : parser.value(whyOpt),
                                                      LlmProtocol::OpenAi);
    endpoint.id = u"loopback"_s;
    endpoint.displayName = u"Loopback replay server"_s;
    endpoint.defaultModel = parser.value(modelOpt);
    settings.setEndpoints({endpoint});

    LogHub log;
    MainWindow window(settings, log);
    window.resize(windowSize);
    window.show();
    if (!window.openSession(parser.value(sessionOpt))) {
        out() << "gui_shots: cannot open " << parser.value(sessionOpt) << '\n';
        return 1;
    }
    SessionStore *store = window.session();
    out() << "session " << store->path() << ": " << store->population().size() << " variants, "
          << store->rounds().size() << " rounds\n";

    // The services the panels drive. Nothing is evaluated here; the worker is only what Settings shows.
    Compiler compiler;
    WorkerPool pool;
    pool.setWorkers(settings.workers());
    PoolEvaluator evaluator(&compiler, &pool);
    LlmClient llm;
    RoundRunner runner(store, &llm, &evaluator);
    LlmRequest request;
    request.endpoint = endpoint;
    request.model = parser.value(modelOpt);
    runner.setRequestTemplate(request);

    // The panels: the window's own where it has them, else docked here the way the workbench lays them out.
    VariantSelection *selection = window.findChild<VariantSelection *>();
    if (!selection)
        selection = new VariantSelection(&window);
    auto dockFor = [&window](QWidget *panel, const QString &title, Qt::DockWidgetArea area) {
        for (QDockWidget *d : window.findChildren<QDockWidget *>())
            if (d->widget() == panel)
                return d;
        auto *dock = new QDockWidget(title, &window);
        dock->setObjectName(title);
        dock->setWidget(panel);
        window.addDockWidget(area, dock);
        return dock;
    };
    auto *variants = window.findChild<VariantsPanel *>();
    if (!variants)
        variants = new VariantsPanel(store, selection, &window);
    auto *compare = window.findChild<ComparePanel *>();
    if (!compare)
        compare = new ComparePanel(store, selection, &runner, &window);
    auto *charts = window.findChild<ChartsPanel *>();
    if (!charts)
        charts = new ChartsPanel(store, selection, &window);
    auto *reasoning = window.findChild<ReasoningPanel *>();
    if (!reasoning)
        reasoning = new ReasoningPanel(store, selection, &runner, &window);
    auto *rounds = window.findChild<RoundControlPanel *>();
    if (!rounds)
        rounds = new RoundControlPanel(store, &runner, &settings, &window);
    QDockWidget *roundsDock = dockFor(rounds, QApplication::translate("gui_shots", "Round"), Qt::LeftDockWidgetArea);
    QDockWidget *variantsDock = dockFor(variants, QApplication::translate("gui_shots", "Variants"), Qt::RightDockWidgetArea);
    QDockWidget *compareDock = dockFor(compare, QApplication::translate("gui_shots", "Compare"), Qt::RightDockWidgetArea);
    QDockWidget *chartsDock = dockFor(charts, QApplication::translate("gui_shots", "Charts"), Qt::BottomDockWidgetArea);
    QDockWidget *reasoningDock = dockFor(reasoning, QApplication::translate("gui_shots", "Reasoning"), Qt::BottomDockWidgetArea);
    window.splitDockWidget(chartsDock, reasoningDock, Qt::Horizontal);
    window.resizeDocks({roundsDock, variantsDock}, {360, 760}, Qt::Horizontal);
    window.resizeDocks({chartsDock}, {420}, Qt::Vertical);
    // A diff view, when the window has one (views/diff): found by class name, so this builds without it.
    QWidget *diff = nullptr;
    for (QWidget *w : window.findChildren<QWidget *>())
        if (QString::fromLatin1(w->metaObject()->className()).contains(u"Diff"_s)) {
            diff = w;
            break;
        }
    QObject::connect(variants, &VariantsPanel::compareRequested, compare, &ComparePanel::setPair);

    // The two fastest correct variants (the reference when fewer than two).
    std::vector<const Variant *> correct;
    for (const Variant &v : store->population().variants())
        if (v.origin != VariantOrigin::Reference && v.isCorrect() && v.eval.speedup)
            correct.push_back(&v);
    std::sort(correct.begin(), correct.end(), [](const Variant *x, const Variant *y) { return *x->eval.speedup > *y->eval.speedup; });
    QList<qint64> best;
    for (const Variant *v : correct)
        if (best.size() < 2)
            best << v->id;
    if (best.size() < 2 && store->population().reference())
        best << store->population().reference()->id;
    out() << "correct variants: " << correct.size() << "; the two best: "
          << (best.isEmpty() ? u"none"_s : describe(*store, best.value(0)) + u", "_s + describe(*store, best.value(1))) << '\n';

    if (best.size() == 2) {
        // As a user does it: select both rows in the table, then "Compare these two".
        waitFor([&] { return variants->model()->rowOf(best[0]) >= 0 && variants->model()->rowOf(best[1]) >= 0; }, 10000);
        QItemSelection rows;
        for (qint64 id : best) {
            const QModelIndex index = variants->filterModel()->mapFromSource(variants->model()->index(variants->model()->rowOf(id), 0));
            rows.select(index, index.siblingAtColumn(variants->filterModel()->columnCount() - 1));
        }
        variants->view()->selectionModel()->select(rows, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        if (!variants->compareSelected())
            selection->setComparePair(best[0], best[1]);
        if (compare->variantA() == 0)
            compare->setPair(best[0], best[1]);
        reasoning->showVariant(compare->variantA() ? compare->variantA() : best[0]);
        reasoning->setReasoningExpanded(true);
        // The two best in the editor, beside the reference the window opened.
        for (qint64 id : best) {
            const Variant *v = store->population().find(id);
            window.editor()->addSource(v->label.isEmpty() ? u"variant %1"_s.arg(id) : v->label, store->source(id),
                                       store->path(), true);
        }
        window.editor()->setCurrentIndex(window.editor()->count() - 2);
        if (const auto e = store->latestEvaluation(best[0]); e && !e->device.isEmpty())
            charts->setDevice(DeviceInfo::fromJson(e->device));
    }
    settle(1500);
    reasoning->renderNow();
    settle(300);
    out() << "compare: " << compare->statusText().simplified() << " | pair " << describe(*store, compare->variantA())
          << " vs " << describe(*store, compare->variantB()) << '\n';
    out() << "reasoning: " << reasoning->headerText().simplified().left(160) << '\n';
    out() << "round control: " << rounds->statusText().simplified().left(160) << " | " << rounds->noticeText().simplified().left(160)
          << '\n';
    out() << "diff view: " << (diff ? QString::fromLatin1(diff->metaObject()->className()) : u"none in this build"_s) << '\n'
          << Qt::flush;

    shots.save(&window, u"window"_s);
    const QSize panelSize(1280, 800);
    shots.saveDock(variantsDock, u"variants"_s, panelSize);
    shots.saveDock(compareDock, u"compare"_s, panelSize);
    for (int i = 0; i < charts->tabs()->count(); ++i) {
        charts->tabs()->setCurrentIndex(i);
        shots.saveDock(chartsDock, u"charts-%1"_s.arg(i + 1), panelSize);
    }
    charts->tabs()->setCurrentIndex(0);
    shots.saveDock(reasoningDock, u"reasoning"_s, panelSize);
    shots.saveDock(roundsDock, u"roundcontrol"_s, QSize(520, 900));
    shots.save(window.editor(), u"editor"_s);
    if (diff)
        shots.save(diff, u"diff"_s);

    // "Why is A faster than B?" against the loopback server; the answer streams into Reasoning and is stored.
    int status = shots.failed() ? 1 : 0;
    if (parser.isSet(whyOpt) && compare->variantA() && compare->variantB()) {
        qint64 answered = 0;
        QObject::connect(&runner, &RoundRunner::pairAnswered, &runner, [&answered](qint64 id) { answered = id; });
        const bool enabled = compare->askButton()->isEnabled();
        const qint64 asked = compare->askWhy();
        out() << "why: button " << (enabled ? "enabled" : "disabled") << ", asked " << asked << ' '
              << compare->statusText().simplified() << '\n'
              << Qt::flush;
        if (asked && waitFor([&] { return answered == asked; }, 120000)) {
            settle(1500);
            reasoning->renderNow();
            settle(300);
            out() << "why answered: " << compare->pairAnswersText().simplified().left(240) << '\n';
            out() << "reasoning now: " << reasoning->headerText().simplified().left(160) << " | "
                  << reasoning->answerText().simplified().left(160) << '\n';
            shots.save(&window, u"window-why"_s);
            shots.saveDock(compareDock, u"compare-why"_s, panelSize);
            shots.saveDock(reasoningDock, u"reasoning-why"_s, panelSize);
        } else {
            out() << "why: no answer (" << compare->statusText().simplified() << ")\n";
            status = 1;
        }
    }
    out() << "gui_shots: " << shots.count() << " PNG(s), " << shots.failed() << " failed\n" << Qt::flush;
    if (shots.failed())
        status = 1;
    return status;
}
