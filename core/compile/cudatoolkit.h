#pragma once
// Where the CUDA tools and the kernel ABI header are on this machine. Compiling needs nvcc; SASS needs
// cuobjdump or nvdisasm from the same toolkit.
#include <QString>

namespace kforge {

class CudaToolkit
{
public:
    // nvcc from, in order: `override` (Settings), $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin, PATH.
    // Empty when none is found.
    static QString locateNvcc(const QString &override = {});
    // A tool of the toolkit nvcc belongs to (same bin folder), else from PATH; empty when absent.
    static QString locateTool(const QString &name, const QString &nvccPath);
    // The folder that holds kforge/kernel.h: $KFORGE_ABI_INCLUDE, an installed copy next to the executable
    // (../share/kforge/include), else the source tree's core/runtime/include. Empty when none exists.
    static QString locateAbiIncludeDir();
    // The toolkit's library folder (for an rpath, so cuBLAS is found when the worker loads a kernel).
    static QString libraryDir(const QString &nvccPath);
    // The translated message shown when no nvcc is found.
    static QString missingNvccMessage();
};

} // namespace kforge
