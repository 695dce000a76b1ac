#include "core/export/exporter.h"

#include "core/export/cmakeexporter.h"
#include "core/export/exportcontext.h"
#include "core/export/torchexporter.h"

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
