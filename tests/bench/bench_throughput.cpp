// Throughput benchmark (issue 16): a batch of distinct candidates over the built-in tasks (their hand-written
// variants, and variants made by changing their block sizes), end to end from source to a verified, timed
// result stored in a real session (one SQLite session per task), through the one evaluation queue, the compile
// service (one nvcc per core) and ONE warm kforge-worker. Prints candidates per minute, the time split by stage
// (compile, queueing for the worker, loading, verify, time, trace, metrics, the metrics follow-up of the best,
// the deep check of a result too good), and the stability of a repeated candidate (5 evaluations of
// diag_matmul's good variant: max/min of its median). Two modes, each from a cold compile cache: "when-they-pay"
// (a round's policy: the metrics pass only for candidates among their session's best) and "always" (the metrics
// pass on every candidate).
// Goals (H200): >= 100 candidates/minute when they pay, >= 40 with metrics always; stability max/min <= 1.03.
//
//   bench_throughput [--worker "kforge-worker --device 0"] [--count 40] [--modes when-they-pay,always]
//                    [--repeat 5] [--out DIR] [--deadline-s N [--grace-s 10]] [--no-trace] [--list]
//
// Every mode starts by saying what a candidate is evaluated with, and prints a line per evaluation as it
// finishes (flushed): its verdict and timing, and the milliseconds of each stage, of its first evaluation and of
// its second one (metrics follow-up or deep check), with the seconds since the mode began. --deadline-s N: past
// N seconds of a mode nothing new starts (what waits for a compile or the worker, and any second evaluation, is
// cancelled; an evaluation on the worker gets --grace-s more), and the figures are over the candidates that
// finished, marked "partial: K of N candidates in S s".
//
// Needs a GPU: without one (the worker reports no device) it says so and exits 77. Prints figures; exits 0.
#include "core/compile/compiler.h"
#include "core/queue/evaluationqueue.h"
#include "core/queue/metricspolicy.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/task/task.h"
#include "core/workerpool/poolevaluator.h"
#include "core/workerpool/workerpool.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

struct Candidate {
    Task task;
    QString label; // "diag_matmul/naive", "diag_matmul/naive@128"
    QString source;
    QStringList flags;
};

// Launches of the form <<<(unsigned)((N + B-1) / B), B, ...>>> with B rewritten to `to`, and `THREADS = B`
// constants; empty when the source has neither (or nothing changed).
QString withBlockSize(const QString &source, int to)
{
    QString s = source;
    static const QRegularExpression launch(uR"(\+\s*(\d+)\s*\)\s*/\s*(\d+)\s*\)\s*,\s*(\d+)\s*,)"_s);
    QString out;
    qsizetype last = 0;
    for (auto it = launch.globalMatch(s); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const int minus1 = m.captured(1).toInt(), div = m.captured(2).toInt(), block = m.captured(3).toInt();
        if (minus1 + 1 != div || div != block || block == to)
            continue;
        out += s.mid(last, m.capturedStart() - last) + u"+ %1) / %2), %2,"_s.arg(to - 1).arg(to);
        last = m.capturedEnd();
    }
    out += s.mid(last);
    static const QRegularExpression threads(uR"(constexpr int THREADS = (\d+);)"_s);
    out.replace(threads, u"constexpr int THREADS = %1;"_s.arg(to));
    return out == source ? QString() : out;
}

QList<Candidate> buildCandidates(int count)
{
    QList<Candidate> all, variants;
    for (const QString &folder : Task::builtinTaskFolders()) {
        const TaskLoadResult loaded = Task::load(folder);
        if (!loaded.ok())
            continue;
        for (const TaskVariant &v : loaded.task->variants())
            all << Candidate{*loaded.task, loaded.task->name() + u'/' + v.label, v.source, v.nvccFlags};
    }
    // Block-size variants after the hand-written ones, 128 then 512 then 64, until there are enough.
    for (int to : {128, 512, 64})
        for (const Candidate &c : std::as_const(all))
            if (const QString s = withBlockSize(c.source, to); !s.isEmpty())
                variants << Candidate{c.task, c.label + u'@' + QString::number(to), s, c.flags};
    all += variants;
    return all.mid(0, count);
}

// The stage names of the queue's progress, in the order they come, as the split prints them; the second
// evaluation of a candidate (the metrics follow-up of one among its session's best, or the deep check of one
// that looked too good) is one entry each, its own split on the candidate's progress line.
const QList<std::pair<QString, QString>> &stageNames()
{
    static const QList<std::pair<QString, QString>> names{
        {u"compiling"_s, u"compile (nvcc, and waiting for a compile slot)"_s},
        {u"queued"_s, u"queueing for the worker"_s},
        {u"loading"_s, u"load into the worker (its processes started)"_s},
        {u"verifying"_s, u"verify"_s},
        {u"timing"_s, u"time"_s},
        {u"tracing"_s, u"trace (CUPTI)"_s},
        {u"profiling"_s, u"metrics"_s},
        {u"source_profile"_s, u"source-level pass"_s},
        {u"metrics follow-up"_s, u"metrics follow-up of the best (a whole evaluation)"_s},
        {u"deep check"_s, u"deep check of a result too good (a whole evaluation)"_s},
    };
    return names;
}

// Short names for a candidate's progress line.
QString shortStage(const QString &stage)
{
    static const std::map<QString, QString> names{
        {u"compiling"_s, u"compile"_s}, {u"queued"_s, u"queue"_s},        {u"loading"_s, u"load"_s},
        {u"verifying"_s, u"verify"_s},  {u"timing"_s, u"time"_s},         {u"tracing"_s, u"trace"_s},
        {u"profiling"_s, u"metrics"_s}, {u"sanitizer"_s, u"sanitizer"_s}, {u"source_profile"_s, u"source"_s},
    };
    const auto it = names.find(stage);
    return it == names.end() ? stage : it->second;
}

// Stages that run on the worker (everything after "queued"): a ticket in one of them holds the worker.
bool onWorker(const QString &stage)
{
    return !stage.isEmpty() && stage != u"compiling" && stage != u"queued";
}

// "compile 2410 queue 812 load 610 verify 420 time 1310 trace 520", in the order the stages come.
QString splitText(const std::map<QString, double> &ms)
{
    static const QStringList order{u"compiling"_s, u"queued"_s,  u"loading"_s,   u"verifying"_s,     u"sanitizer"_s,
                                   u"timing"_s,    u"tracing"_s, u"profiling"_s, u"source_profile"_s};
    QStringList parts;
    for (const QString &k : order)
        if (const auto it = ms.find(k); it != ms.end())
            parts << u"%1 %2"_s.arg(shortStage(k)).arg(it->second, 0, 'f', 0);
    for (const auto &[k, v] : ms)
        if (!order.contains(k))
            parts << u"%1 %2"_s.arg(k).arg(v, 0, 'f', 0);
    return parts.join(u' ');
}

double workerMs(const std::map<QString, double> &ms)
{
    double sum = 0;
    for (const auto &[k, v] : ms)
        sum += onWorker(k) ? v : 0;
    return sum;
}

double totalMs(const std::map<QString, double> &ms)
{
    double sum = 0;
    for (const auto &[k, v] : ms)
        sum += v;
    return sum;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// One task's session and queue; every queue shares the one PoolEvaluator (one warm worker).
struct TaskSession {
    SessionStore store;
    std::unique_ptr<EvaluationQueue> queue;
    qint64 roundId = 0;
};

// Every ticket of a mode, from its submit to its finished(): the stage it is in and since when, and the
// milliseconds spent in each stage, by evaluation (0: the first; 1: its metrics follow-up or deep check, which
// starts with a second "compiling").
struct Live {
    EvaluationQueue *queue = nullptr;
    int ticket = 0;
    QString label;
    bool stability = false;
    int pass = 0;
    QString stage;
    double since = 0;
    std::map<QString, double> stageMs[2];
    QString deepReason;
    std::optional<CompileResult> compiled; // the first evaluation's (a second one's is a cache hit)
    bool done = false;
    bool cancelRequested = false;
};

struct Tracker {
    QElapsedTimer clock;
    std::map<std::pair<EvaluationQueue *, int>, Live> live;
    double now() const { return double(clock.nsecsElapsed()) / 1e6; }
    Live &add(EvaluationQueue *q, int ticket, const QString &label, bool stability)
    {
        Live &l = live[{q, ticket}];
        l.queue = q;
        l.ticket = ticket;
        l.label = label;
        l.stability = stability;
        return l;
    }
    Live *find(EvaluationQueue *q, int ticket)
    {
        const auto it = live.find({q, ticket});
        return it == live.end() ? nullptr : &it->second;
    }
    void stage(Live &l, const QString &name)
    {
        const double t = now();
        if (!l.stage.isEmpty())
            l.stageMs[l.pass][l.stage] += t - l.since;
        if (name == u"compiling" && !l.stage.isEmpty())
            l.pass = 1;
        l.stage = name;
        l.since = t;
    }
    void finish(Live &l)
    {
        if (!l.stage.isEmpty())
            l.stageMs[l.pass][l.stage] += now() - l.since;
        l.stage.clear();
        l.done = true;
    }
};

struct ModeResult {
    QString mode;
    int submitted = 0;  // batch candidates queued
    int candidates = 0; // batch candidates finished (not cancelled)
    int cancelled = 0;  // batch candidates cancelled by the deadline
    double wallMs = 0;  // to the last finished batch candidate
    bool deadlinePassed = false;
    double deadlineMs = 0;
    std::map<QString, int> verdicts;
    std::map<QString, double> stageMs;
    int followUps = 0;
    int deepChecks = 0;
    double workerBusyMs = 0; // summed over every evaluation of the batch, on the one worker
    std::vector<double> compileMs;
};

// The evaluation options as a reader needs them to see what one candidate costs.
QString optionsText(const EvalOptions &o)
{
    return u"verify %1 trials; timing %2: warmup >= %3 pairs and %4 ms, then until both medians' 95% CI within "
           "+-%5% (>= %6 calls, >= %7 ms, at most %8 calls / %9 ms); trace %10; source-level pass %11"_s.arg(o.trials)
               .arg(o.timing ? u"on"_s : u"off"_s)
               .arg(o.warmup)
               .arg(o.warmupMs)
               .arg(o.ciTarget * 100, 0, 'g', 3)
               .arg(o.minRuns)
               .arg(o.minTimeMs)
               .arg(o.maxRuns)
               .arg(o.maxTimeMs)
               .arg(o.trace ? u"on (%1 runs per side; the worker then ends both sides' processes)"_s.arg(o.traceRuns)
                            : u"off"_s)
               .arg(o.sourceProfile ? u"on"_s : u"off"_s);
}

QString policyText(const MetricsPolicy &policy, const EvalOptions &o)
{
    if (!o.metrics)
        return u"metrics pass off (the options)"_s;
    switch (policy.mode) {
    case MetricsPolicy::Mode::Always: return u"metrics pass on every candidate's evaluation"_s;
    case MetricsPolicy::Mode::Never: return u"metrics pass never"_s;
    case MetricsPolicy::Mode::WhenTheyPay:
        return u"metrics pass decided by the worker after timing: a correct candidate at least as fast as its "
               "session's %1-th fastest so far gets it in the same evaluation (metrics_min_speedup); one the session "
               "passed meanwhile is evaluated again with it (the metrics follow-up)"_s.arg(policy.best);
    }
    return {};
}

struct ModeConfig {
    QString mode;
    double deadlineMs = 0;  // 0: none
    double graceMs = 10000; // after the deadline, how long an evaluation on the worker may still finish
    bool quiet = false;     // the warm-up: no session line
};

// Runs `candidates` (and, once they are done, `repeat` copies of the stability candidate) through sessions in `dir`,
// printing a line per finished evaluation.
ModeResult runMode(const ModeConfig &config, const QList<Candidate> &candidates, PoolEvaluator &evaluator,
                   const QString &dir, const EvalOptions &options, QTextStream &out,
                   std::vector<double> *stabilityMedians, const Candidate *stability, int repeat)
{
    const QString &mode = config.mode;
    ModeResult r;
    r.mode = mode;
    MetricsPolicy policy;
    policy.mode = *MetricsPolicy::modeFromString(mode);
    std::map<QString, std::unique_ptr<TaskSession>> sessions;
    Tracker tracker;
    int pending = 0;
    int finishedBatch = 0, finishedStability = 0;
    QEventLoop loop;
    QTimer deadline, grace;
    deadline.setSingleShot(true);
    grace.setSingleShot(true);
    deadline.setTimerType(Qt::PreciseTimer); // a coarse timer may fire 5% early
    grace.setTimerType(Qt::PreciseTimer);
    const int total = int(candidates.size());
    const int totalStability = stability ? repeat : 0;
    bool stabilitySubmitted = false;
    std::function<void()> submitStability;

    // Cancelled from the event loop, never inside the queue's own signal.
    const auto cancel = [&loop](Live &l) {
        if (l.done || l.cancelRequested)
            return;
        l.cancelRequested = true;
        EvaluationQueue *q = l.queue;
        const int ticket = l.ticket;
        QMetaObject::invokeMethod(
            &loop, [q, ticket] { q->cancel(ticket); }, Qt::QueuedConnection);
    };
    QObject::connect(&deadline, &QTimer::timeout, &loop, [&] {
        r.deadlinePassed = true;
        r.deadlineMs = tracker.now();
        int off = 0, on = 0;
        for (auto &[key, l] : tracker.live) {
            if (l.done)
                continue;
            if (onWorker(l.stage)) {
                ++on;
            } else {
                ++off;
                cancel(l);
            }
        }
        out << u"  -- deadline (%1 s) passed at %2 s: %3 evaluation(s) not on the worker cancelled; %4 on the worker "
               "may finish within %5 s\n"_s.arg(config.deadlineMs / 1000, 0, 'f', 0)
                   .arg(r.deadlineMs / 1000, 0, 'f', 1)
                   .arg(off)
                   .arg(on)
                   .arg(config.graceMs / 1000, 0, 'f', 0)
            << Qt::flush;
        if (on)
            grace.start(int(config.graceMs));
    });
    QObject::connect(&grace, &QTimer::timeout, &loop, [&] {
        int n = 0;
        for (auto &[key, l] : tracker.live)
            if (!l.done && !l.cancelRequested) {
                cancel(l);
                ++n;
            }
        if (n)
            out << u"  -- grace over at %1 s: %2 evaluation(s) on the worker cancelled (the worker restarts)\n"_s
                       .arg(tracker.now() / 1000, 0, 'f', 1)
                       .arg(n)
                << Qt::flush;
    });

    const auto onFinished = [&](EvaluationQueue *q, const QueuedEvaluation &e) {
        Live *lp = tracker.find(q, e.ticket);
        if (!lp)
            return;
        Live &l = *lp;
        tracker.finish(l);
        const bool cancelled = e.cancelled();
        const QString second = e.deepChecked ? u"deep check"_s : u"metrics follow-up"_s;
        if (l.stability) {
            ++finishedStability;
            if (!cancelled && e.result.candidate.isValid())
                stabilityMedians->push_back(e.result.candidate.medianMs);
        } else {
            ++finishedBatch;
            if (cancelled) {
                ++r.cancelled;
            } else {
                ++r.candidates;
                r.wallMs = tracker.now(); // the batch ends with its last candidate, before the stability runs
                ++r.verdicts[verdictToString(e.result.verdict)];
                for (const auto &[k, v] : l.stageMs[0])
                    r.stageMs[k] += v;
                if (l.pass == 1)
                    r.stageMs[second] += totalMs(l.stageMs[1]);
                r.workerBusyMs += workerMs(l.stageMs[0]) + workerMs(l.stageMs[1]);
                r.followUps += e.metricsFollowUp ? 1 : 0;
                r.deepChecks += e.deepChecked ? 1 : 0;
                if (l.compiled && !l.compiled->cacheHit)
                    r.compileMs.push_back(l.compiled->elapsedMs);
            }
        }
        // The progress line: what came, and where its time went.
        QString what;
        if (cancelled) {
            what = u"CANCELLED (deadline)"_s;
        } else {
            const EvalResult &res = e.result;
            what = verdictToString(res.verdict);
            if (res.isCorrect() && std::isfinite(res.speedup))
                what += u" %1x"_s.arg(res.speedup, 0, 'f', 2);
            if (res.hasTiming()) {
                what += u" (cand %1 ms, ref %2 ms, %3 calls"_s.arg(res.candidate.medianMs, 0, 'g', 4)
                            .arg(res.reference.medianMs, 0, 'g', 4)
                            .arg(res.candidate.runs);
                if (res.adaptive.isValid())
                    what += u", %1 rounds, stopped by %2"_s.arg(res.adaptive.rounds).arg(res.adaptive.stoppedBy);
                what += u')';
            }
            if (!res.metricsSkipped.isEmpty())
                what += u" metrics:" + res.metricsSkipped;
            else if (!res.metrics.isEmpty())
                what += res.metrics.value("reference"_L1).toObject().value("cached"_L1).toBool()
                            ? u" metrics (reference's cached)"_s
                            : u" metrics (reference's measured)"_s;
            if (!res.flags.isEmpty())
                what += u" [" + res.flags.join(u',') + u']';
            if (!res.isCorrect() && !res.message.isEmpty())
                what += u": " + res.message.section(u'\n', 0, 0).left(160);
        }
        const QString index = l.stability ? u"stability %1/%2"_s.arg(finishedStability).arg(totalStability)
                                          : u"%1/%2"_s.arg(finishedBatch, 2).arg(total);
        // Concatenated, not arg()-chained: a message may hold "%1".
        const auto ms = [](double v) { return QString::number(v, 'f', 0); };
        QString line = u"  [" + index + u"] " + QString::number(tracker.now() / 1000, 'f', 1).rightJustified(6)
                       + u" s  " + l.label + u"  " + what + u"\n      first: " + splitText(l.stageMs[0])
                       + u" | on the worker " + ms(workerMs(l.stageMs[0])) + u" ms";
        if (l.compiled)
            line += l.compiled->cacheHit ? u" | nvcc: cache hit"_s : u" | nvcc " + ms(l.compiled->elapsedMs) + u" ms";
        if (l.pass == 1)
            line += u"\n      " + second
                    + (e.deepChecked && !l.deepReason.isEmpty() ? u" (" + l.deepReason + u')' : QString()) + u": "
                    + splitText(l.stageMs[1]) + u" | on the worker " + ms(workerMs(l.stageMs[1])) + u" ms";
        line += u"\n      total " + ms(totalMs(l.stageMs[0]) + totalMs(l.stageMs[1])) + u" ms\n";
        out << line << Qt::flush;
        if (!l.stability && finishedBatch == r.submitted)
            submitStability();
        if (--pending == 0)
            loop.quit();
    };

    auto sessionFor = [&](const Task &task, bool forStability) -> TaskSession * {
        const QString key = (forStability ? u"stability-"_s : QString()) + task.name();
        auto &s = sessions[key];
        if (s)
            return s.get();
        s = std::make_unique<TaskSession>();
        if (!s->store.create(dir + u'/' + mode + u'-' + key + u".kforge"_s, task.folder())) {
            out << "cannot create the session for " << task.name() << ": " << s->store.errorString() << '\n';
            return nullptr;
        }
        // The stability runs time one candidate as an ordinary evaluation does: a session of their own, where
        // a speedup over the suspicion threshold (diag_matmul's good variant is ~74x) does not send every
        // repeat through the deep check, which would then be the result whose median is compared.
        if (forStability)
            s->store.evaluations().setSuspiciousSpeedup(std::numeric_limits<double>::infinity());
        s->queue = std::make_unique<EvaluationQueue>(&s->store, &evaluator);
        s->queue->setMetricsPolicy(policy);
        s->roundId = s->store.rounds().add(QJsonObject{{u"bench"_s, mode}});
        EvaluationQueue *q = s->queue.get();
        QObject::connect(q, &EvaluationQueue::progress, &loop, [&, q](int ticket, const QString &stage) {
            Live *l = tracker.find(q, ticket);
            if (!l)
                return;
            tracker.stage(*l, stage);
            // Past the deadline nothing new starts: a metrics follow-up or a deep check is cancelled.
            if (r.deadlinePassed && !onWorker(stage))
                cancel(*l);
        });
        // Said with the evaluator's id, which is the ticket for a first evaluation only.
        QObject::connect(q, &EvaluationQueue::compiled, &loop, [&, q](int id, const CompileResult &c) {
            if (Live *l = tracker.find(q, id); l && !l->compiled && l->pass == 0)
                l->compiled = c;
        });
        QObject::connect(q, &EvaluationQueue::deepCheckStarted, &loop, [&, q](int ticket, qint64, const QString &reason) {
            if (Live *l = tracker.find(q, ticket))
                l->deepReason = reason;
        });
        QObject::connect(q, &EvaluationQueue::finished, &loop,
                         [&onFinished, q](const QueuedEvaluation &e) { onFinished(q, e); });
        return s.get();
    };
    int index = 0;
    const auto submit = [&](const Candidate &c, bool stable) {
        TaskSession *s = sessionFor(c.task, stable);
        if (!s)
            return;
        Variant v;
        v.origin = VariantOrigin::Model;
        v.label = c.label;
        v.nvccFlags = c.flags;
        if (const Variant *ref = s->store.population().reference())
            v.parentIds = {ref->id};
        // A comment that makes every candidate of every mode a compile-cache miss, as a new candidate is.
        const qint64 id =
            s->store.variants().add(v, {c.source + u"\n// bench_throughput %1 %2\n"_s.arg(mode).arg(index++), {}, {}});
        // The stability repeats are no round's candidates (round 0): the options' metrics pass, whatever the mode.
        const int ticket = s->queue->submit(id, options, stable ? 0 : s->roundId);
        if (ticket) {
            ++pending;
            r.submitted += stable ? 0 : 1;
            tracker.add(s->queue.get(), ticket, c.label, stable);
        } else {
            out << "  could not queue " << c.label << ": " << s->queue->errorString() << '\n' << Qt::flush;
        }
    };
    // The stability repeats once the whole batch is done, so that none overtakes a batch candidate (compiles
    // finish in any order, and so do the worker's jobs come); the worker runs one evaluation at a time.
    submitStability = [&] {
        if (stabilitySubmitted || r.deadlinePassed)
            return;
        stabilitySubmitted = true;
        for (int i = 0; i < repeat && stability; ++i)
            submit(*stability, true);
    };
    tracker.clock.start();
    if (config.deadlineMs > 0)
        deadline.start(int(config.deadlineMs));
    for (const Candidate &c : candidates)
        submit(c, false);
    if (r.submitted == 0)
        submitStability();
    if (pending)
        loop.exec();
    if (!config.quiet) {
        out << "  sessions: ";
        for (const auto &[name, s] : sessions)
            out << s->store.path() << ' ';
        out << '\n';
    }
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"kforge-bench"_s);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption workerOpt(u"worker"_s, u"worker command"_s, u"command"_s, u"kforge-worker --device 0"_s);
    const QCommandLineOption countOpt(u"count"_s, u"distinct candidates per mode (>= 32)"_s, u"n"_s, u"40"_s);
    const QCommandLineOption modesOpt(u"modes"_s, u"comma-separated: when-they-pay, always, never"_s, u"list"_s,
                                      u"when-they-pay,always"_s);
    const QCommandLineOption repeatOpt(u"repeat"_s, u"evaluations of diag_matmul/good for stability"_s, u"n"_s, u"5"_s);
    const QCommandLineOption outOpt(u"out"_s, u"folder for the sessions (default: a temporary one)"_s, u"dir"_s);
    const QCommandLineOption listOpt(u"list"_s, u"print the candidates and exit (no GPU needed)"_s);
    const QCommandLineOption deadlineOpt(
        u"deadline-s"_s,
        u"per mode: past this many seconds nothing new starts, what waits is cancelled, and the figures are those of "
        "the candidates that finished (0: none); a comma-separated list gives one per mode, in --modes order (the "
        "last one for the modes after it)"_s,
        u"s[,s...]"_s, u"0"_s);
    const QCommandLineOption graceOpt(u"grace-s"_s,
                                      u"after the deadline, how long an evaluation on the worker may still finish"_s,
                                      u"s"_s, u"10"_s);
    const QCommandLineOption noTraceOpt(u"no-trace"_s, u"options.trace = false (the defaults trace)"_s);
    parser.addOptions({workerOpt, countOpt, modesOpt, repeatOpt, outOpt, listOpt, deadlineOpt, graceOpt, noTraceOpt});
    parser.process(app);
    QTextStream out(stdout);

    const QList<Candidate> candidates = buildCandidates(qMax(1, parser.value(countOpt).toInt()));
    if (parser.isSet(listOpt)) {
        QSet<QString> sources;
        for (const Candidate &c : candidates) {
            out << c.label << '\n';
            sources.insert(c.source);
        }
        out << candidates.size() << " candidates, " << sources.size() << " distinct sources\n";
        return 0;
    }
    std::optional<Candidate> stability;
    for (const Candidate &c : buildCandidates(1 << 20))
        if (c.label == u"diag_matmul/good")
            stability = c;

    QTemporaryDir tmp;
    const QString dir = parser.isSet(outOpt) ? parser.value(outOpt) : tmp.path();
    QDir().mkpath(dir);
    Compiler compiler;
    QTemporaryDir cache;
    compiler.setCacheDir(cache.path());
    WorkerPool pool;
    WorkerConfig worker;
    worker.command = parser.value(workerOpt);
    pool.setWorkers({worker});
    PoolEvaluator evaluator(&compiler, &pool);
    // What the worker says on stderr (a crash, a restart, a dropped line), as it comes; at most 200 lines.
    int logLines = 0;
    QObject::connect(&pool, &WorkerPool::log, &app, [&out, &logLines](int, const QString &line) {
        if (++logLines <= 200)
            out << "  [worker] " << line << '\n' << Qt::flush;
        else if (logLines == 201)
            out << "  [worker] (further lines not shown)\n" << Qt::flush;
    });

    // A GPU first: the worker's device report.
    {
        QEventLoop wait;
        QObject::connect(&pool, &WorkerPool::devicesSettledChanged, &wait, &QEventLoop::quit);
        QTimer::singleShot(60000, &wait, &QEventLoop::quit);
        if (!pool.devicesSettled())
            wait.exec();
    }
    if (!pool.device(0).isValid()) {
        out << "bench_throughput: no GPU ("
            << (pool.deviceError(0).isEmpty() ? u"no device report"_s : pool.deviceError(0))
            << "): it needs a GPU worker; nothing measured\n";
        return 77;
    }
    if (compiler.nvccPath().isEmpty()) {
        out << "bench_throughput: no nvcc here; nothing measured\n";
        return 77;
    }
    EvalOptions options = EvalOptions::fromSettings(Settings::Defaults::timing());
    options.trace = !parser.isSet(noTraceOpt);
    QList<double> deadlines;
    for (const QString &d : parser.value(deadlineOpt).split(u',', Qt::SkipEmptyParts))
        deadlines << qMax(0.0, d.trimmed().toDouble());
    if (deadlines.isEmpty())
        deadlines << 0;
    const double graceS = qMax(0.0, parser.value(graceOpt).toDouble());
    out << "device " << pool.device(0).name << " (" << pool.device(0).smArch() << "), one worker: " << worker.command << '\n'
        << "compiler " << compiler.nvccPath() << ", " << compiler.maxParallel() << " parallel jobs, cold cache per mode\n"
        << "options " << QJsonDocument(options.toJson()).toJson(QJsonDocument::Compact) << '\n'
        << "  " << optionsText(options) << '\n'
        << candidates.size() << " distinct candidates over the built-in tasks:";
    for (const Candidate &c : candidates)
        out << ' ' << c.label;
    out << '\n'
        << "deadline per mode (s, 0: none): " << parser.value(deadlineOpt) << ", then " << graceS
        << " s of grace for an evaluation on the worker\n\n"
        << Qt::flush;

    // The warm-up: the worker's first evaluation (device peaks, CUDA context) is not the batch's.
    {
        QTemporaryDir warmDir;
        std::vector<double> ignored;
        out << "== warm-up (one candidate, mode never)\n" << Qt::flush;
        ModeConfig warm;
        warm.mode = u"never"_s;
        warm.quiet = true;
        runMode(warm, candidates.mid(0, 1), evaluator, warmDir.path(), options, out, &ignored, nullptr, 0);
        out << '\n' << Qt::flush;
    }
    const int repeat = qMax(0, parser.value(repeatOpt).toInt());
    const QStringList modes = parser.value(modesOpt).split(u',', Qt::SkipEmptyParts);
    for (qsizetype m = 0; m < modes.size(); ++m) {
        const QString &mode = modes.at(m);
        const double deadlineS = deadlines.value(m, deadlines.last());
        if (!MetricsPolicy::modeFromString(mode)) {
            out << "unknown mode " << mode << '\n';
            continue;
        }
        QTemporaryDir modeCache;
        compiler.setCacheDir(modeCache.path());
        MetricsPolicy policy;
        policy.mode = *MetricsPolicy::modeFromString(mode);
        out << "== mode " << mode << '\n'
            << "  " << candidates.size() << " candidates, then " << (stability ? repeat : 0)
            << " stability runs of diag_matmul/good once they are done (their own session, no deep check, metrics as "
               "the options say)\n"
            << "  " << policyText(policy, options) << '\n'
            << "  " << optionsText(options) << '\n'
            << "  a correct result over " << EvaluationRepository::kDefaultSuspiciousSpeedup
            << "x (or under the speed-of-light floor) is deep-checked first (a whole evaluation, more trials, "
               "compute-sanitizer)\n"
            << "  deadline " << (deadlineS > 0 ? u"%1 s"_s.arg(deadlineS) : u"none"_s) << '\n'
            << Qt::flush;
        std::vector<double> medians;
        ModeConfig config;
        config.mode = mode;
        config.deadlineMs = deadlineS * 1000;
        config.graceMs = graceS * 1000;
        const ModeResult r = runMode(config, candidates, evaluator, dir, options, out, &medians,
                                     stability ? &*stability : nullptr, repeat);
        const double batchMs = r.wallMs;
        const bool partial = r.candidates < r.submitted;
        if (r.candidates == 0) {
            out << u"  partial: 0 of %1 candidates finished%2: no figures\n"_s.arg(r.submitted)
                       .arg(r.deadlinePassed ? u" (deadline passed at %1 s)"_s.arg(r.deadlineMs / 1000, 0, 'f', 1)
                                             : QString());
        } else if (partial) {
            out << u"  partial: %1 of %2 candidates in %3 s: %4 candidates/minute over those (to the last of them; "
                   "deadline passed at %5 s, %6 cancelled)\n"_s.arg(r.candidates)
                       .arg(r.submitted)
                       .arg(batchMs / 1000, 0, 'f', 1)
                       .arg(r.candidates * 60000.0 / batchMs, 0, 'f', 1)
                       .arg(r.deadlineMs / 1000, 0, 'f', 1)
                       .arg(r.cancelled);
        } else {
            out << u"  %1 candidates in %2 s: %3 candidates/minute (from the first submit to the last result; %4 "
                   "stability runs after them)%5\n"_s.arg(r.candidates)
                       .arg(batchMs / 1000, 0, 'f', 1)
                       .arg(r.candidates * 60000.0 / batchMs, 0, 'f', 1)
                       .arg(medians.size())
                       .arg(r.deadlinePassed ? u" (the deadline cut the stability runs)"_s : QString());
        }
        if (r.candidates > 0) {
            out << "  verdicts:";
            for (const auto &[v, n] : r.verdicts)
                out << ' ' << v << ' ' << n;
            out << "; metrics follow-ups (among the best) " << r.followUps << "; deep checks " << r.deepChecks << '\n';
            out << u"  nvcc per candidate (miss): median %1 ms\n"_s.arg(median(r.compileMs), 0, 'f', 0);
            out << u"  the worker busy %1 s of %2 s (%3%), %4 s per candidate\n"_s.arg(r.workerBusyMs / 1000, 0, 'f', 1)
                       .arg(batchMs / 1000, 0, 'f', 1)
                       .arg(100 * r.workerBusyMs / batchMs, 0, 'f', 0)
                       .arg(r.workerBusyMs / 1000 / r.candidates, 0, 'f', 2);
            out << "  time split, summed over candidates (stages overlap across candidates):\n";
            double total = 0;
            for (const auto &[k, v] : r.stageMs)
                total += v;
            for (const auto &[key, name] : stageNames())
                if (const auto it = r.stageMs.find(key); it != r.stageMs.end())
                    out << u"    %1 %2 s  %3%\n"_s.arg(name, -52)
                               .arg(it->second / 1000, 8, 'f', 2)
                               .arg(100 * it->second / total, 5, 'f', 1);
        }
        if (!medians.empty()) {
            const auto [mn, mx] = std::minmax_element(medians.begin(), medians.end());
            out << u"  stability: diag_matmul/good x%1, candidate median %2 .. %3 ms, max/min %4 (goal <= 1.03)\n"_s
                       .arg(medians.size())
                       .arg(*mn, 0, 'f', 4)
                       .arg(*mx, 0, 'f', 4)
                       .arg(*mx / *mn, 0, 'f', 3);
        }
        out << '\n' << Qt::flush;
    }
    return 0;
}
