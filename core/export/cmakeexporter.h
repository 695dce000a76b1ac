#pragma once
// The `cmake` and `into` exports: a CMake CUDA library (kernel + typed C++ front + shipped ABI header)
// with a test and a benchmark against the task's reference. `into` is the same project placed in a
// subfolder of the user's project (it works under add_subdirectory), plus the lines to add there.
#include "core/export/exportbundle.h"
#include "core/export/exportcontext.h"

#include <QCoreApplication>

namespace kforge {

class CMakeExporter
{
    Q_DECLARE_TR_FUNCTIONS(kforge::CMakeExporter)

public:
    // Files relative to the project root (cmake) or to the host project (into: under options.intoSubdir).
    static ExportBundle generate(const ExportContext &ctx, const ExportOptions &options);

    // The lines to add to the host project's CMakeLists.txt for an `into` export in `subdir`.
    static QStringList intoLines(const ExportContext &ctx, const QString &subdir);
    // intoLines() annotated against the host project's CMakeLists.txt text: a line already present is
    // marked as such; CUDA not enabled there yet gets the enable_language() line.
    static QStringList intoLinesFor(const ExportContext &ctx, const QString &subdir, const QString &hostCMakeLists);

    // Path -> one-line role of every file generate() makes, for the README's file list.
    static QList<QPair<QString, QString>> fileRoles(const ExportContext &ctx);
};

} // namespace kforge
