#pragma once
// The nvcc flags KForge builds a kernel with, decided here once: the compile service puts them around the task's
// and the variant's own flags, Settings → Compiler starts from defaults(), and the Qt-free kforge-worker's copy
// (core/runtime/worker/kernelflags.h, for --self-test) is checked against this one by tst_workerdefaults.
#include <QString>
#include <QStringList>

namespace kforge {

class KernelBuildFlags
{
public:
    // Optimisation and line info, first on the command line; the user may replace them (Settings → Compiler).
    static QStringList defaults();
    // "-arch=sm_90".
    static QString arch(const QString &smArch);
    // What makes the build a shared object the worker can dlopen.
    static QStringList sharedObject();
    // What the compile service adds to a shared object besides: per-kernel resources in the log (ptxas -v), a
    // missing symbol as a link error now rather than a dlopen failure in the worker later, and an rpath to the
    // toolkit's libraries (cuBLAS without LD_LIBRARY_PATH) when `toolkitLibraryDir` is known.
    static QStringList sharedObjectChecks(const QString &toolkitLibraryDir);
    static QStringList ptx();
    static QStringList sass(); // a cubin, with ptxas' resource usage
};

} // namespace kforge
