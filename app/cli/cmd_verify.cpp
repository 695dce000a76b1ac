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

using namespace Qt::StringLiterals;

namespace kforge::cli {

namespace {

// Exit statuses (also in --help).
constexpr int kVerified = 0;
constexpr int kSomeNotVerified = 1; // records that could not become pairs, problems that did not import
constexpr int kUsage = 2;
constexpr int kNoVerdict = 3; // no worker, no GPU: pairs left without a verdict

struct VerifyCommand {
    Q_DECLARE_TR_FUNCTIONS(kforge::cli::VerifyCommand)

public:
    static int run(const QStringList &args);
};

int VerifyCommand::run(const QStringList &args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
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
    const QCommandLineOption outOpt(u"out"_s, tr("Write the task folders, results and report under DIR."), tr("DIR"));
    const QCommandLineOption workerOpt(u"worker"_s,
                                       tr("A worker command; repeat for a pool (default: the first worker "
                                          "in Settings, 'kforge-worker --device 0')."),
                                       tr("command"));
    const QCommandLineOption planOpt(u"plan"_s, tr("Read, pair and import (no GPU), print what would run, and stop."));
    const QCommandLineOption limitOpt(u"limit"_s, tr("Only the first N pairs (after --only)."), tr("N"));
    const QCommandLineOption onlyOpt(u"only"_s, tr("Only the pairs whose id or problem contains NAME; repeatable."),
                                     tr("NAME"));
    const QCommandLineOption rerunOpt(u"rerun"_s, tr("Measure the selected pairs again even where results.jsonl has "
                                                     "them (the new results supersede the old)."));
    const QCommandLineOption mapOpt(u"map"_s,
                                    tr("A released JSON's field name: task_id, ref_code, custom_code, score "
                                       "or level = the name this file uses; repeatable."),
                                    tr("field=name"));
    const QCommandLineOption formatOpt(u"format"_s, tr("The layout, when detection guesses wrong: folder, json or run."),
                                       tr("layout"));
    const QCommandLineOption problemsOpt(u"problems"_s,
                                         tr("The problems: of a run folder (a KernelBench checkout), or "
                                            "of a folder of candidates."),
                                         tr("DIR"));
    const QCommandLineOption candidatesOpt(u"candidates"_s, tr("The candidates of a folder of problems."), tr("DIR"));
    const QCommandLineOption baselineOpt(u"baseline"_s,
                                         tr("KernelBench's baseline_time_torch.json: a run folder's "
                                            "claimed speedups from its eval_results.json."),
                                         tr("FILE"));
    const QCommandLineOption pythonOpt(u"python"_s,
                                       tr("The python3 that has torch, for the import (default: "
                                          "$KFORGE_TORCH_PYTHON, python3, then /usr/bin/python3)."),
                                       tr("PATH"));
    const QCommandLineOption jobsOpt(u"jobs"_s, tr("Import N problems at once (default: the cores, at most 4)."), tr("N"));
    const QCommandLineOption noHeldOutOpt(u"no-heldout"_s, tr("Do not verify correct pairs again at held-out sizes."));
    const QCommandLineOption noToleranceOpt(u"no-tolerance"_s, tr("Do not verify incorrect pairs again at 1e-3 and 1e-2."));
    const QCommandLineOption metricsOpt(u"metrics"_s, tr("Run the hardware-metrics pass too (slower)."));
    const QCommandLineOption deepOpt(u"deep"_s, tr("Run every evaluation with the deep check (more trials, edge "
                                                   "inputs, every timed output compared)."));
    parser.addOptions({outOpt, workerOpt, planOpt, limitOpt, onlyOpt, rerunOpt, mapOpt, formatOpt, problemsOpt,
                       candidatesOpt, baselineOpt, pythonOpt, jobsOpt, noHeldOutOpt, noToleranceOpt, metricsOpt, deepOpt});
    parser.process(args);

    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1 || !parser.isSet(outOpt)) {
        err << tr("Usage: kforge-cli verify <collection> --out DIR [--worker CMD]... [--plan] [--limit N] [--only "
                  "NAME]...; see --help")
            << '\n';
        return kUsage;
    }
    CollectionOptions options;
    options.problems = parser.value(problemsOpt);
    options.candidates = parser.value(candidatesOpt);
    options.baseline = parser.value(baselineOpt);
    if (parser.isSet(formatOpt)) {
        options.format = CollectionReader::formatFromName(parser.value(formatOpt));
        if (!options.format) {
            err << tr("kforge-cli verify: --format is folder, json or run, not '%1'").arg(parser.value(formatOpt)) << '\n';
            return kUsage;
        }
    }
    for (const QString &m : parser.values(mapOpt)) {
        const QString field = m.section(u'=', 0, 0).trimmed(), name = m.section(u'=', 1).trimmed();
        if (!m.contains(u'=') || name.isEmpty() || !ReleasedJsonReader::fields().contains(field)) {
            err << tr("kforge-cli verify: --map takes field=name with field one of %1, not '%2'")
                       .arg(ReleasedJsonReader::fields().join(u", "_s), m)
                << '\n';
            return kUsage;
        }
        options.fieldMap.insert(field, name);
    }
    bool ok = true;
    const int limit = parser.isSet(limitOpt) ? parser.value(limitOpt).toInt(&ok) : -1;
    int jobs = std::clamp(QThread::idealThreadCount(), 1, 4);
    if (ok && parser.isSet(jobsOpt))
        jobs = parser.value(jobsOpt).toInt(&ok);
    if (!ok || (parser.isSet(limitOpt) && limit < 1) || jobs < 1) {
        err << tr("kforge-cli verify: --limit and --jobs take a positive number") << '\n';
        return kUsage;
    }

    const CollectionReadResult read = CollectionReader::read(positional.at(0), options);
    if (!read.collection) {
        err << tr("kforge-cli verify: %1").arg(read.error) << '\n';
        return kUsage;
    }
    const QString outDir = QDir(parser.value(outOpt)).absolutePath();
    CollectionVerifier::Options verifyOptions;
    verifyOptions.outDir = outDir;
    verifyOptions.read = options;
    verifyOptions.only = parser.values(onlyOpt);
    verifyOptions.limit = limit;
    verifyOptions.heldOut = !parser.isSet(noHeldOutOpt);
    verifyOptions.tolerances = !parser.isSet(noToleranceOpt);
    verifyOptions.rerun = parser.isSet(rerunOpt);
    verifyOptions.import.jobs = jobs;
    verifyOptions.import.script = torchimport::discoverScript();
    CollectionVerifier verifier;
    verifier.setCollection(*read.collection, verifyOptions);
    const Collection &collection = verifier.collection();
    const QList<CollectionPair> &pairs = verifier.selectedPairs();
    out << tr("%1: a %2 collection, %3 pairs (%4 selected), %5 records not verified")
               .arg(positional.at(0), formatName(collection.format))
               .arg(collection.pairs.size())
               .arg(pairs.size())
               .arg(collection.blockingIssues())
        << '\n';
    VerifyPrint::issues(out, collection.issues);
    out.flush();

    // The import: a python with torch on this machine (a CPU is enough).
    if (!QDir().mkpath(outDir)) {
        err << tr("kforge-cli verify: cannot create %1").arg(outDir) << '\n';
        return kUsage;
    }
    QString torchVersion, why;
    verifyOptions.import.python = torchimport::findPython(parser.isSet(pythonOpt) ? QStringList{parser.value(pythonOpt)}
                                                                                  : torchimport::defaultPythons(),
                                                          torchVersion, why);
    if (verifyOptions.import.python.isEmpty())
        err << tr("warning: no python3 with torch (%1): problems not imported before cannot be imported (install torch, "
                  "Debian: python3-torch, or name one with --python)")
                   .arg(why)
            << '\n';
    verifier.setCollection(*read.collection, verifyOptions);
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
    const QMap<QString, ImportedProblem> &problems = verifier.problems();
    const int importFailures = verifier.importFailures();
    out << tr("Imported %1 problem texts in %2 s (%3 problems, %4 not imported; task folders in %5)")
               .arg(verifier.problemsImported())
               .arg(importClock.elapsed() / 1000.0, 0, 'f', 1)
               .arg(problems.size())
               .arg(importFailures)
               .arg(QDir(outDir).filePath(u"tasks"_s))
        << "\n\n";
    VerifyPrint::plan(out, pairs, problems, verifyOptions.heldOut);
    out.flush();
    const int status = collection.blockingIssues() || importFailures ? kSomeNotVerified : kVerified;
    if (parser.isSet(planOpt))
        return status;

    QString error;
    if (!verifier.openLog(&error)) {
        err << tr("kforge-cli verify: %1").arg(error) << '\n';
        return kUsage;
    }
    int noVerdicts = 0;
    bool writeFailed = false;
    QEventLoop loop;
    QObject::connect(&verifier, &CollectionVerifier::failed, &loop, [&](const QString &message) {
        writeFailed = true;
        err << tr("kforge-cli verify: %1").arg(message) << '\n';
    });
    QObject::connect(&verifier, &CollectionVerifier::finished, &loop, &QEventLoop::quit);
    // Declared here so that they outlive the run; made only when there is something to measure.
    std::unique_ptr<Settings> settings;
    std::unique_ptr<LogHub> logHub;
    std::unique_ptr<Workbench> workbench;
    std::unique_ptr<SessionStore> store; // never opened: the results go to results.jsonl
    std::unique_ptr<EvaluationQueue> queue;
    if (verifier.hasWork()) {
        // The compiler and the workers as the workbench sets them up; a pool when several workers are named.
        settings = std::make_unique<Settings>();
        logHub = std::make_unique<LogHub>();
        echoWorkerLines(*logHub, err);
        workbench = std::make_unique<Workbench>(*settings, *logHub);
        workbench->useEvaluation(parser.values(workerOpt));
        store = std::make_unique<SessionStore>();
        queue = std::make_unique<EvaluationQueue>(store.get(), workbench->evaluator());
        VerifyRunner::Options runOptions;
        runOptions.eval = workbench->evalOptions();
        runOptions.eval.metrics = parser.isSet(metricsOpt);
        runOptions.eval.deep = parser.isSet(deepOpt);
        const int workerCount = int(workbench->workers().size());
        runOptions.maxInFlight = std::max(2, 2 * workerCount + QThread::idealThreadCount());
        runOptions.prepareAhead = QThread::idealThreadCount();
        QObject::connect(&verifier, &CollectionVerifier::runFinished, &loop, [&](const VerifyRecord &r) {
            const VerifyRunner *runner = verifier.runner();
            out << VerifyPrint::progress(r, runner->pairsDone(), runner->pairs(), runner->elapsedS(), runner->etaS())
                << '\n'
                << Qt::flush;
        });
        QString lastNoVerdict; // a worker that cannot start says so for every pair: once in full
        QObject::connect(&verifier, &CollectionVerifier::noVerdict, &loop, [&](const QString &pair, const QString &message) {
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
        verifier.startRun(queue.get(), runOptions);
    } else {
        out << '\n' << tr("Every selected pair is in %1 already: nothing to run.").arg(u"results.jsonl"_s) << '\n';
        verifier.writeOutputs();
    }
    loop.exec();
    if (writeFailed)
        return kUsage;

    // The report covers the whole collection: pairs left out by --only or --limit are "not run".
    out << '\n';
    VerifyPrint::summary(out, VerifyTable::summary(verifier.rows()));
    out << tr("Wrote %1, %2 and %3").arg(verifier.logPath(), verifier.csvPath(), verifier.htmlPath()) << '\n';
    return noVerdicts ? kNoVerdict : status;
}

} // namespace

KFORGE_REGISTER_COMMAND(verify, u"verify"_s,
                        QCoreApplication::translate("kforge-cli",
                                                    "Re-measure a collection of kernels (a paper's release, a KernelBench run)"),
                        VerifyCommand::run)

} // namespace kforge::cli
