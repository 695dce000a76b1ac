#pragma once
// How the kernel editor words compiler diagnostics and kernel resources, and which diagnostics belong to
// the text of a tab (the rest are listed in the tab's info strip).
#include "core/eval/diagnostic.h"
#include "core/eval/kernelresources.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace kforge {

class DiagnosticFormat
{
    Q_DECLARE_TR_FUNCTIONS(kforge::DiagnosticFormat)
public:
    // "error", "warning", "note", translated.
    static QString severityName(Diagnostic::Severity severity);
    // "warning #177-D: variable "x" was declared but never referenced"; a multi-line message stays whole.
    static QString headline(const Diagnostic &d);
    // The headline after its location: "kforge/kernel.h:12:5: error: ...", "line 12, column 5: error: ..."
    // (no file), or "ptxas: error: ..." (no location).
    static QString withLocation(const Diagnostic &d);
    // "2 errors, 1 warning"; empty when there are neither.
    static QString summary(const QList<Diagnostic> &diagnostics);

    // The name nvcc sees for a source handed to the compiler as `name` (Compiler::sanitizedFileName()).
    static QString nvccFileName(const QString &name);
    // Whether `d` is located in the source compiled under `compileFileName` (compared by base name; an
    // empty diagnostic file counts). With no compile file name, any located diagnostic of a .cu file
    // counts (the compiler always names the source *.cu; headers are .h, .cuh, .hpp).
    static bool isInSource(const Diagnostic &d, const QString &compileFileName);

    // "scale" for "scale(float const*, float*, int)", "gemm<128, 64>" for "void gemm<128, 64>(float*)".
    static QString shortKernelName(const KernelResources &k);
    static QString bytes(qint64 bytes);
};

} // namespace kforge
