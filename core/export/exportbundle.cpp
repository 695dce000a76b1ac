#include "core/export/exportbundle.h"

using namespace Qt::StringLiterals;

namespace kforge {

QString exportFormatName(ExportFormat f)
{
    switch (f) {
    case ExportFormat::CMake: return u"cmake"_s;
    case ExportFormat::Torch: return u"torch"_s;
    case ExportFormat::Into: return u"into"_s;
    }
    return u"cmake"_s;
}

std::optional<ExportFormat> exportFormatFromName(const QString &name)
{
    for (const auto f : {ExportFormat::CMake, ExportFormat::Torch, ExportFormat::Into})
        if (exportFormatName(f) == name.trimmed().toLower())
            return f;
    return std::nullopt;
}

const ExportFile *ExportBundle::find(const QString &path) const
{
    for (const auto &f : files)
        if (f.path == path)
            return &f;
    return nullptr;
}

void ExportBundle::failWith(const QString &message)
{
    if (message.isEmpty())
        return;
    files.clear();
    error = message;
}

} // namespace kforge
