#include "core/export/exportinput.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace kforge {

QString ExportProvenance::cudaArchNumber() const
{
    static const QRegularExpression smArch(u"^(?:sm|compute)_(\\d+[a-z]?)$"_s);
    const auto m = smArch.match(arch.trimmed());
    if (m.hasMatch())
        return m.captured(1);
    if (ccMajor > 0)
        return QString::number(ccMajor * 10 + ccMinor);
    return u"90"_s;
}

QStringList ExportInput::buildFlags() const
{
    QStringList flags;
    for (const auto &f : task.nvccFlags)
        flags << QString::fromStdString(f);
    flags << variantNvccFlags;
    return flags;
}

} // namespace kforge
