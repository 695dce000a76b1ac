// kforge-cli eval: compile a task's reference and one or more candidates, verify each candidate and time it
// against the reference on one GPU worker, print a table or JSON per candidate. Exit status 0 only when every
// candidate is correct.
#include "command.h"
#include "headless.h"

#include "core/compile/compiler.h"
#include "core/eval/deviceinfo.h"
#include "core/eval/kernelname.h"
#include "core/eval/measurementfigures.h"
#include "core/log/loghub.h"
#include "core/queue/evaluationbatch.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/evaluation.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/task/task.h"
#include "core/workbench/workbench.h"
#include "core/workerpool/workerpool.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>
#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

namespace kforge::cli {

namespace {

// Exit statuses (also in --help).
constexpr int kCorrect = 0;
constexpr int kNotCorrect = 1; // incorrect, crashed, timed out, did not compile or load, ...
constexpr int kBadInput = 2;   // usage, unreadable task or candidate
constexpr int kNoVerdict = 3;  // no worker, no GPU: nothing was decided about the candidate

QString tr(const char *text)
{
    return QCoreApplication::translate("kforge::cli", text);
}

QString ms(double v)
{
    return std::isfinite(v) ? QString::number(v, 'f', v < 1 ? 4 : 3) : u"-"_s;
}

QString num(double v, int precision = 3)
{
    return std::isfinite(v) ? QString::number(v, 'g', precision) : u"-"_s;
}

void printDiagnostics(QTextStream &err, const CompileResult &r)
{
    for (const Diagnostic &d : r.diagnostics)
        err << d.toString() << '\n';
    if (!r.ok && r.diagnostics.isEmpty() && !r.log.trimmed().isEmpty())
        err << r.log.trimmed() << '\n';
}

void printTable(QTextStream &out, const Task &task, const QString &candidate, const CompileResult &compiled,
                const EvalResult &r, const QString &device)
{
    const auto row = [&out](const QString &label, const QString &value) {
        out << label.leftJustified(14) << ' ' << value << '\n';
    };
    row(tr("Task"), task.name() + (task.title().isEmpty() ? QString() : u" ("_s + task.title() + u')'));
    // A torch task's ModelNew module is not compiled here (compiled.jobId 0): no compile note.
    row(tr("Candidate"),
        compiled.jobId == 0
            ? candidate
            : candidate + u"  ["_s + compiled.arch
                  + (compiled.cacheHit ? tr(", cached") : tr(", compiled in %1 s").arg(compiled.elapsedMs / 1000, 0, 'f', 1))
                  + u']');
    if (!device.isEmpty())
        row(tr("Worker"), r.workerName.isEmpty() ? device : r.workerName + u": "_s + device);
    row(tr("Verdict"), verdictDisplayName(r.verdict) + (r.message.isEmpty() ? QString() : u" — "_s + r.message));
    if (const std::optional<qint64> seed = Measurement(r).seed)
        row(tr("Seed"), tr("%1 (--seed %1 reproduces the inputs)").arg(*seed));
    if (!r.cudaError.isEmpty())
        row(tr("CUDA error"), r.cudaError);
    const Verification &v = r.verification;
    if (v.isValid()) {
        row(tr("Verification"), tr("%1 trials, max abs err %2, max rel err %3, %4 mismatches")
                                    .arg(v.trials)
                                    .arg(num(v.maxAbsErr), num(v.maxRelErr))
                                    .arg(v.mismatches));
        if (v.firstMismatch.isValid())
            row(QString(), tr("first mismatch: %1[%2] expected %3, got %4")
                               .arg(v.firstMismatch.output)
                               .arg(v.firstMismatch.index)
                               .arg(num(v.firstMismatch.expected, 8), num(v.firstMismatch.got, 8)));
        if (v.nanCount || v.infCount)
            row(QString(), tr("%1 NaN, %2 Inf").arg(v.nanCount).arg(v.infCount));
        if (v.inputMutated)
            row(QString(), tr("the candidate modified an input"));
        if (!v.outputDependsOnInputs)
            row(QString(), tr("warning: the output does not depend on the inputs"));
        if (!v.reason.isEmpty())
            row(QString(), v.reason);
    }
    if (r.hasTiming()) {
        out << '\n'
            // The event times of both sides in one unit, a column each (core/eval/measureformat.h names them).
            << u"%1 %2 %3 %4 %5 %6 %7 %8"_s.arg(tr("event time, ms"), -14)
                   .arg(tr("median"), 10)
                   .arg(tr("mean"), 10)
                   .arg(tr("min"), 10)
                   .arg(tr("p10"), 10)
                   .arg(tr("p90"), 10)
                   .arg(tr("CV"), 7)
                   .arg(tr("runs"), 7)
            << '\n';
        for (const auto &[label, t] : {std::pair{tr("reference"), r.reference}, std::pair{tr("candidate"), r.candidate}})
            out << u"%1 %2 %3 %4 %5 %6 %7 %8"_s.arg(label, -14)
                       .arg(ms(t.medianMs), 10)
                       .arg(ms(t.meanMs), 10)
                       .arg(ms(t.minMs), 10)
                       .arg(ms(t.p10Ms), 10)
                       .arg(ms(t.p90Ms), 10)
                       .arg(std::isfinite(t.cv) ? QString::number(t.cv * 100, 'f', 1) + u'%' : u"-"_s, 7)
                       .arg(t.runs, 7)
                << '\n';
        out << '\n';
        row(tr("Speedup"), std::isfinite(r.speedup) ? QString::number(r.speedup, 'f', 2) + u'x' : u"-"_s);
    }
    if (!r.flags.isEmpty())
        row(tr("Flags"), r.flags.join(u", "));
    const QList<TraceKernel> kernels = MeasurementFigures::of(Measurement(r)).kernels;
    if (!kernels.isEmpty()) {
        out << '\n' << tr("Candidate kernels (CUPTI)") << '\n';
        for (qsizetype i = 0; i < kernels.size() && i < 8; ++i) {
            const TraceKernel &k = kernels.at(i);
            out << u"  %1 %2 %3"_s.arg(kernelDisplayName(k.name, 60).left(60), -60)
                       .arg(tr("%1/run").arg(num(k.perRun.value_or(0))), 9)
                       .arg(tr("%1 µs").arg(num(k.medianUs.value_or(TimingStats::NaN), 4)), 12)
                << '\n';
        }
    }
    if (!compiled.resources.isEmpty()) {
        out << '\n' << tr("Kernel resources (ptxas)") << '\n';
        for (const KernelResources &k : compiled.resources)
            out << u"  %1 %2 %3 %4"_s.arg(kernelDisplayName(k.name, 60).left(60), -60)
                       .arg(tr("%1 regs").arg(k.registers), 9)
                       .arg(tr("%1 B smem").arg(k.sharedBytes), 12)
                       .arg(k.spills() ? tr("spills %1/%2 B").arg(k.spillStoreBytes).arg(k.spillLoadBytes) : QString())
                << '\n';
    }
    if (!r.stdoutText.isEmpty())
        out << '\n' << tr("Kernel output:") << '\n' << r.stdoutText << '\n';
    out << '\n';
    row(tr("Turnaround"), tr("%1 s").arg(r.elapsedMs / 1000, 0, 'f', 2));
}

// After several candidates: how many a minute over the wall time, and where each one's time went (its nvcc
// time, then from its compile coming back to its result: waiting for the worker and being evaluated).
void printBatchSummary(QTextStream &out, const EvaluationBatch &batch)
{
    out << '\n'
        << tr("%1 candidates in %2 s: %3 per minute, one worker")
               .arg(batch.size())
               .arg(batch.wallMs() / 1000, 0, 'f', 2)
               .arg(batch.perMinute(), 0, 'f', 1)
        << '\n';
    out << u"%1 %2 %3 %4 %5"_s.arg(tr("candidate"), -32)
               .arg(tr("verdict"), -14)
               .arg(tr("compile s"), 10)
               .arg(tr("worker s"), 10)
               .arg(tr("done at s"), 10)
        << '\n';
    for (int i = 0; i < batch.size(); ++i) {
        const EvaluationBatch::Item &item = batch.item(i);
        const std::optional<CompileResult> &c = item.evaluated.compiled;
        const QString compile = !c ? u"-"_s : c->cacheHit ? tr("cached") : QString::number(c->elapsedMs / 1000, 'f', 2);
        const QString worker = item.compiledAtMs < 0
                                   ? u"-"_s
                                   : QString::number((item.finishedAtMs - item.compiledAtMs) / 1000, 'f', 2);
        out << u"%1 %2 %3 %4 %5"_s.arg(item.request.candidateName.left(32), -32)
                   .arg(verdictDisplayName(item.evaluated.result.verdict).left(14), -14)
                   .arg(compile, 10)
                   .arg(worker, 10)
                   .arg(item.finishedAtMs / 1000, 10, 'f', 2)
            << '\n';
    }
}

// The candidate as `--session` records it: an imported variant, child of the reference, named after its file.
Variant importedVariant(const SessionStore &store, const QString &candidateName)
{
    Variant v;
    v.origin = VariantOrigin::Imported;
    v.label = QFileInfo(candidateName).completeBaseName();
    if (const Variant *reference = store.population().reference())
        v.parentIds = {reference->id};
    return v;
}

// The per-candidate JSON object (the whole output for one candidate, an element of the array for several): the
// evaluation as the session stores it (its Measurement document, EvaluationQueue::storedResult), plus the task, the
// candidate's path and the device it is stored with.
QJsonObject resultJson(const Task &task, const QString &candidatePath, const QueuedEvaluation &evaluated,
                       const QJsonObject &device)
{
    QJsonObject o = (evaluated.stored ? *evaluated.stored
                                      : EvaluationQueue::storedResult(evaluated.result, evaluated.compiled))
                        .toJson();
    o.insert(u"task"_s, task.name());
    o.insert(u"candidate"_s, QFileInfo(candidatePath).absoluteFilePath());
    if (!device.isEmpty())
        o.insert(u"device"_s, device);
    return o;
}

// Until the workers have said whether they can evaluate (a recording waits for it: nothing is added to a session
// that could only fail, as the editor adds nothing then).
void waitForReadiness(Workbench &workbench)
{
    if (workbench.readiness().state() != WorkerReadiness::State::Starting)
        return;
    QEventLoop wait;
    QObject::connect(&workbench, &Workbench::readinessChanged, &wait, [&wait](const WorkerReadiness &r) {
        if (r.state() != WorkerReadiness::State::Starting)
            wait.quit();
    });
    wait.exec();
}

// The task folder (its warnings on err) and the candidates' sources; false, with the message on err, when either is
// missing or cannot be read.
bool loadInputs(const QStringList &positional, std::optional<Task> &task, QStringList &sources, QTextStream &err)
{
    if (positional.size() < 2) {
        err << tr("kforge-cli eval: expected a task folder and one or more candidate sources; see --help") << '\n';
        return false;
    }
    const TaskLoadResult loaded = Task::load(positional.at(0));
    if (!loaded.ok()) {
        err << loaded.error.message() << '\n';
        return false;
    }
    task = *loaded.task;
    for (const QString &w : task->warnings())
        err << tr("warning: %1").arg(w) << '\n';
    for (const QString &path : positional.mid(1)) {
        QFile candidateFile(path);
        if (!candidateFile.open(QIODevice::ReadOnly)) {
            err << tr("Cannot read the candidate %1: %2").arg(path, candidateFile.errorString()) << '\n';
            return false;
        }
        sources << QString::fromUtf8(candidateFile.readAll());
    }
    return true;
}

// What the command line asks for; --help and an unknown option end the process here (QCommandLineParser::process).
// The inputs are checked as they are read (loadInputs, openSession, parseSeed), in that order.
struct EvalArgs {
    QStringList positional; // the task folder, then the candidates
    QString worker, arch, sessionPath;
    std::optional<QString> seed; // --seed as given
    bool json = false;
    bool metrics = true;
};

EvalArgs parseEvalArgs(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("Compiles the task's reference and the candidates, verifies each candidate against the reference on a "
           "GPU worker and times both. Several candidates share one warm worker; their compiles run in parallel "
           "(one per core) while the ones already compiled are evaluated.\n\nExit status: 0 every candidate is "
           "correct; 1 one is not (incorrect, crashed, timed out, does not compile or load); 2 bad input; 3 no "
           "verdict (no worker or no GPU) and none was found not correct."));
    parser.addHelpOption();
    parser.addPositionalArgument(u"task-folder"_s, tr("A task folder (task.json + reference.cu)."));
    parser.addPositionalArgument(u"candidate.cu"_s, tr("The candidate kernel sources (one or more)."),
                                 u"candidate.cu [candidate.cu...]"_s);
    const QCommandLineOption jsonOption(u"json"_s,
                                        tr("Print the result as JSON (an array of results for several candidates)."));
    const QCommandLineOption workerOption(
        u"worker"_s, tr("The worker command (default: the first worker in Settings, 'kforge-worker --device 0')."),
        tr("command"));
    const QCommandLineOption archOption(u"arch"_s, tr("Compile for this GPU architecture (default: the worker's)."),
                                        tr("sm_XY"));
    const QCommandLineOption noMetricsOption(u"no-metrics"_s, tr("Skip the hardware metrics pass (faster)."));
    const QCommandLineOption seedOption(u"seed"_s,
                                        tr("Generate the inputs from this evaluation seed (0 to 9223372036854775807) instead of a fresh one, "
                                           "to reproduce an evaluation: every result prints the seed it used."),
                                        tr("seed"));
    const QCommandLineOption sessionOption(
        u"session"_s,
        tr("Also record the candidates and their evaluations as variants of this session (created for the task "
           "when the file does not exist), e.g. to export one with 'kforge-cli export'."),
        tr("file.kforge"));
    parser.addOptions({jsonOption, workerOption, archOption, noMetricsOption, seedOption, sessionOption});
    parser.process(args);

    EvalArgs a;
    a.positional = parser.positionalArguments();
    a.worker = parser.value(workerOption);
    a.arch = parser.value(archOption);
    a.sessionPath = parser.value(sessionOption);
    if (parser.isSet(seedOption))
        a.seed = parser.value(seedOption);
    a.json = parser.isSet(jsonOption);
    a.metrics = !parser.isSet(noMetricsOption);
    return a;
}

// An existing session must be for this task; a new one is only created once there is something to record. False,
// with the message on err, when the one given cannot be used.
bool openSession(SessionStore &store, const QString &sessionPath, const Task &task, QTextStream &err)
{
    if (sessionPath.isEmpty() || !QFileInfo::exists(sessionPath))
        return true;
    if (!store.open(sessionPath)) {
        err << tr("kforge-cli eval: cannot open the session %1: %2").arg(sessionPath, store.errorString()) << '\n';
        return false;
    }
    if (store.task().name != task.name()) {
        err << tr("kforge-cli eval: the session %1 is for the task '%2', not '%3'")
                   .arg(sessionPath, store.task().name, task.name())
            << '\n';
        return false;
    }
    return true;
}

// --seed into `seed`; false, with the message on err, when it is not one.
bool parseSeed(const EvalArgs &a, std::optional<qint64> &seed, QTextStream &err)
{
    if (!a.seed)
        return true;
    bool ok = false;
    const qint64 s = a.seed->toLongLong(&ok);
    if (!ok || s < 0) {
        err << tr("kforge-cli eval: --seed expects an integer from 0 to 9223372036854775807, not '%1'").arg(*a.seed)
            << '\n';
        return false;
    }
    seed = s;
    return true;
}

// One request per candidate, with the queue's default options and the command line's.
QList<EvalRequest> evalRequests(const Task &task, const QStringList &sources, const EvalArgs &a,
                                std::optional<qint64> seed, const EvalOptions &defaults)
{
    QList<EvalRequest> requests;
    for (qsizetype i = 0; i < sources.size(); ++i) {
        EvalRequest request;
        request.task = task;
        request.candidateSource = sources.at(i);
        request.candidateName = QFileInfo(a.positional.at(i + 1)).fileName();
        request.options = defaults;
        request.options.metrics = a.metrics;
        request.options.seed = seed;
        request.arch = a.arch;
        requests << request;
    }
    return requests;
}

// --session: whether the candidates are recorded, the session created once the worker can evaluate at all; empty,
// with the message on err, when it cannot be created.
std::optional<bool> startRecording(Workbench &workbench, SessionStore &store, const EvalArgs &a, QTextStream &err)
{
    if (a.sessionPath.isEmpty())
        return false;
    waitForReadiness(workbench);
    const bool recording = workbench.queue()->cannotEvaluate().isEmpty();
    if (recording && !store.isOpen() && !store.create(a.sessionPath, a.positional.at(0))) {
        err << tr("kforge-cli eval: cannot create the session %1: %2").arg(a.sessionPath, store.errorString()) << '\n';
        return std::nullopt;
    }
    return recording;
}

// What is printed of the candidates, in the order given, as their results arrive, and what they came to.
struct EvalReport {
    const Task &task;
    const EvalArgs &args;
    const EvaluationQueue &queue;
    const WorkerPool &pool;
    bool recording = false;
    bool several = false;
    QJsonArray results; // --json: printed at the end
    int printed = 0;    // candidates printed so far
    int notCorrect = 0; // judged and not correct
    int noVerdict = 0;  // no verdict (no worker, no GPU, cancelled)
    int recordFailures = 0;

    QString candidatePath(int i) const { return args.positional.at(i + 1); }
    QString label(int i) const { return several ? candidatePath(i) + u": "_s : QString(); }
};

// The candidate `i` of the batch, finished: its JSON kept, or its table (or its one-line failure) printed; counted;
// and, with --session, whether it was recorded.
void reportCandidate(EvalReport &report, const EvaluationBatch::Item &item, int i, QTextStream &out, QTextStream &err)
{
    const EvalArgs &a = report.args;
    const QueuedEvaluation &evaluated = item.evaluated;
    const EvalResult &result = evaluated.result;
    if (a.json) {
        const QJsonObject device = !result.deviceName.isEmpty()       ? report.queue.deviceOf(result)
                                   : report.pool.device(0).isValid() ? report.pool.device(0).toJson()
                                                                     : QJsonObject();
        report.results.append(resultJson(report.task, report.candidatePath(i), evaluated, device));
    } else if (result.verdict == Verdict::CompileError) {
        // The diagnostics are printed above; the first line of the message is the summary.
        err << report.label(i) << verdictDisplayName(result.verdict) << u": "_s << result.message.section(u'\n', 0, 0)
            << '\n';
    } else if (result.verdict == Verdict::Error) {
        err << report.label(i) << verdictDisplayName(result.verdict) << u": "_s << result.message << '\n';
    } else {
        if (i > 0)
            out << '\n';
        printTable(out, report.task, item.request.candidateName, evaluated.compiled.value_or(CompileResult{}), result,
                   report.pool.device(0).name);
        out.flush();
    }
    if (result.verdict == Verdict::Error)
        ++report.noVerdict;
    else if (result.verdict != Verdict::Correct)
        ++report.notCorrect;
    if (report.recording && evaluated.variantId) {
        err << tr("Recorded as variant %1 in %2").arg(evaluated.variantId).arg(a.sessionPath) << '\n';
    } else if (report.recording) {
        err << tr("kforge-cli eval: cannot record the evaluation in %1: %2").arg(a.sessionPath, result.message) << '\n';
        ++report.recordFailures;
    } else if (!a.sessionPath.isEmpty()) {
        err << (report.several ? tr("Not recorded in %1: %2 got no verdict.").arg(a.sessionPath, item.request.candidateName)
                               : tr("Not recorded in %1: the candidate got no verdict.").arg(a.sessionPath))
            << '\n';
    }
}

// "candidate.cu: correct, 36.30x measured in 1.2 s; running precision, trace, metrics".
QString provisionalLine(const QString &candidate, const EvalResult &r)
{
    const QString seconds = QString::number((std::isfinite(r.elapsedMs) ? r.elapsedMs : 0) / 1000, 'f', 1);
    const QString passes = pendingPassesText(r.pending);
    if (std::isfinite(r.speedup))
        return tr("%1: %2, %3x measured in %4 s; running %5")
            .arg(candidate, verdictDisplayName(r.verdict), QString::number(r.speedup, 'f', 2), seconds, passes);
    return tr("%1: %2 measured in %3 s; running %4").arg(candidate, verdictDisplayName(r.verdict), seconds, passes);
}

// The batch run to its end: the stages and compiler diagnostics on err as they come, each candidate reported once
// it and those before it are done. Recording, each candidate becomes a variant first and is then evaluated, as the
// editor's Ctrl+Enter does it.
void evaluate(EvaluationBatch &batch, const QList<EvalRequest> &requests, EvaluationQueue &queue,
              const SessionStore &store, EvalReport &report, QTextStream &out, QTextStream &err)
{
    QEventLoop loop;
    QObject::connect(&batch, &EvaluationBatch::progress, &loop, [&](int i, const QString &stage) {
        if (!report.args.json)
            err << tr("… %1").arg(report.label(i) + stage) << '\n' << Qt::flush;
    });
    // The verdict and speedup as soon as the worker has them, ahead of its last passes (the final table follows).
    QObject::connect(&batch, &EvaluationBatch::provisional, &loop, [&](int i, const EvalResult &r) {
        if (!report.args.json)
            err << provisionalLine(report.candidatePath(i), r) << '\n' << Qt::flush;
    });
    QObject::connect(&batch, &EvaluationBatch::compiled, &loop, [&](int, const CompileResult &c) {
        printDiagnostics(err, c);
        err.flush();
    });
    QObject::connect(&batch, &EvaluationBatch::candidateFinished, &loop, [&](int, const QueuedEvaluation &) {
        while (report.printed < batch.size() && batch.item(report.printed).done) {
            const int i = report.printed++;
            reportCandidate(report, batch.item(i), i, out, err);
        }
    });
    QObject::connect(&batch, &EvaluationBatch::finished, &loop, &QEventLoop::quit);
    if (report.recording)
        batch.start(requests, [&](const EvalRequest &request) {
            return queue.addVariant(importedVariant(store, request.candidateName), request);
        });
    else
        batch.start(requests);
    if (!batch.isFinished())
        loop.exec();
}

// What the candidates came to: a record that failed, then one not correct, then one without a verdict decide.
int exitStatus(const EvalReport &report, const EvaluationBatch &batch)
{
    if (report.recordFailures)
        return kBadInput;
    if (report.notCorrect)
        return kNotCorrect;
    if (report.noVerdict) {
        // A cancelled evaluation was judged by nobody but is no missing worker either.
        for (int i = 0; i < batch.size(); ++i)
            if (batch.item(i).evaluated.result.verdict == Verdict::Error && !batch.item(i).evaluated.cancelled())
                return kNoVerdict;
        return kNotCorrect;
    }
    return kCorrect;
}

// Parse → the task, the candidates and the session → the compiler, the GPU worker and the one evaluation queue, as
// the workbench sets them up for the GUI (one worker serves every candidate) → evaluate, each candidate printed as it
// finishes → the JSON or the batch summary, and the exit status.
int runEval(const QStringList &args)
{
    const EvalArgs a = parseEvalArgs(args);
    QTextStream out(stdout);
    QTextStream err(stderr);
    std::optional<Task> task;
    QStringList candidateSources;
    if (!loadInputs(a.positional, task, candidateSources, err))
        return kBadInput;
    SessionStore store;
    std::optional<qint64> seed;
    if (!openSession(store, a.sessionPath, *task, err) || !parseSeed(a, seed, err))
        return kBadInput;

    Settings settings;
    LogHub log;
    echoWorkerLines(log, err);
    Workbench workbench(settings, log);
    workbench.useEvaluation(a.worker);
    workbench.useQueue(&store);
    EvaluationQueue &queue = *workbench.queue();
    const QList<EvalRequest> requests = evalRequests(*task, candidateSources, a, seed, queue.defaultOptions());
    const std::optional<bool> recording = startRecording(workbench, store, a, err);
    if (!recording)
        return kBadInput;

    EvalReport report{.task = *task, .args = a, .queue = queue, .pool = *workbench.pool(), .recording = *recording,
                      .several = a.positional.size() > 2};
    EvaluationBatch batch(&queue);
    evaluate(batch, requests, queue, store, report, out, err);
    if (a.json)
        out << (report.several ? QJsonDocument(report.results) : QJsonDocument(report.results.at(0).toObject()))
                   .toJson(QJsonDocument::Indented);
    else if (report.several)
        printBatchSummary(out, batch);
    return exitStatus(report, batch);
}

} // namespace

KFORGE_REGISTER_COMMAND(eval, QStringLiteral("eval"),
                        QCoreApplication::translate("kforge-cli",
                                                    "Compile, verify and time a candidate kernel against its task's reference"),
                        &runEval)

} // namespace kforge::cli
