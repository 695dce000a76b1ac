#include "core/compile/kernelbuildflags.h"

using namespace Qt::StringLiterals;

namespace kforge {

QStringList KernelBuildFlags::defaults()
{
    return {u"-O3"_s, u"-lineinfo"_s};
}

QString KernelBuildFlags::arch(const QString &smArch)
{
    return u"-arch="_s + smArch;
}

QStringList KernelBuildFlags::sharedObject()
{
    return {u"-shared"_s, u"-Xcompiler"_s, u"-fPIC"_s};
}

QStringList KernelBuildFlags::sharedObjectChecks(const QString &toolkitLibraryDir)
{
    QStringList flags{u"-Xptxas"_s, u"-v"_s, u"-Xlinker"_s, u"--no-undefined"_s};
    if (!toolkitLibraryDir.isEmpty())
        flags << u"-Xlinker"_s << u"-rpath="_s + toolkitLibraryDir;
    return flags;
}

QStringList KernelBuildFlags::ptx()
{
    return {u"-ptx"_s};
}

QStringList KernelBuildFlags::sass()
{
    return {u"-cubin"_s, u"-Xptxas"_s, u"-v"_s};
}

} // namespace kforge
