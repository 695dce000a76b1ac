#pragma once
// Entry point of the exporters: an ExportInput and the chosen format in, the files of the export out.
// Writing them is ExportPlan's job, so callers can show conflicts before anything touches the disk.
#include "core/export/exportbundle.h"
#include "core/export/exportinput.h"

#include <QCoreApplication>

namespace kforge {

class Exporter
{
    Q_DECLARE_TR_FUNCTIONS(kforge::Exporter)

public:
    static ExportBundle generate(const ExportInput &input, const ExportOptions &options);
    // Empty when `subdir` is a usable relative folder for an `into` export, else why not.
    static QString checkIntoSubdir(const QString &subdir);
};

} // namespace kforge
