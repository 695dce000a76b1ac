// Turnaround benchmark: with a warm worker, how long from a candidate's source to a verified and timed
// result, on a compile-cache miss (a new comment each run) and on a hit (the same source again).
// Goal (issue 3): median <= 1.5 s on a miss, <= 0.3 s on a hit, on an H200.
//
//   bench_turnaround [--task softmax] [--variant good] [--runs 10] [--worker "kforge-worker --device 0"]
//                    [--min-time-ms N] [--min-runs N] [--no-trace] [--no-metrics]
//
// By default the evaluation options are the workbench's defaults (Settings::Defaults::timing(), trace and
// metrics on); every figure is printed with the options it was measured with. Prints figures; exits 0.
#include "core/compile/compiler.h"
#include "core/settings/settings.h"
#include "core/task/task.h"
#include "core/worker/poolevaluator.h"
#include "core/worker/workerpool.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTextStream>
#include <algorithm>
#include <cstdio>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

struct Sample {
    double totalMs = 0;   // submit -> finished
    double compileMs = 0; // the candidate's compile (or cache lookup)
    bool cacheHit = false;
    EvalResult result;
};

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Sample evaluateOnce(PoolEvaluator &evaluator, const EvalRequest &request)
{
    Sample s;
    QEventLoop loop;
    const int id = evaluator.submit(request);
    QElapsedTimer clock;
    clock.start();
    const auto c1 = QObject::connect(&evaluator, &Evaluator::compiled, &loop, [&](int job, const CompileResult &r) {
        if (job == id) {
            s.compileMs = r.elapsedMs;
            s.cacheHit = r.cacheHit;
        }
    });
    const auto c2 = QObject::connect(&evaluator, &Evaluator::finished, &loop, [&](int job, const EvalResult &r) {
        if (job == id) {
            s.result = r;
            s.totalMs = double(clock.nsecsElapsed()) / 1e6;
            loop.quit();
        }
    });
    loop.exec();
    QObject::disconnect(c1);
    QObject::disconnect(c2);
    return s;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"kforge-bench"_s);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption taskOpt(u"task"_s, u"built-in task"_s, u"name"_s, u"softmax"_s);
    const QCommandLineOption variantOpt(u"variant"_s, u"the task's variant used as the candidate"_s, u"label"_s, u"good"_s);
    const QCommandLineOption runsOpt(u"runs"_s, u"runs per case"_s, u"n"_s, u"10"_s);
    const QCommandLineOption workerOpt(u"worker"_s, u"worker command"_s, u"command"_s, u"kforge-worker --device 0"_s);
    const QCommandLineOption minTimeOpt(u"min-time-ms"_s, u"override options.min_time_ms"_s, u"ms"_s);
    const QCommandLineOption minRunsOpt(u"min-runs"_s, u"override options.min_runs"_s, u"n"_s);
    const QCommandLineOption noTraceOpt(u"no-trace"_s, u"options.trace = false"_s);
    const QCommandLineOption noMetricsOpt(u"no-metrics"_s, u"options.metrics = false"_s);
    parser.addOptions({taskOpt, variantOpt, runsOpt, workerOpt, minTimeOpt, minRunsOpt, noTraceOpt, noMetricsOpt});
    parser.process(app);
    QTextStream out(stdout);

    const TaskLoadResult loaded = Task::load(Task::builtinTasksDir() + u'/' + parser.value(taskOpt));
    if (!loaded.ok()) {
        out << loaded.error.message() << '\n';
        return 0;
    }
    const Task task = *loaded.task;
    const auto variant = task.variant(parser.value(variantOpt));
    if (!variant) {
        out << "no variant '" << parser.value(variantOpt) << "' in " << task.name() << '\n';
        return 0;
    }
    const int runs = qMax(1, parser.value(runsOpt).toInt());

    EvalOptions options = EvalOptions::fromSettings(Settings::Defaults::timing());
    if (parser.isSet(minTimeOpt))
        options.minTimeMs = parser.value(minTimeOpt).toInt();
    if (parser.isSet(minRunsOpt))
        options.minRuns = parser.value(minRunsOpt).toInt();
    options.trace = !parser.isSet(noTraceOpt);
    options.metrics = !parser.isSet(noMetricsOpt);

    QTemporaryDir cache; // a cold cache, so "miss" really compiles
    Compiler compiler;
    compiler.setCacheDir(cache.path());
    WorkerPool pool;
    WorkerConfig worker;
    worker.command = parser.value(workerOpt);
    pool.setWorkers({worker});
    PoolEvaluator evaluator(&compiler, &pool);

    EvalRequest request;
    request.task = task;
    request.candidateName = variant->file;
    request.candidateFlags = variant->nvccFlags;
    request.options = options;

    out << "task " << task.name() << ", candidate " << variant->label << " (" << variant->file << "), " << runs
        << " runs per case\n";
    out << "options " << QJsonDocument(options.toJson()).toJson(QJsonDocument::Compact) << '\n';
    out << "compiler " << compiler.nvccPath() << ", " << compiler.maxParallel() << " parallel jobs, cache " << cache.path()
        << '\n'
        << Qt::flush;

    // Warm-up: starts the worker, compiles the reference, loads it and fills the worker's reference cache.
    request.candidateSource = variant->source + u"\n// warm-up\n"_s;
    QElapsedTimer warmClock;
    warmClock.start();
    const Sample warm = evaluateOnce(evaluator, request);
    out << "device " << (pool.device(0).isValid() ? QString(pool.device(0).name + u" (" + pool.device(0).smArch() + u')')
                                                  : QString(u"none: "_s + pool.deviceError(0)))
        << '\n';
    out << "warm-up " << verdictToString(warm.result.verdict) << " in " << warmClock.elapsed() << " ms"
        << (warm.result.message.isEmpty() ? QString() : u": "_s + warm.result.message) << "\n\n"
        << Qt::flush;
    const bool evaluated = warm.result.verdict != Verdict::Error && warm.result.verdict != Verdict::CompileError;

    out << u"%1 %2 %3 %4 %5 %6 %7"_s.arg(u"case"_s, -6)
               .arg(u"run"_s, 4)
               .arg(u"total ms"_s, 10)
               .arg(u"compile ms"_s, 11)
               .arg(u"rest ms"_s, 9)
               .arg(u"verdict"_s, -10)
               .arg(u"speedup"_s, 8)
        << '\n';
    std::vector<double> missTotal, missCompile, hitTotal, hitCompile;
    const QString probeSource = variant->source + u"\n// turnaround probe %1\n"_s;
    for (const bool hit : {false, true}) {
        for (int i = 0; i < runs; ++i) {
            // A miss compiles a source never seen; a hit re-submits the first miss's source.
            request.candidateSource = probeSource.arg(hit ? 0 : i);
            if (hit && i == 0 && missTotal.empty())
                evaluateOnce(evaluator, request);
            const Sample s = evaluateOnce(evaluator, request);
            (hit ? hitTotal : missTotal).push_back(s.totalMs);
            (hit ? hitCompile : missCompile).push_back(s.compileMs);
            out << u"%1 %2 %3 %4 %5 %6 %7"_s.arg(hit ? u"hit"_s : u"miss"_s, -6)
                       .arg(i + 1, 4)
                       .arg(s.totalMs, 10, 'f', 1)
                       .arg(s.compileMs, 11, 'f', 1)
                       .arg(s.totalMs - s.compileMs, 9, 'f', 1)
                       .arg(verdictToString(s.result.verdict) + (s.cacheHit == hit ? QString() : u"!"_s), -10)
                       .arg(std::isfinite(s.result.speedup) ? QString::number(s.result.speedup, 'f', 2) : u"-"_s, 8)
                << '\n'
                << Qt::flush;
        }
    }
    out << '\n';
    out << u"median miss: %1 ms (compile %2 ms)   goal <= 1500 ms\n"_s.arg(median(missTotal), 0, 'f', 1)
               .arg(median(missCompile), 0, 'f', 1);
    out << u"median hit:  %1 ms (compile %2 ms)   goal <= 300 ms\n"_s.arg(median(hitTotal), 0, 'f', 1)
               .arg(median(hitCompile), 0, 'f', 1);
    if (!evaluated)
        out << "note: no evaluation ran (" << warm.result.message
            << "); the figures are compile time plus the round trip to the worker's error answer\n";
    return 0;
}
