#include "core/compile/cudatoolkit.h"

#include "core/compile/executablefile.h"

#include "core/version.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace kforge {

QString CudaToolkit::locateNvcc(const QString &override)
{
    if (!override.isEmpty()) {
        // An override that names a folder means its nvcc.
        const QFileInfo fi(override);
        if (fi.isDir() && isExecutableFile(fi.absoluteFilePath() + u"/nvcc"_s))
            return fi.absoluteFilePath() + u"/nvcc"_s;
        if (isExecutableFile(override))
            return fi.absoluteFilePath();
        return {}; // an explicit setting that is wrong should not silently fall back to another toolkit
    }
    for (const char *var : {"CUDA_HOME", "CUDA_PATH"}) {
        const QString home = qEnvironmentVariable(var);
        if (!home.isEmpty() && isExecutableFile(home + u"/bin/nvcc"_s))
            return QDir::cleanPath(home + u"/bin/nvcc"_s);
    }
    if (isExecutableFile(u"/usr/local/cuda/bin/nvcc"_s))
        return u"/usr/local/cuda/bin/nvcc"_s;
    return QStandardPaths::findExecutable(u"nvcc"_s);
}

QString CudaToolkit::locateTool(const QString &name, const QString &nvccPath)
{
    if (!nvccPath.isEmpty()) {
        const QString sibling = QFileInfo(nvccPath).absolutePath() + u'/' + name;
        if (isExecutableFile(sibling))
            return sibling;
    }
    return QStandardPaths::findExecutable(name);
}

QString CudaToolkit::locateAbiIncludeDir()
{
    const QString appDir = QCoreApplication::applicationDirPath();
    QStringList candidates;
    // The same override kforge-worker honours (docs/worker-protocol.md).
    if (const QString env = qEnvironmentVariable("KFORGE_ABI_INCLUDE"); !env.isEmpty())
        candidates << env;
    if (!appDir.isEmpty())
        candidates << appDir + u"/../share/kforge/include"_s;
    candidates << QStringLiteral(KFORGE_RUNTIME_INCLUDE_DIR);
    for (const QString &dir : std::as_const(candidates))
        if (QFileInfo::exists(dir + u"/kforge/kernel.h"_s))
            return QDir::cleanPath(dir);
    return {};
}

QString CudaToolkit::libraryDir(const QString &nvccPath)
{
    if (nvccPath.isEmpty())
        return {};
    const QDir root(QFileInfo(nvccPath).absolutePath() + u"/.."_s);
    for (const char *sub : {"lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"}) {
        const QString dir = root.absoluteFilePath(QLatin1String(sub));
        if (QFileInfo::exists(dir + u"/libcudart.so"_s) || QFileInfo::exists(dir + u"/libcublas.so"_s))
            return QDir::cleanPath(dir);
    }
    return {};
}

QString CudaToolkit::missingNvccMessage()
{
    return QCoreApplication::translate(
        "CudaToolkit", "No CUDA compiler (nvcc) was found. Compiling kernels needs a CUDA toolkit on this machine: install "
                       "one, set CUDA_HOME, or set the path to nvcc in Settings. Without it, configure a GPU worker with a "
                       "toolkit (Settings → Workers).");
}

} // namespace kforge
