// Throughput benchmark (issue 16): a batch of distinct candidates over the built-in tasks (their hand-written
// variants, and variants made by changing their block sizes), end to end from source to a verified, timed
// result stored in a real session (one SQLite session per task), through the one evaluation queue, the compile
// service (one nvcc per core) and ONE warm kforge-worker. Prints candidates per minute, the time split by stage
// (compile, queueing for the worker, loading, verify, time, trace, metrics, the metrics follow-up of the best),
// and the stability of a repeated candidate (5 evaluations of diag_matmul's good variant: max/min of its
// median). Two modes, each from a cold compile cache: "when-they-pay" (a round's policy: the metrics pass only for
// candidates among their session's best) and "always" (the metrics pass on every candidate).
// Goals (H200): >= 100 candidates/minute when they pay, >= 40 with metrics always; stability max/min <= 1.03.
//
//   bench_throughput [--worker "kforge-worker --device 0"] [--count 40] [--modes when-they-pay,always]
//                    [--repeat 5] [--out DIR] [--list]
//
// Needs a GPU: without one (the worker reports no device) it says so and exits 77. Prints figures; exits 0.
#include "core/compile/compiler.h"
#include "core/pipeline/evaluationqueue.h"
#include "core/pipeline/metricspolicy.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/task/task.h"
#include "core/worker/poolevaluator.h"
#include "core/worker/workerpool.h"

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

// The stage names of the queue's progress, in the order they come, as the split prints them.
const QList<std::pair<QString, QString>> &stageNames()
{
    static const QList<std::pair<QString, QString>> names{
        {u"compiling"_s, u"compile (nvcc, and waiting for a compile slot)"_s},
        {u"queued"_s, u"queueing for the worker"_s},
        {u"loading"_s, u"load into the worker"_s},
        {u"verifying"_s, u"verify"_s},
        {u"timing"_s, u"time"_s},
        {u"tracing"_s, u"trace (CUPTI)"_s},
        {u"profiling"_s, u"metrics"_s},
        {u"metrics follow-up"_s, u"metrics follow-up of the best (a whole evaluation)"_s},
    };
    return names;
}

struct Outcome {
    Verdict verdict = Verdict::Error;
    double compileMs = 0;
    bool followUp = false;
    std::map<QString, double> stageMs; // by stage, summed
};

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

struct Tracker {
    QElapsedTimer clock;
    // per (queue, ticket): the current stage and since when; a second "compiling" starts the metrics follow-up
    struct Live {
        QString stage;
        double since = 0;
        bool followUp = false;
        Outcome outcome;
    };
    std::map<std::pair<const void *, int>, Live> live;
    double now() const { return double(clock.nsecsElapsed()) / 1e6; }
    void stage(const void *q, int ticket, const QString &name)
    {
        Live &l = live[{q, ticket}];
        const double t = now();
        if (!l.stage.isEmpty())
            l.outcome.stageMs[l.followUp ? u"metrics follow-up"_s : l.stage] += t - l.since;
        if (name == u"compiling" && !l.stage.isEmpty())
            l.followUp = true;
        l.stage = name;
        l.since = t;
    }
    Outcome finish(const void *q, int ticket)
    {
        Live &l = live[{q, ticket}];
        if (!l.stage.isEmpty())
            l.outcome.stageMs[l.followUp ? u"metrics follow-up"_s : l.stage] += now() - l.since;
        l.outcome.followUp = l.followUp;
        return l.outcome;
    }
};

struct ModeResult {
    QString mode;
    int candidates = 0;
    double wallMs = 0;
    std::map<QString, int> verdicts;
    std::map<QString, double> stageMs;
    int followUps = 0;
    std::vector<double> compileMs;
};

// Runs `candidates` (and `repeat` copies of the stability candidate after them) through sessions in `dir`.
ModeResult runMode(const QString &mode, const QList<Candidate> &candidates, PoolEvaluator &evaluator,
                   const QString &dir, const EvalOptions &options, QTextStream &out,
                   std::vector<double> *stabilityMedians, const Candidate *stability, int repeat)
{
    ModeResult r;
    r.mode = mode;
    MetricsPolicy policy;
    policy.mode = *MetricsPolicy::modeFromString(mode);
    std::map<QString, std::unique_ptr<TaskSession>> sessions;
    Tracker tracker;
    int pending = 0;
    QEventLoop loop;
    std::map<std::pair<const void *, int>, bool> isStability;
    auto sessionFor = [&](const Task &task) -> TaskSession * {
        auto &s = sessions[task.name()];
        if (s)
            return s.get();
        s = std::make_unique<TaskSession>();
        if (!s->store.create(dir + u'/' + mode + u'-' + task.name() + u".kforge"_s, task.folder())) {
            out << "cannot create the session for " << task.name() << ": " << s->store.errorString() << '\n';
            return nullptr;
        }
        s->queue = std::make_unique<EvaluationQueue>(&s->store, &evaluator);
        s->queue->setMetricsPolicy(policy);
        s->roundId = s->store.addRound(QJsonObject{{u"bench"_s, mode}});
        EvaluationQueue *q = s->queue.get();
        QObject::connect(q, &EvaluationQueue::progress, &loop,
                         [&tracker, q](int ticket, const QString &stage) { tracker.stage(q, ticket, stage); });
        QObject::connect(q, &EvaluationQueue::finished, &loop, [&, q](const QueuedEvaluation &e) {
            Outcome o = tracker.finish(q, e.ticket);
            if (isStability[{q, e.ticket}]) {
                if (e.result.candidate.isValid())
                    stabilityMedians->push_back(e.result.candidate.medianMs);
            } else {
                ++r.candidates;
                r.wallMs = tracker.now(); // the batch ends with its last candidate, before the stability runs
                ++r.verdicts[verdictToString(e.result.verdict)];
                for (const auto &[k, v] : o.stageMs)
                    r.stageMs[k] += v;
                r.followUps += o.followUp ? 1 : 0;
                if (e.compiled && !e.compiled->cacheHit)
                    r.compileMs.push_back(e.compiled->elapsedMs);
            }
            if (--pending == 0)
                loop.quit();
        });
        return s.get();
    };
    tracker.clock.start();
    QList<const Candidate *> order;
    for (const Candidate &c : candidates)
        order << &c;
    for (int i = 0; i < repeat && stability; ++i)
        order << stability;
    int index = 0;
    for (const Candidate *c : std::as_const(order)) {
        TaskSession *s = sessionFor(c->task);
        if (!s)
            continue;
        Variant v;
        v.origin = VariantOrigin::Model;
        v.label = c->label;
        v.nvccFlags = c->flags;
        if (const Variant *ref = s->store.population().reference())
            v.parentIds = {ref->id};
        // A comment that makes every candidate of every mode a compile-cache miss, as a new candidate is.
        const qint64 id =
            s->store.addVariant(v, {c->source + u"\n// bench_throughput %1 %2\n"_s.arg(mode).arg(index++), {}, {}});
        const bool stable = stability && c == stability;
        // The stability repeats are queued behind the batch; the worker runs one evaluation at a time.
        const int ticket = s->queue->submit(id, options, stable ? 0 : s->roundId);
        if (ticket) {
            ++pending;
            isStability[{s->queue.get(), ticket}] = stable;
        }
    }
    if (pending)
        loop.exec();
    out << "  sessions: ";
    for (const auto &[name, s] : sessions)
        out << s->store.path() << ' ';
    out << '\n';
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
    parser.addOptions({workerOpt, countOpt, modesOpt, repeatOpt, outOpt, listOpt});
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
    const EvalOptions options = EvalOptions::fromSettings(Settings::Defaults::timing());
    out << "device " << pool.device(0).name << " (" << pool.device(0).smArch() << "), one worker: " << worker.command << '\n'
        << "compiler " << compiler.nvccPath() << ", " << compiler.maxParallel() << " parallel jobs, cold cache per mode\n"
        << "options " << QJsonDocument(options.toJson()).toJson(QJsonDocument::Compact) << '\n'
        << candidates.size() << " distinct candidates over the built-in tasks:";
    for (const Candidate &c : candidates)
        out << ' ' << c.label;
    out << "\n\n" << Qt::flush;

    // The warm-up: the worker's first evaluation (device peaks, CUDA context) is not the batch's.
    {
        QTemporaryDir warmDir;
        std::vector<double> ignored;
        runMode(u"never"_s, candidates.mid(0, 1), evaluator, warmDir.path(), options, out, &ignored, nullptr, 0);
    }
    const int repeat = qMax(0, parser.value(repeatOpt).toInt());
    for (const QString &mode : parser.value(modesOpt).split(u',', Qt::SkipEmptyParts)) {
        if (!MetricsPolicy::modeFromString(mode)) {
            out << "unknown mode " << mode << '\n';
            continue;
        }
        QTemporaryDir modeCache;
        compiler.setCacheDir(modeCache.path());
        out << "== mode " << mode << '\n' << Qt::flush;
        std::vector<double> medians;
        const ModeResult r = runMode(mode, candidates, evaluator, dir, options, out, &medians,
                                     stability ? &*stability : nullptr, repeat);
        const double batchMs = r.wallMs;
        out << u"  %1 candidates in %2 s: %3 candidates/minute (from the first submit to the last result; %4 stability runs "
               "queued after them)\n"_s.arg(r.candidates)
                   .arg(batchMs / 1000, 0, 'f', 1)
                   .arg(r.candidates * 60000.0 / batchMs, 0, 'f', 1)
                   .arg(medians.size());
        out << "  verdicts:";
        for (const auto &[v, n] : r.verdicts)
            out << ' ' << v << ' ' << n;
        out << "; metrics follow-ups (among the best) " << r.followUps << '\n';
        out << u"  nvcc per candidate (miss): median %1 ms\n"_s.arg(median(r.compileMs), 0, 'f', 0);
        out << "  time split, summed over candidates (stages overlap across candidates):\n";
        double total = 0;
        for (const auto &[k, v] : r.stageMs)
            total += v;
        for (const auto &[key, name] : stageNames())
            if (const auto it = r.stageMs.find(key); it != r.stageMs.end())
                out << u"    %1 %2 s  %3%\n"_s.arg(name, -52)
                           .arg(it->second / 1000, 8, 'f', 2)
                           .arg(100 * it->second / total, 5, 'f', 1);
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
