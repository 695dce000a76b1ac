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

using namespace Qt::StringLiterals;

namespace kforge::cli {

namespace {

struct ExportCommand {
    Q_DECLARE_TR_FUNCTIONS(kforge::cli::ExportCommand)

public:
    static int run(const QStringList &args);
};

int ExportCommand::run(const QStringList &args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
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
        err << tr("Usage: kforge-cli export <session.kforge> --variant <id|best> --format cmake|torch|into --out <dir> "
                  "[--subdir <path>] [--force] [--license-file <file>] [--dry-run]")
            << '\n';
        return 2;
    }
    // Without --format: cmake, or torch for a torch task's variant (known once the session is read).
    std::optional<kforge::ExportFormat> format = parser.isSet(formatOpt)
                                                     ? kforge::exportFormatFromName(parser.value(formatOpt))
                                                     : kforge::ExportFormat::CMake;
    if (!format) {
        err << tr("kforge-cli export: unknown format '%1' (cmake, torch or into)").arg(parser.value(formatOpt)) << '\n';
        return 2;
    }
    const QString sessionPath = positional.front();
    if (!QFileInfo(sessionPath).isFile()) {
        err << tr("kforge-cli export: no session file %1").arg(sessionPath) << '\n';
        return 1;
    }
    kforge::SessionStore store;
    if (!store.open(sessionPath)) {
        err << tr("kforge-cli export: %1: %2").arg(sessionPath, store.errorString()) << '\n';
        return 1;
    }
    QString error;
    const qint64 variantId = kforge::SessionExportSource::resolveVariant(store, parser.value(variantOpt), &error);
    if (variantId == 0) {
        err << tr("kforge-cli export: %1").arg(error) << '\n';
        return 1;
    }
    const std::optional<kforge::ExportInput> input = kforge::SessionExportSource::build(store, variantId, &error);
    if (!input) {
        err << tr("kforge-cli export: %1").arg(error) << '\n';
        return 1;
    }

    // A torch task's variant, a ModelNew module or a .cu kernel, exports as torch only.
    if (!parser.isSet(formatOpt) && input->taskKind == kforge::TaskKind::Torch)
        format = kforge::ExportFormat::Torch;
    kforge::ExportOptions options;
    options.format = *format;
    if (parser.isSet(licenseOpt)) {
        QFile f(parser.value(licenseOpt));
        if (!f.open(QIODevice::ReadOnly)) {
            err << tr("kforge-cli export: cannot read the license file %1: %2").arg(f.fileName(), f.errorString()) << '\n';
            return 1;
        }
        options.licenseText = QString::fromUtf8(f.readAll());
    }
    const QString outDir = parser.value(outOpt);
    const kforge::ExportContext ctx(*input);
    QString hostCMakeLists;
    if (*format == kforge::ExportFormat::Into) {
        options.intoSubdir = parser.isSet(subdirOpt) ? parser.value(subdirOpt) : u"kernels/"_s + ctx.ns;
        QFile host(QDir(outDir).filePath(u"CMakeLists.txt"_s));
        if (!host.open(QIODevice::ReadOnly)) {
            err << tr("kforge-cli export: %1 is not a CMake project (no CMakeLists.txt); 'into' adds to an existing one")
                       .arg(QDir::toNativeSeparators(outDir))
                << '\n';
            return 1;
        }
        hostCMakeLists = QString::fromUtf8(host.readAll());
    }

    const kforge::ExportBundle bundle = kforge::Exporter::generate(*input, options);
    if (!bundle.ok()) {
        err << tr("kforge-cli export: %1").arg(bundle.error) << '\n';
        return 1;
    }
    const kforge::ExportPlan plan = kforge::ExportPlan::make(outDir, bundle);
    out << tr("Variant %1 of %2 as '%3' in %4:")
               .arg(variantId)
               .arg(store.task().name, kforge::exportFormatName(*format), QDir::toNativeSeparators(plan.outDir()))
        << '\n';
    for (const auto &e : plan.entries()) {
        out << "  " << kforge::ExportPlan::stateName(e.state).leftJustified(10) << e.path;
        if (!e.reason.isEmpty())
            out << "  (" << e.reason << ')';
        out << '\n';
    }
    out.flush();
    if (plan.hasConflicts() && !parser.isSet(forceOpt)) {
        err << tr("kforge-cli export: refusing to overwrite %n file(s) that differ; use --force to overwrite them:", nullptr,
                  plan.count(kforge::ExportPlan::State::Conflict))
            << '\n';
        for (const auto &c : plan.conflicts())
            err << "  " << QDir::toNativeSeparators(c.absolutePath) << "  (" << c.reason << ")\n";
        return 1;
    }
    if (parser.isSet(dryRunOpt)) {
        out << tr("Dry run: nothing written.") << '\n';
        return 0;
    }
    if (!plan.write(parser.isSet(forceOpt), &error)) {
        err << tr("kforge-cli export: %1").arg(error) << '\n';
        return 1;
    }
    out << tr("%1 new, %2 identical, %3 overwritten.")
               .arg(plan.count(kforge::ExportPlan::State::New))
               .arg(plan.count(kforge::ExportPlan::State::Identical))
               .arg(plan.count(kforge::ExportPlan::State::Conflict))
        << '\n';
    if (*format == kforge::ExportFormat::Into) {
        out << '\n'
            << tr("Add to %1:").arg(QDir::toNativeSeparators(QDir(outDir).filePath(u"CMakeLists.txt"_s))) << '\n';
        for (const QString &line :
             kforge::CMakeExporter::intoLinesFor(ctx, QDir::cleanPath(options.intoSubdir), hostCMakeLists))
            out << "  " << line << '\n';
    }
    return 0;
}

} // namespace

KFORGE_REGISTER_COMMAND(export, u"export"_s,
                        QCoreApplication::translate(
                            "kforge-cli", "Export a variant as a CMake project, a PyTorch extension, or into a project"),
                        ExportCommand::run)

} // namespace kforge::cli
