#pragma once
// Turns what nvcc and the tools it drives print (EDG front end, gcc, ptxas, nvlink, ld) into Diagnostics.
#include "core/eval/diagnostic.h"

#include <QHash>
#include <QList>
#include <QString>

namespace kforge {

class DiagnosticParser
{
public:
    // sources maps a file name as nvcc prints it to its text. The EDG front end prints no column, only the
    // line with a caret under it; the column is taken from the caret when the printed line is the source's
    // line (it is not when a macro was expanded), else left 0.
    static QList<Diagnostic> parse(const QString &output, const QHash<QString, QString> &sources = {});
};

} // namespace kforge
