// kforge-cli import: PyTorch problems in KernelBench's format (class Model, module-level size constants,
// get_inputs(), get_init_inputs()) made into task folders: <out>/<name>/reference.py as given and a task.json
// ("kind": "torch") that resources/torch/kforge_torch_discover.py writes by running the module once on meta
// tensors, where python3 has torch (docs/torch-tasks.md). One python process discovers them, each problem in a
// forked child of its own with a timeout, several at once; one progress line per problem as each finishes, then
// a summary of what could not be imported and why.
#include "command.h"

#include "core/task/torchimport.h"
#include "core/task/torchimportbatch.h"
#include "core/version.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QTextStream>
#include <QThread>
#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace kforge::cli {

namespace {

const QString kScriptName = QString::fromLatin1(torchimport::scriptName);

struct Failure {
    QString file;
    QString step; // the script's step (import, lookup, construct, get_inputs, forward, output, repeat, ...)
    QString cause;
};

// What the command line asks for, checked.
struct ImportArgs {
    QStringList paths; // problem files and folders
    QString outDir;
    std::optional<QString> python;
    double timeoutS = 120;
    int jobs = 1;
};

// The problems found and what imports them: the discovery script and a python with torch.
struct ImportJob {
    QStringList files;     // as named or found
    QStringList absolutes; // the same, absolute: what the script gets and answers with
    QString outDir, script, python, torchVersion;
    double timeoutS = 120;
    int jobs = 1; // at most one per file
};

// What the import came to so far, a problem's result at a time.
struct ImportTally {
    QList<Failure> failures;
    QMap<QString, QString> names; // task name -> the file it came from
    int done = 0;
    bool strictF32 = false; // an imported task judges f32 outputs more strictly than KernelBench
};

struct ImportCommand {
    Q_DECLARE_TR_FUNCTIONS(kforge::cli::ImportCommand)

public:
    static int run(const QStringList &args);
    // The problem files named: files as given; a folder's *.py and those of its subfolders (a KernelBench
    // checkout's level1/, level2/ ...; hidden folders and __pycache__ left out), sorted by path.
    static QStringList problemFiles(const QStringList &paths, QStringList &missing);

private:
    static std::optional<ImportArgs> parse(const QStringList &args, QString *error);
    static int prepare(const ImportArgs &a, ImportJob &job, QTextStream &err);
    static void problemDone(const ImportJob &job, ImportTally &tally, const TorchDiscovery &result, QTextStream &out);
    static void printImported(QTextStream &out, const QString &prefix, const TorchDiscovery &result);
    static void printSummary(QTextStream &out, const ImportJob &job, const ImportTally &tally, double seconds);
};

QStringList ImportCommand::problemFiles(const QStringList &paths, QStringList &missing)
{
    QStringList files;
    for (const QString &path : paths) {
        const QFileInfo fi(path);
        if (fi.isDir()) {
            const QDir dir(path);
            QStringList found;
            QDirIterator it(path, {u"*.py"_s}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString file = it.next();
                const QString relative = dir.relativeFilePath(file);
                const QStringList parts = relative.split(u'/');
                if (std::none_of(parts.begin(), parts.end() - 1, [](const QString &part) {
                        return part.startsWith(u'.') || part == u"__pycache__";
                    }))
                    found << dir.filePath(relative);
            }
            found.sort();
            files << found;
        } else if (fi.isFile()) {
            files << path;
        } else {
            missing << path;
        }
    }
    return files;
}

// The command line, checked; --help and an unknown option end the process here (QCommandLineParser::process).
// Empty with `error` set, the whole line to print, when it does not hold up.
std::optional<ImportArgs> ImportCommand::parse(const QStringList &args, QString *error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("Import PyTorch problems in KernelBench's format (class Model, size constants, get_inputs(), "
           "get_init_inputs()) as task folders: reference.py as given and a task.json found by running the module "
           "once on meta tensors, where python3 has torch (a CPU is enough)."));
    parser.addHelpOption();
    parser.addPositionalArgument(u"problems"_s, tr("Problem files (*.py), or folders of them (their subfolders too)."), tr("problem.py|folder..."));
    const QCommandLineOption outOpt(u"out"_s, tr("Write one task folder per problem under DIR (default: .)."),
                                    tr("DIR"), u"."_s);
    const QCommandLineOption pythonOpt(
        u"python"_s, tr("The python3 that has torch (default: $KFORGE_TORCH_PYTHON, python3, then /usr/bin/python3)."),
        tr("PATH"));
    const QCommandLineOption timeoutOpt(u"timeout"_s, tr("Give up on a problem after S seconds (default: 120)."),
                                        tr("S"), u"120"_s);
    const QCommandLineOption jobsOpt(u"jobs"_s, tr("Discover N problems at once (default: the cores, at most 4)."), tr("N"));
    parser.addOptions({outOpt, pythonOpt, timeoutOpt, jobsOpt});
    parser.process(args);

    ImportArgs a;
    a.paths = parser.positionalArguments();
    if (a.paths.isEmpty()) {
        *error = tr("Usage: kforge-cli import <problem.py|folder>... [--out DIR] [--python PATH]");
        return std::nullopt;
    }
    bool ok = false;
    a.timeoutS = parser.value(timeoutOpt).toDouble(&ok);
    if (!ok || a.timeoutS <= 0) {
        *error = tr("kforge-cli import: --timeout needs a positive number of seconds");
        return std::nullopt;
    }
    a.jobs = std::clamp(QThread::idealThreadCount(), 1, 4);
    if (parser.isSet(jobsOpt)) {
        a.jobs = parser.value(jobsOpt).toInt(&ok);
        if (!ok || a.jobs < 1) {
            *error = tr("kforge-cli import: --jobs needs a positive number");
            return std::nullopt;
        }
    }
    a.outDir = parser.value(outOpt);
    if (parser.isSet(pythonOpt))
        a.python = parser.value(pythonOpt);
    return a;
}

// The problem files found, the discovery script, a python with torch and the output folder made; 0 when all are
// there, else the exit status (2: a path named does not exist; 1: no problem, no script, no torch, no folder) with
// the message on err.
int ImportCommand::prepare(const ImportArgs &a, ImportJob &job, QTextStream &err)
{
    QStringList missing;
    job.files = problemFiles(a.paths, missing);
    for (const QString &m : std::as_const(missing))
        err << tr("kforge-cli import: no such file or folder: %1").arg(m) << '\n';
    if (!missing.isEmpty())
        return 2;
    if (job.files.isEmpty()) {
        err << tr("kforge-cli import: no *.py problem file in %1").arg(a.paths.join(u", "_s)) << '\n';
        return 1;
    }
    job.script = torchimport::discoverScript();
    if (job.script.isEmpty()) {
        err << tr("kforge-cli import: cannot find %1 (installed in share/kforge/torch)").arg(kScriptName) << '\n';
        return 1;
    }
    QString why;
    job.python = torchimport::findPython(a.python ? QStringList{*a.python} : torchimport::defaultPythons(),
                                         job.torchVersion, why);
    if (job.python.isEmpty()) {
        err << tr("kforge-cli import: no python3 with torch (%1); install torch (Debian: python3-torch) or name "
                  "one with --python")
                   .arg(why)
            << '\n';
        return 1;
    }
    job.jobs = int(std::min<qsizetype>(a.jobs, job.files.size()));
    job.timeoutS = a.timeoutS;
    for (const QString &f : std::as_const(job.files))
        job.absolutes << QFileInfo(f).absoluteFilePath();
    job.outDir = a.outDir;
    if (!QDir().mkpath(job.outDir)) {
        err << tr("kforge-cli import: cannot create %1").arg(job.outDir) << '\n';
        return 1;
    }
    return 0;
}

// One result line of the script (torchimport::parseResultLine): the task folder written, or the step that failed;
// a progress line either way.
void ImportCommand::problemDone(const ImportJob &job, ImportTally &tally, const TorchDiscovery &result, QTextStream &out)
{
    const qsizetype index = job.absolutes.indexOf(result.file);
    const QString file = index >= 0 ? job.files[index] : result.file;
    ++tally.done;
    const QString prefix = u"[%1/%2] %3: "_s.arg(tally.done).arg(job.files.size()).arg(QFileInfo(file).fileName());
    const auto fail = [&](const QString &step, const QString &cause) {
        tally.failures.append({file, step, cause});
        out << prefix << tr("not imported: %1: %2").arg(step, cause) << '\n';
    };
    const QJsonObject &task = result.task;
    const QString name = task.value(u"name"_s).toString();
    TorchImportError writeError;
    if (!result.ok()) {
        fail(result.error.step, result.error.cause);
    } else if (tally.names.contains(name)) {
        fail(u"write"_s, tr("task name '%1' is also that of %2").arg(name, tally.names.value(name)));
    } else if (torchimport::writeTaskFolder(file, result, job.outDir, writeError).isEmpty()) {
        fail(writeError.step, writeError.cause);
    } else {
        tally.names.insert(name, file);
        printImported(out, prefix, result);
        const QJsonObject f32 = task.value(u"tolerance"_s).toObject().value(u"f32"_s).toObject();
        if (!f32.isEmpty())
            tally.strictF32 = f32.value(u"atol"_s).toDouble() < 1e-2 || f32.value(u"rtol"_s).toDouble() < 1e-2;
    }
    out.flush();
}

// "[3/20] 2_ReLU.py: imported as ..." with the task's inputs, outputs and flops.
void ImportCommand::printImported(QTextStream &out, const QString &prefix, const TorchDiscovery &result)
{
    const QJsonObject &task = result.task;
    const QJsonValue flops = task.value(u"flops"_s);
    const QString flopsText = flops.isString()   ? flops.toString()
                              : flops.isDouble() ? QString::number(flops.toDouble(), 'g', 6)
                                                 : tr("unknown");
    out << prefix
        << tr("imported as %1 (%2 inputs, %3 outputs, flops %4, %5 s)")
               .arg(task.value(u"name"_s).toString())
               .arg(task.value(u"inputs"_s).toArray().size())
               .arg(task.value(u"outputs"_s).toArray().size())
               .arg(flopsText)
               .arg(result.seconds, 0, 'f', 1);
    if (task.value(u"degenerate"_s).toBool())
        out << ' ' << tr("[degenerate: the output does not depend on the inputs]");
    out << '\n';
    if (flops.isNull())
        out << u"    "_s << tr("flops: %1").arg(task.value(u"derived"_s).toObject().value(u"flops"_s).toString()) << '\n';
}

// How many were imported, the tolerance note, and what could not be imported and why.
void ImportCommand::printSummary(QTextStream &out, const ImportJob &job, const ImportTally &tally, double seconds)
{
    out << tr("Imported %1 of %2 problem(s) into %3 in %4 s.")
               .arg(job.files.size() - tally.failures.size())
               .arg(job.files.size())
               .arg(QDir::cleanPath(job.outDir))
               .arg(seconds, 0, 'f', 1)
        << '\n';
    if (tally.strictF32)
        out << tr("Tolerance: f32 outputs are compared with atol = rtol = 1e-4 (the import's default; f16 1e-2, bf16 "
                  "2e-2), stricter than KernelBench's 1e-2 for every dtype. Set \"tolerance\" in a task.json to judge "
                  "as KernelBench does (docs/torch-tasks.md).")
            << '\n';
    if (!tally.failures.isEmpty()) {
        out << tr("Not imported (%1):").arg(tally.failures.size()) << '\n';
        for (const Failure &f : std::as_const(tally.failures))
            out << u"  %1: %2: %3"_s.arg(f.file, f.step, f.cause) << '\n';
    }
}

// Parse → find the problems and a python with torch → discover them: one python process, torch imported once, one
// forked child per problem (isolated, killed past the timeout), `jobs` at a time, a line per problem as each
// finishes → print the summary.
int ImportCommand::run(const QStringList &args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QString error;
    const std::optional<ImportArgs> a = parse(args, &error);
    if (!a) {
        err << error << '\n';
        return 2;
    }
    ImportJob job;
    if (const int status = prepare(*a, job, err))
        return status;
    out << tr("Importing %1 problem(s) with %2 (torch %3), %4 at a time, into %5")
               .arg(job.files.size())
               .arg(job.python, job.torchVersion)
               .arg(job.jobs)
               .arg(QDir::cleanPath(job.outDir))
        << '\n';
    out.flush();

    QElapsedTimer total;
    total.start();
    ImportTally tally;
    TorchImportBatch batch;
    QEventLoop loop;
    QObject::connect(&batch, &TorchImportBatch::problemDone, &loop,
                     [&](const TorchDiscovery &result) { problemDone(job, tally, result, out); });
    QObject::connect(&batch, &TorchImportBatch::finished, &loop, &QEventLoop::quit);
    batch.start(job.python, job.script, job.absolutes, job.jobs, job.timeoutS);
    loop.exec();

    printSummary(out, job, tally, total.elapsed() / 1000.0);
    return tally.failures.isEmpty() ? 0 : 1;
}

} // namespace

KFORGE_REGISTER_COMMAND(import, u"import"_s,
                        QCoreApplication::translate("kforge-cli",
                                                    "Import PyTorch problems (KernelBench format) as task folders"),
                        ImportCommand::run)

} // namespace kforge::cli
