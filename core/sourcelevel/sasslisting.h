#pragma once
// SASS as the CUDA disassemblers print it, parsed into functions and instructions. nvdisasm
// --print-line-info (-c, with or without -g) marks source lines with `//## File "...", line N` comments,
// with `inlined at` chains when the input has them; cuobjdump -sass has no lines and is the fallback.
#include "core/sourcelevel/sourcelocation.h"

#include <QList>
#include <QString>

namespace kforge {

struct SassInstruction {
    qint64 offset = 0;           // byte offset in the function, as printed ("/*01c0*/")
    QString predicate;           // "@!P0", or empty
    QString opcode;              // with modifiers: "LDG.E.CONSTANT"
    QString operands;            // "R12, desc[UR6][R12.64]"
    QList<SourceLocation> where; // innermost first; empty without line info

    QString baseOpcode() const; // "LDG"
    QString text() const;       // "@!P0 BRA `(.L_x_3)"
};

struct SassFunction {
    QString name; // mangled
    QList<SassInstruction> instructions;
    // The index of the instruction at `offset`, or -1.
    int indexOfOffset(qint64 offset) const;
};

struct SassListing {
    enum class Source { None, Nvdisasm, Cuobjdump };
    Source source = Source::None;
    QString arch; // "sm_90"
    QList<SassFunction> functions;

    bool hasLineInfo() const; // at least one instruction carries a source location
    const SassFunction *function(const QString &name) const;
    int instructionCount() const;

    // Either tool's output; which one is told by its shape (cuobjdump's "Function : " headers).
    static SassListing parse(const QString &text);
    static SassListing parseNvdisasm(const QString &text);
    static SassListing parseCuobjdump(const QString &text);
    // Concatenates listings (one per cubin); the first non-empty arch wins.
    void append(const SassListing &other);
};

} // namespace kforge
