#pragma once
// What the kernel editor tests share: a CUDA kernel with every kind of word, diagnostics and resources
// as nvcc and ptxas report them, and small probes of a QsciScintilla.
#include "core/eval/diagnostic.h"
#include "core/eval/kernelresources.h"

#include <Qsci/qsciscintilla.h>

#include <QList>
#include <QString>

namespace kforge::editortest {

inline const QString kernel = QStringLiteral(
    "#include \"kforge/kernel.h\"\n"
    "// scale rows\n"
    "__global__ void __launch_bounds__(256) scale(const float *__restrict__ a, float4 *c, int n)\n"
    "{\n"
    "    __shared__ float tile[256];\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) atomicAdd(&tile[0], __shfl_down_sync(0xffffffff, a[i], 1));\n"
    "    __syncthreads();\n"
    "}\n"
    "KF_ENTRY(in, nin, out, nout, params, stream)\n"
    "{\n"
    "    dim3 grid(1);\n"
    "    half h;\n"
    "    return cudaSuccess;\n"
    "}\n");

// The style Scintilla gave the first character of the first occurrence of `word`.
inline int styleOf(QsciScintilla *editor, const QString &word)
{
    const QByteArray utf8 = editor->text().toUtf8();
    const qsizetype pos = utf8.indexOf(word.toUtf8());
    if (pos < 0)
        return -1;
    return int(editor->SendScintilla(QsciScintilla::SCI_GETSTYLEAT, static_cast<unsigned long>(pos)));
}

inline void lexAll(QsciScintilla *editor)
{
    editor->SendScintilla(QsciScintilla::SCI_COLOURISE, 0L, -1L);
}

inline Diagnostic diag(Diagnostic::Severity severity, const QString &file, int line, int column, const QString &message,
                       const QString &code = {}, const QString &tool = QStringLiteral("nvcc"))
{
    Diagnostic d;
    d.severity = severity;
    d.file = file;
    d.line = line;
    d.column = column;
    d.message = message;
    d.code = code;
    d.tool = tool;
    return d;
}

inline constexpr auto Error = Diagnostic::Severity::Error;
inline constexpr auto Warning = Diagnostic::Severity::Warning;
inline constexpr auto Note = Diagnostic::Severity::Note;
inline constexpr unsigned bit(int marker)
{
    return 1u << marker;
}

// The 0-based line the cursor of `e` is on.
inline int cursorLine(QsciScintilla *e)
{
    int line = 0, index = 0;
    e->getCursorPosition(&line, &index);
    return line;
}

inline int indicatorAt(QsciScintilla *e, int indicator, const QString &word)
{
    const qsizetype pos = e->text().toUtf8().indexOf(word.toUtf8());
    return int(e->SendScintilla(QsciScintilla::SCI_INDICATORVALUEAT, static_cast<unsigned long>(indicator), long(pos)));
}

inline QList<KernelResources> sampleResources()
{
    KernelResources gemm;
    gemm.mangledName = QStringLiteral("_Z4gemmILi128ELi64EEvPKfPfi");
    gemm.name = QStringLiteral("void gemm<128, 64>(float const*, float*, int)");
    gemm.arch = QStringLiteral("sm_90");
    gemm.registers = 128;
    gemm.sharedBytes = 16384;
    gemm.spillStoreBytes = 24;
    gemm.spillLoadBytes = 16;
    gemm.stackBytes = 40;
    KernelResources scale;
    scale.mangledName = QStringLiteral("_Z5scalePKfP6float4i");
    scale.name = QStringLiteral("scale(float const*, float4*, int)");
    scale.arch = QStringLiteral("sm_90");
    scale.registers = 32;
    scale.sharedBytes = 1024;
    return {gemm, scale};
}

inline QList<Diagnostic> sampleDiagnostics()
{
    return {diag(Error, QStringLiteral("candidate.cu"), 7, 27, QStringLiteral("identifier \"tile\" is undefined"),
                 QStringLiteral("20")),
            diag(Warning, QStringLiteral("/tmp/kforge-work/candidate.cu"), 6, 9,
                 QStringLiteral("variable \"i\" was set but never used\n          detected during instantiation of "
                                "\"scale<256>\""),
                 QStringLiteral("550-D")),
            diag(Warning, QStringLiteral("kforge/kernel.h"), 12, 0, QStringLiteral("unused parameter"), {},
                 QStringLiteral("gcc")),
            diag(Error, {}, 0, 0, QStringLiteral("Entry function 'scale' uses too much shared data (0x10000 bytes)"),
                 {}, QStringLiteral("ptxas"))};
}

} // namespace kforge::editortest
