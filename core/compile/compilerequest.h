#pragma once
// What to compile: one kernel source with its task's and variant's extra nvcc flags, for one GPU arch.
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace kforge {

enum class CompileOutput {
    SharedObject, // the .so a worker loads
    Ptx,          // PTX text
    Sass,         // SASS text (needs cuobjdump or nvdisasm)
};

struct CompileRequest {
    QString source;
    QString fileName = QStringLiteral("kernel.cu"); // the name nvcc sees, so diagnostics name it
    QStringList flags;                              // task nvcc_flags + variant flags
    QString arch;                                   // "sm_90"; empty: the Compiler's default arch
    CompileOutput output = CompileOutput::SharedObject;
    bool useCache = true;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::CompileRequest)
