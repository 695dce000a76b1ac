// kforge-cli verify: a collection of (problem, candidate) pairs, in any of its three layouts (a folder of problems
// and one of candidates, a released-kernels JSON, a KernelBench run folder), re-measured by the one judge: the
// problems imported as task folders, each pair evaluated through the evaluation queue and the worker pool, the
// results appended to <out>/results.jsonl as they arrive (a run started again skips what is there), then
// results.csv and report.html. --plan stops after the import and prints what would run (docs/verify-collection.md).
#include "command.h"
#include "headless.h"
#include "verifyprint.h"

#include "core/collection/collectionreader.h"
#include "core/collection/collectionverifier.h"
#include "core/collection/releasedjsonreader.h"
#include "core/collection/verifytable.h"
#include "core/log/loghub.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/task/torchimport.h"
#include "core/workbench/workbench.h"
#include "core/workerpool/poolevaluator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTextStream>
#include <QThread>
#include <algorithm>
#include <memory>
#include <optional>

using namespace Qt::StringLiterals;

namespace kforge::cli {

namespace {

// Exit statuses (also in --help).
constexpr int kVerified = 0;
constexpr int kSomeNotVerified = 1; // records that could not become pairs, problems that did not import
constexpr int kUsage = 2;
constexpr int kNoVerdict = 3; // no worker, no GPU: pairs left without a verdict

// What the command line asks for, checked: the collection and how to read it, the output folder, which pairs and
// how they are verified, the import's python and the workers.
struct VerifyArgs {
    QString collection; // as named
    QString outDir;     // absolute
    CollectionOptions read;
    QStringList only, workers;
    std::optional<QString> python;
    int limit = -1; // -1: every pair
    int jobs = 1;
    bool plan = false, rerun = false, heldOut = true, tolerances = true, metrics = false, deep = false;
};

struct VerifyOptions {
    QCommandLineOption out, worker, plan, limit, only, rerun, map, format, problems, candidates, baseline, python, jobs,
        noHeldOut, noTolerance, metrics, deep;
};

// The parts a run measures with: the compiler and the workers as the workbench sets them up (a pool when several
// workers are named) and an evaluation queue over them.
struct VerifyBench {
    VerifyBench(const QStringList &workers, QTextStream &err)
    {
        echoWorkerLines(log, err);
        workbench.useEvaluation(workers);
        queue = std::make_unique<EvaluationQueue>(&store, workbench.evaluator());
    }

    Settings settings;
    LogHub log;
    Workbench workbench{settings, log};
    SessionStore store; // never opened: the results go to results.jsonl
    std::unique_ptr<EvaluationQueue> queue;
};

struct VerifyCommand {
    Q_DECLARE_TR_FUNCTIONS(kforge::cli::VerifyCommand)

public:
    static int run(const QStringList &args);

private:
    static VerifyOptions options();
    static std::optional<VerifyArgs> parse(const QStringList &args, QString *error);
    static QString parseRead(const QCommandLineParser &p, const VerifyOptions &o, CollectionOptions &read);
    static CollectionVerifier::Options verifierOptions(const VerifyArgs &a);
    static bool importProblems(CollectionVerifier &verifier, const Collection &collection, const VerifyArgs &a,
                               QTextStream &out, QTextStream &err);
    static std::optional<int> measure(CollectionVerifier &verifier, const VerifyArgs &a, QTextStream &out,
                                      QTextStream &err);
    static void startRun(CollectionVerifier &verifier, VerifyBench &bench, const VerifyArgs &a, QEventLoop &loop,
                         int &noVerdicts, QTextStream &out, QTextStream &err);
};

// kforge-cli verify's options, with their help texts.
VerifyOptions VerifyCommand::options()
{
    return VerifyOptions{
        .out = QCommandLineOption(u"out"_s, tr("Write the task folders, results and report under DIR."), tr("DIR")),
        .worker = QCommandLineOption(u"worker"_s,
                                     tr("A worker command; repeat for a pool (default: the first worker "
                                        "in Settings, 'kforge-worker --device 0')."),
                                     tr("command")),
        .plan = QCommandLineOption(u"plan"_s, tr("Read, pair and import (no GPU), print what would run, and stop.")),
        .limit = QCommandLineOption(u"limit"_s, tr("Only the first N pairs (after --only)."), tr("N")),
        .only = QCommandLineOption(u"only"_s, tr("Only the pairs whose id or problem contains NAME; repeatable."),
                                   tr("NAME")),
        .rerun = QCommandLineOption(u"rerun"_s, tr("Measure the selected pairs again even where results.jsonl has "
                                                   "them (the new results supersede the old).")),
        .map = QCommandLineOption(u"map"_s,
                                  tr("A released JSON's field name: task_id, ref_code, custom_code, score "
                                     "or level = the name this file uses; repeatable."),
                                  tr("field=name")),
        .format = QCommandLineOption(u"format"_s, tr("The layout, when detection guesses wrong: folder, json or run."),
                                     tr("layout")),
        .problems = QCommandLineOption(u"problems"_s,
                                       tr("The problems: of a run folder (a KernelBench checkout), or "
                                          "of a folder of candidates."),
                                       tr("DIR")),
        .candidates = QCommandLineOption(u"candidates"_s, tr("The candidates of a folder of problems."), tr("DIR")),
        .baseline = QCommandLineOption(u"baseline"_s,
                                       tr("KernelBench's baseline_time_torch.json: a run folder's "
                                          "claimed speedups from its eval_results.json."),
                                       tr("FILE")),
        .python = QCommandLineOption(u"python"_s,
                                     tr("The python3 that has torch, for the import (default: "
                                        "$KFORGE_TORCH_PYTHON, python3, then /usr/bin/python3)."),
                                     tr("PATH")),
        .jobs = QCommandLineOption(u"jobs"_s, tr("Import N problems at once (default: the cores, at most 4)."), tr("N")),
        .noHeldOut = QCommandLineOption(u"no-heldout"_s, tr("Do not verify correct pairs again at held-out sizes.")),
        .noTolerance = QCommandLineOption(u"no-tolerance"_s,
                                          tr("Do not verify incorrect pairs again at 1e-3 and 1e-2.")),
        .metrics = QCommandLineOption(u"metrics"_s, tr("Run the hardware-metrics pass too (slower).")),
        .deep = QCommandLineOption(u"deep"_s, tr("Run every evaluation with the deep check (more trials, edge "
                                                 "inputs, every timed output compared)."))};
}

// How the collection is read (--problems, --candidates, --baseline, --format, --map) into `read`; empty, or what is
// wrong with them.
QString VerifyCommand::parseRead(const QCommandLineParser &p, const VerifyOptions &o, CollectionOptions &read)
{
    read.problems = p.value(o.problems);
    read.candidates = p.value(o.candidates);
    read.baseline = p.value(o.baseline);
    if (p.isSet(o.format)) {
        read.format = CollectionReader::formatFromName(p.value(o.format));
        if (!read.format)
            return tr("kforge-cli verify: --format is folder, json or run, not '%1'").arg(p.value(o.format));
    }
    for (const QString &m : p.values(o.map)) {
        const QString field = m.section(u'=', 0, 0).trimmed(), name = m.section(u'=', 1).trimmed();
        if (!m.contains(u'=') || name.isEmpty() || !ReleasedJsonReader::fields().contains(field))
            return tr("kforge-cli verify: --map takes field=name with field one of %1, not '%2'")
                .arg(ReleasedJsonReader::fields().join(u", "_s), m);
        read.fieldMap.insert(field, name);
    }
    return {};
}

// The command line, checked; --help and an unknown option end the process here (QCommandLineParser::process).
// Empty with `error` set, the whole line to print, when it does not hold up.
std::optional<VerifyArgs> VerifyCommand::parse(const QStringList &args, QString *error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("Verify a collection of kernels: every (problem, candidate) pair re-measured by KForge's judge, with the "
           "table the papers print recomputed. A collection is a folder with problems/ and candidates/ (KernelBench "
           "problems, ModelNew modules or .cu kernels, paired by name or by problem number), a released-kernels JSON "
           "(a list, or an object of lists per level, of {task_id, ref_code, custom_code, score}), or a KernelBench "
           "run folder (level_L_problem_P_sample_S_kernel.py, with --problems). Results go to DIR/results.jsonl as "
           "they arrive (a run started again skips the pairs already there), then DIR/results.csv and "
           "DIR/report.html.\n\nExit status: 0 every pair verified; 1 some records or problems could not be "
           "verified (listed with their cause); 2 bad usage or an unreadable collection; 3 pairs left without a "
           "verdict (no worker, no GPU)."));
    parser.addHelpOption();
    parser.addPositionalArgument(u"collection"_s, tr("A .json file, a KernelBench run folder, or a folder of problems "
                                                     "and candidates."));
    const VerifyOptions o = options();
    parser.addOptions({o.out, o.worker, o.plan, o.limit, o.only, o.rerun, o.map, o.format, o.problems, o.candidates,
                       o.baseline, o.python, o.jobs, o.noHeldOut, o.noTolerance, o.metrics, o.deep});
    parser.process(args);

    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1 || !parser.isSet(o.out)) {
        *error = tr("Usage: kforge-cli verify <collection> --out DIR [--worker CMD]... [--plan] [--limit N] [--only "
                    "NAME]...; see --help");
        return std::nullopt;
    }
    VerifyArgs a;
    if (*error = parseRead(parser, o, a.read); !error->isEmpty())
        return std::nullopt;
    bool ok = true;
    a.limit = parser.isSet(o.limit) ? parser.value(o.limit).toInt(&ok) : -1;
    a.jobs = std::clamp(QThread::idealThreadCount(), 1, 4);
    if (ok && parser.isSet(o.jobs))
        a.jobs = parser.value(o.jobs).toInt(&ok);
    if (!ok || (parser.isSet(o.limit) && a.limit < 1) || a.jobs < 1) {
        *error = tr("kforge-cli verify: --limit and --jobs take a positive number");
        return std::nullopt;
    }
    a.collection = positional.at(0);
    a.outDir = QDir(parser.value(o.out)).absolutePath();
    a.only = parser.values(o.only);
    a.workers = parser.values(o.worker);
    if (parser.isSet(o.python))
        a.python = parser.value(o.python);
    a.plan = parser.isSet(o.plan);
    a.rerun = parser.isSet(o.rerun);
    a.heldOut = !parser.isSet(o.noHeldOut);
    a.tolerances = !parser.isSet(o.noTolerance);
    a.metrics = parser.isSet(o.metrics);
    a.deep = parser.isSet(o.deep);
    return a;
}

CollectionVerifier::Options VerifyCommand::verifierOptions(const VerifyArgs &a)
{
    CollectionVerifier::Options options;
    options.outDir = a.outDir;
    options.read = a.read;
    options.only = a.only;
    options.limit = a.limit;
    options.heldOut = a.heldOut;
    options.tolerances = a.tolerances;
    options.rerun = a.rerun;
    options.import.jobs = a.jobs;
    options.import.script = torchimport::discoverScript();
    return options;
}

// The pairs selected and printed with the records that cannot be verified, then their problems imported as task
// folders under the output folder (a python with torch on this machine: a CPU is enough) and the plan printed.
// False, said on err, when the output folder cannot be made.
bool VerifyCommand::importProblems(CollectionVerifier &verifier, const Collection &collection, const VerifyArgs &a,
                                   QTextStream &out, QTextStream &err)
{
    CollectionVerifier::Options options = verifierOptions(a);
    verifier.setCollection(collection, options);
    out << tr("%1: a %2 collection, %3 pairs (%4 selected), %5 records not verified")
               .arg(a.collection, formatName(verifier.collection().format))
               .arg(verifier.collection().pairs.size())
               .arg(verifier.selectedPairs().size())
               .arg(verifier.collection().blockingIssues())
        << '\n';
    VerifyPrint::issues(out, verifier.collection().issues);
    out.flush();

    if (!QDir().mkpath(a.outDir)) {
        err << tr("kforge-cli verify: cannot create %1").arg(a.outDir) << '\n';
        return false;
    }
    QString torchVersion, why;
    options.import.python = torchimport::findPython(a.python ? QStringList{*a.python} : torchimport::defaultPythons(),
                                                    torchVersion, why);
    if (options.import.python.isEmpty())
        err << tr("warning: no python3 with torch (%1): problems not imported before cannot be imported (install torch, "
                  "Debian: python3-torch, or name one with --python)")
                   .arg(why)
            << '\n';
    verifier.setCollection(collection, options);
    QEventLoop importLoop;
    QObject::connect(&verifier, &CollectionVerifier::fileImported, &importLoop, [&](const QString &key, const QString &e) {
        if (!e.isEmpty())
            out << tr("  %1: not imported: %2").arg(key, e) << '\n' << Qt::flush;
    });
    QObject::connect(&verifier, &CollectionVerifier::imported, &importLoop, &QEventLoop::quit);
    QElapsedTimer importClock;
    importClock.start();
    verifier.startImport();
    if (verifier.stage() == CollectionVerifier::Stage::Importing)
        importLoop.exec();
    out << tr("Imported %1 problem texts in %2 s (%3 problems, %4 not imported; task folders in %5)")
               .arg(verifier.problemsImported())
               .arg(importClock.elapsed() / 1000.0, 0, 'f', 1)
               .arg(verifier.problems().size())
               .arg(verifier.importFailures())
               .arg(QDir(a.outDir).filePath(u"tasks"_s))
        << "\n\n";
    VerifyPrint::plan(out, verifier.selectedPairs(), verifier.problems(), options.heldOut);
    out.flush();
    return true;
}

// The runner started on the bench's queue with the run's evaluation options, a progress line per result on out and
// a line per pair left without a verdict on err (counted in `noVerdicts`).
void VerifyCommand::startRun(CollectionVerifier &verifier, VerifyBench &bench, const VerifyArgs &a, QEventLoop &loop,
                             int &noVerdicts, QTextStream &out, QTextStream &err)
{
    VerifyRunner::Options runOptions;
    runOptions.eval = bench.workbench.evalOptions();
    runOptions.eval.metrics = a.metrics;
    runOptions.eval.deep = a.deep;
    const int workerCount = int(bench.workbench.workers().size());
    runOptions.maxInFlight = std::max(2, 2 * workerCount + QThread::idealThreadCount());
    runOptions.prepareAhead = QThread::idealThreadCount();
    QObject::connect(&verifier, &CollectionVerifier::runFinished, &loop, [&](const VerifyRecord &r) {
        const VerifyRunner *runner = verifier.runner();
        out << VerifyPrint::progress(r, runner->pairsDone(), runner->pairs(), runner->elapsedS(), runner->etaS())
            << '\n'
            << Qt::flush;
    });
    // A worker that cannot start says so for every pair: once in full.
    QObject::connect(&verifier, &CollectionVerifier::noVerdict, &loop,
                     [&, lastNoVerdict = QString()](const QString &pair, const QString &message) mutable {
                         ++noVerdicts;
                         err << (message == lastNoVerdict ? tr("%1: no verdict (as above)").arg(pair)
                                                          : tr("%1: no verdict: %2").arg(pair, message))
                             << '\n'
                             << Qt::flush;
                         lastNoVerdict = message;
                     });
    out << '\n'
        << tr("Verifying %1 pairs (%2 complete already) on %3 worker(s)")
               .arg(verifier.items().size())
               .arg(verifier.pairsComplete())
               .arg(workerCount)
        << '\n'
        << Qt::flush;
    verifier.startRun(bench.queue.get(), runOptions);
}

// What results.jsonl lacks measured (the workbench's compiler and workers made only when there is something to
// measure), then results.csv and report.html written. The pairs left without a verdict; empty, said on err, when the
// results cannot be written.
std::optional<int> VerifyCommand::measure(CollectionVerifier &verifier, const VerifyArgs &a, QTextStream &out,
                                          QTextStream &err)
{
    QString error;
    if (!verifier.openLog(&error)) {
        err << tr("kforge-cli verify: %1").arg(error) << '\n';
        return std::nullopt;
    }
    int noVerdicts = 0;
    bool writeFailed = false;
    QEventLoop loop;
    QObject::connect(&verifier, &CollectionVerifier::failed, &loop, [&](const QString &message) {
        writeFailed = true;
        err << tr("kforge-cli verify: %1").arg(message) << '\n';
    });
    QObject::connect(&verifier, &CollectionVerifier::finished, &loop, &QEventLoop::quit);
    std::unique_ptr<VerifyBench> bench; // outlives the run
    if (verifier.hasWork()) {
        bench = std::make_unique<VerifyBench>(a.workers, err);
        startRun(verifier, *bench, a, loop, noVerdicts, out, err);
    } else {
        out << '\n' << tr("Every selected pair is in %1 already: nothing to run.").arg(u"results.jsonl"_s) << '\n';
        verifier.writeOutputs();
    }
    loop.exec();
    return writeFailed ? std::nullopt : std::optional<int>(noVerdicts);
}

// Parse → read the collection → import its problems and print the plan → measure the pairs on the workbench's
// workers → print the summary. The report covers the whole collection: pairs left out by --only or --limit are
// "not run".
int VerifyCommand::run(const QStringList &args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QString error;
    const std::optional<VerifyArgs> a = parse(args, &error);
    if (!a) {
        err << error << '\n';
        return kUsage;
    }
    const CollectionReadResult read = CollectionReader::read(a->collection, a->read);
    if (!read.collection) {
        err << tr("kforge-cli verify: %1").arg(read.error) << '\n';
        return kUsage;
    }
    CollectionVerifier verifier;
    if (!importProblems(verifier, *read.collection, *a, out, err))
        return kUsage;
    const int status = verifier.collection().blockingIssues() || verifier.importFailures() ? kSomeNotVerified : kVerified;
    if (a->plan)
        return status;

    const std::optional<int> noVerdicts = measure(verifier, *a, out, err);
    if (!noVerdicts)
        return kUsage;
    out << '\n';
    VerifyPrint::summary(out, VerifyTable::summary(verifier.rows()));
    out << tr("Wrote %1, %2 and %3").arg(verifier.logPath(), verifier.csvPath(), verifier.htmlPath()) << '\n';
    return *noVerdicts ? kNoVerdict : status;
}

} // namespace

KFORGE_REGISTER_COMMAND(verify, u"verify"_s,
                        QCoreApplication::translate("kforge-cli",
                                                    "Re-measure a collection of kernels (a paper's release, a KernelBench run)"),
                        VerifyCommand::run)

} // namespace kforge::cli
