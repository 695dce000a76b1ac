#pragma once
// README.md of an export: how to build and use it, and the provenance of the kernel (task, variant and
// lineage, GPU, nvcc version and flags, measured times, speedup, percent of speed of light, seed, dates, KForge
// version); for a torch task's ModelNew module (read off the variant's source) how to test, time and use it, and
// the task's tensors from its task.json. Generated files are English regardless of the UI language: they live in
// the user's project.
#include "core/export/exportbundle.h"
#include "core/export/exportcontext.h"

#include <QList>
#include <QPair>

namespace kforge {

class ExportReadme
{
public:
    static QString render(const ExportContext &ctx, ExportFormat format, const QList<QPair<QString, QString>> &fileRoles,
                          const QStringList &cmakeLines, QString *error);

    // The provenance as Markdown table rows ("| Task | ... |"), shared with the session report.
    static QStringList provenanceRows(const ExportInput &input);
    // "3.21 ms", "412 µs" (formatDuration, core/eval/measureformat.h); "not recorded" when absent.
    static QString formatMs(std::optional<double> ms);
    static QString formatSpeedup(std::optional<double> speedup);
};

} // namespace kforge
