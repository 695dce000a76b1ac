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

using namespace Qt::StringLiterals;

namespace kforge::cli {

namespace {

const QString kScriptName = QString::fromLatin1(torchimport::scriptName);

struct Failure {
    QString file;
    QString step; // the script's step (import, lookup, construct, get_inputs, forward, output, repeat, ...)
    QString cause;
};

struct ImportCommand {
    Q_DECLARE_TR_FUNCTIONS(kforge::cli::ImportCommand)

public:
    static int run(const QStringList &args);
    // The problem files named: files as given; a folder's *.py and those of its subfolders (a KernelBench
    // checkout's level1/, level2/ ...; hidden folders and __pycache__ left out), sorted by path.
    static QStringList problemFiles(const QStringList &paths, QStringList &missing);
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

int ImportCommand::run(const QStringList &args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
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

    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty()) {
        err << tr("Usage: kforge-cli import <problem.py|folder>... [--out DIR] [--python PATH]") << '\n';
        return 2;
    }
    bool ok = false;
    const double timeoutS = parser.value(timeoutOpt).toDouble(&ok);
    if (!ok || timeoutS <= 0) {
        err << tr("kforge-cli import: --timeout needs a positive number of seconds") << '\n';
        return 2;
    }
    int jobs = std::clamp(QThread::idealThreadCount(), 1, 4);
    if (parser.isSet(jobsOpt)) {
        jobs = parser.value(jobsOpt).toInt(&ok);
        if (!ok || jobs < 1) {
            err << tr("kforge-cli import: --jobs needs a positive number") << '\n';
            return 2;
        }
    }
    QStringList missing;
    const QStringList files = problemFiles(positional, missing);
    for (const QString &m : std::as_const(missing))
        err << tr("kforge-cli import: no such file or folder: %1").arg(m) << '\n';
    if (!missing.isEmpty())
        return 2;
    if (files.isEmpty()) {
        err << tr("kforge-cli import: no *.py problem file in %1").arg(positional.join(u", "_s)) << '\n';
        return 1;
    }
    const QString script = torchimport::discoverScript();
    if (script.isEmpty()) {
        err << tr("kforge-cli import: cannot find %1 (installed in share/kforge/torch)").arg(kScriptName) << '\n';
        return 1;
    }
    const QStringList candidates = parser.isSet(pythonOpt) ? QStringList{parser.value(pythonOpt)}
                                                           : torchimport::defaultPythons();
    QString torchVersion, why;
    const QString python = torchimport::findPython(candidates, torchVersion, why);
    if (python.isEmpty()) {
        err << tr("kforge-cli import: no python3 with torch (%1); install torch (Debian: python3-torch) or name "
                  "one with --python")
                   .arg(why)
            << '\n';
        return 1;
    }
    jobs = int(std::min<qsizetype>(jobs, files.size()));
    QStringList absolutes;
    for (const QString &f : files)
        absolutes << QFileInfo(f).absoluteFilePath();
    const QString outDir = parser.value(outOpt);
    if (!QDir().mkpath(outDir)) {
        err << tr("kforge-cli import: cannot create %1").arg(outDir) << '\n';
        return 1;
    }
    out << tr("Importing %1 problem(s) with %2 (torch %3), %4 at a time, into %5")
               .arg(files.size())
               .arg(python, torchVersion)
               .arg(jobs)
               .arg(QDir::cleanPath(outDir))
        << '\n';
    out.flush();

    QElapsedTimer total;
    total.start();
    QList<Failure> failures;
    QMap<QString, QString> names; // task name -> the file it came from
    int done = 0;
    bool strictF32 = false; // an imported task judges f32 outputs more strictly than KernelBench

    // One result line of the script (torchimport::parseResultLine): the task or the step that failed.
    const auto finish = [&](const TorchDiscovery &result) {
        const qsizetype index = absolutes.indexOf(result.file);
        const QString file = index >= 0 ? files[index] : result.file;
        ++done;
        const QString prefix = u"[%1/%2] %3: "_s.arg(done).arg(files.size()).arg(QFileInfo(file).fileName());
        const auto fail = [&](const QString &step, const QString &cause) {
            failures.append({file, step, cause});
            out << prefix << tr("not imported: %1: %2").arg(step, cause) << '\n';
        };
        const QJsonObject &task = result.task;
        const QString name = task.value(u"name"_s).toString();
        TorchImportError writeError;
        if (!result.ok()) {
            fail(result.error.step, result.error.cause);
        } else if (names.contains(name)) {
            fail(u"write"_s, tr("task name '%1' is also that of %2").arg(name, names.value(name)));
        } else if (torchimport::writeTaskFolder(file, result, outDir, writeError).isEmpty()) {
            fail(writeError.step, writeError.cause);
        } else {
            names.insert(name, file);
            const QJsonValue flops = task.value(u"flops"_s);
            const QString flopsText = flops.isString()   ? flops.toString()
                                      : flops.isDouble() ? QString::number(flops.toDouble(), 'g', 6)
                                                         : tr("unknown");
            out << prefix
                << tr("imported as %1 (%2 inputs, %3 outputs, flops %4, %5 s)")
                       .arg(name)
                       .arg(task.value(u"inputs"_s).toArray().size())
                       .arg(task.value(u"outputs"_s).toArray().size())
                       .arg(flopsText)
                       .arg(result.seconds, 0, 'f', 1);
            if (task.value(u"degenerate"_s).toBool())
                out << ' ' << tr("[degenerate: the output does not depend on the inputs]");
            out << '\n';
            if (flops.isNull())
                out << u"    "_s
                    << tr("flops: %1").arg(task.value(u"derived"_s).toObject().value(u"flops"_s).toString()) << '\n';
            const QJsonObject f32 = task.value(u"tolerance"_s).toObject().value(u"f32"_s).toObject();
            if (!f32.isEmpty())
                strictF32 = f32.value(u"atol"_s).toDouble() < 1e-2 || f32.value(u"rtol"_s).toDouble() < 1e-2;
        }
        out.flush();
    };

    // One python process: torch imported once, one forked child per problem (isolated, killed past the
    // timeout), `jobs` at a time; a result line per problem as each finishes.
    TorchImportBatch batch;
    QEventLoop loop;
    QObject::connect(&batch, &TorchImportBatch::problemDone, &loop, finish);
    QObject::connect(&batch, &TorchImportBatch::finished, &loop, &QEventLoop::quit);
    batch.start(python, script, absolutes, jobs, timeoutS);
    loop.exec();

    out << tr("Imported %1 of %2 problem(s) into %3 in %4 s.")
               .arg(files.size() - failures.size())
               .arg(files.size())
               .arg(QDir::cleanPath(outDir))
               .arg(total.elapsed() / 1000.0, 0, 'f', 1)
        << '\n';
    if (strictF32)
        out << tr("Tolerance: f32 outputs are compared with atol = rtol = 1e-4 (the import's default; f16 1e-2, bf16 "
                  "2e-2), stricter than KernelBench's 1e-2 for every dtype. Set \"tolerance\" in a task.json to judge "
                  "as KernelBench does (docs/torch-tasks.md).")
            << '\n';
    if (!failures.isEmpty()) {
        out << tr("Not imported (%1):").arg(failures.size()) << '\n';
        for (const Failure &f : std::as_const(failures))
            out << u"  %1: %2: %3"_s.arg(f.file, f.step, f.cause) << '\n';
    }
    return failures.isEmpty() ? 0 : 1;
}

} // namespace

KFORGE_REGISTER_COMMAND(import, u"import"_s,
                        QCoreApplication::translate("kforge-cli",
                                                    "Import PyTorch problems (KernelBench format) as task folders"),
                        ImportCommand::run)

} // namespace kforge::cli
