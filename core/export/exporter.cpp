#include "core/export/exporter.h"

#include "core/export/cmakeexporter.h"
#include "core/export/exportcontext.h"
#include "core/export/torchexporter.h"
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
    // The exporters build a .cu kernel; a torch task's ModelNew module is Python and stays what it is.
    if (sourceLanguage(input.variantSource) == SourceLanguage::Python) {
        ExportBundle b;
        b.error = tr("the variant is a PyTorch ModelNew module (Python), and these export formats build a .cu "
                     "kernel; its source is in the session (kforge-cli report shows it)");
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
