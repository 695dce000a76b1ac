#pragma once
// Turns the nvcc flags a kernel was built with in KForge (task + variant) into what a generated build
// needs: compile options, libraries to link, and what is dropped because the generated build decides it
// (architecture, output, position-independent code, include and library paths of the measuring machine).
#include <QList>
#include <QString>
#include <QStringList>

namespace kforge {

class NvccFlags
{
public:
    struct Translated {
        QList<QStringList> compile; // option groups: {"--use_fast_math"}, {"-Xptxas", "-dlcm=ca"}
        QStringList libraries;      // without "-l": "cublas"
        QStringList ignored;        // as written, for the README
    };

    static Translated translate(const QStringList &flags);

    // "CUDA::cublas" for a CUDA toolkit library FindCUDAToolkit knows, the plain name otherwise.
    static QString cmakeLibrary(const QString &library);
    // One compile group as a single nvcc argument: "-Xptxas=-dlcm=ca", "-DFOO=1", "--use_fast_math".
    static QString joined(const QStringList &group);
    // One compile group as a quoted CMake argument that applies to CUDA sources only.
    static QString cmakeCudaOption(const QStringList &group);
    // A command line or flag list as shared documents show it, without the measuring machine's paths: the
    // compiler as `nvcc`, its toolkit's folder as `$CUDA_HOME`, KForge's ABI header folder as `include` (where
    // an export ships kforge/kernel.h), any other absolute path as `…/` and its last component.
    static QStringList portable(const QStringList &command);
};

} // namespace kforge
