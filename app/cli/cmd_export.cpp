// kforge-cli export: writes a variant of a session out as a CMake project, a PyTorch extension (a PyTorch task's
// variant: a ModelNew module, calling the .cu kernel as an extension, with a test and a benchmark), or into an existing
// CMake project. Refuses to overwrite anything that differs unless --force.
#include "command.h"

#include "core/export/cmakeexporter.h"
#include "core/export/exportcontext.h"
#include "core/export/exporter.h"
#include "core/export/exportplan.h"
#include "core/export/sessionexportsource.h"
#include "core/session/sessionstore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTextStream>
#include <optional>

using namespace Qt::StringLiterals;

namespace kforge::cli {

namespace {

// What the command line asks for, checked.
struct ExportArgs {
    QString sessionPath, variant, outDir;
    std::optional<kforge::ExportFormat> format; // --format; without it cmake, or torch for a torch task's variant
    std::optional<QString> subdir, licenseFile;
    bool force = false;
    bool dryRun = false;
};

struct ExportCommand {
    Q_DECLARE_TR_FUNCTIONS(kforge::cli::ExportCommand)

public:
    static int run(const QStringList &args);

private:
    static std::optional<ExportArgs> parse(const QStringList &args, QString *error);
    static std::optional<kforge::ExportInput> readVariant(kforge::SessionStore &store, const ExportArgs &a,
                                                          qint64 *variantId, QString *error);
    static bool readOptions(const ExportArgs &a, const kforge::ExportContext &ctx, kforge::ExportOptions &options,
                            QString &hostCMakeLists, QString *error);
    static void printPlan(QTextStream &out, const kforge::ExportPlan &plan, qint64 variantId, const QString &task,
                          kforge::ExportFormat format);
    static void printConflicts(QTextStream &err, const kforge::ExportPlan &plan);
    static void printWritten(QTextStream &out, const kforge::ExportPlan &plan, const kforge::ExportContext &ctx,
                             const kforge::ExportOptions &options, const QString &outDir, const QString &hostCMakeLists);
};

// The command line, checked; --help and an unknown option end the process here (QCommandLineParser::process).
// Empty with `error` set, the whole line to print, when it does not hold up.
std::optional<ExportArgs> ExportCommand::parse(const QStringList &args, QString *error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("Export a variant of a session: a standalone CMake CUDA library (cmake), a PyTorch extension (torch), or "
           "files added to an existing CMake project (into). A variant of a PyTorch task exports as torch: a ModelNew "
           "module (for a .cu kernel, one that calls it built as a PyTorch extension) and the task's reference, with a "
           "test and a benchmark."));
    parser.addHelpOption();
    parser.addPositionalArgument(u"session"_s, tr("The session file (*.kforge)."));
    const QCommandLineOption variantOpt(u"variant"_s, tr("The variant id, or 'best' (default)."), tr("id|best"), u"best"_s);
    const QCommandLineOption formatOpt(u"format"_s,
                                       tr("cmake, torch or into (default cmake; torch for a PyTorch task's variant)."),
                                       tr("format"));
    const QCommandLineOption outOpt(u"out"_s, tr("The folder to write (for 'into': the root of the CMake project)."),
                                    tr("dir"));
    const QCommandLineOption subdirOpt(u"subdir"_s,
                                       tr("For 'into': the folder inside the project (default kernels/<task>)."),
                                       tr("path"));
    const QCommandLineOption forceOpt(u"force"_s, tr("Overwrite files that differ from the export."));
    const QCommandLineOption licenseOpt(u"license-file"_s,
                                        tr("Put this text, commented, on top of every generated source file."), tr("file"));
    const QCommandLineOption dryRunOpt(u"dry-run"_s, tr("Show what would be written, write nothing."));
    parser.addOptions({variantOpt, formatOpt, outOpt, subdirOpt, forceOpt, licenseOpt, dryRunOpt});
    parser.process(args);

    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1 || !parser.isSet(outOpt)) {
        *error = tr("Usage: kforge-cli export <session.kforge> --variant <id|best> --format cmake|torch|into --out <dir> "
                    "[--subdir <path>] [--force] [--license-file <file>] [--dry-run]");
        return std::nullopt;
    }
    ExportArgs a;
    if (parser.isSet(formatOpt)) {
        a.format = kforge::exportFormatFromName(parser.value(formatOpt));
        if (!a.format) {
            *error = tr("kforge-cli export: unknown format '%1' (cmake, torch or into)").arg(parser.value(formatOpt));
            return std::nullopt;
        }
    }
    a.sessionPath = positional.front();
    a.variant = parser.value(variantOpt);
    a.outDir = parser.value(outOpt);
    if (parser.isSet(subdirOpt))
        a.subdir = parser.value(subdirOpt);
    if (parser.isSet(licenseOpt))
        a.licenseFile = parser.value(licenseOpt);
    a.force = parser.isSet(forceOpt);
    a.dryRun = parser.isSet(dryRunOpt);
    return a;
}

// The session opened and the variant asked for (an id, or the best) made into the export's input, with its id in
// `variantId`; empty with `error` set, the whole line to print, when there is none.
std::optional<kforge::ExportInput> ExportCommand::readVariant(kforge::SessionStore &store, const ExportArgs &a,
                                                              qint64 *variantId, QString *error)
{
    if (!QFileInfo(a.sessionPath).isFile()) {
        *error = tr("kforge-cli export: no session file %1").arg(a.sessionPath);
        return std::nullopt;
    }
    if (!store.open(a.sessionPath)) {
        *error = tr("kforge-cli export: %1: %2").arg(a.sessionPath, store.errorString());
        return std::nullopt;
    }
    *variantId = kforge::SessionExportSource::resolveVariant(store, a.variant, error);
    std::optional<kforge::ExportInput> input;
    if (*variantId != 0)
        input = kforge::SessionExportSource::build(store, *variantId, error);
    if (!input)
        *error = tr("kforge-cli export: %1").arg(*error);
    return input;
}

// The license text and, for 'into', the folder inside the project and the project's CMakeLists.txt; false with
// `error` set, the whole line to print, when either file cannot be read.
bool ExportCommand::readOptions(const ExportArgs &a, const kforge::ExportContext &ctx, kforge::ExportOptions &options,
                                QString &hostCMakeLists, QString *error)
{
    if (a.licenseFile) {
        QFile f(*a.licenseFile);
        if (!f.open(QIODevice::ReadOnly)) {
            *error = tr("kforge-cli export: cannot read the license file %1: %2").arg(f.fileName(), f.errorString());
            return false;
        }
        options.licenseText = QString::fromUtf8(f.readAll());
    }
    if (options.format == kforge::ExportFormat::Into) {
        options.intoSubdir = a.subdir.value_or(u"kernels/"_s + ctx.ns);
        QFile host(QDir(a.outDir).filePath(u"CMakeLists.txt"_s));
        if (!host.open(QIODevice::ReadOnly)) {
            *error = tr("kforge-cli export: %1 is not a CMake project (no CMakeLists.txt); 'into' adds to an existing one")
                         .arg(QDir::toNativeSeparators(a.outDir));
            return false;
        }
        hostCMakeLists = QString::fromUtf8(host.readAll());
    }
    return true;
}

// What would be written where: a line per file, new, identical or in conflict (and why).
void ExportCommand::printPlan(QTextStream &out, const kforge::ExportPlan &plan, qint64 variantId, const QString &task,
                              kforge::ExportFormat format)
{
    out << tr("Variant %1 of %2 as '%3' in %4:")
               .arg(variantId)
               .arg(task, kforge::exportFormatName(format), QDir::toNativeSeparators(plan.outDir()))
        << '\n';
    for (const auto &e : plan.entries()) {
        out << "  " << kforge::ExportPlan::stateName(e.state).leftJustified(10) << e.path;
        if (!e.reason.isEmpty())
            out << "  (" << e.reason << ')';
        out << '\n';
    }
    out.flush();
}

void ExportCommand::printConflicts(QTextStream &err, const kforge::ExportPlan &plan)
{
    err << tr("kforge-cli export: refusing to overwrite %n file(s) that differ; use --force to overwrite them:", nullptr,
              plan.count(kforge::ExportPlan::State::Conflict))
        << '\n';
    for (const auto &c : plan.conflicts())
        err << "  " << QDir::toNativeSeparators(c.absolutePath) << "  (" << c.reason << ")\n";
}

// The counts written and, for 'into', the lines to add to the project's CMakeLists.txt.
void ExportCommand::printWritten(QTextStream &out, const kforge::ExportPlan &plan, const kforge::ExportContext &ctx,
                                 const kforge::ExportOptions &options, const QString &outDir,
                                 const QString &hostCMakeLists)
{
    out << tr("%1 new, %2 identical, %3 overwritten.")
               .arg(plan.count(kforge::ExportPlan::State::New))
               .arg(plan.count(kforge::ExportPlan::State::Identical))
               .arg(plan.count(kforge::ExportPlan::State::Conflict))
        << '\n';
    if (options.format != kforge::ExportFormat::Into)
        return;
    out << '\n' << tr("Add to %1:").arg(QDir::toNativeSeparators(QDir(outDir).filePath(u"CMakeLists.txt"_s))) << '\n';
    for (const QString &line :
         kforge::CMakeExporter::intoLinesFor(ctx, QDir::cleanPath(options.intoSubdir), hostCMakeLists))
        out << "  " << line << '\n';
}

// Parse → the variant from the session → the export generated and planned against the folder, printed → written
// (unless it would overwrite what differs without --force, or --dry-run) → the counts, and the lines for 'into'.
int ExportCommand::run(const QStringList &args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    const auto fail = [&err](int status, const QString &message) {
        err << message << '\n';
        return status;
    };
    QString error;
    const std::optional<ExportArgs> a = parse(args, &error);
    if (!a)
        return fail(2, error);
    kforge::SessionStore store;
    qint64 variantId = 0;
    const std::optional<kforge::ExportInput> input = readVariant(store, *a, &variantId, &error);
    if (!input)
        return fail(1, error);
    kforge::ExportOptions options;
    // A torch task's variant, a ModelNew module or a .cu kernel, exports as torch only.
    options.format = a->format.value_or(input->taskKind == kforge::TaskKind::Torch ? kforge::ExportFormat::Torch
                                                                                   : kforge::ExportFormat::CMake);
    const kforge::ExportContext ctx(*input);
    QString hostCMakeLists;
    if (!readOptions(*a, ctx, options, hostCMakeLists, &error))
        return fail(1, error);

    const kforge::ExportBundle bundle = kforge::Exporter::generate(*input, options);
    if (!bundle.ok())
        return fail(1, tr("kforge-cli export: %1").arg(bundle.error));
    const kforge::ExportPlan plan = kforge::ExportPlan::make(a->outDir, bundle);
    printPlan(out, plan, variantId, store.task().name, options.format);
    if (plan.hasConflicts() && !a->force) {
        printConflicts(err, plan);
        return 1;
    }
    if (a->dryRun) {
        out << tr("Dry run: nothing written.") << '\n';
        return 0;
    }
    if (!plan.write(a->force, &error))
        return fail(1, tr("kforge-cli export: %1").arg(error));
    printWritten(out, plan, ctx, options, a->outDir, hostCMakeLists);
    return 0;
}

} // namespace

KFORGE_REGISTER_COMMAND(export, u"export"_s,
                        QCoreApplication::translate(
                            "kforge-cli", "Export a variant as a CMake project, a PyTorch extension, or into a project"),
                        ExportCommand::run)

} // namespace kforge::cli
