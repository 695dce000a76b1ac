// Turnaround benchmark: with a warm worker, how long from a candidate's source to a verified and timed
// result, on a compile-cache miss (a new comment each run) and on a hit (the same source again).
// Goal (issue 3): median <= 1.5 s on a miss, <= 0.3 s on a hit, on an H200.
//
//   bench_turnaround [--task softmax] [--variant good] [--runs 10] [--worker "kforge-worker --device 0"]
//                    [--min-time-ms N] [--min-runs N] [--no-trace] [--no-metrics]
//                    [--serial-nvcc] [--flags "-Xcompiler -O1"] [--compile-only] [--arch sm_90]
//
// By default the evaluation options are the workbench's defaults (Settings::Defaults::timing(), trace and
// metrics on); every figure is printed with the options it was measured with. The compile's share of the
// turnaround and the median time of each nvcc step on a miss are printed last. --serial-nvcc runs plain nvcc
// (Compiler::setParallelSteps(false)), --flags adds nvcc flags to the candidate's, and --compile-only times
// the compile service alone, without a worker (for machines without a GPU). Prints figures; exits 0.
#include "core/compile/compiler.h"
#include "core/settings/settings.h"
#include "core/task/task.h"
#include "core/workerpool/poolevaluator.h"
#include "core/workerpool/workerpool.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>
#include <algorithm>
#include <cstdio>
#include <map>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

struct Sample {
    double totalMs = 0;   // submit -> finished
    double compileMs = 0; // the candidate's compile (or cache lookup)
    bool cacheHit = false;
    QList<CompilePhase> phases;
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
            s.phases = r.phases;
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

// The candidate's compile alone: what a miss costs where no worker can run.
Sample compileOnce(Compiler &compiler, const CompileRequest &request)
{
    Sample s;
    QEventLoop loop;
    QElapsedTimer clock;
    clock.start();
    const int id = compiler.compile(request);
    const auto c = QObject::connect(&compiler, &Compiler::finished, &loop, [&](int job, const CompileResult &r) {
        if (job != id)
            return;
        s.compileMs = r.elapsedMs;
        s.cacheHit = r.cacheHit;
        s.phases = r.phases;
        s.totalMs = double(clock.nsecsElapsed()) / 1e6;
        s.result.verdict = r.ok ? Verdict::Correct : Verdict::CompileError;
        s.result.message = r.ok ? QString() : r.errorMessage + u'\n' + r.firstError();
        loop.quit();
    });
    loop.exec();
    QObject::disconnect(c);
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
    const QCommandLineOption serialOpt(u"serial-nvcc"_s, u"run plain nvcc, its steps one after the other"_s);
    const QCommandLineOption flagsOpt(u"flags"_s, u"extra nvcc flags for the candidate"_s, u"flags"_s);
    const QCommandLineOption compileOnlyOpt(u"compile-only"_s, u"time the compile service alone (no worker)"_s);
    const QCommandLineOption archOpt(u"arch"_s, u"GPU architecture (default: the worker's)"_s, u"sm_XX"_s);
    parser.addOptions({taskOpt, variantOpt, runsOpt, workerOpt, minTimeOpt, minRunsOpt, noTraceOpt, noMetricsOpt,
                       serialOpt, flagsOpt, compileOnlyOpt, archOpt});
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

    const bool compileOnly = parser.isSet(compileOnlyOpt);
    QTemporaryDir cache; // a cold cache, so "miss" really compiles
    Compiler compiler;
    compiler.setCacheDir(cache.path());
    compiler.setParallelSteps(!parser.isSet(serialOpt));
    if (parser.isSet(archOpt))
        compiler.setDefaultArch(parser.value(archOpt));
    WorkerPool pool;
    WorkerConfig worker;
    worker.command = parser.value(workerOpt);
    if (!compileOnly)
        pool.setWorkers({worker});
    PoolEvaluator evaluator(&compiler, &pool);

    EvalRequest request;
    request.task = task;
    request.candidateName = variant->file;
    request.candidateFlags = variant->nvccFlags + QProcess::splitCommand(parser.value(flagsOpt));
    request.options = options;
    request.arch = parser.value(archOpt);
    CompileRequest compileRequest; // --compile-only: the candidate as PoolEvaluator would compile it
    compileRequest.fileName = variant->file;
    compileRequest.flags = task.nvccFlags() + request.candidateFlags;
    compileRequest.arch = request.arch;

    out << "task " << task.name() << ", candidate " << variant->label << " (" << variant->file << "), " << runs
        << " runs per case" << (compileOnly ? ", compile only (no worker)" : "") << '\n';
    if (!compileOnly)
        out << "options " << QJsonDocument(options.toJson()).toJson(QJsonDocument::Compact) << '\n';
    out << "compiler " << compiler.nvccPath() << " ("
        << (compiler.parallelSteps() ? "host and device steps in parallel" : "plain nvcc") << "), flags "
        << (compiler.baseFlags() + compileRequest.flags).join(u' ') << ", " << compiler.maxParallel()
        << " parallel jobs, cache " << cache.path() << '\n'
        << Qt::flush;
    auto once = [&](const QString &source) {
        if (!compileOnly) {
            request.candidateSource = source;
            return evaluateOnce(evaluator, request);
        }
        compileRequest.source = source;
        return compileOnce(compiler, compileRequest);
    };

    // Warm-up: starts the worker, compiles the reference, loads it and fills the worker's reference cache.
    QElapsedTimer warmClock;
    warmClock.start();
    const Sample warm = once(variant->source + u"\n// warm-up\n"_s);
    if (!compileOnly)
        out << "device "
            << (pool.device(0).isValid() ? QString(pool.device(0).name + u" (" + pool.device(0).smArch() + u')')
                                         : QString(u"none: "_s + pool.deviceError(0)))
            << '\n';
    out << "warm-up " << verdictToString(warm.result.verdict) << " in " << warmClock.elapsed() << " ms"
        << (warm.result.message.isEmpty() ? QString() : u": "_s + warm.result.message) << "\n\n"
        << Qt::flush;
    const bool evaluated = !compileOnly && warm.result.verdict != Verdict::Error
                           && warm.result.verdict != Verdict::CompileError;

    out << u"%1 %2 %3 %4 %5 %6 %7"_s.arg(u"case"_s, -6)
               .arg(u"run"_s, 4)
               .arg(u"total ms"_s, 10)
               .arg(u"compile ms"_s, 11)
               .arg(u"rest ms"_s, 9)
               .arg(u"verdict"_s, -10)
               .arg(u"speedup"_s, 8)
        << '\n';
    std::vector<double> missTotal, missCompile, hitTotal, hitCompile;
    std::map<QString, std::vector<double>> missPhases; // nvcc step -> its time on each miss
    QStringList phaseOrder;
    const QString probeSource = variant->source + u"\n// turnaround probe %1\n"_s;
    for (const bool hit : {false, true}) {
        for (int i = 0; i < runs; ++i) {
            // A miss compiles a source never seen; a hit re-submits the first miss's source.
            const QString source = probeSource.arg(hit ? 0 : i);
            if (hit && i == 0 && missTotal.empty())
                once(source);
            const Sample s = once(source);
            (hit ? hitTotal : missTotal).push_back(s.totalMs);
            (hit ? hitCompile : missCompile).push_back(s.compileMs);
            if (!hit)
                for (const CompilePhase &p : s.phases) {
                    if (!missPhases.count(p.name))
                        phaseOrder << p.name;
                    missPhases[p.name].push_back(p.ms);
                }
            out << u"%1 %2 %3 %4 %5 %6 %7"_s.arg(hit ? u"hit"_s : u"miss"_s, -6)
                       .arg(i + 1, 4)
                       .arg(s.totalMs, 10, 'f', 1)
                       .arg(s.compileMs, 11, 'f', 1)
                       .arg(s.totalMs - s.compileMs, 9, 'f', 1)
                       .arg(verdictToString(s.result.verdict) + (s.cacheHit == hit ? QString() : u"!"_s), -10)
                       .arg(std::isfinite(s.result.speedup) ? QString::number(s.result.speedup, 'f', 2) : u"-"_s, 8)
                << '\n';
            // Where the worker's part went: its phases (and load parts where it reports them), the timing's rounds.
            const QJsonObject phases = s.result.extra.value(u"phases_s"_s).toObject();
            const QJsonObject load = s.result.extra.value(u"load_parts_s"_s).toObject();
            if (!phases.isEmpty())
                out << u"       phases_s %1%2; %3 rounds, stopped by %4\n"_s
                           .arg(QString::fromUtf8(QJsonDocument(phases).toJson(QJsonDocument::Compact)),
                                load.isEmpty() ? QString()
                                               : u", load_parts_s "_s
                                                     + QString::fromUtf8(QJsonDocument(load).toJson(QJsonDocument::Compact)))
                           .arg(s.result.adaptive.rounds)
                           .arg(s.result.adaptive.stoppedBy.isEmpty() ? u"-"_s : s.result.adaptive.stoppedBy);
            out << Qt::flush;
        }
    }
    out << '\n';
    auto share = [](double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; };
    out << u"median miss: %1 ms (compile %2 ms, %3% of it)   goal <= 1500 ms\n"_s.arg(median(missTotal), 0, 'f', 1)
               .arg(median(missCompile), 0, 'f', 1)
               .arg(share(median(missCompile), median(missTotal)), 0, 'f', 0);
    out << u"median hit:  %1 ms (compile %2 ms, %3% of it)   goal <= 300 ms\n"_s.arg(median(hitTotal), 0, 'f', 1)
               .arg(median(hitCompile), 0, 'f', 1)
               .arg(share(median(hitCompile), median(hitTotal)), 0, 'f', 0);
    if (!phaseOrder.isEmpty()) {
        // Host and device steps overlap, so their times add up to more than the compile took.
        out << "nvcc steps on a miss (median ms; \"host:\" and \"device:\" steps run at the same time):\n";
        for (const QString &name : std::as_const(phaseOrder))
            out << u"  %1 %2 (%3 of %4 runs)\n"_s.arg(name, -28)
                       .arg(median(missPhases[name]), 8, 'f', 1)
                       .arg(missPhases[name].size())
                       .arg(missTotal.size());
    }
    if (!evaluated && !compileOnly)
        out << "note: no evaluation ran (" << warm.result.message
            << "); the figures are compile time plus the round trip to the worker's error answer\n";
    return 0;
}
