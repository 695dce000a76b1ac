#pragma once
// PTX text with its line table: every line of the module keeps the source location of the `.loc` in force
// there (with its `inlined_at` chain), and the `.entry`/`.func` bodies are known by line range, so a view
// can show the whole module and map lines both ways.
#include "core/sourcelevel/sourcelocation.h"

#include <QList>
#include <QString>

namespace kforge {

struct PtxLine {
    QString text;
    QList<SourceLocation> where; // innermost first; empty before the first .loc of a function, or "line 0"
    bool instruction = false;    // an instruction (not a directive, label, brace or comment)
};

struct PtxFunction {
    QString name;       // mangled
    bool entry = false; // .entry (a kernel) rather than .func
    int firstLine = 0;  // indexes into PtxListing::lines, inclusive
    int lastLine = 0;
};

struct PtxListing {
    QString target; // "sm_90"
    QList<PtxLine> lines;
    QList<PtxFunction> functions;

    bool hasLineInfo() const; // some line has a location (nvcc -lineinfo or -G)
    const PtxFunction *function(const QString &name) const;
    // The lines of `function` (or the whole module when empty) with a location in `baseName` at `line`.
    QList<int> linesFor(const QString &baseName, int line, const QString &function = {}) const;

    static PtxListing parse(const QString &text);
};

} // namespace kforge
