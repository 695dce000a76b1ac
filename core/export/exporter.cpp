#include "core/export/exporter.h"

#include "core/export/cmakeexporter.h"
#include "core/export/exportcontext.h"
#include "core/export/modelnewexporter.h"
#include "core/export/torchexporter.h"
#include "core/export/torchkernelexporter.h"
#include "core/task/sourcelanguage.h"

#include <QDir>

using namespace Qt::StringLiterals;

namespace kforge {

QString Exporter::checkIntoSubdir(const QString &subdir)
{
    const QString s = QDir::fromNativeSeparators(subdir.trimmed());
    if (s.isEmpty() || s == u"."_s)
        return tr("choose a subfolder of the project for the kernel (--subdir)");
    if (QDir::isAbsolutePath(s))
        return tr("the subfolder must be relative to the project: %1").arg(subdir);
    for (const QString &part : s.split(u'/', Qt::SkipEmptyParts))
        if (part == u".."_s)
            return tr("the subfolder must stay inside the project: %1").arg(subdir);
    return {};
}

ExportBundle Exporter::generate(const ExportInput &input, const ExportOptions &options)
{
    if (sourceLanguage(input.variantSource) == SourceLanguage::Python) {
        // A torch task's ModelNew module stays Python: the `torch` format ships it with a test and a benchmark.
        if (options.format == ExportFormat::Torch)
            return ModelNewExporter::generate(input, options);
        ExportBundle b;
        b.error = tr("variant %1 is a PyTorch ModelNew module (Python): it exports as 'torch' (the module, the task's "
                     "reference, a test and a benchmark); '%2' builds a .cu kernel")
                      .arg(input.variantId)
                      .arg(exportFormatName(options.format));
        return b;
    }
    if (input.taskKind == TaskKind::Torch) {
        // A torch task's .cu kernel exports as a PyTorch extension wrapped in a ModelNew module, tested against the
        // reference Model; the CMake formats test against a CUDA task's reference kernel, which it does not have.
        if (options.format == ExportFormat::Torch)
            return TorchKernelExporter::generate(input, options);
        ExportBundle b;
        b.error = tr("variant %1 is a .cu kernel of a PyTorch task: it exports as 'torch' (a PyTorch extension called by "
                     "a ModelNew module, the task's reference, a test and a benchmark); '%2' needs a CUDA task's "
                     "reference kernel")
                      .arg(input.variantId)
                      .arg(exportFormatName(options.format));
        return b;
    }
    const ExportContext ctx(input);
    switch (options.format) {
    case ExportFormat::CMake: return CMakeExporter::generate(ctx, options);
    case ExportFormat::Torch: return TorchExporter::generate(ctx, options);
    case ExportFormat::Into: {
        const QString problem = checkIntoSubdir(options.intoSubdir);
        if (!problem.isEmpty()) {
            ExportBundle b;
            b.error = problem;
            return b;
        }
        ExportOptions o = options;
        o.intoSubdir = QDir::cleanPath(QDir::fromNativeSeparators(options.intoSubdir.trimmed()));
        return CMakeExporter::generate(ctx, o);
    }
    }
    return {};
}

} // namespace kforge
